"""What fsnb imports is what `pip install fsnb` installs: every import in src/fsnb is declared.

The rule, for each `import x` / `from x import y` in src/fsnb (module level, or inside a
function, method or class), found with `ast`:

- Not checked: relative imports, fsnb itself, the standard library
  (`sys.stdlib_module_names`), and imports under `if TYPE_CHECKING:` (never run).
- Required: every other import names a module whose distribution is listed in
  pyproject.toml's `[project] dependencies`. A package that only arrives through another
  dependency does not count (numpy through pandas; httpx through google-genai 1.x, which
  3.x replaced with httpx2, so `--llm gemini` died on `import httpx` in a fresh install).
  An import inside a function is no exception: it fails just the same the first time a
  user takes that path, only later.
- Optional: an import inside the body of a `try:` with an `except ImportError` (or
  `ModuleNotFoundError`) handler may come from a distribution declared only in an optional
  extra other than `dev` (sentence-transformers in `local-embeddings`): the code has a
  fallback or a readable message for a user without the extra. A guarded import of a
  distribution declared nowhere (or only in `dev`) still fails.

A module maps to its distribution through `importlib.metadata.packages_distributions()`
of this environment. Where several distributions share a top-level name (the `google`
namespace: google-genai, google-auth, ...), the ones that ship the imported submodule
(`google/genai/`) decide. A module not installed here falls back to its own name
(`sentence_transformers` -> sentence-transformers). Requirement names are compared after
`canonicalize_name` (PyStemmer -> pystemmer; docling-slim provides `docling`).
"""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "fsnb"
GUARDS = frozenset({"ImportError", "ModuleNotFoundError"})


@dataclass(frozen=True)
class Imported:
    module: str  # the dotted name, with the imported name for `from x import y`: "google.genai"
    where: str  # path:line
    guarded: bool  # inside `try: ... except ImportError`


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = {k.id if isinstance(k, ast.Name) else getattr(k, "attr", None) for k in kinds if k}
    return bool(names & GUARDS)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def third_party_imports(source: str, where: str = "<source>") -> list[Imported]:
    """The imports of `source` that the rule checks (see the module docstring)."""
    found: list[Imported] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                visit(child, guarded)
            return
        if isinstance(node, ast.Try):
            inner = guarded or any(_catches_import_error(h) for h in node.handlers)
            for child in node.body:
                visit(child, inner)
            for child in [*node.handlers, *node.orelse, *node.finalbody]:
                visit(child, guarded)
            return
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            # `from google import genai`: the submodule may be what tells distributions apart.
            names = [f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*"]
            names = names or [node.module]
        for name in names:
            top = name.split(".")[0]
            if top != "fsnb" and top not in sys.stdlib_module_names:
                found.append(Imported(name, f"{where}:{node.lineno}", guarded))
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(ast.parse(source), guarded=False)
    return found


@cache
def _packages() -> dict[str, list[str]]:
    return metadata.packages_distributions()


@cache
def _ships(distribution: str, parts: tuple[str, ...]) -> bool:
    """Whether `distribution` installs the module `parts` (a package folder or a module file)."""
    files = metadata.distribution(distribution).files or []
    n = len(parts)
    return any(
        (len(f.parts) > n and tuple(f.parts[:n]) == parts)  # google/genai/...
        or (  # x/y.py, x/y.cpython-311-x86_64-linux-gnu.so
            len(f.parts) == n
            and tuple(f.parts[:-1]) == parts[:-1]
            and f.parts[-1].split(".")[0] == parts[-1]
        )
        for f in files
    )


def distributions(module: str) -> set[str]:
    """The canonical names of the distributions that may provide `module`."""
    parts = tuple(module.split("."))
    candidates = _packages().get(parts[0], [])
    if not candidates:  # not installed here: the import name is the best guess
        return {canonicalize_name(parts[0])}
    if len(candidates) > 1:  # a namespace package: the deepest level some candidate ships
        for depth in range(len(parts), 1, -1):
            shipping = [d for d in candidates if _ships(d, parts[:depth])]
            if shipping:
                candidates = shipping
                break
    return {canonicalize_name(d) for d in candidates}


def _names(requirements: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in requirements}


@cache
def declared() -> tuple[set[str], set[str]]:
    """(the `[project] dependencies`, the distributions of the optional extras but `dev`)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    optional = {n for extra, reqs in extras.items() if extra != "dev" for n in _names(reqs)}
    return _names(project.get("dependencies", [])), optional


def undeclared(imports: list[Imported]) -> list[str]:
    """One line for each distribution the rule refuses, with where it is imported."""
    required, optional = declared()
    refused: dict[str, list[Imported]] = {}
    for imported in imports:
        provided_by = distributions(imported.module)
        allowed = required | optional if imported.guarded else required
        if not provided_by & allowed:
            refused.setdefault(" or ".join(sorted(provided_by)), []).append(imported)
    return [
        f"{name}: imported as {', '.join(sorted({i.module for i in found}))}"
        f" at {', '.join(dict.fromkeys(i.where for i in found))}"
        + (" (guarded, but in no optional extra either)" if all(i.guarded for i in found) else "")
        for name, found in refused.items()
    ]


def source_imports() -> list[Imported]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        where = str(path.relative_to(ROOT))
        found += third_party_imports(path.read_text(encoding="utf-8"), where)
    return found


def test_every_import_of_fsnb_is_a_declared_dependency():
    imports = source_imports()
    assert len(imports) > 50, "the walk found too few imports: is src/fsnb where it was?"
    problems = undeclared(imports)
    assert not problems, (
        "src/fsnb imports packages that pyproject.toml's [project] dependencies do not list"
        " (a user's `pip install fsnb` may lack them):\n" + "\n".join(problems)
    )


def test_the_primary_backends_sdks_are_declared():
    required, _ = declared()
    assert {"google-genai", "openai", "numpy"} <= required
    assert distributions("google.genai") == {"google-genai"}  # not google-auth and the rest
    assert distributions("Stemmer") == {"pystemmer"}
    assert "docling-slim" in distributions("docling.document_converter")


def test_wordfreq_is_a_dev_tool_only():
    """fsnb reads its own English word list (fsnb/offline/data/english.txt); wordfreq, 58 MB
    of lists in 40 languages, only writes and checks it (bench/make_wordlist.py, the tests),
    so it is in `dev` and an import of it in src/fsnb is refused by the rule above."""
    required, optional = declared()
    assert "wordfreq" not in required | optional
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "wordfreq" in _names(project["optional-dependencies"]["dev"])
    assert undeclared(third_party_imports("def f():\n    from wordfreq import zipf_frequency\n"))


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("import httpx\n", ["httpx"]),
        ("def f():\n    import httpx\n", ["httpx"]),  # lazy, still required
        ("from httpx import Client\n", ["httpx.Client"]),
        ("try:\n    import httpx\nexcept ImportError:\n    httpx = None\n", ["httpx"]),
        ("try:\n    import httpx\nexcept ValueError:\n    pass\n", ["httpx"]),
        ("try:\n    import sentence_transformers\nexcept ImportError:\n    pass\n", []),
        (
            "def f():\n    from sentence_transformers import SentenceTransformer\n",
            ["sentence_transformers.SentenceTransformer"],
        ),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import httpx\n", []),
        ("from google import genai\nimport pandas as pd\nimport numpy\n", []),
        ("import json, os.path\nfrom fsnb.llm import get_llm\nfrom . import x\n", []),
    ],
)
def test_the_rule(source: str, flagged: list[str]):
    """The checker itself: `import httpx` anywhere but under TYPE_CHECKING is refused."""
    problems = undeclared(third_party_imports(source))
    assert len(problems) == len(flagged), problems
    for problem, name in zip(problems, flagged, strict=True):
        assert f"imported as {name} at <source>:" in problem
