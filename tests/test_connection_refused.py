"""A server that refuses the connection (nothing listens at its address) is not worth
another try: `fsnb.llm.retry.refused` tells it from the failures that are (a reset, a
dropped reply, a timeout), and `unreachable` says it in one line."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import httpx
import openai
import pytest
from hang_up import closed_port, hanging_up

from fsnb.llm.retry import refused, unreachable


def _raised(call) -> BaseException:
    with pytest.raises(Exception) as info:
        call()
    return info.value


def test_a_refused_connection_is_seen_through_the_sdks_wrappers():
    url = f"http://127.0.0.1:{closed_port()}"
    direct = _raised(lambda: httpx.get(url))  # httpx.ConnectError, from httpcore's
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)
    chat = _raised(
        lambda: client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}]
        )
    )
    assert isinstance(chat, openai.APIConnectionError)  # "Connection error.", from httpx's
    assert refused(direct) and refused(chat)
    assert refused(ConnectionRefusedError()) and refused(OSError(errno.ECONNREFUSED, "refused"))
    assert unreachable("openai", f"{url}/v1", 1, chat) == (
        f"openai: {url}/v1 refused the connection (is the server running there?)"
    )


def test_other_connection_failures_are_not_refusals():
    with hanging_up() as url:
        dropped = _raised(lambda: httpx.get(url))  # accepted, then closed: worth a retry
    assert isinstance(dropped, httpx.RemoteProtocolError) and not refused(dropped)
    for exc in (TimeoutError("timed out"), ConnectionResetError(errno.ECONNRESET, "reset"),
                httpx.ConnectTimeout("timed out"), None):  # fmt: skip
        assert not refused(exc)
    assert unreachable("gemini", url, 5, dropped) == (
        f"gemini: cannot reach {url} after 5 attempts: "
        "Server disconnected without sending a response."
    )


def test_a_cycle_of_causes_ends():
    first, second = ValueError("a"), ValueError("b")
    first.__cause__, second.__cause__ = second, first
    assert not refused(first)


#: `python -m fsnb.cli`, except that a retry ends the process at once, saying so (on stderr,
#: exit code 3) instead of waiting its backoff.
CLI_ENDING_AT_A_RETRY = """
import os, sys
from fsnb.cli.app import main
from fsnb.llm.retry import Backoff

def wait(self, backend, attempt, what, notify, asked=None):
    sys.stderr.write(f"retried: {backend}: {what}\\n")
    sys.stderr.flush()
    os._exit(3)

Backoff.wait = wait
raise SystemExit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("backend", ["openai", "gemini"])
def test_fsnb_explore_says_so_in_one_line_without_retrying(backend: str, folder: Path):
    url = f"http://127.0.0.1:{closed_port()}" + ("/v1" if backend == "openai" else "")
    argv = ["explore", "What is the price?", str(folder), "--llm", backend, "--base-url", url]
    env = {**os.environ, "GEMINI_API_KEY": "k", "HF_HUB_OFFLINE": "1"}
    run = subprocess.run(
        [sys.executable, "-c", CLI_ENDING_AT_A_RETRY, *argv, "-q", "--use-index", "no"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert (run.returncode, run.stdout) == (1, ""), run.stderr
    said = f"fsnb: {backend}: {url} refused the connection (is the server running there?)\n"
    assert run.stderr == said  # not "retried: ..." (4 retries with backoff took 1 + 2 + 4 + 8 s)
