"""`fsnb mcp`: the agent's tools, confinement, masking and verified citations for any agent
host, tested as a host uses them: the server started as a subprocess and driven through the
MCP SDK's real client, over stdio and over streamable HTTP (on 127.0.0.1, with a bearer
token).

Two folders are served: `deal` (a copy of the sample deal, a note, a CSV, a file with fake
credentials and a symlink to a file outside) and `other` (one memo). Every test of the
`served` fixture runs on both transports. Cancellation is tested against a model server
that never answers, and the time limit on a tool that waits for its deadline: neither
depends on timing.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DEADLINE_S, until
from fake_openai import FakeOpenAI, chat_response
from mcp.shared.exceptions import MCPError
from mcp_client import Connected, environment, http, http_server, stdio
from test_every_tool import BY_NAME, BY_TOOL, DOCUMENT, FEES, NOTES, SAMPLE, plausible

import fsnb
from fsnb.cli import main
from fsnb.mcp.folders import Folders
from fsnb.mcp.service import Service, Settings
from fsnb.protocol import LLM
from fsnb.tools import agent_registry, tool
from fsnb.tools.registry import Tool

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "s3cret-test-token"
#: Fake credentials, assembled at run time so that secret scanners do not flag this file.
AWS = "Zq8Kp2Lm5Nx7Rt4" + "Vw1Yb6Hc3Jd9Gf0SaEuIoP"
GITHUB = "ghp_" + "r7T2m9K4q1W8" * 3
QUOTE = "The Purchase Price is paid in three parts"
HOST_TOOLS = ["explore", "verify_citation", "index", "status"]
#: The sample deal's documents served (the price is in the agreement and the memo).
PDFS = [DOCUMENT, "04_risk_assessment_memo.pdf", "05_financial_adjustments_memo.pdf"]
#: Arguments the registry's sample values do not give (the server's own tools).
OURS: dict[tuple[str, str], Any] = {
    ("explore", "question"): "What is the purchase price?",
    ("verify_citation", "quote"): QUOTE,
    ("index", "rebuild"): False,
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("mcp")
    deal = base / "deal"
    deal.mkdir()
    for name in PDFS:
        shutil.copy(SAMPLE / name, deal / name)
    lines = [f"Closing call {n}: the purchase price adjustment is still open." for n in range(5)]
    (deal / NOTES).write_text("\n".join(lines) + "\n")
    (deal / FEES).write_text('Fee,Amount\nLegal,"$12,500.00"\nEscrow,"$1,200.00"\n')
    (deal / "deploy_notes.md").write_text(
        "# Deploy notes\n\nThe staging cluster runs in eu-west-1.\n\n"
        f"aws_secret_access_key = {AWS}\n\nGitHub token: {GITHUB}\n"
    )
    outside = base / "outside.txt"
    outside.write_text("The treasure is buried under the old oak.\n")
    (deal / "link.txt").symlink_to(outside)
    other = base / "other"
    other.mkdir()
    (other / "memo.txt").write_text("The warehouse lease ends in March 2027.\n")
    return {"deal": deal, "other": other, "base": base}


@pytest.fixture(scope="module", params=["stdio", "http"])
def served(request: pytest.FixtureRequest, folders: dict[str, Path]) -> Iterator[Connected]:
    """A client connected to `fsnb mcp deal other`, both folders indexed."""
    base = folders["base"] / request.param
    base.mkdir()
    args = ["--db", str(base / "index.duckdb"), str(folders["deal"]), str(folders["other"])]
    env = environment(FSNB_CACHE_DIR=str(folders["base"] / "cache"))  # parsed once for both
    if request.param == "stdio":
        with Connected(stdio(args, env, base / "stderr.log")) as client:
            _indexed(client)
            yield client
        return
    with http_server(["--token", TOKEN, *args], env) as (url, _), Connected(http(url, TOKEN)) as c:
        c.url = url  # type: ignore[attr-defined]
        _indexed(c)
        yield c


def _indexed(client: Connected) -> None:
    for root in ("deal", "other"):  # follows the indexing started with the server
        result = client.call("index", {"root": root})
        assert not result.is_error, result.content[0].text


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


# -- what a host sees ----------------------------------------------------------------------


def test_it_lists_the_agents_tools_and_its_own(served: Connected):
    tools = {t.name: t for t in served.run(served.session.list_tools()).tools}
    registry = agent_registry(use_index=True)
    assert list(tools) == [*registry.names(), *HOST_TOOLS]
    for name, listed in tools.items():
        schema = listed.input_schema
        if name == "status":  # about the server: no folder
            assert "root" not in schema["properties"]
            continue
        assert schema["properties"]["root"]["enum"] == ["deal", "other"], name
        assert schema["required"][0] == "root", name
        if name in registry:  # otherwise the registry's schema, unchanged
            own = registry[name].schema()["parameters"]
            assert {k: v for k, v in schema["properties"].items() if k != "root"} == (
                own["properties"]
            )
            assert listed.description == registry[name].description
        assert not any("reveal" in p for p in schema["properties"]), name
    instructions = served.init.instructions
    assert "deal, other" in instructions and "index is built in the background" in instructions


def test_documents_and_tables_are_resources_and_there_is_a_prompt(served: Connected):
    session = served.session
    served.call("create_table", {"root": "other", "name": "leases", "columns": "ends VARCHAR"})
    served.call("insert_data", {"root": "other", "table": "leases", "rows": '[{"ends": "2027"}]'})
    uris = [str(r.uri) for r in served.run(session.list_resources()).resources]
    assert f"fsnb://deal/{DOCUMENT}" in uris and "fsnb://other/memo.txt" in uris
    assert "fsnb-table://other/leases" in uris
    assert not any("outside" in u or "link.txt" in u for u in uris)
    templates = served.run(session.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == [
        "fsnb://{folder}/{+path}",
        "fsnb-table://{folder}/{table}",
    ]
    text = served.run(session.read_resource(f"fsnb://deal/{DOCUMENT}")).contents[0].text
    assert text.startswith(f"{DOCUMENT} (pdf, ") and "\n[page 1]\n" in text and QUOTE in text
    table = served.run(session.read_resource("fsnb-table://other/leases")).contents[0].text
    assert "2027" in table
    (prompt,) = served.run(session.list_prompts()).prompts
    assert prompt.name == "explore_folder" and {a.name for a in prompt.arguments} == {
        "question",
        "root",
    }
    got = served.run(session.get_prompt("explore_folder", {"root": "deal", "question": "Price?"}))
    message = got.messages[0].content.text
    assert "careful analyst" in message and "verify_citation" in message
    assert "JSON Action" not in message and "Folder: deal/" in message
    assert message.endswith("Question: Price?")
    served.call("drop_table", {"root": "other", "name": "leases"})


def test_every_tool_answers_with_its_text_and_typed_data(served: Connected):
    registry = agent_registry(use_index=True)
    listed = served.run(served.session.list_tools()).tools
    failures = []
    for optional in (True, False):
        for listed_tool in listed:
            name = listed_tool.name
            schema = {"name": name, "parameters": listed_tool.input_schema}
            arguments = plausible(schema, optional=optional)
            for key in list(arguments):
                if (name, key) in OURS:
                    arguments[key] = OURS[(name, key)]
                elif key == "path" and name == "verify_citation":
                    arguments[key] = DOCUMENT
            if name != "status":
                arguments["root"] = "deal"
            result = served.call(name, arguments)
            text = _text(result)
            assert text.strip(), name
            if result.is_error:
                if name == "extract_rows" and "offline backend cannot read rows" in text:
                    continue  # the offline backend answers no structured request
                failures.append(f"{name}({arguments}): {text}")
                continue
            payload = registry[name].payload if name in registry else True
            assert (result.structured_content is not None) == bool(payload), name
    assert not failures, "\n".join(failures)
    assert set(BY_NAME) and set(BY_TOOL)  # the sample values this test borrows


def test_explore_runs_offline_and_its_citations_are_verified(served: Connected):
    progress: list[tuple[float, float | None, str | None]] = []

    async def seen(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    question = {"root": "deal", "question": "What is the purchase price?"}
    result = served.call("explore", question, progress_callback=seen)
    assert not result.is_error, _text(result)
    data = result.structured_content
    assert "$45,000,000" in data["answer"] and "\nSources:\n" in _text(result)
    assert data["citations"] and all(c["verified"] for c in data["citations"])
    assert data["backend"] == "offline" and data["usage"]["tool_calls"] >= 1
    assert progress and progress[0][2].startswith("step 1: ")
    cited = data["citations"][0]
    check = {"root": "deal", "path": cited["path"], "quote": cited["quote"], "page": cited["page"]}
    assert served.call("verify_citation", check).structured_content["verified"] is True
    moved = served.call("verify_citation", {**check, "page": 2}).structured_content
    assert moved["verified"] and moved["problem"].startswith("page given as 2")
    made_up = served.call("verify_citation", {**check, "quote": "The price is one dollar"})
    assert not made_up.structured_content["verified"]
    assert _text(made_up) == "not verified: the quote does not occur in the file's text"


def test_indexing_on_request_reports_progress(served: Connected):
    progress: list[tuple[float, float | None]] = []

    async def seen(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    result = served.call("index", {"root": "other", "rebuild": True}, progress_callback=seen)
    assert not result.is_error and result.structured_content["state"] == "ready"
    assert progress[0] == (0, None) and progress[-1] == (1, 1)
    status = _text(served.call("status"))
    assert "- other: ready (1 added" in status and "index (other): done" in status


# -- everything that protects a notebook protects the server -------------------------------


def test_paths_outside_symlinks_out_and_another_folders_rows_are_refused(
    served: Connected, folders: dict[str, Path]
):
    outside = str(folders["base"] / "outside.txt")
    for name, arguments in [
        ("read", {"path": "../outside.txt"}),
        ("read", {"path": outside}),
        ("read", {"path": "link.txt"}),
        ("parse_file", {"path": "../other/memo.txt"}),
        ("grep", {"pattern": "treasure", "path": "link.txt"}),
        ("verify_citation", {"path": "../outside.txt", "quote": "The treasure is buried"}),
    ]:
        result = served.call(name, {"root": "deal", **arguments})
        assert result.is_error and _text(result).startswith("access denied: "), (name, arguments)
        assert "treasure" not in _text(result).replace("treasure", "", 1) or name == "grep"
    whole = _text(served.call("grep", {"root": "deal", "pattern": "treasure"}))
    assert "buried" not in whole  # the symlink's target is not read by a search either
    # another folder's index rows and scratchpad
    hits = served.call("semantic_search", {"root": "other", "query": "purchase price"})
    assert DOCUMENT not in _text(hits)
    missing = served.call("get_document", {"root": "other", "path": DOCUMENT})
    assert missing.is_error and "is not in this folder's index" in _text(missing)
    rows = served.call("query_data", {"root": "other", "sql": "SELECT path FROM documents"})
    assert "memo.txt" in _text(rows) and DOCUMENT not in _text(rows)
    served.call("create_table", {"root": "deal", "name": "prices", "columns": "item VARCHAR"})
    theirs = served.call("query_data", {"root": "other", "sql": "SELECT * FROM prices"})
    assert theirs.is_error and "prices" in _text(theirs)
    served.call("drop_table", {"root": "deal", "name": "prices"})
    for uri in ("fsnb://deal/..%2Foutside.txt", "fsnb://deal/link.txt", "fsnb://nowhere/x.pdf"):
        with pytest.raises(MCPError) as refused:
            served.run(served.session.read_resource(uri))
        assert "treasure" not in refused.value.message


def test_secret_values_are_masked_in_every_result(served: Connected):
    reads = [
        served.call("read", {"root": "deal", "path": "deploy_notes.md"}),
        served.call("parse_file", {"root": "deal", "path": "deploy_notes.md"}),
        served.call("grep", {"root": "deal", "pattern": "token|secret", "ignore_case": True}),
        served.call("preview_file", {"root": "deal", "path": "deploy_notes.md"}),
    ]
    for result in reads:
        text = _text(result)
        assert AWS not in text and GITHUB not in text and "[secret withheld]" in text, text
        assert "never reveals them]" in text
        assert AWS not in str(result.structured_content)
    resource = served.run(served.session.read_resource("fsnb://deal/deploy_notes.md"))
    assert AWS not in resource.contents[0].text and "[secret withheld]" in resource.contents[0].text
    # the citation check is no oracle: a quote of a secret reads as one not found
    guess = {"root": "deal", "path": "deploy_notes.md", "quote": f"aws_secret_access_key = {AWS}"}
    checked = served.call("verify_citation", guess)
    assert _text(checked) == "not verified: the quote does not occur in the file's text"
    assert AWS not in str(checked.structured_content)


def test_a_hostile_or_huge_argument_is_one_error_result(served: Connected):
    for name, arguments in [
        ("read", {"root": "deal", "path": "a/" * 100_000}),
        ("read", {"root": "deal", "path": 42}),
        ("read", {"root": "deal", "path": "x", "reveal_secrets": True}),
        ("semantic_search", {"root": "deal", "query": "price " * 50_000}),
        ("query_data", {"root": "deal", "sql": "COPY documents TO '/tmp/x.csv'"}),
        ("explore", {"root": "deal", "question": " "}),
        ("read", {"path": NOTES}),
        ("read", {"root": "../etc", "path": "passwd"}),
        ("nope", {}),
    ]:
        result = served.call(name, arguments)
        text = _text(result)
        assert result.is_error and "\n" not in text and len(text) <= 1_100, (name, text[:200])
    # a huge pattern is searched for, and the reply that echoes it is cut
    echoed = _text(served.call("grep", {"root": "deal", "pattern": "x" * 200_000}))
    assert echoed.startswith("no matches for 'xxx") and len(echoed) < 16_000
    assert "[result cut at the size budget" in echoed
    assert not served.call("status").is_error  # and the server still answers


def test_http_refuses_a_request_without_the_token(served: Connected):
    url = getattr(served, "url", None)
    if url is None:
        pytest.skip("stdio has no token")
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
        request = urllib.request.Request(url, data=body, headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            **headers,
        })  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=DEADLINE_S)
        assert refused.value.code == 401


# -- cancellation and limits -----------------------------------------------------------


@pytest.mark.slow
def test_cancelling_a_call_stops_it_and_the_server_goes_on(tmp_path: Path, monkeypatch):
    """The explore call waits on a model server that holds its reply; the client cancels it,
    the server says so, goes on answering, and the run ends as cancelled (recorded)."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FSNB_MODEL"):
        monkeypatch.delenv(name, raising=False)
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "notes.txt").write_text("The CFO is Dana Ito.\n")
    db = tmp_path / "index.duckdb"
    with FakeOpenAI() as model:
        model.enqueue(chat_response("{}"), delay_s=600)  # held until the fake stops
        args = ["--llm", "openai", "--base-url", model.url, "--db", str(db), str(folder)]
        env = environment(FSNB_CACHE_DIR=str(tmp_path / "cache"))
        with Connected(stdio(args, env, tmp_path / "stderr.log")) as client:
            question = {"question": "Who is the CFO?"}
            pending = client.submit(client.session.call_tool("explore", question))
            until(lambda: bool(model.requests), "the explore call asked the model")
            pending.cancel()

            def ended() -> str:
                return _text(client.call("status"))

            until(lambda: "explore (notes): cancelled" in ended(), "the call reported cancelled")
            assert not client.call("glob", {"pattern": "*.txt"}).is_error

            def recorded() -> bool:
                runs = fsnb.explorations(db=db)
                return bool(len(runs)) and runs["error"].iloc[0] == "cancelled"

            until(recorded, "the run ended as cancelled")
            assert len(model.requests) == 1  # the run asked no more once cancelled


def _service(folder: Path, **settings: Any) -> Service:
    from fsnb.llm.replay import ReplayLLM

    llm: LLM = ReplayLLM([])
    return Service(Folders([folder]), Settings(index=False, **settings), llm)


def _waiting(started: threading.Event, stopped: threading.Event) -> Tool:
    @tool
    def wait_here(*, ctx: Any) -> str:
        """Wait until the call is cancelled or its time is up."""
        started.set()
        try:
            while True:
                ctx.check()
                time.sleep(0.01)
        finally:
            stopped.set()

    return wait_here


def test_a_call_past_its_time_limit_is_one_error(folder: Path, tmp_path: Path):
    started, stopped = threading.Event(), threading.Event()
    service = _service(folder, db=str(tmp_path / "i.duckdb"), timeout_s=0.2)
    service.registry.add(_waiting(started, stopped))
    outcome = asyncio.run(service.call_tool("wait_here", {}))
    assert not outcome.ok and outcome.text == "error: the run's time limit passed"
    assert stopped.is_set() and service.calls.snapshot()[1][-1].state == "failed"


def test_a_cancelled_call_stops_its_tool(folder: Path, tmp_path: Path):
    started, stopped = threading.Event(), threading.Event()
    service = _service(folder, db=str(tmp_path / "i.duckdb"))
    service.registry.add(_waiting(started, stopped))

    async def cancel() -> None:
        task = asyncio.create_task(service.call_tool("wait_here", {}))
        assert await asyncio.to_thread(started.wait, DEADLINE_S)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel())
    assert stopped.wait(DEADLINE_S)
    assert [c.state for c in service.calls.snapshot()[1]] == ["cancelled"]


def test_one_folder_keeps_the_registrys_schemas(folder: Path, tmp_path: Path):
    service = _service(folder, db=str(tmp_path / "i.duckdb"))
    registry = agent_registry(use_index=True)
    listed = {t["name"]: t["inputSchema"] for t in service.tools()}
    assert all(listed[name] == registry[name].schema()["parameters"] for name in registry.names())


# -- the command ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--http", "0.0.0.0:0"], "0.0.0.0 is not a loopback address: add --allow-remote"),
        (["--http", "0.0.0.0:0", "--allow-remote"], "--allow-remote needs a bearer token"),
        (["--allow-remote", "--token", "t"], "--allow-remote is for --http HOST:PORT"),
        (["--http", "nope"], "HOST:PORT such as 127.0.0.1:8765"),
    ],
)
def test_the_command_refuses_what_it_must_not_serve(
    argv: list[str], said: str, folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch
):
    monkeypatch.delenv("FSNB_MCP_TOKEN", raising=False)
    try:
        code = main(["mcp", *argv, str(folder)])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and err.startswith("fsnb: ") and said in err, err


def test_the_command_says_when_a_folder_is_not_there(tmp_path: Path, capsys):
    assert main(["mcp", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.startswith("fsnb: ")


def test_fsnb_mcp_help_offers_no_way_to_reveal_secrets(capsys):
    with pytest.raises(SystemExit):
        main(["mcp", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: fsnb mcp ") and "FOLDER [FOLDER ...]" in out
    assert "reveal" not in out and "--http HOST:PORT" in out


@pytest.mark.slow
def test_the_readme_example_runs(tmp_path: Path):
    """The README's host-side client, as written, on data/test_acquisition (the server runs
    with the SDK's default environment: HOME here, so its index and cache are too)."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    (example,) = [block for block in blocks if "stdio_client(server)" in block]
    bin_dir = str(Path(sys.executable).parent)  # where the `fsnb` script is
    env = {**os.environ, "HOME": str(tmp_path), "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    run = subprocess.run(
        [sys.executable, "-c", example], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=DEADLINE_S, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "verified: the quote is on page 1 of 01_acquisition_agreement.pdf" in run.stdout
    assert "\nTrue 01_acquisition_agreement.pdf 1 " in run.stdout
