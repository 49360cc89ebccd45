"""The magics through a real IPython shell: `ip.run_cell_magic("explore", line, cell)`.

Fast runs use a scripted backend held in a variable: `--llm script` picks up
`ip.user_ns["script"]` (any object with `next_action` is accepted as a backend).
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from fsnb.agent import Action, CitedSource, ExplorationResult
from fsnb.llm import ReplayLLM
from fsnb.notebook.magics import ExploreMagics
from fsnb.notebook.widget import ExplorePanel

QUOTE = "The Purchase Price is $9,000,000 payable at Closing"


def _stop() -> Action:
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    return Action.stop("The price is $9,000,000 [1].", "found it", [cite])


@pytest.fixture
def ip():
    shell = InteractiveShell.instance()
    shell.run_line_magic("reload_ext", "fsnb")  # a fresh ExploreMagics with default config
    yield shell
    for name in ("script", "r", "q", "thing", "_explore"):
        shell.user_ns.pop(name, None)


def _script(ip: InteractiveShell, *actions: Action) -> ReplayLLM:
    ip.user_ns["script"] = llm = ReplayLLM(actions)
    return llm


def _usage_error(call) -> str:
    with pytest.raises(UsageError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_explore_offline_wait_binds_the_result(ip: InteractiveShell, folder: Path):
    panel = ip.run_cell_magic(
        "explore", f"{folder} --llm offline --wait -o r", "What is the purchase price?"
    )
    assert isinstance(panel, ExplorePanel) and panel.status == "done"
    result = ip.user_ns["r"]
    assert isinstance(result, ExplorationResult) and ip.user_ns["_explore"] is result
    assert panel.result is result and result.backend == "offline"
    assert "$9,000,000" in result.answer and result.citations[0].verified
    data, _ = panel._repr_mimebundle_()
    assert "$9,000,000" in data["text/markdown"] and "agreement.pdf" in data["text/html"]


def test_question_substitution_and_nbval_lines(ip: InteractiveShell, folder: Path):
    llm = _script(ip, _stop())
    ip.user_ns["thing"] = "purchase price"
    cell = "# NBVAL_IGNORE_OUTPUT\nWhat is the {thing}?\nKeep {unknown}, {{braces}} and a stray {"
    ip.run_cell_magic("explore", f"{folder} --llm script --wait", cell)
    task = "What is the purchase price?\nKeep {unknown}, {braces} and a stray {"
    assert ip.user_ns["_explore"].task == task
    assert llm.history[0].task == task


def test_line_form_with_options_anywhere(ip: InteractiveShell, folder: Path):
    _script(ip, _stop())
    ip.user_ns["thing"] = "price"
    panel = ip.run_line_magic("explore", f"{folder} --llm script What's the {{thing}}? --wait -o q")
    assert panel.status == "done" and panel.task == "What's the price?"
    assert ip.user_ns["q"].answer == "The price is $9,000,000 [1]."


def test_background_run_finishes(ip: InteractiveShell, folder: Path):
    _script(ip, Action.call("parse_file", "read it", path="agreement.pdf"), _stop())
    panel = ip.run_cell_magic("explore", f"{folder} --llm script -o r", "What is the price?")
    assert panel.status in ("running", "done")
    deadline = time.monotonic() + 30
    while panel.status == "running":
        assert time.monotonic() < deadline, "the background run did not finish"
        time.sleep(0.02)
    assert panel.status == "done" and ip.user_ns["r"] is panel.result
    assert ip.user_ns["_explore"] is panel.result


def test_config_sets_the_defaults(ip: InteractiveShell, folder: Path):
    ip.run_line_magic("config", "ExploreMagics.max_steps = 3")
    magics = next(c for c in ip.configurables if isinstance(c, ExploreMagics))
    assert magics.max_steps == 3
    _script(ip, *[Action.call("glob", "look", pattern="*.txt")] * 5)
    panel = ip.run_cell_magic("explore", f"{folder} --llm script --wait", "q?")
    assert panel.result.error == "step limit (3) reached without an answer"
    assert panel.status == "error"
    _script(ip, *[Action.call("glob", "look", pattern="*.txt")] * 5)
    panel = ip.run_cell_magic("explore", f"{folder} --llm script --wait --max-steps 1", "q?")
    assert panel.result.error == "step limit (1) reached without an answer"


@pytest.mark.parametrize(
    ("line", "cell", "expected"),
    [
        ("{folder}/nowhere --wait", "q?", "not a folder: "),
        ("{folder} --bogus", "q?", "unrecognized arguments: --bogus"),
        ("{folder} --llm claude", "q?", "unknown LLM backend 'claude'"),
        ("{folder} --llm thing", "q?", "--llm thing: that variable holds no LLM backend"),
        ("{folder} -o 1x", "q?", "-o needs a Python variable name, not '1x'"),
        ("{folder}", "# NBVAL_SKIP\n  \n", "no question"),
        ("{folder} extra words", "q?", "takes the question from the cell body"),
        ("{folder} --max-steps 0", "q?", "--max-steps must be at least 1"),
        ("{folder} --max-steps many", "q?", "invalid int value: 'many'"),
    ],
)
def test_usage_errors(ip: InteractiveShell, folder: Path, line: str, cell: str, expected: str):
    ip.user_ns["thing"] = 42
    line = line.replace("{folder}", str(folder))
    assert expected in _usage_error(lambda: ip.run_cell_magic("explore", line, cell))


def test_missing_key(
    ip: InteractiveShell, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env above
    message = _usage_error(lambda: ip.run_cell_magic("explore", f"{folder} --llm gemini", "q?"))
    assert "GOOGLE_API_KEY" in message and "GEMINI_API_KEY" in message
    assert "%env GOOGLE_API_KEY=" in message and "--llm offline" in message
    ip.run_line_magic("config", "ExploreMagics.llm = 'gemini'")
    assert "GOOGLE_API_KEY" in _usage_error(lambda: ip.run_cell_magic("explore", str(folder), "q?"))


def test_index_sql_and_connection(
    ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]
):
    message = _usage_error(lambda: ip.run_cell_magic("explore_sql", "", "SELECT 1"))
    assert "no index at" in message and "%explore_index" in message
    assert "not a folder" in _usage_error(lambda: ip.run_line_magic("explore_index", "nowhere"))
    assert "no index at" in _usage_error(lambda: ip.run_line_magic("explore_connection", ""))

    report = ip.run_line_magic("explore_index", str(folder))
    assert isinstance(report, pd.DataFrame) and list(report.columns) == ["path", "change", "reason"]
    assert "agreement.pdf" in set(report["path"]) and report.attrs["counts"]["added"] >= 4
    assert "Indexed corpus: " in capsys.readouterr().out
    again = ip.run_line_magic("explore_index", str(folder))
    assert again.empty and again.attrs["counts"]["added"] == 0

    from fsnb.scratchpad import Scratchpad

    pad = Scratchpad()
    pad.create_table("deals", {"name": "VARCHAR"})
    pad.insert("deals", [{"name": "Falcon"}])
    frame = ip.run_cell_magic("explore_sql", "-o q", "SELECT path FROM documents ORDER BY path")
    assert isinstance(frame, pd.DataFrame) and ip.user_ns["q"] is frame
    assert "agreement.pdf" in set(frame["path"])
    deals = ip.run_cell_magic("explore_sql", "", "SELECT name FROM deals")
    assert list(deals["name"]) == ["Falcon"]  # the scratch schema is on the search path
    assert "only a SELECT" in _usage_error(
        lambda: ip.run_cell_magic("explore_sql", "", "DELETE FROM documents")
    )
    assert "no_such_table" in _usage_error(
        lambda: ip.run_cell_magic("explore_sql", "", "SELECT * FROM no_such_table")
    )

    conn = ip.run_line_magic("explore_connection", "")
    try:
        assert conn.execute("SELECT name FROM deals").fetchall() == [("Falcon",)]
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] >= 4
    finally:
        conn.close()
