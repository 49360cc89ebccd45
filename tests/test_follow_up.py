"""Follow-up questions and saved runs: `result.follow_up`, `%%explore --continue`,
`fsnb explore --continue`, `result.save` / `fsnb.load` and the `explorations` table."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pytest
from IPython.core.interactiveshell import InteractiveShell

import fsnb
from fsnb.agent import ExplorationResult
from fsnb.cli import main
from fsnb.db.schema import migrate
from fsnb.errors import FsnbError
from fsnb.llm.gemini import GeminiLLM
from fsnb.notebook.magics import ExploreMagics

if TYPE_CHECKING:
    from fake_gemini import FakeGemini

pytest_plugins = ["fake_gemini"]

PRICE = "What is the purchase price?"
CLOSING = "What is the Closing Date?"
QUOTE = "The Purchase Price is $9,000,000 payable at Closing."


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files parsed from here on (the parse cache's misses)."""
    module = importlib.import_module("fsnb.documents.parse")
    seen: list[Path] = []
    real = module._parse_uncached

    def spy(file: Path, *args: Any, **kwargs: Any) -> Any:
        seen.append(file)
        return real(file, *args, **kwargs)

    monkeypatch.setattr(module, "_parse_uncached", spy)
    return seen


def _tools(result: ExplorationResult) -> list[str]:
    return [row["tool"] for row in result.steps() if row["tool"]]


def test_offline_follow_up_reads_nothing_again(folder: Path, parses: list[Path]):
    first = fsnb.explore(PRICE, folder=folder, llm="offline")
    assert first.ok and "scan_folder" in _tools(first) and "agreement.pdf" in first.read_paths
    parses.clear()
    second = first.follow_up(CLOSING)
    assert second.ok and "June 30, 2025" in second.answer
    assert "scan_folder" not in _tools(second) and parses == []  # no scan, no parse
    assert not any(row["tool"] == "parse_file" and row["target"] == "agreement.pdf"
                   for row in second.steps())  # fmt: skip
    assert second.thread_id == first.thread_id and second.parent_id == first.id
    assert [x.question for x in second.thread] == [PRICE, CLOSING]
    assert second.earlier[0].answer == first.answer and second.earlier[0].turns == first.turns
    assert all(c.verified for c in second.citations) and second.citations


def _gemini(fake: FakeGemini) -> GeminiLLM:
    return GeminiLLM("gemini-2.5-flash", api_key="k", base_url=fake.url, backoff_s=0.01)


def _call(tool: str, **args: str) -> dict[str, Any]:
    pairs = [{"name": k, "value": v} for k, v in args.items()]
    return {"kind": "tool_call", "tool": tool, "args": pairs, "reason": "look"}


def _stop(answer: str, quote: str, page: int = 1) -> dict[str, Any]:
    cite = {"id": 1, "path": "agreement.pdf", "page": page, "quote": quote}
    return {"kind": "stop", "answer": answer, "citations": [cite], "reason": "found"}


def test_gemini_follow_up_cites_what_the_thread_read(
    fake_gemini: FakeGemini, folder: Path, parses: list[Path], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("FSNB_GEMINI_BASE_URL", fake_gemini.url)
    fake_gemini.enqueue_action(_call("scan_folder", folder="."))
    fake_gemini.enqueue_action(_call("parse_file", path="agreement.pdf"))
    fake_gemini.enqueue_action(_stop("$9,000,000 [1].", QUOTE))
    first = fsnb.explore(PRICE, folder=folder, llm=_gemini(fake_gemini))
    assert first.ok and first.citations[0].verified
    parses.clear()
    fake_gemini.enqueue_action(_stop("June 30, 2025 [1].", "The Closing Date is June 30, 2025.", 2))
    second = first.follow_up(CLOSING)
    assert second.ok and second.citations[0].verified  # read in the first run of the thread
    assert _tools(second) == [] and parses == [] and second.usage.llm_calls == 1
    assert second.backend == "gemini" and second.earlier[0].question == PRICE


def test_save_and_load_round_trip(folder: Path, tmp_path: Path):
    first = fsnb.explore(PRICE, folder=folder, llm="offline")
    second = first.follow_up(CLOSING)
    path = second.save(tmp_path / "run.json")
    loaded = fsnb.load(path, folder=folder)  # a follow-up reads only in a folder named here
    assert loaded.to_record() == second.to_record()
    assert loaded._repr_html_() == second._repr_html_()
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in second.events]
    third = loaded.follow_up("Who holds the escrow?")  # a saved thread goes on
    assert third.ok and [x.question for x in third.earlier] == [PRICE, CLOSING]
    assert "scan_folder" not in _tools(third)


@pytest.mark.parametrize(
    ("content", "expected"),
    [("{not json", "cannot read saved exploration"), ('{"a": 1}', "not a saved exploration"),
     ('{"fsnb_exploration": 1, "task": "q"}', "a damaged saved exploration")],
)  # fmt: skip
def test_odd_saved_files_are_one_line_errors(tmp_path: Path, content: str, expected: str):
    path = tmp_path / "run.json"
    path.write_text(content)
    with pytest.raises(FsnbError, match=expected) as raised:
        fsnb.load(path)
    assert "\n" not in str(raised.value) and path.read_text() == content


def test_every_run_is_kept_in_the_explorations_table(folder: Path, tmp_path: Path):
    db = tmp_path / "runs.duckdb"
    assert fsnb.explorations(db=db).empty and not db.exists()  # nothing created to read
    first = fsnb.explore(PRICE, folder=folder, llm="offline", db=db)
    second = first.follow_up(CLOSING)
    fsnb.explore(PRICE, folder=folder / "letters", llm="offline", db=db)
    runs = fsnb.explorations(folder=folder, db=db)
    assert runs.question.tolist() == [PRICE, CLOSING]
    assert runs.parent_id.isna()[0] and runs.parent_id[1] == first.id
    assert runs.thread_id.nunique() == 1
    assert runs.backend.tolist() == ["offline", "offline"] and (runs.llm_calls > 0).all()
    assert runs.citations[1][0]["verified"] and runs.events[1][0]["kind"] == "started"
    assert len(fsnb.explorations(db=db)) == 3
    again = fsnb.explorations(run=second.id, db=db)
    assert again.to_record() == second.to_record() and again.explorer is not None
    with pytest.raises(FsnbError, match="no exploration 'nope'"):
        fsnb.explorations(run="nope", db=db)


def test_an_index_from_before_the_table_migrates(folder: Path, tmp_path: Path):
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    migrate(con, to=6)
    con.close()
    assert fsnb.explorations(db=db).empty  # read-only: no table yet, no rows
    fsnb.explore(PRICE, folder=folder, llm="offline", db=db)
    assert len(fsnb.explorations(folder=folder, db=db)) == 1


@pytest.fixture
def ip():
    shell = InteractiveShell.instance()
    shell.run_line_magic("reload_ext", "fsnb")
    yield shell
    shell.user_ns.pop("_explore", None)


def test_magic_continue_shows_the_thread(ip: InteractiveShell, folder: Path, parses: list[Path]):
    with pytest.raises(Exception, match="nothing to continue"):
        ip.run_cell_magic("explore", "--continue --wait", CLOSING)
    ip.run_cell_magic("explore", f"{folder} --llm offline --wait", PRICE)
    first = ip.user_ns["_explore"]
    parses.clear()
    ip.run_cell_magic("explore", "-c --wait", CLOSING)
    second = ip.user_ns["_explore"]
    assert second.parent_id == first.id and "June 30, 2025" in second.answer
    assert "scan_folder" not in _tools(second) and parses == []
    magics = next(c for c in ip.configurables if isinstance(c, ExploreMagics))
    panel = magics.panel
    assert panel is not None and panel.task == CLOSING
    assert [x["question"] for x in panel.thread] == [PRICE]
    assert "9,000,000" in panel.thread[0]["answer_html"]
    ip.run_line_magic("explore", "-c --wait Who holds the escrow?")  # the line form
    assert [x["question"] for x in magics.panel.thread] == [PRICE, CLOSING]


def test_cli_continue_follows_the_last_run_of_the_folder(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = str(tmp_path / "cli.duckdb")
    base = ["--folder", str(folder), "--db", db, "--json"]
    assert main(["explore", CLOSING, "--continue", *base]) == 2
    assert "no earlier exploration" in capsys.readouterr().err
    assert main(["explore", PRICE, "--llm", "offline", *base]) == 0
    capsys.readouterr()
    assert main(["explore", CLOSING, "-c", *base]) == 0  # the earlier run's backend
    out = json.loads(capsys.readouterr().out)
    assert "June 30, 2025" in out["answer"]
    assert "scan_folder" not in [step["tool"] for step in out["steps"]]
    runs = fsnb.explorations(folder=folder, db=db)
    assert runs.question.tolist() == [PRICE, CLOSING] and runs.parent_id[1] == runs.id[0]
