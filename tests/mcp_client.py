"""`fsnb mcp` started as a subprocess and driven through the MCP SDK's real client, from
synchronous tests: `Connected` holds a `ClientSession` whose event loop runs in a thread,
over stdio (`stdio`) or streamable HTTP (`http_server`, then `http`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

T = TypeVar("T")
#: How long a step may take before the test fails (a guard against hanging, not a timing).
DEADLINE_S = 120.0
Transport = Callable[[], AbstractAsyncContextManager[Any]]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "fsnb.cli", "mcp", *args]


def environment(**extra: str) -> dict[str, str]:
    """This process's variables (the network guard's PYTHONPATH included), with `extra`."""
    return {**os.environ, "HF_HUB_OFFLINE": "1", **extra}


def stdio(args: list[str], env: dict[str, str], errlog: Path) -> Transport:
    """`fsnb mcp ARGS` on stdio; its stderr goes to `errlog`."""
    params = StdioServerParameters(command=sys.executable, args=command(*args)[1:], env=env)

    @asynccontextmanager
    async def transport() -> AsyncIterator[Any]:
        with errlog.open("a", encoding="utf-8") as log:
            async with stdio_client(params, errlog=log) as streams:
                yield streams

    return transport


@contextmanager
def http_server(args: list[str], env: dict[str, str]) -> Iterator[tuple[str, list[str]]]:
    """`fsnb mcp --http 127.0.0.1:0 ARGS` running: (its URL, the lines of its stderr)."""
    process = subprocess.Popen(
        command("--http", "127.0.0.1:0", *args),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    found: concurrent.futures.Future[str] = concurrent.futures.Future()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            if "serving" in line and not found.done():
                found.set_result(line.split(" at ")[1].split()[0])
        if not found.done():
            found.set_exception(RuntimeError("fsnb mcp ended: " + "".join(lines[-20:])))

    threading.Thread(target=read, daemon=True).start()
    try:
        yield found.result(DEADLINE_S), lines
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def http(url: str, token: str | None) -> Transport:
    """A streamable HTTP connection to `url`, sending `token` as a bearer token."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}

    @asynccontextmanager
    async def transport() -> AsyncIterator[Any]:
        timeout = httpx2.Timeout(30.0, read=300.0)
        async with (
            httpx2.AsyncClient(headers=headers, timeout=timeout) as client,
            streamable_http_client(url, http_client=client) as streams,
        ):
            yield streams

    return transport


class Connected:
    """An initialized `ClientSession` on `transport`, its event loop in a thread: `run`
    waits for a coroutine's result, `submit` hands back its future (to cancel it)."""

    def __init__(self, transport: Transport) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._closing: asyncio.Event | None = None
        self.session: ClientSession
        self.init: Any = None
        self._held = self.submit(self._hold(transport))
        self._ready.result(DEADLINE_S)

    async def _hold(self, transport: Transport) -> None:
        self._closing = asyncio.Event()
        try:
            async with transport() as streams, ClientSession(streams[0], streams[1]) as session:
                self.session = session
                self.init = await session.initialize()
                self._ready.set_result(None)
                await self._closing.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.submit(coro).result(DEADLINE_S)

    def call(self, name: str, arguments: dict[str, Any] | None = None, **options: Any) -> Any:
        """`session.call_tool(name, arguments)`'s result."""
        return self.run(self.session.call_tool(name, arguments or {}, **options))

    def close(self) -> None:
        if self._closing is not None:
            self.loop.call_soon_threadsafe(self._closing.set)
        try:
            self._held.result(DEADLINE_S)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(DEADLINE_S)

    def __enter__(self) -> Connected:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
