"""Every tool, called with schema-valid but extreme arguments, answers with an outcome.

The arguments come from each tool's JSON schema, so a tool added later is covered too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import make_pdf

from fsnb.index.filters import FilterError, compile_filter
from fsnb.index.index import Index
from fsnb.tools import Registry, ToolOutcome, agent_registry
from fsnb.tools.registry import failure_line

REGISTRY = agent_registry(use_index=True)
LONG = "x" * 100_000
STRINGS = [
    "",
    " ",
    LONG,
    " ".join(f"w{i}" for i in range(15_000)),  # 100,000 characters of distinct words
    "📄🔥 émoji ✓",
    "مرحبا بالعالم עברית",  # right-to-left
    "\x00",
    "notes\x00.txt",
    "../../../etc/passwd",
    "/etc/passwd",
    "max_amount>1e400",
    "pages>1e400 and chars<=-1e400",
    "dates<=9999 and year in (1e400)",
    "pages in (1e400, nan, 99999999999999999999999999999)",
    "pages=" + "9" * 5000,
    "title~'" + LONG + "'",
    "'unterminated",
    "(([[{{**",
    "\\",
    "SELECT 1; DROP TABLE documents",
    '[{"a": 1e400}]',
]
INTEGERS = [0, -1, -(10**30), 10**30, 2**63, -(2**63) - 1]
NUMBERS = [0.0, -1.0, 1e308, -1e308, 5e-324]
BASE = {"string": "notes.txt", "integer": 1, "number": 1.0, "boolean": True, "array": []}


def _kind(prop: dict[str, Any]) -> str:
    """The JSON type of a property (the first non-null one of an anyOf); "enum" for a
    choice among fixed values, whose extremes are its values."""
    if "enum" in prop:
        return "enum"
    if "type" in prop:
        return prop["type"]
    types = [p.get("type") for p in prop.get("anyOf", []) if p.get("type") != "null"]
    return types[0] if types else "string"


def _extremes(kind: str) -> list[Any]:
    return {
        "string": STRINGS,
        "integer": INTEGERS,
        "number": NUMBERS,
        "boolean": [True, False],
        "array": [[], [LONG], ["\x00"]],
    }.get(kind, [None])


def argument_sets(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, arguments): each property at each extreme value, the others plain."""
    props: dict[str, dict[str, Any]] = schema["parameters"].get("properties", {})
    required = schema["parameters"].get("required", [])
    base = {name: BASE.get(_kind(props[name]), "") for name in required}
    yield "plain", base
    for name, prop in props.items():
        values = prop["enum"] if _kind(prop) == "enum" else _extremes(_kind(prop))
        for i, value in enumerate(values):
            yield f"{name}[{i}]", {**base, name: value}
    for i in range(len(STRINGS)):  # every string argument extreme at once
        every = {n: STRINGS[i] for n, p in props.items() if _kind(p) == "string"}
        if every:
            yield f"all-strings[{i}]", {**base, **every}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(root, db): a small folder indexed once for the module."""
    tmp = tmp_path_factory.mktemp("tool-arguments")
    root = tmp / "deal"
    make_pdf(root / "agreement.pdf", [["The Purchase Price is $9,000,000."]], title="Agreement")
    (root / "memos").mkdir()
    (root / "memos" / "risk.md").write_text("# Risk\n\nMegaCorp is 28% of revenue.\n")
    (root / "notes.txt").write_text("Meeting notes\nThe CFO is Dana Ito. 📄 مرحبا\n")
    (root / "payments.csv").write_text("payee,amount\nAcme,1000.00\nBeta,2000.50\n")
    db = tmp / "index.duckdb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FSNB_CACHE_DIR", str(tmp / "cache"))
        Index(db).add_folder(root, progress=False)
        yield str(root), str(db)


def test_the_generated_arguments_are_valid_for_their_schema():
    for schema in REGISTRY.schemas():
        tool = REGISTRY[schema["name"]]
        for label, arguments in argument_sets(schema):
            tool.validate(arguments)  # raises ToolError if the generator is wrong
            assert label


@pytest.mark.timeout(300)  # a hang bound for all of a tool's argument sets, not a speed check
@pytest.mark.parametrize("name", REGISTRY.names())
def test_every_tool_answers_extreme_arguments_with_an_outcome(name: str, indexed: tuple[str, str]):
    root, db = indexed
    schema = next(s for s in REGISTRY.schemas() if s["name"] == name)
    unexpected: list[str] = []
    for label, arguments in argument_sets(schema):
        outcome = REGISTRY.call(name, arguments, root=root, db=db)
        assert isinstance(outcome, ToolOutcome), f"{name}({label}) returned {outcome!r}"
        out = outcome.text
        assert outcome.ok != out.startswith(("error:", "access denied:")), (label, out[:300])
        if not outcome.ok:
            assert "\n" not in out, f"{name}({label}): a multi-line error: {out[:300]!r}"
            assert len(out) < 2_000, f"{name}({label}): a {len(out):,}-character error"
        if out.startswith(f"error: {name} failed:"):
            unexpected.append(f"{label}: {out}")
    assert not unexpected, f"{name} raised instead of answering:\n" + "\n".join(unexpected)


def test_an_unexpected_exception_is_one_line_for_the_model(tmp_path: Path):
    def explode(path: str, *, root: str) -> str:
        """Fails the way a tool bug would."""
        raise OverflowError(f"cannot convert\n{path} to float")

    def not_text(*, root: str) -> str:
        """Returns a number, not text."""
        return 42  # type: ignore[return-value]

    registry = Registry([explode, not_text])
    out = registry.call("explode", {"path": "x" * 1000}, root=str(tmp_path))
    assert not out.ok
    assert out.text.startswith("error: explode failed: OverflowError: cannot convert xxx")
    assert "\n" not in out.text and len(out.text) < 400
    assert registry.call("not_text", {}, root=str(tmp_path)) == ToolOutcome("42")
    assert failure_line("t", KeyError()) == "error: t failed: KeyError"
    not_a_dict = registry.call("explode", "not a dict", root=str(tmp_path))  # type: ignore[arg-type]
    assert not not_a_dict.ok
    assert not_a_dict.text.startswith("error: arguments for explode must be an object")


SCHEMA = {"amount": "number", "signed": "date", "tags": "list[string]"}


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("amount>1e400", "'amount': '1e400' is out of range"),
        ("amount<-1e400", "'amount': '-1e400' is out of range"),
        ("amount=" + "9" * 400, "is out of range"),
        ("amount=1e99999999999999999999", "is out of range"),
        ("amount in (1, 2e308)", "'amount': '2e308' is out of range"),
        ("amount>nan", "'nan' is not a number"),
        ("amount>inf", "'inf' is not a number"),
        ('amount=""', "'' is not a number"),
        ("amount=" + "1" * 100_000, "is out of range"),
        ("signed>=0000", "'signed' is a date field"),
        ("x" * 100_000 + "=1", "unknown filter field 'xxxxxxxx"),
    ],
)
def test_filter_values_out_of_range_are_filter_errors(expr: str, message: str):
    with pytest.raises(FilterError) as error:
        compile_filter(expr, SCHEMA)
    assert message in str(error.value)
    assert len(str(error.value)) < 300


def test_filter_values_at_the_edges_compile():
    assert compile_filter("amount>=1e-400", SCHEMA)[1][-1] == 0.0
    assert compile_filter("amount<=1.7e308", SCHEMA)[1][-1] == 1.7e308
    assert compile_filter("signed<=9999", SCHEMA)[1] == ['$."signed"', "9999-12-32"]
    assert compile_filter("signed>9999-12-31", SCHEMA)[1][1] == "9999-12-32"
    assert compile_filter("tags='📄 مرحبا \x00'", SCHEMA)[1][1] == "📄 مرحبا \x00"
    assert compile_filter("tags~''", SCHEMA)[1][1] == ""
