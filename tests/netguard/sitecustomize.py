"""Loopback only: refuse and record any socket connection to an address off this machine.

The test suite installs this in its own process (tests/conftest.py) and, through
PYTHONPATH, in every Python process it starts (the CLI, Jupyter kernels and servers).
A refused connection raises ConnectionRefusedError in the code that tried it and is
appended to the file named by FSNB_NETGUARD_LOG, which conftest checks after each test,
so an attempt is caught even where the error is swallowed or happens in a thread.
"""

from __future__ import annotations

import ipaddress
import os
import socket

LOG_VARIABLE = "FSNB_NETGUARD_LOG"
_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: object) -> bool:
    if not isinstance(host, str):
        return False
    if host.lower() in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _checked(method):  # type: ignore[no-untyped-def]
    def guarded(self: socket.socket, address, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0] if isinstance(address, tuple) and address else address
            if not is_loopback(host):
                where = f"{host}:{address[1]}" if isinstance(address, tuple) else str(host)
                if path := os.environ.get(LOG_VARIABLE):
                    with open(path, "a", encoding="utf-8") as log:
                        log.write(f"{os.getpid()} {where}\n")
                msg = f"test network guard: connection to {where} refused (loopback only)"
                raise ConnectionRefusedError(msg)
        return method(self, address, *args, **kwargs)

    guarded.__wrapped__ = method  # type: ignore[attr-defined]
    return guarded


def install() -> None:
    """Guard `socket.socket.connect` and `connect_ex` (idempotent)."""
    for name in ("connect", "connect_ex"):
        method = getattr(socket.socket, name)
        if not hasattr(method, "__wrapped__"):
            setattr(socket.socket, name, _checked(method))


if os.environ.get(LOG_VARIABLE):
    install()
