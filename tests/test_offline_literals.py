"""Every number of the offline answerer is named and explained (issue 28).

In every `src/fsnb/offline/*.py`, a numeric literal (an int or float constant, read with
`ast`; a unary minus counts as part of it, `True`/`False` do not count) is explained when:

- it is 0, 1, -1 or 2 (or 0.0, 1.0, -1.0, 2.0): counting, halving, "none", "the other";
- it sits in the value of a documented constant: a module-level assignment to an
  UPPER_CASE name (a leading underscore allowed) whose line just above is a `#:` comment
  (the project's convention) or which is followed by its docstring;
- it is a field default of the `Tuning` dataclass in `tuning.py`, each field followed by
  its docstring.

Nothing else is: not a regex group or tuple index (`m.group(3)`, `row[3]`), not a default
argument, not a threshold inside a function. The fix is a name: a documented constant
(saying "hand-set" for a tuned number), or a field of `Tuning`. The fitted weights live in
`offline/data/weights.json`, which is not Python and out of this test's scope.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

OFFLINE = Path(__file__).resolve().parent.parent / "src" / "fsnb" / "offline"

#: The numbers that explain themselves.
PLAIN = frozenset({0, 1, -1, 2})
#: A constant's name: UPPER_CASE, a leading underscore allowed.
CONSTANT_NAME = re.compile(r"_?[A-Z][A-Z0-9_]*")


def _docstring(node: ast.stmt | None) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _documented(body: list[ast.stmt], lines: list[str], *, names: bool) -> list[ast.AST]:
    """The values assigned in `body` under a `#:` comment or above a docstring (to
    UPPER_CASE names only, with `names`)."""
    out: list[ast.AST] = []
    for node, after in zip(body, [*body[1:], None], strict=True):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        named = all(
            isinstance(t, ast.Name) and CONSTANT_NAME.fullmatch(t.id) is not None for t in targets
        )
        above = lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
        if (named or not names) and (above.startswith("#:") or _docstring(after)):
            out.append(node.value)
    return out


def _tuning(tree: ast.Module) -> list[ast.stmt]:
    """The statements of the `Tuning` dataclass's body."""
    classes = [top for top in tree.body if isinstance(top, ast.ClassDef)]
    return [s for top in classes if top.name == "Tuning" for s in top.body]


def _numbers(tree: ast.AST) -> list[tuple[ast.AST, int | float]]:
    """Each numeric literal in `tree`, with a unary minus folded in: (node, value)."""
    signed = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
        ):
            signed[id(node.operand)] = node
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
            continue
        if not isinstance(node.value, int | float | complex):
            continue
        if id(node) in signed:
            out.append((signed[id(node)], -node.value))
        else:
            out.append((node, node.value))
    return out


def unexplained(path: Path) -> list[str]:
    """`file:line: literal | the line's text` for each unexplained number in `path`."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    explained: set[int] = set()
    roots = _documented(tree.body, lines, names=True)
    if path.name == "tuning.py":
        roots += _documented(_tuning(tree), lines, names=False)
    for root in roots:
        explained.update(id(node) for node in ast.walk(root))
    return [
        f"{path.name}:{node.lineno}: {ast.unparse(node)} | {lines[node.lineno - 1].strip()}"
        for node, value in sorted(_numbers(tree), key=lambda n: (n[0].lineno, n[0].col_offset))
        if value not in PLAIN and id(node) not in explained
    ]


def test_every_number_in_offline_is_explained():
    found = [site for path in sorted(OFFLINE.glob("*.py")) for site in unexplained(path)]
    assert not found, (
        f"{len(found)} unexplained numeric literal(s) in src/fsnb/offline/; give each a "
        "name: a module-level UPPER_CASE constant under a `#:` comment saying what it is "
        "(and 'hand-set' for a tuned number), or a field of `Tuning` with its docstring:\n"
        + "\n".join(found)
    )


def test_the_rule_catches_what_it_should(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "#: Documented.\nLIMIT = 5\nOTHER = 6\n#: Documented, but lower case.\nlimit = 7\n"
        'SIZE = 9\n"""Documented below."""\n'
        "def f(m, x=8):\n    return m.group(3) + x * 2 - 1 + -1 + -2 + 0.5 + 1.0\n",
        encoding="utf-8",
    )
    flagged = [site.split(" | ")[0] for site in unexplained(sample)]
    assert flagged == [
        "sample.py:3: 6",
        "sample.py:5: 7",
        "sample.py:8: 8",
        "sample.py:9: 3",
        "sample.py:9: -2",
        "sample.py:9: 0.5",
    ]
