"""The magics through a real IPython shell: `ip.run_cell_magic("explore", line, cell)`.

Fast runs use a scripted backend held in a variable: `--llm script` picks up
`ip.user_ns["script"]` (any object with `next_action` is accepted as a backend).
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import usage_error
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


def _panel(ip: InteractiveShell) -> ExplorePanel:
    """The latest %explore's panel (a `--wait` cell shows it and returns nothing)."""
    magics = next(c for c in ip.configurables if isinstance(c, ExploreMagics))
    assert isinstance(magics.panel, ExplorePanel)
    return magics.panel


def test_explore_offline_wait_binds_the_result(ip: InteractiveShell, folder: Path):
    value = ip.run_cell_magic(
        "explore", f"{folder} --llm offline --wait -o r", "What is the purchase price?"
    )
    panel = _panel(ip)
    assert value is None and panel.status == "done"  # the cell showed the panel and record
    result = ip.user_ns["r"]
    assert isinstance(result, ExplorationResult) and ip.user_ns["_explore"] is result
    assert panel.result is result and result.backend == "offline"
    assert "$9,000,000" in result.answer and result.citations[0].verified
    data, _ = panel.record()
    assert "$9,000,000" in data["text/markdown"] and "agreement.pdf" in data["text/html"]


def test_question_substitution_and_nbval_lines(ip: InteractiveShell, folder: Path):
    llm = _script(ip, _stop())
    ip.user_ns["thing"] = "purchase price"
    cell = "# NBVAL_IGNORE_OUTPUT\nWhat is the $thing?\nKeep {{braces}} and $$dollars"
    ip.run_cell_magic("explore", f"{folder} --llm script --wait", cell)
    task = "What is the purchase price?\nKeep {braces} and $dollars"  # IPython's var_expand
    assert ip.user_ns["_explore"].task == task
    assert llm.history[0].task == task


def test_line_form_with_options_anywhere(ip: InteractiveShell, folder: Path):
    _script(ip, _stop())
    ip.user_ns["thing"] = "price"
    ip.run_line_magic("explore", f"{folder} --llm script What's the {{thing}}? --wait -o q")
    panel = _panel(ip)
    assert panel.status == "done" and panel.task == "What's the price?"
    assert ip.user_ns["q"].answer == "The price is $9,000,000 [1]."


def test_a_cell_blocks_until_its_run_ends(ip: InteractiveShell, folder: Path):
    """The default: the cell shows the run and ends with it, so the next cell has `-o`."""
    _script(ip, Action.call("parse_file", "read it", path="agreement.pdf"), _stop())
    value = ip.run_cell_magic("explore", f"{folder} --llm script -o r", "What is the price?")
    panel = _panel(ip)
    assert value is None and panel.status == "done" and not panel.running
    assert ip.user_ns["r"] is panel.result is ip.user_ns["_explore"]


class _Held(ReplayLLM):
    """Answers only once `release` is set: the run stays in flight until a test says."""

    def __init__(self, actions) -> None:
        super().__init__(actions)
        self.release = threading.Event()

    def next_action(self, conversation, notify):
        assert self.release.wait(60), "never released"
        return super().next_action(conversation, notify)


def test_a_background_run_is_waited_for_by_the_cells_that_use_it(
    ip: InteractiveShell, folder: Path, monkeypatch: pytest.MonkeyPatch
):
    """`--background` returns the running panel; a cell that does not use the result runs
    at once, and a cell that does (`r`, `_explore`) waits for the run, as in Run All."""
    ip.user_ns["script"] = llm = _Held([_stop()])
    magics = next(c for c in ip.configurables if isinstance(c, ExploreMagics))
    panel = ip.run_cell_magic("explore", f"{folder} --llm script --background -o r", "Price?")
    assert panel.running and "r" not in ip.user_ns

    ip.run_cell("unrelated = 1 + 1")  # does not use the result: no waiting
    assert panel.running and "r" not in ip.user_ns

    waited = []
    real_wait = magics.waiter.wait

    def wait(run):  # release the model only once the cell is waiting for it
        waited.append(run.out)
        llm.release.set()
        real_wait(run)

    monkeypatch.setattr(magics.waiter, "wait", wait)
    ran = ip.run_cell("answer = r.answer")
    assert ran.success, ran.error_in_exec
    assert waited == ["r"] and ip.user_ns["answer"] == "The price is $9,000,000 [1]."
    assert ip.user_ns["_explore"] is ip.user_ns["r"] is panel.result
    assert not magics.waiter.runs  # nothing left pending
    ip.user_ns.pop("unrelated")
    ip.user_ns.pop("answer")


def test_a_follow_up_waits_for_the_background_run_it_continues(ip: InteractiveShell, folder: Path):
    ip.user_ns["script"] = llm = _Held([_stop(), _stop()])
    first = ip.run_cell_magic("explore", f"{folder} --llm script --background", "Price?")
    assert first.running
    threading.Timer(0.05, llm.release.set).start()  # the follow-up waits whenever it comes
    ip.run_cell_magic("explore", "-c", "And who pays it?")
    follow = ip.user_ns["_explore"]
    assert follow.status == "done" and follow.task == "And who pays it?"
    assert not first.running and first.result is not None


@pytest.mark.parametrize(
    ("code", "uses"),
    [
        ("print(r.answer)", True),
        ("_explore.citations", True),
        ("%%explore -c\nAnd then?", True),
        ("%explore --continue And then?", True),
        ("rr = 1\nprint(rr)", False),
        ("%%explore data --llm offline\nWhat next?", False),
    ],
)
def test_which_cells_use_a_pending_result(code: str, uses: bool):
    from fsnb.notebook.pending import Pending, Waiter

    assert Waiter().uses(code, Pending(panel=None, out="r")) is uses  # type: ignore[arg-type]


def test_config_sets_the_defaults(ip: InteractiveShell, folder: Path):
    ip.run_line_magic("config", "ExploreMagics.max_steps = 3")
    magics = next(c for c in ip.configurables if isinstance(c, ExploreMagics))
    assert magics.max_steps == 3
    _script(ip, *[Action.call("glob", "look", pattern="*.txt")] * 5)
    ip.run_cell_magic("explore", f"{folder} --llm script --wait", "q?")
    panel = _panel(ip)
    assert panel.result.error == "step limit (3) reached without an answer"
    assert panel.status == "error"
    _script(ip, *[Action.call("glob", "look", pattern="*.txt")] * 5)
    ip.run_cell_magic("explore", f"{folder} --llm script --wait --max-steps 1", "q?")
    assert _panel(ip).result.error == "step limit (1) reached without an answer"


def test_evidence_images_can_be_turned_off(ip: InteractiveShell, folder: Path):
    """The record shows the cited PDF passage as an image, unless configured off."""
    read = Action.call("parse_file", "read it", path="agreement.pdf")
    try:
        for setting, shown in (("True", True), ("False", False)):
            ip.run_line_magic("config", f"ExploreMagics.evidence_images = {setting}")
            _script(ip, read, _stop())
            ip.run_cell_magic("explore", f"{folder} --llm script", "What is the price?")
            html = _panel(ip).record()[0]["text/html"]
            assert ('<img src="data:image/png;base64,' in html) is shown, setting
    finally:  # the shell's config outlives this test
        ip.run_line_magic("config", "ExploreMagics.evidence_images = True")


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
    assert expected in usage_error(lambda: ip.run_cell_magic("explore", line, cell))


def test_missing_key(
    ip: InteractiveShell, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env above
    message = usage_error(lambda: ip.run_cell_magic("explore", f"{folder} --llm gemini", "q?"))
    assert "GOOGLE_API_KEY" in message and "GEMINI_API_KEY" in message
    assert "%env GOOGLE_API_KEY=" in message and "--llm offline" in message
    ip.run_line_magic("config", "ExploreMagics.llm = 'gemini'")
    assert "GOOGLE_API_KEY" in usage_error(lambda: ip.run_cell_magic("explore", str(folder), "q?"))


def test_index_sql_and_connection(
    ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]
):
    message = usage_error(lambda: ip.run_cell_magic("explore_sql", "", "SELECT 1"))
    assert "no index at" in message and "%explore_index" in message
    assert "not a folder" in usage_error(lambda: ip.run_line_magic("explore_index", "nowhere"))
    assert "no index at" in usage_error(lambda: ip.run_line_magic("explore_connection", ""))

    report = ip.run_line_magic("explore_index", str(folder))
    assert isinstance(report, pd.DataFrame) and list(report.columns) == ["path", "change", "reason"]
    assert "agreement.pdf" in set(report["path"]) and report.attrs["counts"]["added"] >= 4
    assert "Indexed corpus: " in capsys.readouterr().out
    capsys.readouterr()
    assert ip.run_line_magic("explore_index", str(folder)) is None  # nothing changed: one line
    (line,) = capsys.readouterr().out.strip().splitlines()[-1:]
    assert line.startswith("Indexed corpus: 0 added, 0 updated, ")

    from fsnb.db.scratchpad import Scratchpad

    pad = Scratchpad()
    pad.create_table("deals", {"name": "VARCHAR"})
    pad.insert("deals", [{"name": "Falcon"}])
    frame = ip.run_cell_magic("explore_sql", "-o q", "SELECT path FROM documents ORDER BY path")
    assert isinstance(frame, pd.DataFrame) and ip.user_ns["q"] is frame
    assert "agreement.pdf" in set(frame["path"])
    deals = ip.run_cell_magic("explore_sql", "", "SELECT name FROM deals")
    assert list(deals["name"]) == ["Falcon"]  # the scratch schema is on the search path
    assert "only a SELECT" in usage_error(
        lambda: ip.run_cell_magic("explore_sql", "", "DELETE FROM documents")
    )
    assert "no_such_table" in usage_error(
        lambda: ip.run_cell_magic("explore_sql", "", "SELECT * FROM no_such_table")
    )

    conn = ip.run_line_magic("explore_connection", "")
    try:
        assert conn.execute("SELECT name FROM deals").fetchall() == [("Falcon",)]
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] >= 4
    finally:
        conn.close()


# -- interrupts: %%explore --wait and %explore_index ------------------------------------


def test_a_wait_cell_takes_answers_in_its_panel(ip: InteractiveShell, folder: Path):
    ask = Action(kind="ask_human", question="Which deal?", reason="two are named")
    _script(ip, ask, _stop())
    magics = next(c for c in ip.configurables if isinstance(c, ExploreMagics))

    def answer() -> None:
        deadline = time.monotonic() + 30
        while not (magics.panel is not None and magics.panel.question):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        magics.panel.answer_question("Project Falcon")

    threading.Thread(target=answer, daemon=True).start()
    ip.run_cell_magic("explore", f"{folder} --llm script --wait -o r", "What is the price?")
    (row,) = [row for row in ip.user_ns["r"].trace() if row.kind == "ask_human"]
    assert row.result == "Project Falcon" and _panel(ip).status == "done"


class _Interrupting(ReplayLLM):
    """Reads a file, then interrupts the process (SIGINT, as the kernel's stop button
    does) while it "thinks" about the next step, for longer than anyone waits."""

    def next_action(self, conversation, notify):
        if len(conversation.turns) == 1:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(3)  # abandoned: the cancel does not wait for it
        return super().next_action(conversation, notify)


def test_interrupting_a_wait_cell_cancels_and_binds(
    ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]
):
    read = Action.call("parse_file", "read it", path="agreement.pdf")
    ip.user_ns["script"] = _Interrupting([read, _stop()])
    value = ip.run_cell_magic("explore", f"{folder} --llm script --wait -o r", "What is the price?")
    panel = _panel(ip)
    assert value is None and panel.status == "cancelled" and not panel.running
    result = ip.user_ns["r"]
    assert result is panel.result and ip.user_ns["_explore"] is result
    assert result.status == "cancelled" and result.documents_read == ["agreement.pdf"]
    lines = [line for line in capsys.readouterr().out.splitlines() if "Interrupt" in line]
    assert lines == [
        "Interrupted: the exploration was cancelled after 2 steps (1 document read); "
        "r holds what it found."
    ]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_interrupting_explore_index_keeps_the_committed_batches(
    ip: InteractiveShell,
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
):
    from fsnb.index import Index, pipeline

    prepared = []

    def prepare(*args):
        if len(prepared) == 2:
            raise KeyboardInterrupt
        prepared.append(args[0])
        return real(*args)

    real = pipeline.prepare
    monkeypatch.setattr(pipeline, "BATCH", 1)  # each document is a batch of its own
    monkeypatch.setattr(pipeline, "prepare", prepare)
    assert ip.run_line_magic("explore_index", str(folder)) is None
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if line.startswith("Interrupted")]
    assert re.fullmatch(
        r"Interrupted: indexing interrupted: \d+ of \d+ documents committed; "
        r"%explore_index corpus goes on from there",
        line,
    ), line
    indexed = set(Index().documents(str(folder))["path"])
    assert set(prepared) <= indexed
    assert f"{len(indexed)} of" in line
    monkeypatch.setattr(pipeline, "prepare", real)
    report = ip.run_line_magic("explore_index", str(folder))
    assert report.attrs["counts"]["unchanged"] == len(indexed)  # it went on from there


@pytest.mark.slow
def test_interrupting_a_wait_cell_in_a_kernel(folder: Path):
    """In a real kernel: the interrupt cancels the run, binds it and prints one line, and
    the cells after it run clean (no traceback, nothing on stderr)."""
    from jupyter_client.manager import start_new_kernel

    slow = (
        "import time\nfrom fsnb.agent import Action\nfrom fsnb.llm import ReplayLLM\n"
        "class Slow(ReplayLLM):\n"
        "    def next_action(self, conversation, notify):\n"
        "        time.sleep(0.2)\n"
        "        return super().next_action(conversation, notify)\n"
        "script = Slow([Action.call('parse_file', 'read', path='agreement.pdf')]"
        " + [Action.call('glob', 'look', pattern='*')] * 200)\n"
    )
    km, kc = start_new_kernel(kernel_name="python3")
    try:
        assert _execute(kc, "%load_ext fsnb\n" + slow)[1] == []
        cell = f"%%explore {folder} --llm script --wait --max-steps 300 -o r\nWhat is it?"
        shown, problems = _execute(kc, cell, interrupt=km.interrupt_kernel)  # after the read
        assert problems == []
        assert any("widget-view+json" in kinds for kinds, _ in shown)
        printed = [text for kinds, text in shown if kinds == "stream"]
        assert len(printed) == 1 and printed[0].startswith("Interrupted: the exploration was ")
        assert printed[0].endswith("r holds what it found.\n")
        record = next(text for kinds, text in shown if "text/markdown" in kinds)
        assert "cancelled" in record and "Documents read: agreement.pdf" in record
        shown, problems = _execute(kc, "print(r.status, r.documents_read)")
        assert problems == [] and shown == [("stream", "cancelled ['agreement.pdf']\n")]
        shown, problems = _execute(kc, "import time; time.sleep(1); print('clean')")
        assert problems == [] and shown == [("stream", "clean\n")]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _execute(kc, code: str, interrupt=None) -> tuple[list[tuple[str, str]], list[str]]:
    """Run `code`; return what it showed (kinds, text) and its problems (errors, stderr).
    With `interrupt`, call it once a panel's trace shows a file read."""
    msg_id = kc.execute(code)
    shown: list[tuple[str, str]] = []
    problems: list[str] = []
    while True:
        msg = kc.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "status" and content["execution_state"] == "idle":
            return shown, problems
        if interrupt is not None and kind == "comm_msg" and _read_a_file(content):
            interrupt()
            interrupt = None
        if kind == "error" or (kind == "stream" and content["name"] == "stderr"):
            problems.append(str(content))
        elif kind == "stream":
            shown.append(("stream", content["text"]))
        elif kind in ("display_data", "execute_result", "update_display_data"):
            shown.append((",".join(sorted(content["data"])), content["data"]["text/plain"]))


def _read_a_file(content: dict) -> bool:
    """Whether a panel's update (a comm message) has a trace row of a finished read."""
    trace = content.get("data", {}).get("state", {}).get("trace", [])
    return any(row.get("tool") == "parse_file" and row.get("ok") for row in trace)
