from __future__ import annotations

import json
import logging
import shutil
import subprocess
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
import traitlets as t

from fsnb.agent import Action, CitedSource, Explorer
from fsnb.llm import ReplayLLM
from fsnb.notebook import kernel_thread
from fsnb.notebook.display import render
from fsnb.notebook.front_end import front_end
from fsnb.notebook.record import record_key
from fsnb.notebook.widget import STATIC, ExplorePanel

QUOTE = "The Purchase Price is $9,000,000 payable at Closing"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
#: An answer that tries to inject markup: none of it may come out live.
HOSTILE = (
    "Price [1]. <script>alert(1)</script> <img src=x onerror=alert(2)> "
    "[click](javascript:alert(3)) <a href='javascript:alert(4)'>x</a>\n\n<iframe src=x></iframe>"
)


def _stop() -> Action:
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    return Action.stop("The price is **$9,000,000** [1].", "found it", [cite])


def _ask(question: str = "Which deal do you mean?") -> Action:
    return Action(kind="ask_human", question=question, reason="the question is ambiguous")


def _panel(folder: Path, *actions: Action, **options) -> tuple[ExplorePanel, ReplayLLM]:
    llm = ReplayLLM(actions)
    panel = ExplorePanel()
    panel.attach(Explorer(folder, llm), "What is the price?", **options)
    return panel, llm


def _until(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


def _invoke(panel: ExplorePanel, name: str, msg: dict | None = None) -> dict:
    """Call a command as the front end's `experimental.invoke(name, msg)` does: an
    anywidget-command message in, the anywidget-command-response's payload out."""
    sent: list[tuple[dict, list]] = []
    panel.send = lambda content, buffers=None: sent.append((content, buffers))  # type: ignore[method-assign]
    request = {"id": f"req-{name}", "kind": "anywidget-command", "name": name, "msg": msg or {}}
    try:
        panel._handle_custom_msg(request, [])
    finally:
        del panel.send
    ((reply, buffers),) = sent
    assert reply["id"] == request["id"] and reply["kind"] == "anywidget-command-response"
    assert buffers == []
    json.dumps(reply)  # goes over the wire as JSON
    return reply["response"]


def test_traits_after_a_run(folder: Path):
    panel, _ = _panel(folder, Action.call("parse_file", "read it", path="agreement.pdf"), _stop())
    result = panel.wait(30)
    assert result is not None and panel.result is result
    assert panel.status == "done" and panel.error == "" and panel.question == ""
    assert (panel.task, panel.folder, panel.backend) == ("What is the price?", "corpus", "replay")
    read, stop = panel.trace  # one row per step, the tool's result folded into its call
    assert (read["kind"], read["tool"], read["phase"], read["target"]) == (
        "tool_call",
        "parse_file",
        "read",
        "agreement.pdf",
    )
    assert read["ok"] is True and "Purchase Price" in read["result"] and read["duration_ms"] >= 0
    assert (stop["kind"], stop["tool"], stop["phase"], stop["ok"]) == ("stop", None, "answer", True)
    assert panel.trace == [row.to_dict() for row in result.trace()]
    assert panel.answer == "The price is **$9,000,000** [1]."
    assert panel.answer_html == (
        "<p>The price is <strong>$9,000,000</strong> "
        '<button type="button" class="fsnb-citation" data-cite="1">[1]</button>.</p>\n'
    )
    (cite,) = panel.citations
    assert (cite["id"], cite["path"], cite["page"]) == (1, "agreement.pdf", 1)
    assert cite["verified"] is True
    assert panel.usage["llm_calls"] == 2 and panel.usage["documents_parsed"] == 1
    state = panel.get_state()
    json.dumps(state)  # everything synced is JSON
    # each thing goes to the front end once: the answer as HTML, the trace as rows
    assert "answer_html" in state and "answer" not in state and "events" not in state


def test_events_are_batched(folder: Path):
    changes: list[int] = []
    llm = ReplayLLM([Action.call("glob", "look", pattern="*.txt")] * 12 + [_stop()])
    panel = ExplorePanel()
    panel.observe(lambda change: changes.append(len(change["new"])), names="trace")
    panel.attach(Explorer(folder, llm, max_steps=20), "q").wait(30)
    assert panel.status == "done"
    assert changes[-1] == len(panel.trace) == 13
    row_events = 12 * 2 + 1  # each call and its result, the answer: one update each unbatched
    assert len(changes) < row_events  # a burst of events goes out as a few updates
    assert changes == sorted(changes)  # rows are appended, never reordered


def test_answer_question_resumes_the_run(folder: Path):
    panel, llm = _panel(folder, _ask(), _stop())
    _until(lambda: panel.status == "waiting")
    assert panel.question == "Which deal do you mean?"
    assert _invoke(panel, "_answer", {"answer": "Project Falcon"}) == {"ok": True}
    assert panel.wait(30) is not None and panel.status == "done"
    ask = next(row for row in panel.trace if row["kind"] == "ask_human")
    assert (ask["target"], ask["result"], ask["ok"]) == (
        "Which deal do you mean?",
        "Project Falcon",
        True,
    )
    assert "Project Falcon" in llm.history[1].messages()[-1].text


def test_unanswered_question_falls_back_to_the_default(folder: Path):
    panel, _ = _panel(folder, _ask(), _stop(), ask_timeout_s=0.05)
    panel.wait(30)
    ask = next(row for row in panel.trace if row["kind"] == "ask_human")
    assert ask["result"].startswith("(no answer; the default) ") and panel.status == "done"


def test_stop_answers_from_what_was_read(folder: Path):
    read = Action.call("parse_file", "read it", path="agreement.pdf")
    panel, llm = _panel(folder, read, _ask(), _stop())
    _until(lambda: panel.status == "waiting")
    assert _invoke(panel, "_stop") == {"ok": True}
    result = panel.wait(30)
    assert result is not None and result.status == "done" and result.stopped
    assert panel.status == "done" and panel.question == ""
    assert result.documents_read == ["agreement.pdf"] and result.citations[0].verified
    # the question got no answer, and the last step told the LLM to answer
    ask = next(row for row in panel.trace if row["kind"] == "ask_human")
    assert ask["result"].startswith("(no answer; the default) ")
    assert llm.history[-1].last_step and not llm.history[-2].last_step
    assert panel.trace[-1]["reason"].startswith("Stopped: answered from what was read.")
    assert "stopped, then answered from what was read" in panel.record()[0]["text/plain"]
    assert panel.stopped is True and panel.get_state()["stopped"] is True  # "stopped early"


class _StopsAsItAsks(ReplayLLM):
    """Is told to stop while it decides to ask a question."""

    explorer: Explorer

    def next_action(self, conversation, notify):
        if not conversation.turns:
            self.explorer.stop()
        return super().next_action(conversation, notify)


def test_a_question_asked_after_stop_is_not_waited_for(folder: Path):
    llm = _StopsAsItAsks([_ask(), _stop()])
    llm.explorer = explorer = Explorer(folder, llm)
    panel = ExplorePanel().attach(explorer, "q", ask_timeout_s=600)
    result = panel.wait(30)
    assert result is not None and result.status == "done" and result.stopped
    ask = next(row for row in panel.trace if row["kind"] == "ask_human")
    assert ask["result"].startswith("(no answer; the default) ")


def test_stop_without_an_answer_is_cancelled(folder: Path):
    glob = Action.call("glob", "look", pattern="*.txt")
    panel, _ = _panel(folder, _ask(), glob, _stop())  # asked to answer, it explores on
    _until(lambda: panel.status == "waiting")
    panel.stop()
    result = panel.wait(30)
    assert result is not None and result.status == "cancelled" and not result.stopped
    assert panel.status == "cancelled"


def test_cancel_keeps_the_documents_read(folder: Path):
    read = Action.call("parse_file", "read it", path="notes.txt")
    panel, _ = _panel(folder, read, _ask(), _stop())
    _until(lambda: panel.status == "waiting")
    assert _invoke(panel, "_cancel") == {"ok": True}
    result = panel.wait(30)
    assert result is not None and result.status == "cancelled" and result.answer == ""
    assert result.documents_read == ["notes.txt"] and result.to_dict()["documents_read"]
    assert panel.status == "cancelled" and panel.question == ""
    text = panel.record()[0]["text/plain"]
    assert "Cancelled before an answer.\nDocuments read: notes.txt" in text


def test_stop_with_the_offline_backend_answers_from_what_was_read(folder: Path):
    """Stopped as soon as the first document is read, the offline strategy answers from it."""
    explorer = Explorer(folder, _offline())

    def stop_after_the_first_read(event) -> None:
        if getattr(event, "tool", None) == "parse_file" and event.kind == "tool_result":
            explorer.stop()

    result = explorer.run("What is the purchase price?", on_event=stop_after_the_first_read)
    assert result.status == "done" and result.stopped
    assert len(result.documents_read) == 1 and "$9,000,000" in result.answer
    assert {c.path for c in result.citations} == set(result.documents_read)
    assert all(c.verified for c in result.citations)


def test_show_citation_replies_with_the_passage(folder: Path):
    panel, _ = _panel(folder, Action.call("parse_file", "read it", path="agreement.pdf"), _stop())
    panel.wait(30)
    reply = _invoke(panel, "_show_citation", {"id": 1})
    assert reply["ok"] is True and reply["quote"] == QUOTE
    assert (reply["path"], reply["page"]) == ("agreement.pdf", 1)
    assert "Purchase Price" in reply["match"] and "Escrow Letter" in reply["after"]


def test_command_failures_reply_with_an_error(folder: Path, caplog: pytest.LogCaptureFixture):
    panel, _ = _panel(folder, _stop())
    panel.wait(30)

    def boom(number: int) -> dict:
        raise RuntimeError("boom\nwith a second line")

    panel.citation_context = boom  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="fsnb.notebook.widget"):
        assert _invoke(panel, "_show_citation", {"id": 1}) == {
            "ok": False,
            "error": "boom with a second line",
        }
        assert _invoke(panel, "_answer", {"answer": "x"}) == {
            "ok": False,
            "error": "no question is waiting for an answer",
        }
        assert _invoke(panel, "_page", {"tab": "nope"}) == {
            "ok": False,
            "error": "unknown tab 'nope'",
        }
        assert _invoke(panel, "_show_citation", "not a dict")["ok"] is False  # no id
    assert "boom" in caplog.text and "the _show_citation request failed" in caplog.text


def test_page_requests_for_documents_and_scratchpad(folder: Path):
    from fsnb.db.scratchpad import Scratchpad
    from fsnb.index import Index

    panel = ExplorePanel(folder=str(folder))
    empty = _invoke(panel, "_page", {"tab": "documents"})
    assert empty["ok"] is True and empty["total"] == 0  # no index file yet
    Index().add_folder(folder, progress=False)
    pad = Scratchpad(folder=folder)  # the panel shows its folder's scratchpad
    pad.create_table("deals", {"name": "VARCHAR", "price": "DOUBLE"})
    pad.insert("deals", [{"name": f"deal {i}", "price": i} for i in range(30)])
    page = _invoke(panel, "_page", {"tab": "documents", "page": 0, "size": 2})
    assert (page["ok"], page["tab"], page["columns"][0], len(page["rows"])) == (
        True,
        "documents",
        "path",
        2,
    )
    assert page["total"] >= 4
    tables = _invoke(panel, "_page", {"tab": "scratchpad"})
    assert [t["name"] for t in tables["rows"]] == ["deals"]
    page = _invoke(panel, "_page", {"tab": "scratchpad", "table": "deals", "page": 1})
    assert (page["table"], page["total"], page["pages"], len(page["rows"])) == ("deals", 30, 2, 5)
    assert page["rows"][0] == {"name": "deal 25", "price": 25.0}
    # replies are not state: the synced first pages change only when the panel refreshes them
    assert panel.documents == {} and panel.tables == {}
    panel.refresh_tabs()
    first = _invoke(panel, "_page", {"tab": "documents"})
    assert panel.documents == {k: v for k, v in first.items() if k not in ("ok", "tab", "table")}
    assert panel.tables["rows"] == tables["rows"]


def test_scratch_table_pages_sort_in_sql(folder: Path):
    from fsnb.db.scratchpad import Scratchpad

    panel = ExplorePanel(folder=str(folder))
    pad = Scratchpad(folder=folder)
    pad.create_table("deals", {"name": "VARCHAR", "price": "DOUBLE"})
    prices = [7, 3, None, 3, 9, 1, 5]
    pad.insert("deals", [{"name": f"deal {i}", "price": p} for i, p in enumerate(prices)])

    def page(n: int, **sorting) -> dict:
        msg = {"tab": "scratchpad", "table": "deals", "page": n, "size": 3, **sorting}
        return _invoke(panel, "_page", msg)

    first = page(0, sort="price")
    assert (first["sort"], first["descending"], first["offset"], first["total"]) == (
        "price",
        False,
        0,
        7,
    )
    rows = [row for n in range(3) for row in page(n, sort="price")["rows"]]
    assert [r["price"] for r in rows] == [1, 3, 3, 5, 7, 9, None]  # nulls last, across pages
    assert [r["name"] for r in rows[1:3]] == ["deal 1", "deal 3"]  # ties in insertion order
    down = [row for n in range(3) for row in page(n, sort="price", descending=True)["rows"]]
    assert [r["price"] for r in down] == [9, 7, 5, 3, 3, 1, None]
    assert page(2, sort="price", descending=True)["offset"] == 6
    assert page(0)["sort"] == "" and page(0)["rows"][0]["name"] == "deal 0"  # unsorted
    refused = page(0, sort='price" DESC; DROP TABLE deals; --')
    assert refused["ok"] is False and "no column" in refused["error"]
    assert "(columns: name, price)" in refused["error"]
    odd = page(0, sort="price", descending="yes")
    assert odd == {"ok": False, "error": "sort must be a column name and descending true or false"}
    assert pad.rows("deals") == 7


def test_query_data_steps_carry_their_result_to_the_panel(folder: Path):
    sql = "SELECT name, price FROM deals ORDER BY price DESC"
    rows = json.dumps([{"name": "a", "price": 2.5}, {"name": "b", "price": None}])
    panel, _ = _panel(
        folder,
        Action.call("create_table", "collect", name="deals", columns="name VARCHAR, price DOUBLE"),
        Action.call("insert_data", "store", table="deals", rows=rows),
        Action.call("query_data", "compute", sql=sql),
        Action.call("query_data", "a typo", sql="SELECT nope FROM deals"),
        _stop(),
    )
    assert panel.wait(30) is not None and panel.status == "done"
    queries = [row["query"] for row in panel.trace if "query" in row]
    assert queries == [
        {
            "sql": sql,
            "columns": ["name", "price"],
            "rows": [["a", 2.5], ["b", None]],
            "row_count": 2,
            "more_rows": False,
        }
    ]  # the failed query has none
    json.dumps(panel.trace, allow_nan=False)  # synced as JSON


def test_record_is_deterministic_and_self_contained(folder: Path, tmp_path: Path):
    from fsnb.notebook import evidence

    bundles = []
    for _ in range(2):
        evidence._CACHE.clear()  # the evidence images are rendered again, the same
        panel = ExplorePanel()
        panel.attach(Explorer(folder, _offline()), "What is the purchase price?").wait(60)
        assert panel.status == "done"
        view, _ = panel._repr_mimebundle_()  # the live view: the widget, and no text line
        assert view["text/plain"] == "" and set(view) == {WIDGET_MIME, "text/plain"}
        data, metadata = panel.record()
        assert WIDGET_MIME not in data and metadata["fsnb"]["wall_s"] > 0
        bundles.append(data)
    assert bundles[0] == bundles[1]
    text = "\n".join(bundles[0].values())
    assert str(tmp_path) not in text and str(folder) not in text
    md, html = bundles[0]["text/markdown"], bundles[0]["text/html"]
    assert "$9,000,000" in md and "| [1] | agreement.pdf | 1 |" in md and "| scan |" in md
    assert "<table" in html and "agreement.pdf" in html and "$9,000,000" in html
    # the answer's markdown is HTML here, not raw markdown
    assert "<em>" in html and "**" not in html and 'data-cite="1"' in html
    # the panel hides the record of its run (same key) shown under it, in any front end
    key = record_key("What is the purchase price?", "corpus")
    assert html.startswith(f"<div class='fsnb-record' data-fsnb-key='{key}'>")
    # the cited PDF passage, as a small image with the quote highlighted
    assert html.count('<img src="data:image/png;base64,') >= 1 and 'alt="The Purchase' in html
    assert bundles[0]["text/plain"].startswith("What is the purchase price?\n(corpus, done)")


def _offline():
    from fsnb.llm import get_llm

    return get_llm("offline")


def test_record_before_and_after_failure(folder: Path):
    panel = ExplorePanel(task="q", folder="data")
    assert "The exploration is idle." in panel.record()[0]["text/plain"]
    panel, _ = _panel(folder)  # the script is empty: the backend fails
    panel.wait(30)
    assert panel.status == "error" and "no more actions" in panel.error
    markdown = panel.record()[0]["text/markdown"]
    assert "Error: the replay script has no more actions" in markdown


def test_static_renderings_never_render_markup_from_the_answer(folder: Path):
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    llm = ReplayLLM(
        [Action.call("parse_file", "r", path="agreement.pdf"), Action.stop(HOSTILE, "x", [cite])]
    )
    panel = ExplorePanel()
    result = panel.attach(Explorer(folder, llm), "q").wait(30)
    assert result is not None and result.ok
    for html in (panel.answer_html, render(result).html(), result._repr_html_()):
        tags = _live_tags(html)
        assert not {"script", "img", "iframe"} & {tag for tag, _ in tags}, html
        assert not [a for _, a in tags if (a.get("href") or "").startswith("javascript")], html
        assert ("button", {"type": "button", "class": "fsnb-citation", "data-cite": "1"}) in tags
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _live_tags(html: str) -> list[tuple[str, dict]]:
    """The elements a browser would build from `html`: (tag, attributes)."""
    found: list[tuple[str, dict]] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, dict(attrs)))

    Tags().feed(html)
    return found


def test_front_end_module():
    source = (STATIC / "widget.js").read_text()
    assert "export default" in source and "render(" in source
    for name in ("fsnb-panel", "fsnb-trace-row", "fsnb-answer", "fsnb-citation", "fsnb-citation-quote",
                 "fsnb-status", "fsnb-usage", "fsnb-ask", "fsnb-stop"):  # fmt: skip
        assert name in source
    assert "http://" not in source and "https://" not in source and "import " not in source
    # requests are anywidget commands, one per Python command; no hand-rolled messages
    assert "experimental.invoke" in source and "model.send(" not in source
    for name in ExplorePanel._anywidget_commands:  # type: ignore[attr-defined]
        assert f'"{name}"' in source
    # trace rows open with the keyboard, tabs move with the arrow keys, Escape closes
    assert "aria-expanded" in source and 'e.key !== "Enter" && e.key !== " "' in source
    assert "ArrowRight" in source and "ArrowLeft" in source and '"Escape"' in source
    assert "stopped early" in source and "fsnb-evidence-img" in source
    css = (STATIC / "widget.css").read_text()
    assert "--jp-layout-color1" in css and "--jp-brand-color1" in css
    # each panel syncs a small loader; the kernel's one shared model holds the front end
    panels = [ExplorePanel(), ExplorePanel()]
    states = [panel.get_state() for panel in panels]
    assert states[0]["_front"] == states[1]["_front"] == f"anywidget:{front_end().model_id}"
    assert front_end().esm == source and front_end().css == css
    assert states[0]["_esm"] == (STATIC / "loader.js").read_text() and "_css" not in states[0]
    assert len(json.dumps(states[0])) < 4000  # a panel's saved state, not 40 KB
    assert sorted(ExplorePanel._anywidget_commands) == [
        "_answer",
        "_cancel",
        "_page",
        "_show_citation",
        "_stop",
    ]  # type: ignore[attr-defined]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_front_end_module_loads_in_node(tmp_path: Path):
    module = tmp_path / "widget.mjs"
    shutil.copy(STATIC / "widget.js", module)
    subprocess.run(["node", "--check", str(module)], check=True)
    script = tmp_path / "probe.mjs"
    script.write_text(
        "import widget from './widget.mjs';\n"
        "console.log(JSON.stringify({keys: Object.keys(widget)}));\n"
    )
    out = subprocess.run(["node", str(script)], check=True, capture_output=True, text=True)
    assert json.loads(out.stdout)["keys"] == ["render"]


class _KernelLoop:
    """A kernel's IO loop that is busy: what is posted to it waits until it runs."""

    def __init__(self) -> None:
        self.callbacks: list = []

    def add_callback(self, callback) -> None:
        self.callbacks.append(callback)

    def turn(self) -> None:
        callbacks, self.callbacks = self.callbacks, []
        for callback in callbacks:
            callback()


@pytest.fixture
def kernel_loop(monkeypatch: pytest.MonkeyPatch) -> _KernelLoop:
    loop = _KernelLoop()
    monkeypatch.setattr(kernel_thread, "_io_loop", lambda: loop)
    return loop


def test_updates_are_sent_from_the_kernels_thread(folder: Path, kernel_loop: _KernelLoop):
    senders: set[str] = set()
    panel = ExplorePanel()
    panel.observe(lambda change: senders.add(threading.current_thread().name), names=t.All)
    read = Action.call("parse_file", "read it", path="agreement.pdf")
    panel.attach(Explorer(folder, ReplayLLM([read, _stop()])), "What is the price?")
    _until(lambda: not panel.running)  # the worker is done, and sent nothing itself
    assert panel.status == "running" and panel.trace == [] and panel.answer == ""
    assert kernel_loop.callbacks  # it asked the kernel's loop to send its updates
    kernel_loop.turn()
    assert panel.status == "done" and len(panel.trace) == 2 and "$9,000,000" in panel.answer
    assert senders == {threading.main_thread().name}


def test_wait_sends_the_updates_while_the_loop_is_busy(folder: Path, kernel_loop: _KernelLoop):
    bound = []
    panel = ExplorePanel()
    panel.attach(Explorer(folder, ReplayLLM([_stop()])), "q", on_done=bound.append)
    result = panel.wait(30)  # a --wait cell: the loop is blocked, the cell sends them
    assert result is not None and bound == [result] and panel.status == "done"


def test_the_record_is_updated_when_the_run_ends(
    folder: Path, kernel_loop: _KernelLoop, monkeypatch: pytest.MonkeyPatch
):
    import IPython.display

    shown: list[tuple[str, dict, dict]] = []
    for name in ("display", "update_display"):
        monkeypatch.setattr(
            IPython.display, name, lambda data, _name=name, **kw: shown.append((_name, data, kw))
        )
    panel = ExplorePanel()
    panel.attach(Explorer(folder, ReplayLLM([_stop()])), "What is the price?")
    panel._ipython_display_()  # what IPython does with a background cell's value
    panel.wait(30)
    (_, view, _), (_, start, first), *updates = shown
    assert set(view) == {WIDGET_MIME, "text/plain"}
    assert "The exploration is running." in start["text/plain"]
    assert first["display_id"].startswith("fsnb-record-") and first["raw"]
    # at the end, and once more by the cell that waited (so a runner that keeps only that
    # cell's messages saves it)
    assert [kind for kind, _, _ in updates] == ["update_display"] * 2
    for _, end, last in updates:
        assert last["display_id"] == first["display_id"] and last["raw"]
        assert end == panel.record()[0] and "$9,000,000" in end["text/markdown"]


def test_usage_has_an_html_view():
    from fsnb.agent.usage import Usage

    shown = Usage(llm_calls=3, prompt_tokens=12_345, cost_usd=0.01234)._repr_html_()
    assert "mathjax_ignore" in shown and "12,345" in shown and "0.0123" in shown
    assert "<td>llm calls</td><td style='text-align:right'>3</td>" in shown


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_front_end_formats_cells_and_keys_records_as_python_does(tmp_path: Path):
    shutil.copy(STATIC / "widget.js", tmp_path / "widget.mjs")
    cells = [1234567, 1250.0, 0.1 + 0.2, 2.5, 1234.5678912, 0.000123456, -3.14159, None,
             "2025-01-15", "2025-01-15T00:00:00.000", "2025-01-15 13:45:07", "00123", "x"]  # fmt: skip
    runs = [("What is the price?", "corpus"), ("Où est l'accord ?\nligne 2", "données/€")]
    (tmp_path / "check.mjs").write_text(
        "const { formatCell, recordKey } = await import('./widget.mjs');"
        f"const cells = {json.dumps(cells)}; const runs = {json.dumps(runs)};"
        "console.log(JSON.stringify({plain: cells.map((v) => formatCell(v)),"
        " money: cells.map((v) => formatCell(v, true)),"
        " keys: runs.map(([t, f]) => recordKey(t, f))}));"
    )
    out = subprocess.run(["node", "check.mjs"], cwd=tmp_path, capture_output=True, text=True,
                         check=True)  # fmt: skip
    shown = json.loads(out.stdout)
    assert shown["plain"] == ["1,234,567", "1,250", "0.3", "2.5", "1,234.5679", "0.0001235",
                              "-3.1416", "", "2025-01-15", "2025-01-15", "2025-01-15 13:45:07",
                              "00123", "x"]  # fmt: skip
    assert shown["money"][:6] == ["1,234,567", "1,250", "0.30", "2.50", "1,234.57", "0.00"]
    assert shown["keys"] == [record_key(task, folder) for task, folder in runs]
