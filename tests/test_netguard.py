"""The suite's network guard refuses and reports connections beyond loopback."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest
from conftest import _NETLOG

# TEST-NET-3 (RFC 5737): never routed, so nothing is reached even without the guard.
OFF_MACHINE = ("203.0.113.7", 443)


def _drain_log(size: int) -> str:
    text = _NETLOG.read_text(encoding="utf-8")[size:]
    with _NETLOG.open("r+", encoding="utf-8") as log:  # forget it: this test expects it
        log.truncate(size)
    return text


def test_a_connection_off_the_machine_is_refused_and_recorded():
    size = _NETLOG.stat().st_size
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError, match="loopback only"):
        sock.connect(OFF_MACHINE)
    assert "203.0.113.7:443" in _drain_log(size)


def test_a_child_python_process_is_guarded_too():
    size = _NETLOG.stat().st_size
    code = f"import socket; socket.create_connection({OFF_MACHINE!r}, timeout=1)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert "loopback only" in done.stderr
    assert "203.0.113.7:443" in _drain_log(size)


def test_loopback_connections_pass():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            accepted, _ = server.accept()
            accepted.close()
