"""docs/architecture.md stays true to the code.

- Its module map (a Markdown table under the heading "Module map", one row per package or
  top-level module, the dotted name in backticks in the first column) names every package
  of src/fsnb (a folder holding Python files, at any depth) and every top-level module, and
  nothing that is not there; a file a package's row names (`chat.py`) is in that package.
- Every path it names in backticks (`src/fsnb/agent/spec.py`, `tools/payloads.py`,
  `tests/test_install.py`) exists.
- Every row of its invariants table (under the heading "Invariants") names at least one
  test, and every test it names (`tests/test_x.py`, `tests/test_x.py::test_y`) exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "src" / "fsnb"

#: A dotted module name in backticks, alone in a table cell.
_MODULE_CELL = re.compile(r"^`(fsnb(?:\.\w+)*)`$")
#: Inline code that is a path: word characters, dots and dashes, with a slash.
_PATH = re.compile(r"\w[\w.-]*/[\w./-]*")
#: Inline code that names a test: a file under tests/, optionally `::` a test function.
_TEST = re.compile(r"(tests/[\w./-]+)(?:::(\w+))?")
#: Path prefixes read from the repository root; any other path is inside src/fsnb.
_FROM_ROOT = ("src/", "tests/", "docs/", "js/", "bench/", "data/", "notebooks/")


def package_tree() -> set[str]:
    """`fsnb`, each package (a folder of src/fsnb holding Python files, and the folders
    above it) and each top-level module, as dotted names."""
    names = {"fsnb"}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).parts
        if "__pycache__" in parts:
            continue
        if len(parts) == 1:
            if path.stem != "__init__":
                names.add(f"fsnb.{path.stem}")
            continue
        folders = parts[:-1]
        names.update("fsnb." + ".".join(folders[:n]) for n in range(1, len(folders) + 1))
    return names


def inline_code(text: str) -> list[str]:
    """The `inline code` spans of Markdown `text`, fenced code blocks left out."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.findall(r"`([^`\n]+)`", prose)


def paths(text: str) -> set[str]:
    """The paths `text` names in inline code (a test reference counts by its file)."""
    return {
        match[1] if (match := _TEST.fullmatch(code)) else code
        for code in inline_code(text)
        if _TEST.fullmatch(code) or _PATH.fullmatch(code)
    }


def named_tests(text: str) -> list[tuple[str, str | None]]:
    """(file, test function or None) for each test `text` names in inline code."""
    return [(m[1], m[2]) for code in inline_code(text) if (m := _TEST.fullmatch(code))]


def section(title: str) -> str:
    """The text under the `## ` heading that contains `title`, up to the next one."""
    text = DOC.read_text(encoding="utf-8")
    for block in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading, _, body = block.partition("\n")
        if title.lower() in heading.lower():
            return body
    msg = f"{DOC.name} has no section titled {title!r}"
    raise AssertionError(msg)


def table_rows(text: str) -> list[list[str]]:
    """The cells of each Markdown table row in `text`, header and rule left out."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if all(set(cell) <= set("-: ") for cell in cells):
            continue  # the rule under the header
        rows.append(cells)
    return rows[1:] if rows else rows  # the header is the first row


def module_map() -> dict[str, str]:
    """The module map: dotted name -> the row's description."""
    mapped = {}
    for cells in table_rows(section("Module map")):
        match = _MODULE_CELL.match(cells[0])
        assert match, f"a module map row does not start with a `fsnb...` name: {cells[0]!r}"
        assert match[1] not in mapped, f"{match[1]} is in the module map twice"
        mapped[match[1]] = " | ".join(cells[1:])
    return mapped


def test_the_module_map_names_every_package_and_top_level_module():
    mapped, there = set(module_map()), package_tree()
    assert not there - mapped, f"add to the module map in {DOC.name}: {sorted(there - mapped)}"
    assert not mapped - there, f"not in src/fsnb, drop from {DOC.name}: {sorted(mapped - there)}"


def test_the_files_a_package_row_names_are_in_that_package():
    missing = []
    for name, description in module_map().items():
        folder = PACKAGE.joinpath(*name.split(".")[1:])
        if not folder.is_dir():
            continue  # a top-level module
        missing += [
            f"{name}: {file}"
            for file in inline_code(description)
            if re.fullmatch(r"\w+\.py", file)
            if not (folder / file).is_file()
        ]
    assert not missing, f"{DOC.name} names modules that are not there: {missing}"


def test_every_path_the_page_names_exists():
    named = paths(DOC.read_text(encoding="utf-8"))
    missing = [
        path
        for path in sorted(named)
        if not (ROOT / path if path.startswith(_FROM_ROOT) else PACKAGE / path).exists()
    ]
    assert named, f"{DOC.name} names no paths: the pattern is wrong"
    assert not missing, f"{DOC.name} names paths that are not there: {missing}"


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_invariant_names_tests_that_exist():
    rows = table_rows(section("Invariants"))
    assert rows, f"{DOC.name} has no invariants table"
    problems = []
    for cells in rows:
        named = named_tests(" ".join(cells[1:]))
        if not named:
            problems.append(f"no test named for: {cells[0]}")
        for file, function in named:
            path = ROOT / file
            if not path.exists():
                problems.append(f"no such test file: {file}")
            elif function and function not in _test_functions(path):
                problems.append(f"no test {function} in {file}")
    assert not problems, "\n".join(problems)


def test_the_rules_read_a_table_and_the_tree():
    """The parsing the rules above rely on, on a small table of their own."""
    table = "| Module | What |\n| --- | --- |\n| `fsnb.a` | one |\n| `fsnb.b.c` | `x.py` |\n"
    assert table_rows(table) == [["`fsnb.a`", "one"], ["`fsnb.b.c`", "`x.py`"]]
    assert {"fsnb", "fsnb.agent", "fsnb.errors"} <= package_tree()
    assert "fsnb.__init__" not in package_tree() and "fsnb.static" not in package_tree()
    line = "`tests/a.py::test_b`, `tests/netguard/`, `fsnb.backends`, `A`/`B`, `llm/chat.py`"
    assert named_tests(line) == [("tests/a.py", "test_b"), ("tests/netguard/", None)]
    assert paths(line + "\n```\n`src/x.py`\n```\n") == {
        "tests/a.py",
        "tests/netguard/",
        "llm/chat.py",
    }
