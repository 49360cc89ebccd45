from __future__ import annotations

import json
import logging
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from fsnb.agent import Action, CitedSource, Explorer
from fsnb.llm import ReplayLLM
from fsnb.notebook.widget import ExplorePanel, _asset

QUOTE = "The Purchase Price is $9,000,000 payable at Closing"
JS = Path(__file__).resolve().parent.parent / "js"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


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


def _replies(panel: ExplorePanel) -> list[dict]:
    sent: list[dict] = []
    panel.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    return sent


def test_traits_after_a_run(folder: Path):
    panel, _ = _panel(folder, Action.call("parse_file", "read it", path="agreement.pdf"), _stop())
    result = panel.wait(30)
    assert result is not None and panel.result is result
    assert panel.status == "done" and panel.error == "" and panel.question == ""
    assert (panel.task, panel.folder, panel.backend) == ("What is the price?", "corpus", "replay")
    kinds = [e["kind"] for e in panel.events]
    assert kinds[0] == "started" and kinds[-1] == "answer" and "tool_result" in kinds
    assert panel.answer == "The price is **$9,000,000** [1]."
    (cite,) = panel.citations
    assert (cite["id"], cite["path"], cite["page"]) == (1, "agreement.pdf", 1)
    assert cite["verified"] is True
    assert panel.usage["llm_calls"] == 2 and panel.usage["documents_parsed"] == 1
    json.dumps(panel.get_state())  # everything synced is JSON


def test_events_are_batched(folder: Path):
    changes: list[int] = []
    llm = ReplayLLM([Action.call("glob", "look", pattern="*.txt")] * 12 + [_stop()])
    panel = ExplorePanel()
    panel.observe(lambda change: changes.append(len(change["new"])), names="events")
    panel.attach(Explorer(folder, llm, max_steps=20), "q").wait(30)
    assert panel.status == "done"
    assert changes[-1] == len(panel.events) > 30
    assert len(changes) < len(panel.events)  # a burst goes out as a few updates
    assert changes == sorted(changes)  # appended, never reordered


def test_answer_question_resumes_the_run(folder: Path):
    panel, llm = _panel(folder, _ask(), _stop())
    _until(lambda: panel.status == "waiting")
    assert panel.question == "Which deal do you mean?"
    replies = _replies(panel)
    panel._handle_custom_msg({"type": "answer_question", "answer": "Project Falcon"}, [])
    assert panel.wait(30) is not None and panel.status == "done"
    assert replies == []
    reply = next(e for e in panel.events if e["kind"] == "human_reply")
    assert (reply["answer"], reply["defaulted"]) == ("Project Falcon", False)
    assert "Project Falcon" in llm.history[1].messages()[-1].text


def test_unanswered_question_falls_back_to_the_default(folder: Path):
    panel, _ = _panel(folder, _ask(), _stop(), ask_timeout_s=0.05)
    panel.wait(30)
    reply = next(e for e in panel.events if e["kind"] == "human_reply")
    assert reply["defaulted"] is True and panel.status == "done"


def test_stop_cancels(folder: Path):
    panel, _ = _panel(folder, _ask(), _stop())
    _until(lambda: panel.status == "waiting")
    panel._handle_custom_msg({"type": "stop"}, [])
    result = panel.wait(30)
    assert result is not None and result.error == "cancelled"
    assert panel.status == "cancelled" and panel.question == ""


def test_show_citation_replies_with_the_passage(folder: Path):
    panel, _ = _panel(folder, Action.call("parse_file", "read it", path="agreement.pdf"), _stop())
    panel.wait(30)
    replies = _replies(panel)
    panel._handle_custom_msg({"type": "show_citation", "id": 1}, [])
    (reply,) = replies
    assert reply["type"] == "citation" and reply["quote"] == QUOTE
    assert (reply["path"], reply["page"]) == ("agreement.pdf", 1)
    assert "Purchase Price" in reply["match"] and "Escrow Letter" in reply["after"]


def test_handler_failures_reply_with_an_error(folder: Path, caplog: pytest.LogCaptureFixture):
    panel, _ = _panel(folder, _stop())
    panel.wait(30)
    replies = _replies(panel)

    def boom(number: int) -> dict:
        raise RuntimeError("boom")

    panel.citation_context = boom  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="fsnb.notebook.widget"):
        panel._handle_custom_msg({"type": "show_citation", "id": 1}, [])
        panel._handle_custom_msg({"type": "no_such_request"}, [])
        panel._handle_custom_msg({"type": "answer_question", "answer": "x"}, [])
        panel._handle_custom_msg("not a dict", [])
    assert [r["type"] for r in replies] == ["error"] * 4
    assert replies[0] == {"type": "error", "request": "show_citation", "message": "boom"}
    assert "unknown message type 'no_such_request'" in replies[1]["message"]
    assert replies[2]["message"] == "no question is waiting for an answer"
    assert "boom" in caplog.text


def test_page_requests_for_documents_and_scratchpad(folder: Path):
    from fsnb.index import Index
    from fsnb.scratchpad import Scratchpad

    panel = ExplorePanel(folder=str(folder))
    replies = _replies(panel)
    panel._handle_custom_msg({"type": "page", "tab": "documents"}, [])
    assert replies[-1]["total"] == 0 and panel.documents == []  # no index file yet
    Index().add_folder(folder, progress=False)
    pad = Scratchpad(folder=folder)  # the panel shows its folder's scratchpad
    pad.create_table("deals", {"name": "VARCHAR", "price": "DOUBLE"})
    pad.insert("deals", [{"name": f"deal {i}", "price": i} for i in range(30)])
    panel._handle_custom_msg({"type": "page", "tab": "documents", "page": 0, "size": 2}, [])
    page = replies[-1]
    assert page["type"] == "page" and page["columns"][0] == "path" and len(page["rows"]) == 2
    assert page["total"] >= 4 and panel.documents == page["rows"]
    panel._handle_custom_msg({"type": "page", "tab": "scratchpad"}, [])
    assert [t["name"] for t in panel.tables] == ["deals"]
    panel._handle_custom_msg({"type": "page", "tab": "scratchpad", "table": "deals", "page": 1}, [])
    page = replies[-1]
    assert (page["table"], page["total"], page["pages"], len(page["rows"])) == ("deals", 30, 2, 5)
    assert page["rows"][0] == {"name": "deal 25", "price": 25.0}


def test_mimebundle_is_deterministic_and_self_contained(folder: Path, tmp_path: Path):
    bundles = []
    for _ in range(2):
        panel = ExplorePanel()
        panel.attach(Explorer(folder, _offline()), "What is the purchase price?").wait(60)
        assert panel.status == "done"
        data, metadata = panel._repr_mimebundle_()
        assert WIDGET_MIME in data and metadata["fsnb"]["wall_s"] > 0
        bundles.append({k: v for k, v in data.items() if k != WIDGET_MIME})
    assert bundles[0] == bundles[1]
    text = "\n".join(bundles[0].values())
    assert str(tmp_path) not in text and str(folder) not in text
    md, html = bundles[0]["text/markdown"], bundles[0]["text/html"]
    assert "$9,000,000" in md and "| [1] | agreement.pdf | 1 |" in md and "| scan |" in md
    assert "<table" in html and "agreement.pdf" in html and "$9,000,000" in html
    assert bundles[0]["text/plain"].startswith("What is the purchase price?\n(corpus, done)")


def _offline():
    from fsnb.llm import get_llm

    return get_llm("offline")


def test_bundle_before_and_after_failure(folder: Path):
    panel = ExplorePanel(task="q", folder="data")
    assert "The exploration is idle." in panel._repr_mimebundle_()[0]["text/plain"]
    panel, _ = _panel(folder)  # the script is empty: the backend fails
    panel.wait(30)
    assert panel.status == "error" and "no more actions" in panel.error
    markdown = panel._repr_mimebundle_()[0]["text/markdown"]
    assert "Error: the replay script has no more actions" in markdown


def test_front_end_module():
    source = (JS / "widget.js").read_text()
    assert "export default" in source and "render(" in source and "initialize(" in source
    for name in ("fsnb-panel", "fsnb-trace-row", "fsnb-answer", "fsnb-citation", "fsnb-citation-quote",
                 "fsnb-status", "fsnb-usage", "fsnb-ask", "fsnb-stop"):  # fmt: skip
        assert name in source
    assert "http://" not in source and "https://" not in source and "import " not in source
    css = (JS / "widget.css").read_text()
    assert "--jp-layout-color1" in css and "--jp-brand-color1" in css
    assert _asset("widget.js").is_file() and _asset("widget.css").is_file()
    assert str(ExplorePanel._esm) == source and str(ExplorePanel._css) == css


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_front_end_module_runs_in_node(tmp_path: Path):
    module = tmp_path / "widget.mjs"
    shutil.copy(JS / "widget.js", module)
    subprocess.run(["node", "--check", str(module)], check=True)
    script = tmp_path / "probe.mjs"
    script.write_text(
        "import widget, { renderMarkdown, traceRows } from './widget.mjs';\n"
        "const html = renderMarkdown('# Price\\n\\n<script>x</script> is **$9** [1], `a*b*c` [2, 3]\\n"
        "- one\\n- _two_');\n"
        "const rows = traceRows([{kind: 'tool_call', step: 1, tool: 'read', phase: 'read',"
        " target: 'a.txt', reason: 'r'}, {kind: 'tool_result', step: 1, tool: 'read',"
        " duration_ms: 5, result: 'text', ok: true}, {kind: 'answer', step: 2, answer: 'A'}]);\n"
        "console.log(JSON.stringify({html, rows, keys: Object.keys(widget)}));\n"
    )
    out = subprocess.run(["node", str(script)], check=True, capture_output=True, text=True)
    data = json.loads(out.stdout)
    html = data["html"]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<h3>Price</h3>" in html and "<strong>$9</strong>" in html
    assert html.count('class="fsnb-citation"') == 3 and "<code>a*b*c</code>" in html
    assert "<ul><li>one</li><li><em>two</em></li></ul>" in html
    assert [(r["tool"], r.get("duration"), r.get("result")) for r in data["rows"]] == [
        ("read", 5, "text"),
        ("stop", None, "A"),
    ]
    assert sorted(data["keys"]) == ["initialize", "render"]
