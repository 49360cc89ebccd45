"""Every registered tool, called with plausible schema-valid arguments, returns an outcome.

The arguments come from each tool's JSON schema (pydantic-ai's `TestModel(call_tools="all")`
does the same), so a tool added later is covered too, and a signature that disagrees with
its docstring or its schema shows up here. The folder is an indexed copy of a sample deal.
"""

from __future__ import annotations

import json
import shutil
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest

import fsnb.tools
from fsnb.agent import Action, Explorer
from fsnb.agent.thread import outcome_from_dict, outcome_to_dict
from fsnb.index.index import Index
from fsnb.llm import ReplayLLM
from fsnb.llm.masked import mask_outcome
from fsnb.tools import TOOLS, ToolContext, ToolOutcome, agent_registry
from fsnb.tools.payloads import PageRead, Scanned
from fsnb.tools.registry import CONTEXT_PARAMS, _docstring_parts

REGISTRY = agent_registry(use_index=True)
SAMPLE = Path(__file__).parents[1] / "data" / "test_acquisition"
DOCUMENT = "01_acquisition_agreement.pdf"
NOTES = "closing_notes.txt"  # the sample has PDFs only: a text file for `read`
FEES = "fees.csv"  # and a table for `extract_tables` and `load_table`
#: Plausible values by parameter name (then by tool and name), for the sample deal.
BY_NAME: dict[str, Any] = {
    "path": DOCUMENT,
    "folder": ".",
    "pattern": "*.pdf",
    "query": "purchase price adjustment",
    "filter": "format=pdf",
    "name": "prices",
    "table": "prices",
    "columns": "item VARCHAR, amount DOUBLE, source_file VARCHAR",
    "rows": f'[{{"item": "purchase price", "amount": 9000000, "source_file": "{DOCUMENT}"}}]',
    "sql": "SELECT item, sum(amount) AS total FROM prices GROUP BY item",
}
BY_TOOL: dict[tuple[str, str], Any] = {
    ("grep", "pattern"): "purchase price",
    ("read", "path"): NOTES,
    ("browse_directory", "path"): ".",
    ("tree", "path"): ".",
    ("disk_usage", "path"): ".",
    ("recent_files", "path"): ".",
    ("find_duplicates", "path"): ".",
    ("compare_files", "path1"): DOCUMENT,
    ("compare_files", "path2"): NOTES,
    ("extract_tables", "path"): FEES,
    ("load_table", "path"): FEES,
    ("load_table", "table"): 0,
    ("load_table", "name"): "fees",
    ("extract_rows", "paths"): NOTES,
}
#: Tools that ask the run's LLM: without one (as here) they say so in one line.
NEEDS_LLM = {"extract_rows": "extract_rows needs an LLM"}
BY_TYPE: dict[str, Any] = {
    "string": "purchase price",
    "integer": 1,
    "number": 1.0,
    "boolean": True,
    "array": [],
}


def _kind(prop: dict[str, Any]) -> str:
    """The JSON type of a property (the first non-null one of an anyOf)."""
    if "type" in prop:
        return prop["type"]
    types = [p.get("type") for p in prop.get("anyOf", []) if p.get("type") != "null"]
    return types[0] if types else "string"


def plausible(schema: dict[str, Any], *, optional: bool) -> dict[str, Any]:
    """Arguments for the required parameters (and with `optional` every one): a value
    known for the name, else the schema's default, else a value of the right type."""
    params = schema["parameters"]
    required = set(params.get("required", []))
    arguments = {}
    for name, prop in params.get("properties", {}).items():
        if name not in required and not optional:
            continue
        known = BY_TOOL.get((schema["name"], name), BY_NAME.get(name))
        if known is None:
            known = prop.get("default", BY_TYPE.get(_kind(prop)))
        arguments[name] = known
    return arguments


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(root, db): a copy of the sample deal, a text note and a CSV, indexed once for the module."""
    tmp = tmp_path_factory.mktemp("every-tool")
    root = tmp / "deal"
    shutil.copytree(SAMPLE, root)
    lines = [f"Closing call {n}: the purchase price adjustment is still open." for n in range(5)]
    (root / NOTES).write_text("\n".join(lines) + "\n")
    (root / FEES).write_text('Fee,Amount\nLegal,"$12,500.00"\nEscrow,"$1,200.00"\n')
    db = tmp / "index.duckdb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FSNB_CACHE_DIR", str(tmp / "cache"))
        Index(db).add_folder(root, progress=False)
        yield str(root), str(db)


def _passes() -> Iterator[tuple[str, dict[str, Any]]]:
    """(tool, arguments): every tool in the registry's order with every parameter, then
    again with the required ones only (so the scratchpad table is made before it is used,
    and made again after the first pass drops it)."""
    for optional in (True, False):
        for schema in REGISTRY.schemas():
            yield schema["name"], plausible(schema, optional=optional)


def test_the_schema_matches_the_signature_and_the_docstring():
    for name in REGISTRY.names():
        tool = REGISTRY[name]
        schema = tool.schema()
        props = schema["parameters"].get("properties", {})
        _, documented = _docstring_parts(tool.function)
        assert schema["description"], f"{name} has no description"
        assert set(documented) <= set(props), f"{name} documents {set(documented) - set(props)}"
        for param, prop in props.items():
            assert prop.get("description"), f"{name}({param}) is not documented"
        assert not CONTEXT_PARAMS & set(props), f"{name} shows its context to the LLM"
        assert tool.context == {"ctx"}, f"{name} takes {sorted(tool.context)}, not ctx"


def test_the_generated_arguments_are_valid_for_their_schema():
    for name, arguments in _passes():
        checked = REGISTRY[name].validate(arguments)  # ToolError if the generator is wrong
        assert checked.items() >= arguments.items(), name


def test_every_registered_tool_returns_an_outcome(indexed: tuple[str, str]):
    root, db = indexed
    ctx = ToolContext(root, db)
    called, failures = set(), []
    for name, arguments in _passes():
        outcome = REGISTRY.call(name, arguments, ctx=ctx)
        assert isinstance(outcome, ToolOutcome), f"{name} returned {outcome!r}"
        assert outcome.text.strip(), f"{name}({arguments}) returned no text"
        declared = REGISTRY[name].payload
        if outcome.ok:  # its declared payload (`-> ToolOutcome[P]`), or none for plain text
            wanted = type(None) if declared is None else declared
            assert isinstance(outcome.payload, wanted), f"{name}: {outcome.payload!r}"
        else:  # a failure carries its declared payload or none
            assert outcome.payload is None or isinstance(outcome.payload, declared), name
        if not outcome.ok:
            assert "\n" not in outcome.text, f"{name}: a multi-line error {outcome.text!r}"
            if name in NEEDS_LLM and NEEDS_LLM[name] in outcome.text:
                called.add(name)
                continue
            failures.append(f"{name}({arguments}): {outcome.text}")
        called.add(name)
    assert called == set(REGISTRY.names())
    assert not failures, "plausible arguments failed:\n" + "\n".join(failures)


def test_the_outcomes_carry_typed_data(indexed: tuple[str, str]):
    root, db = indexed
    ctx = ToolContext(root, db)
    scan = REGISTRY.call("scan_folder", {}, ctx=ctx)
    assert scan.payload == Scanned(files=12, previewed=12, failed=0, listed=ANY)
    assert len(scan.payload.listed) == 12 and all(
        f"=== {p} — " in scan.text for p in scan.payload.listed
    )
    hits = REGISTRY.call("semantic_search", {"query": "purchase price"}, ctx=ctx).data["hits"]
    assert hits and {tuple(hit) for hit in hits} == {("path", "page", "score")}
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    for name in ("parse_file", "read", "get_document"):
        path = NOTES if name == "read" else DOCUMENT
        shown = REGISTRY.call(name, {"path": path, "offset": 5, "limit": 100}, ctx=ctx)
        assert shown.payload == PageRead(path=path, offset=5, end=105, total=ANY, pages=ANY)
        assert shown.data["total"] > 105, name
        marks = [f"[page {p}]" for p in shown.payload.pages]  # the pages its text marks
        assert [line for line in shown.text.splitlines() if line in marks] == marks, name


def test_every_payload_round_trips_through_a_saved_run_and_the_mask(indexed: tuple[str, str]):
    """A saved turn keeps the payload's data and type tag and gives the payload back; a run
    saved before the tags (data alone) gets it back from the data's keys; the masked
    outcome a model sees keeps its payload's type."""
    root, db = indexed
    ctx = ToolContext(root, db)
    for name, arguments in _passes():
        outcome = REGISTRY.call(name, arguments, ctx=ctx)
        if outcome.payload is None:
            continue
        saved = json.loads(json.dumps(outcome_to_dict(outcome), default=str))
        assert saved["payload"] == type(outcome.payload).__name__, name
        assert outcome_from_dict(saved) == outcome, name
        del saved["payload"]
        assert outcome_from_dict(saved) == outcome, name  # the same type, from the keys
        masked, _ = mask_outcome(outcome)
        assert type(masked.payload) is type(outcome.payload), name
        assert masked.data.keys() == outcome.data.keys(), name


def test_every_tool_declares_its_payload_and_traits():
    """A tool's payload type comes from its annotation, its traits from its decorator: the
    loop, the receipts, the offline strategy and the views read these, not tool names."""
    for name, tool in TOOLS.items():
        assert tool.phase in ("scan", "search", "read"), name
        assert tool.reads is None or tool.reads in tool.model.model_fields, name
        assert tool.payload is None or isinstance(tool.payload, type | types.UnionType), name
    reading = {name for name, tool in TOOLS.items() if tool.reads}
    assert reading == {"parse_file", "read", "preview_file", "get_document"}
    assert {n for n, t in TOOLS.items() if t.parses} == {"parse_file", "get_document"}
    assert TOOLS["preview_file"].phase == TOOLS["scan_folder"].phase == "scan"
    assert TOOLS["semantic_search"].phase == "search"


def test_every_registered_tool_works_by_hand_with_root(indexed: tuple[str, str]):
    root, db = indexed
    for name, arguments in _passes():
        tool = getattr(fsnb.tools, name)  # every agent tool is importable by its name
        text = tool(**arguments, root=root, db=db)
        assert isinstance(text, str) and text.strip(), name
        if name in NEEDS_LLM:
            assert NEEDS_LLM[name] in text, f"{name}: {text}"
            continue
        assert not text.startswith(("error:", "access denied:")), f"{name}: {text}"
    scan = fsnb.tools.scan_folder(root=root)
    assert scan == REGISTRY.call("scan_folder", {}, root=root).text
    assert scan.startswith("Scanned 12 files under .: 12 documents previewed")


def test_the_loop_hands_the_outcomes_on_in_the_turns(indexed: tuple[str, str]):
    root, db = indexed
    llm = ReplayLLM(
        [
            Action.call("scan_folder", "preview everything"),
            Action.call("parse_file", "read it", path=DOCUMENT),
            Action.call("read", "not there", path="nope.txt"),
            Action(kind="go_deeper", directory="nowhere", reason="look around"),
            Action.stop("done", "done"),
        ]
    )
    result = Explorer(root, llm, db=db, max_result_chars=1_000).run("What is the price?")
    assert result.error is None and result.usage.documents_scanned == 12
    scan, parsed, missing, nowhere = llm.history[-1].turns
    assert scan.ok and scan.outcome is not None and scan.outcome.data["previewed"] == 12
    assert parsed.outcome is not None and parsed.outcome.data["path"] == DOCUMENT
    assert parsed.cut > 0 and f"{parsed.cut:,} more characters not shown" in parsed.result
    assert len(parsed.outcome.text) - parsed.cut == parsed.result.index("\n[result cut")
    assert not missing.ok and missing.result.startswith("error: nope.txt does not exist")
    assert not nowhere.ok and missing.cut == nowhere.cut == 0
