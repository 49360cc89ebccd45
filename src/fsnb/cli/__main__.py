"""`python -m fsnb.cli ...`: the `fsnb` command."""

from fsnb.cli.app import main

if __name__ == "__main__":  # walk_packages imports this module too: run only as a script
    raise SystemExit(main())
