"""The `fsnb` command line: `main` is the console script (`fsnb = "fsnb.cli:main"`), and
`python -m fsnb.cli` runs it too.

- `app`: the parser, `main`, and the models, scan and parse commands;
- `explore`: `fsnb explore`; `index`: the index, search, sql and status commands;
- `history`: `fsnb history`, the saved runs;
- `fs` and `scratch`: the `fsnb fs ...` and `fsnb scratch ...` command groups;
- `mcp`: `fsnb mcp`, the folders served to an agent host (`fsnb.mcp`);
- `output`: what every command prints with (errors, frames, argument types);
- `console`: a run shown live in the terminal (rich); `terminal`: frames as terminal text.
"""

from fsnb.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
