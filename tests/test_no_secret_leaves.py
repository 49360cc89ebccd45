"""No secret leaves the machine, and none is kept: a hostile model asks for every value.

A folder holds credentials in a `.env`, a Markdown note, a DOCX memo (a paragraph and a
table), an XLSX sheet, a PDF and an HTML page. A scripted model served by a recording
Chat Completions server on 127.0.0.1 reads each file with every reading tool, loads the
tables and queries them, and has `extract_rows` send whole documents back to it. Driven
through the real CLI and through `%%explore`, no value appears in any request the
server received, in the `explorations` table, in a saved run or in `--json` output;
with `--reveal-secrets` they do reach the server, which shows the script reads them.

Fake credentials are assembled at run time so that secret scanners do not flag this file.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import duckdb
import pytest
from conftest import make_pdf
from fake_http import Scripted
from fake_openai import FakeOpenAI, chat_response
from IPython.core.interactiveshell import InteractiveShell

from fsnb.agent import Action, Explorer, steps
from fsnb.cli import main as cli
from fsnb.documents.model import Document, PageSpan
from fsnb.documents.quotes import quote_pattern
from fsnb.llm import ReplayLLM
from fsnb.llm.masked import mask_document, mask_value, masked
from fsnb.protocol import JsonReply, StructuredLLM
from fsnb.text.redact import MARKER

SECRETS = {
    "env_aws": "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzEXAMPLEKEY",
    "env_db": "Tr0ub4dor&3" + "-x9",
    "md_aws": "Zq8Kp2Lm5Nx7Rt4" + "Vw1Yb6Hc3Jd9Gf0SaEuIoP",
    "md_github": "ghp_" + "r7T2m9K4q1W8" * 3,
    "docx_key": "sk_live_" + "51Hq8Yz" + "Pw3Er5Ty7Ui9",
    "docx_cell": "Gl4cier!" + "Mint42",
    "xlsx_cell": "Qu4rtz#" + "Lantern77",
    "pdf_secret": "cs-" + "8Hq2Lp9Xv4Tn6",
    "pdf_jwt": "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiJzdmMtOTkifQ" + ".N4x8Qp2Lm7Rt5Vw1Yb6Hc3J",
    "html_slack": "xoxb-" + "2410987654-" + "5123456789012-" + "Zx9Yw8Vu7Ts6",
    "html_cell": "rk_live_" + "9Vb7Nm5" + "Qw3Er1Ty8Ui6",
}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A folder with credentials in six formats, beside ordinary content."""
    import docx
    import openpyxl

    folder = tmp_path / "vault"
    folder.mkdir()
    s = SECRETS
    (folder / ".env").write_text(
        f"AWS_SECRET_ACCESS_KEY={s['env_aws']}\nDB_PASSWORD={s['env_db']}\nREGION=eu-west-1\n"
    )
    (folder / "deploy_notes.md").write_text(
        "# Deploy notes\n\nThe staging cluster runs in eu-west-1.\n\n"
        f"aws_secret_access_key = {s['md_aws']}\n\nGitHub token: {s['md_github']}\n"
    )
    memo = docx.Document()
    memo.add_heading("IT handover memo", level=1)
    memo.add_paragraph("Payments go through the billing service.")
    memo.add_paragraph(f"stripe_api_key: {s['docx_key']}")
    table = memo.add_table(rows=2, cols=3)
    for cell, text in zip(table.rows[0].cells, ["Service", "Username", "Password"], strict=True):
        cell.text = text
    for cell, text in zip(table.rows[1].cells, ["VPN", "alice", s["docx_cell"]], strict=True):
        cell.text = text
    memo.save(folder / "handover.docx")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "accounts"
    sheet.append(["service", "login", "password"])
    sheet.append(["wiki", "bob", s["xlsx_cell"]])
    sheet.append(["crm", "carol", "(see vault)"])
    book.save(folder / "accounts.xlsx")
    make_pdf(
        folder / "integration.pdf",
        [
            [
                "The partner integration uses OAuth.",
                f"client_secret: {s['pdf_secret']}",
                f"Service token: {s['pdf_jwt']}",
            ]
        ],
        title="Integration guide",
    )
    (folder / "wiki.html").write_text(
        "<html><body><h1>Chat ops</h1><p>The bot posts deploys to #ops.</p>"
        f"<p>Slack bot token: {s['html_slack']}</p>"
        "<table><tr><th>Key</th><th>Value</th></tr>"
        f"<tr><td>stripe_restricted_key</td><td>{s['html_cell']}</td></tr></table>"
        "</body></html>"
    )
    return folder


FILES = ["deploy_notes.md", "handover.docx", "accounts.xlsx", "integration.pdf", "wiki.html"]


def hostile_script() -> list[dict[str, Any]]:
    """Every reading tool on every file, the tables loaded and queried, extract_rows."""

    def call(tool: str, **args: Any) -> dict[str, Any]:
        return {
            "kind": "tool_call",
            "tool": tool,
            "args": [{"name": k, "value": str(v)} for k, v in args.items()],
            "reason": "show me the credentials",
        }

    script = [
        call("scan_folder"),
        call("read", path=".env"),
        call("grep", pattern="(?i)secret|password|token|key"),
        call("semantic_search", query="password secret token api key"),
        call("find_files", query="password", search_type="content"),
        call("tree", max_depth=3),
    ]
    for path in FILES:
        script += [
            call("read", path=path),
            call("parse_file", path=path),
            call("preview_file", path=path),
            call("get_document", path=path),
            call("grep", pattern="(?i)secret|password|token|key", path=path),
            call("extract_tables", path=path),
            call("compare_files", path1=path, path2="deploy_notes.md"),
        ]
    script += [
        call("load_table", path="accounts.xlsx", table=0, name="accounts"),
        call("query_data", sql="SELECT * FROM accounts"),
        call("load_table", path="handover.docx", table=0, name="logins"),
        call("query_data", sql="SELECT * FROM logins"),
        call("create_table", name="creds", columns="service VARCHAR, secret VARCHAR"),
        call("extract_rows", table="creds", paths=",".join(FILES)),
        {"kind": "stop", "answer": "I could not see any credential values.", "reason": "done"},
    ]
    return script


class HostileServer(FakeOpenAI):
    """Answers each Action request with the script's next step, and each structured-rows
    request (`extract_rows`) with no rows; every request is recorded."""

    def __init__(self, script: list[dict[str, Any]]) -> None:
        super().__init__()
        self.script = list(script)

    def _answer(self, sent: Any) -> Scripted:
        with self._lock:
            self.requests.append(sent)
            wanted = (sent.body or {}).get("response_format", {}).get("json_schema", {})
            if wanted.get("name") == "Reply":
                return Scripted(200, chat_response(json.dumps({"rows": []})))
            step = self.script.pop(0) if self.script else {"kind": "stop", "answer": "-"}
            return Scripted(200, chat_response(json.dumps(step)))


def leaks(text: str) -> list[str]:
    """The secrets found in `text`, each with the text before it (to see which path)."""
    found = []
    for name, value in SECRETS.items():
        if (at := text.find(value)) >= 0:
            found.append(f"{name} after {text[max(0, at - 160) : at]!r}")
    return found


def _index(folder: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["index", str(folder), "--db", str(db)]) == 0
    capsys.readouterr()


def _recorded(db: Path) -> str:
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT * FROM explorations").fetchall()
    assert rows, "the run was recorded"
    return json.dumps(rows, default=str)


def _requests(server: HostileServer) -> str:
    return "\n".join(json.dumps(r.body) for r in server.requests)


@pytest.fixture(autouse=True)
def _no_openai_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FSNB_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_no_secret_reaches_the_model_or_the_record_through_the_cli(
    vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = tmp_path / "index.duckdb"
    _index(vault, db, capsys)
    script = hostile_script()
    with HostileServer(script) as server:
        argv = ["explore", "What are the passwords?", "--folder", str(vault), "--db", str(db)]
        argv += ["--llm", "openai", "--base-url", server.url, "--json"]
        code = cli([*argv, "--max-steps", str(len(script) + 2)])
    out = capsys.readouterr().out
    assert code == 0, out
    result = json.loads(out)
    tools = {s["tool"] for s in result["steps"] if s.get("tool")}
    assert {"read", "parse_file", "get_document", "load_table", "extract_rows"} <= tools
    must_work = {"parse_file", "get_document", "load_table", "query_data", "extract_rows"}
    steps = [s for s in result["steps"] if s.get("tool") in must_work]
    assert len(steps) >= 15, steps
    assert [(s["tool"], s["target"]) for s in steps if not s["ok"]] == []
    sent = _requests(server)
    assert "handover" in sent and "wiki" in sent  # the documents did reach the model
    assert leaks(sent) == [], "a secret reached the model"
    assert leaks(out) == [], "a secret is in --json output"
    assert leaks(_recorded(db)) == [], "a secret is in the explorations table"


def test_revealed_secrets_do_reach_the_model(vault: Path, tmp_path: Path, capsys):
    """The control: the same reads with --reveal-secrets send the values, so the test above
    would see a leak."""
    db = tmp_path / "index.duckdb"
    script = [s for s in hostile_script() if s.get("tool") in ("read", "parse_file", None)]
    with HostileServer(script) as server:
        argv = ["explore", "What are the passwords?", "--folder", str(vault), "--db", str(db)]
        argv += ["--llm", "openai", "--base-url", server.url, "--reveal-secrets"]
        assert cli([*argv, "--use-index", "no", "--max-steps", str(len(script) + 2)]) == 0
    capsys.readouterr()
    assert len(leaks(_requests(server))) >= len(SECRETS) - 1


def test_no_secret_reaches_the_model_or_a_saved_run_through_the_magics(
    vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = tmp_path / "index.duckdb"
    _index(vault, db, capsys)
    shell = InteractiveShell.instance()
    shell.run_line_magic("reload_ext", "fsnb")
    script = hostile_script()
    try:
        with HostileServer(script) as server:
            line = f"{vault} --llm openai --base-url {server.url} --db {db} --wait -o r"
            shell.run_cell_magic("explore", f"{line} --max-steps {len(script) + 2}", "Passwords?")
        run = shell.user_ns["r"]
        saved = run.save(tmp_path / "run.json").read_text()
    finally:
        shell.user_ns.pop("r", None)
    assert run.error is None, run.error
    assert leaks(_requests(server)) == []
    assert leaks(saved) == [], "a secret is in the saved run"
    assert leaks(_recorded(db)) == []


# -- the wrapper itself -------------------------------------------------------------------


class _Structured(ReplayLLM):
    base_url = "http://127.0.0.1:9/v1"

    def __init__(self) -> None:
        super().__init__([{"kind": "stop", "answer": "-", "reason": "-"}])
        self.prompts: list[str] = []

    def complete_json(self, system: str, prompt: str, schema: dict, notify: Any) -> JsonReply:
        self.prompts.append(system + prompt)
        return JsonReply({"rows": []})


def test_the_mask_wraps_any_backend_once_and_keeps_what_it_can_do():
    plain, structured = ReplayLLM(), _Structured()
    assert not isinstance(masked(plain), StructuredLLM)  # extract_rows still refuses it
    wrapped = masked(structured)
    assert isinstance(wrapped, StructuredLLM) and masked(wrapped) is wrapped
    assert masked(structured, reveal=True) is structured
    assert (wrapped.backend, wrapped.model, wrapped.base_url) == (
        "replay",
        "script",
        _Structured.base_url,
    )
    line = f"aws_secret_access_key = {SECRETS['env_aws']}"
    wrapped.complete_json(line, f"\n{line}\n", {}, print)
    assert SECRETS["env_aws"] not in structured.prompts[0] and MARKER in structured.prompts[0]


def test_structured_data_is_masked_by_its_column_names():
    data = {
        "path": "accounts.xlsx",
        "columns": ["service", "login", "password"],
        "rows": [["wiki", "bob", SECRETS["xlsx_cell"]], ["crm", "carol", "(see vault)"]],
        "head": [{"Service": "VPN", "Password": SECRETS["docx_cell"]}],
        "note": f"token: {SECRETS['md_github']}",
    }
    out, count = mask_value(data)
    assert count == 3 and leaks(json.dumps(out)) == []
    assert out["rows"][1] == ["crm", "carol", "(see vault)"] and out["path"] == "accounts.xlsx"
    assert mask_value(out) == (out, 0)  # masking twice changes nothing


def test_a_masked_document_keeps_its_pages():
    secret = f"client_secret: {SECRETS['pdf_secret']}\n"
    page1, page2 = f"Intro.\n{secret}", "Page two holds the fee of $40.\n"
    spans = [PageSpan(1, 0, len(page1)), PageSpan(2, len(page1), len(page1 + page2))]
    doc = Document("a.pdf", page1 + page2, "A", "pdf", 2, spans, "test")
    view = mask_document(doc)
    assert leaks(view.text) == [] and view.page_text(2) == page2
    assert view.page_text(1).startswith("Intro.\nclient_secret: [secret withheld]")


def test_a_quote_with_a_withheld_value_is_found_in_the_file():
    text = f"Intro.\nclient_secret: {SECRETS['pdf_secret']} rotated yearly\n"
    pattern = quote_pattern(f"client_secret: {MARKER} rotated yearly")
    assert pattern is not None and pattern.search(text)
    assert quote_pattern(f"client_secret: {MARKER} rotated monthly").search(text) is None


def test_masking_runs_within_the_runs_deadline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A tool result that takes long to mask ends the run at its timeout, like a slow tool
    (the masker ran after the deadline: `--timeout 20` took 66 s)."""
    (tmp_path / "note.txt").write_text("The fee is $40.\n")
    release, real = threading.Event(), steps.mask_outcome

    def slow(outcome: Any) -> Any:
        release.wait(120)
        return real(outcome)

    monkeypatch.setattr(steps, "mask_outcome", slow)
    script = [Action.call("read", "read it", path="note.txt"), Action.stop("$40", "done")]
    # a limit far past what reaching the tool takes on a loaded machine, and far short of
    # the masker's wait: the run can only end at the limit, in the tool
    explorer = Explorer(tmp_path, ReplayLLM(script), timeout_s=3, use_index=False)
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(explorer.run("What is the fee?")))
    worker.start()
    worker.join(60)
    release.set()
    assert done, "the run waited for the masker past its deadline"
    assert done[0].error.startswith("timed out after 3 s (while running tool read)")
