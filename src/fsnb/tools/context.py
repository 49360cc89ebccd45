"""What a tool works in: the folder's sandbox, the index database and the folder's scratchpad.

One `ToolContext` is built per exploration and handed to every tool call as `ctx=`, so no
call rebuilds a `Sandbox`, a `Database` or a `Scratchpad` from bare strings. Each is made on
first use: a context for a path that is not a folder fails only when a tool reads it.
"""

from __future__ import annotations

import functools
import os
import threading
import time

from fsnb.db.database import Database, database
from fsnb.db.scratchpad import Scratchpad
from fsnb.errors import Cancelled
from fsnb.llm.masked import masked
from fsnb.protocol import LLM
from fsnb.protocol.usage import Tokens
from fsnb.security import Sandbox
from fsnb.tools.catalog import FileCatalog
from fsnb.tools.index_catalog import choose


class ToolContext:
    """The folder being explored (a path or its `Sandbox`), the index database (`db=` its
    path, None: the default one; `ctx.db` is its `Database`) and the run's LLM (None: tools
    that need one refuse), behind the secret mask unless `reveal_secrets`
    (`fsnb.llm.masked`): a tool reaches a model no other way."""

    #: The run's deadline (`time.monotonic()`) and cancel flag, set by the loop; `check`
    #: reads them (None: no limit).
    deadline: float | None = None
    cancelled: threading.Event | None = None

    def __init__(
        self,
        root: str | os.PathLike[str] | Sandbox,
        db: str | os.PathLike[str] | None = None,
        *,
        llm: LLM | None = None,
        reveal_secrets: bool = False,
    ) -> None:
        self._root = root
        #: The index file as given (None: the default one); `db` is its `Database`.
        self.db_path = os.fspath(db) if db else None
        self.llm = None if llm is None else masked(llm, reveal=reveal_secrets)
        #: The tokens of each LLM call made by a tool, until the run takes them into its
        #: usage (`take_spent`).
        self.spent: list[Tokens] = []

    def spend(self, tokens: Tokens) -> None:
        """Record the tokens of one LLM call a tool made."""
        self.spent.append(tokens)

    def take_spent(self) -> list[Tokens]:
        """The calls recorded since the last take, and forget them."""
        taken = []
        while self.spent:  # pop, not copy-and-clear: a tool's thread may still be adding
            taken.append(self.spent.pop(0))
        return taken

    def check(self) -> None:
        """`Cancelled` once the run was cancelled or its deadline passed: long tools call it
        between documents or batches, so that a run given up on stops working."""
        if self.cancelled is not None and self.cancelled.is_set():
            msg = "the run was cancelled"
            raise Cancelled(msg)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            msg = "the run's time limit passed"
            raise Cancelled(msg)

    def __repr__(self) -> str:
        root = self._root.root if isinstance(self._root, Sandbox) else self._root
        return f"ToolContext({os.fspath(root)!r}, db={self.db_path!r})"

    @functools.cached_property
    def sandbox(self) -> Sandbox:
        """The folder's sandbox; `NotADirectoryError` when the root is not a folder."""
        return self._root if isinstance(self._root, Sandbox) else Sandbox(self._root)

    @property
    def root(self) -> str:
        """The folder's absolute path."""
        return str(self.sandbox.root)

    @functools.cached_property
    def db(self) -> Database:
        """The index database."""
        return database(self.db_path)

    @functools.cached_property
    def scratchpad(self) -> Scratchpad:
        """The folder's own scratchpad tables, in the index database."""
        return Scratchpad(self.db, folder=self.root)

    @functools.cached_property
    def files(self) -> FileCatalog:
        """The folder's files as the navigator tools read them, chosen on first use and
        kept: the index when it holds the folder, else one walk of it (`fsnb.tools.catalog`)."""
        return choose(self.sandbox, self.db)


__all__ = ["ToolContext"]
