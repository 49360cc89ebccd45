"""A server on 127.0.0.1 that accepts each connection, reads the request and closes it
without a word: a connection failure worth another try, unlike a refused connection
(nothing listening)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


@contextmanager
def hanging_up() -> Iterator[str]:
    """The server's URL (`http://127.0.0.1:PORT`) while it runs."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                _drain(conn)  # closed with the request unread, it would be reset instead

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()


def _drain(conn: socket.socket) -> None:
    """Read until the client has sent nothing for a moment."""
    conn.settimeout(0.1)
    with suppress(OSError):  # TimeoutError included
        while conn.recv(65536):
            pass


def closed_port() -> int:
    """A port nobody listens on: a connection to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
