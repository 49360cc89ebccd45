"""What `pip install fsnb` puts on disk; prints one JSON object.

fsnb's wheel is built from this tree (`pip wheel --no-deps .`) and installed into a fresh
venv under a temporary folder, as tests/test_install.py does: no extras, wheels only, and
byte-compiled as a plain `pip install` does (`--no-compile` leaves the `__pycache__`
folders out, as the test does: some 150 MB less). Then:

- packages: the distributions installed in the venv, as `pip list` counts them (pip
  itself and fsnb included);
- site_packages_mb: the size of the venv's site-packages, in MB (10^6 bytes, `du -sb`);
- largest: the ten largest distributions, [name, MB], each the sum of the files its
  RECORD lists.

`--extra NAME` (repeatable) measures `fsnb[NAME]` too, each in a venv of its own, under
"extras": {NAME: {packages, site_packages_mb, added: [[name, MB], ...]}} where `added`
lists the distributions that the extra brings beyond the default install.

    .venv/bin/python bench/install.py [--extra openai ...] [--no-compile] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
QUICK = ("--only-binary=:all:", "--disable-pip-version-check", "--quiet")
MB = 1e6

# Run by the venv's own Python: each distribution's size, from its RECORD.
SIZES = """
import importlib.metadata as md, json, os
sizes = {}
for d in md.distributions():
    total = 0
    for f in d.files or []:
        path = d.locate_file(f)
        if os.path.isfile(path):
            total += os.path.getsize(path)
    sizes[d.metadata["Name"].lower()] = total
print(json.dumps(sizes))
"""


def _env() -> dict[str, str]:
    drop = ("PYTHON", "VIRTUAL_ENV", "CONDA", "PIP_REQUIRE_VIRTUALENV")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _run(*command: str) -> str:
    run = subprocess.run(command, capture_output=True, text=True, env=_env(), check=False)
    if run.returncode:
        sys.exit(f"failed: {' '.join(command)}\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    return run.stdout


def build(into: Path) -> Path:
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", str(ROOT), "-w", str(into))
    [wheel] = into.glob("fsnb-*.whl")
    return wheel


def measure(
    wheel: Path, venv: Path, extra: str | None = None, *, compile_: bool = True
) -> dict[str, Any]:
    """Install `wheel` (with `extra`) into a new venv at `venv` and measure it."""
    _run(sys.executable, "-m", "venv", str(venv))
    python = str(venv / "bin" / "python")
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    flags = QUICK if compile_ else (*QUICK, "--no-compile")
    _run(python, "-m", "pip", "install", *flags, target)
    listed = json.loads(_run(python, "-m", "pip", "list", "--format", "json"))
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"))
    size = int(_run("du", "-sb", str(site).strip()).split()[0])
    sizes: dict[str, int] = json.loads(_run(python, "-c", SIZES))
    return {
        "packages": len(listed),
        "site_packages_mb": round(size / MB, 1),
        "sizes": sizes,
    }


def _top(sizes: dict[str, int], n: int = 10) -> list[list[Any]]:
    ranked = sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    return [[name, round(size / MB, 1)] for name, size in ranked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", action="append", default=[], help="an extra to measure too")
    parser.add_argument("--keep", type=Path, help="build the venvs here and keep them")
    parser.add_argument("--no-compile", action="store_true", help="no __pycache__ (as the test)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fsnb-install-") as tmp:
        base = args.keep or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        wheel = build(base / "dist")
        default = measure(wheel, base / "venv", compile_=not args.no_compile)
        out: dict[str, Any] = {
            "packages": default["packages"],
            "site_packages_mb": default["site_packages_mb"],
            "largest": _top(default["sizes"]),
            "compiled": not args.no_compile,
        }
        extras = {}
        for extra in args.extra:
            found = measure(wheel, base / f"venv-{extra}", extra, compile_=not args.no_compile)
            added = {k: v for k, v in found["sizes"].items() if k not in default["sizes"]}
            extras[extra] = {
                "packages": found["packages"],
                "site_packages_mb": found["site_packages_mb"],
                "added": _top(added, n=len(added)),
            }
        if extras:
            out["extras"] = extras
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
