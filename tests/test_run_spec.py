"""One run spec and lifecycle: `RunSpec` from the CLI's and the magics' arguments, the
backend id read once (a follow-up keeps its thread's backend, model and server), recording
as an observer the front ends add, and a cancelled or timed-out run stopping a long tool
between documents (`ToolContext.check`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import fsnb
from fsnb.agent import Action, ExplorationResult, Explorer
from fsnb.agent import events as ev
from fsnb.agent.spec import Backend, RecordRun, RunSpec, recording
from fsnb.agent.usage import Usage
from fsnb.cli import build_parser
from fsnb.db.scratchpad import Scratchpad
from fsnb.errors import Cancelled, FsnbError
from fsnb.extract import load
from fsnb.extract.rows import extract_rows
from fsnb.llm import ReplayLLM
from fsnb.llm.gemini import GeminiLLM
from fsnb.security import Sandbox
from fsnb.tools import Registry, ToolContext
from fsnb.tools.cleanup import find_duplicates
from fsnb.tools.extraction import load_table
from fsnb.tools.scanning import scan_folder

if TYPE_CHECKING:
    from fake_gemini import FakeGemini

pytest_plugins = ["fake_gemini"]


def _thread(backend: str = "openai", model: str = "qwen3:8b", url: str | None = None):
    return ExplorationResult(
        task="q", folder="/tmp", answer="a", citations=[], usage=Usage(),
        backend=backend, model=model, base_url=url,
    )  # fmt: skip


def _stop(answer: str = "Nothing to read.") -> Action:
    return Action.stop(answer, "done")


# -- the spec and the backend ------------------------------------------------------------


def test_the_cli_arguments_make_the_spec():
    args = build_parser().parse_args(
        ["explore", "q", "--folder", "docs", "--llm", "ollama:llama3.2", "--max-steps", "3",
         "--timeout", "9", "--db", "x.duckdb", "--reveal-secrets", "-c"]
    )  # fmt: skip
    spec = RunSpec.from_args(args)
    assert (spec.folder, spec.llm, spec.model, spec.max_steps) == (
        "docs",
        "ollama:llama3.2",
        None,
        3,
    )
    assert (spec.timeout_s, spec.db, spec.reveal_secrets, spec.follow) == (
        9.0,
        "x.duckdb",
        True,
        "last",
    )
    fresh = dataclasses.replace(spec, follow=None)  # not a follow-up
    assert fresh.backend() == Backend("ollama", "llama3.2", None)  # the id, read once


def test_options_left_out_keep_the_defaults():
    defaults = RunSpec(llm="offline", max_steps=4, timeout_s=30.0, db="d.duckdb")
    given = argparse.Namespace(folder="f", llm=None, model=None, max_steps=None, timeout=5.0,
                               db=None, use_index=None, follow_up=False)  # fmt: skip
    spec = RunSpec.from_args(given, defaults)
    assert (spec.folder, spec.llm, spec.max_steps, spec.timeout_s) == ("f", "offline", 4, 5.0)
    assert (spec.db, spec.use_index, spec.follow) == ("d.duckdb", "auto", None)


def test_a_follow_up_keeps_its_threads_backend_model_and_server():
    thread = _thread(url="http://127.0.0.1:8000/v1")
    assert RunSpec(follow=thread).backend() == Backend("openai", "qwen3:8b", thread.base_url)
    other = RunSpec(llm="openai", model="gpt-4o", follow=thread).backend()
    assert (other.name, other.model, other.base_url) == ("openai", "gpt-4o", thread.base_url)
    with pytest.raises(FsnbError, match="keeps its thread's backend"):
        RunSpec(llm="offline", follow=thread).backend()
    with pytest.raises(FsnbError, match="keeps its thread's server"):
        RunSpec(base_url="http://127.0.0.1:9/v1", follow=thread).backend()
    with pytest.raises(ValueError, match="unknown LLM backend 'claude'"):
        RunSpec(llm="claude").backend()


def test_continue_with_nothing_recorded_says_so(tmp_path: Path, folder: Path):
    with pytest.raises(FsnbError, match="no earlier exploration"):
        RunSpec(folder=folder, db=tmp_path / "none.duckdb", follow="last").resolved()


# -- recording is an observer ------------------------------------------------------------


def test_a_script_explorer_records_nothing_and_the_front_ends_record(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    db = tmp_path / "runs.duckdb"
    assert Explorer(folder, ReplayLLM([_stop()]), db=db).run("q").ok
    assert not db.exists()  # no observer: no index file

    seen: list[Any] = []

    class Watch:
        def on_event(self, event: ev.Event) -> None:
            seen.append(type(event).__name__)

        def on_result(self, result: ExplorationResult) -> None:
            seen.append(result.answer)

    watched = Explorer(folder, ReplayLLM([_stop("Seen.")]), observers=[Watch()]).run("q")
    assert seen == ["Started", "UsageUpdate", "Answer", watched.answer]

    first = fsnb.explore("q", folder=folder, llm=ReplayLLM([_stop(), _stop("Again.")]), db=db)
    assert fsnb.explorations(db=db).id.tolist() == [first.id]
    assert first.follow_up("again?").ok  # a follow-up is recorded too, with its thread
    assert fsnb.explorations(db=db).parent_id.tolist()[1] == first.id

    monkeypatch.setenv("FSNB_RECORD", "0")
    assert recording(db) == ()
    fsnb.explore("q", folder=folder, llm=ReplayLLM([_stop()]), db=db)
    assert len(fsnb.explorations(db=db)) == 2


def test_a_record_that_cannot_be_written_costs_only_the_record(folder: Path, tmp_path: Path):
    blocked = tmp_path / "a-folder.duckdb"
    blocked.mkdir()  # not a file: DuckDB cannot open it
    result = Explorer(folder, ReplayLLM([_stop()]), observers=[RecordRun(blocked)]).run("q")
    assert result.ok


# -- cooperative cancel -------------------------------------------------------------------


def test_a_cancelled_run_stops_load_table_between_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    folder = tmp_path / "statements"
    folder.mkdir()
    for n in range(3):
        (folder / f"s{n}.csv").write_text("amount\n1\n", encoding="utf-8")
    entered, release, stopped = threading.Event(), threading.Event(), threading.Event()
    loaded: list[str] = []

    def blocking_load(store: Any, sandbox: Any, source: str, table: Any, name: str) -> Any:
        loaded.append(str(source))
        entered.set()
        release.wait(30)  # until the run is cancelled
        raise FsnbError("not loaded in this test")

    checked = ToolContext.check

    def check(self: ToolContext) -> None:
        try:
            checked(self)
        except Cancelled:
            stopped.set()
            raise

    monkeypatch.setattr(load, "load_table", blocking_load)
    monkeypatch.setattr(ToolContext, "check", check)
    call = Action.call("load_table", "load them", path="*.csv", table="0", name="t")
    explorer = Explorer(folder, ReplayLLM([call, _stop()]), registry=Registry([load_table]))
    run = explorer.start("q")
    try:
        assert entered.wait(30)
        explorer.cancel()
        result = run.result(30)
        assert result is not None and result.error == "cancelled"
    finally:
        release.set()
    assert stopped.wait(30)  # the tool's next check, before the second document
    assert len(loaded) == 1


def test_tools_stop_once_the_deadline_passed(tmp_path: Path):
    root = tmp_path / "copies"
    root.mkdir()
    for name in ("a.txt", "b.txt"):
        (root / name).write_text("the same words", encoding="utf-8")
    ctx = ToolContext(root, tmp_path / "i.duckdb")
    ctx.check()  # no deadline, no cancel: nothing to stop
    assert len(find_duplicates.outcome(ctx=ctx).data["groups"]) == 1
    ctx.deadline = time.monotonic() - 1
    for stopped in (scan_folder.outcome(ctx=ctx), find_duplicates.outcome(ctx=ctx)):
        assert not stopped.ok and "the run's time limit passed" in stopped.text
    ctx.deadline, ctx.cancelled = None, threading.Event()
    ctx.cancelled.set()
    with pytest.raises(Cancelled, match="cancelled"):
        ctx.check()


def test_extract_rows_stops_between_model_calls(
    fake_gemini: FakeGemini, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("FSNB_GEMINI_BASE_URL", fake_gemini.url)
    root = tmp_path / "letters"
    root.mkdir()
    (root / "a.txt").write_text("We paid Acme 12 dollars.", encoding="utf-8")
    (root / "b.txt").write_text("We paid Bolt 7 dollars.", encoding="utf-8")
    pad = Scratchpad(tmp_path / "index.duckdb", folder=root)
    pad.create_table("expenses", "payee VARCHAR")
    row = {"payee": "Acme", "source_file": "a.txt", "quote": "We paid Acme"}
    fake_gemini.enqueue_text(json.dumps({"rows": [row]}))
    fake_gemini.enqueue_text(json.dumps({"rows": []}))
    calls = 0

    def check() -> None:  # the run is cancelled after the first call
        nonlocal calls
        calls += 1
        if calls > 1:
            raise Cancelled("the run was cancelled")

    llm = GeminiLLM("gemini-2.5-flash", api_key="k", base_url=fake_gemini.url, backoff_s=0.01)
    with pytest.raises(Cancelled):
        extract_rows(pad, Sandbox(root), llm, "expenses", ["a.txt", "b.txt"], batch=1, check=check)
    assert len(fake_gemini.requests) == 1 and pad.df("expenses")["payee"].tolist() == ["Acme"]
