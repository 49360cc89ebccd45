"""Discoverability of models: `fsnb models` and `%explore_models` list the backends, their
models, what each needs and whether it is available now; `backend:model` ids work
wherever `--llm`/`--model` do (get_llm, the CLI, the magics). Local servers are faked on
127.0.0.1: an Ollama-style one for the model lists, a Chat Completions one for the runs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import pytest
from fake_http import FakeServer, Scripted, Sent
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from fsnb.cli import main
from fsnb.llm import catalog, get_llm, registry
from fsnb.llm.openai_chat import OpenAILLM

if TYPE_CHECKING:
    from fake_openai import FakeOpenAI

pytest_plugins = ["fake_openai"]  # the `fake_openai` fixture

SERVED = ["qwen3:8b", "llama3.2:latest"]
STOP = {"kind": "stop", "reason": "done", "answer": "Nothing to cite."}
KEYS = ("GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "FSNB_MODEL")


class FakeOllama(FakeServer):
    """Lists its models at Ollama's `GET /api/tags` and the OpenAI-compatible
    `GET /v1/models`; with `native=False` only at the latter (vLLM, llama.cpp)."""

    name = "fake Ollama"

    def __init__(self, models: list[str], *, native: bool = True) -> None:
        super().__init__()
        self.models, self.native = models, native

    def _answer(self, sent: Sent) -> Scripted:
        with self._lock:
            self.requests.append(sent)
        if sent.path == "/api/tags" and self.native:
            return Scripted(200, {"models": [{"name": m, "model": m} for m in self.models]})
        if sent.path == "/v1/models":
            return Scripted(200, {"object": "list", "data": [{"id": m} for m in self.models]})
        return Scripted(404, {"error": f"no route {sent.path}"})


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama(SERVED) as server:
        yield server


@pytest.fixture
def no_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, server or model in the environment, and no .env file to find one in."""
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def ip() -> Iterator[InteractiveShell]:
    shell = InteractiveShell.instance()
    shell.config.pop("ExploreMagics", None)
    shell.run_line_magic("reload_ext", "fsnb")
    yield shell
    shell.config.pop("ExploreMagics", None)
    for name in ("r", "_explore"):
        shell.user_ns.pop(name, None)


def _by_id(rows: list[dict]) -> dict[str, dict]:
    return {row["id"]: row for row in rows}


# -- backend:model ids ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("llm", "model", "expected"),
    [
        ("ollama:llama3.2", None, ("ollama", "llama3.2")),
        ("Ollama:qwen2.5:7b", None, ("ollama", "qwen2.5:7b")),  # the tag stays
        ("auto", "ollama:llama3.2", ("ollama", "llama3.2")),
        (None, "gemini:gemini-2.5-flash", ("gemini", "gemini-2.5-flash")),
        ("gemini", "gemini:gemini-2.5-pro", ("gemini", "gemini-2.5-pro")),
        ("ollama", "llama3.2:3b", ("ollama", "llama3.2:3b")),  # not a backend: a tag
        ("openai:gpt-4.1-mini", "gpt-4.1-mini", ("openai", "gpt-4.1-mini")),
        ("offline", None, ("offline", None)),
    ],
)
def test_split_id(llm, model, expected):
    assert registry.split_id(llm, model) == expected


@pytest.mark.parametrize(
    ("llm", "model", "problem"),
    [
        ("gemini", "ollama:llama3.2", "--llm gemini and --model ollama:llama3.2 name different"),
        ("ollama:a", "b", "--llm ollama:a names the model a, and --model another: b"),
    ],
)
def test_split_id_refuses_two_answers(llm, model, problem):
    with pytest.raises(ValueError, match=problem):
        registry.split_id(llm, model)


@pytest.mark.usefixtures("no_keys")
def test_get_llm_takes_model_ids(fake_openai: FakeOpenAI):
    local = get_llm("ollama:qwen3:8b", base_url=fake_openai.url)
    assert isinstance(local, OpenAILLM)
    assert (local.backend, local.model, local.base_url) == ("ollama", "qwen3:8b", fake_openai.url)
    hosted = get_llm(model="openai:gpt-4.1", base_url=fake_openai.url)
    assert (hosted.backend, hosted.model) == ("openai", "gpt-4.1")
    with pytest.raises(ValueError, match="unknown LLM backend 'nope'"):
        get_llm("nope:model")
    assert fake_openai.requests == []  # building a backend asks nothing


@pytest.mark.usefixtures("no_keys")
def test_cli_explore_with_a_model_id(fake_openai: FakeOpenAI, folder: Path, capsys):
    fake_openai.enqueue_action(STOP)
    fake_openai.enqueue_action(STOP)
    base = ["explore", "what is here?", "--folder", str(folder), "--base-url", fake_openai.url]
    assert main([*base, "--llm", "ollama:qwen3:8b", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["llm"]["model"] == "qwen3:8b"
    assert main([*base, "--model", "ollama:llama3.2", "--json"]) == 0
    llm = json.loads(capsys.readouterr().out)["llm"]
    assert (llm["backend"], llm["model"]) == ("ollama", "llama3.2")
    assert [r.body["model"] for r in fake_openai.requests] == ["qwen3:8b", "llama3.2"]

    assert main([*base, "--llm", "gemini", "--model", "ollama:llama3.2"]) == 2
    assert "name different backends" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "--llm", "nope:model"])
    assert "argument --llm: invalid choice: 'nope:model'" in capsys.readouterr().err


@pytest.mark.usefixtures("no_keys")
def test_magics_with_a_model_id(ip: InteractiveShell, fake_openai: FakeOpenAI, folder: Path):
    fake_openai.enqueue_action(STOP)
    line = f"{folder} --llm ollama:qwen3:8b --base-url {fake_openai.url} -f text -o r"
    ip.run_cell_magic("explore", line, "What is here?")
    assert (ip.user_ns["r"].backend, ip.user_ns["r"].model) == ("ollama", "qwen3:8b")

    fake_openai.enqueue_action(STOP)
    ip.run_line_magic("config", "ExploreMagics.model = 'ollama:llama3.2'")
    ip.run_line_magic("config", f"ExploreMagics.base_url = {fake_openai.url!r}")
    ip.run_cell_magic("explore", f"{folder} -f text -o r", "What is here?")
    assert (ip.user_ns["r"].backend, ip.user_ns["r"].model) == ("ollama", "llama3.2")
    assert [r.body["model"] for r in fake_openai.requests] == ["qwen3:8b", "llama3.2"]

    with pytest.raises(UsageError, match=r"--llm gemini and --model ollama:llama3.2 name diff"):
        ip.run_cell_magic("explore", f"{folder} --llm gemini", "What is here?")


# -- the model lists ------------------------------------------------------------------------


def _models_json(base_url: str, tmp_path: Path, **env: str) -> list[dict]:
    """`fsnb models --json` in a child process with no key but those in `env`."""
    clean = {k: v for k, v in os.environ.items() if k not in KEYS} | env
    done = subprocess.run(
        [sys.executable, "-m", "fsnb.cli", "models", "--json", "--base-url", base_url],
        capture_output=True,
        text=True,
        env=clean,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_cli_models_json(ollama: FakeOllama, tmp_path: Path):
    base_url = f"{ollama.url}/v1"
    rows = _by_id(_models_json(base_url, tmp_path))
    assert {"ollama:qwen3:8b", "ollama:llama3.2:latest", "offline", "auto"} <= rows.keys()
    served = rows["ollama:qwen3:8b"]
    assert served["available"] and served["status"] == f"answering at {base_url}"
    assert served["needs"] == "a server (--base-url)" and served["model"] == "qwen3:8b"
    gemini = rows["gemini:gemini-2.5-flash"]
    assert (gemini["available"], gemini["status"]) == (False, "no key")
    assert gemini["needs"] == "GOOGLE_API_KEY or GEMINI_API_KEY"
    assert rows["auto"]["status"] == "offline: no Gemini key" and rows["offline"]["available"]
    # openai with no key but a server: what that server serves
    assert rows["openai:llama3.2:latest"]["available"]
    assert {r.path for r in ollama.requests} == {"/api/tags"}

    rows = _by_id(_models_json(base_url, tmp_path, GOOGLE_API_KEY="test-key", FSNB_MODEL=""))
    flash = rows["gemini:gemini-3-flash-preview"]
    assert flash["available"] and flash["default"] and flash["status"] == "key set (GOOGLE_API_KEY)"
    assert rows["auto"]["status"] == "gemini: a Gemini key is set"


@pytest.mark.usefixtures("no_keys")
def test_a_server_that_does_not_answer():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    [row] = catalog.backend_rows("ollama", url, timeout_s=5)
    assert (row.id, row.available) == ("ollama", False)
    assert row.status == f"not answering at {url}: Connection refused"


@pytest.mark.usefixtures("no_keys")
def test_an_openai_compatible_server_lists_its_models_at_v1_models():
    with FakeOllama(["mistral-7b"], native=False) as server:
        rows = catalog.backend_rows("ollama", f"{server.url}/v1")
    assert [(r.id, r.available) for r in rows] == [("ollama:mistral-7b", True)]
    assert [r.path for r in server.requests] == ["/api/tags", "/v1/models"]


@pytest.mark.usefixtures("no_keys")
def test_explore_models_magic(
    ip: InteractiveShell, ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    ip.run_line_magic("config", f"ExploreMagics.base_url = '{ollama.url}/v1'")
    frame = ip.run_line_magic("explore_models", "")
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(catalog.COLUMNS)
    rows = frame.set_index("id")
    assert rows.loc["ollama:llama3.2:latest", "available"]
    mini = rows.loc["openai:gpt-4.1-mini"]  # a key: the known models, the server not asked
    assert mini["default"] and mini["status"] == "key set (OPENAI_API_KEY)"
    assert not rows.loc["gemini:gemini-2.5-pro", "available"]
    assert len(ollama.requests) == 1  # only ollama asked its server

    other = ip.run_line_magic("explore_models", "--base-url http://127.0.0.1:9/v1 --timeout 5")
    assert not other.set_index("id").loc["ollama", "available"]
