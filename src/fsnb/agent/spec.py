"""One run's options, and the one way the front ends turn them into an `Explorer`.

`RunSpec` holds what `fsnb.explore`, `fsnb explore` and `%%explore` let a user choose.
`RunSpec.from_args` reads a parsed command line (the CLI's, the magics'); `resolved` finds
the run a follow-up continues (`follow="last"`: the last one recorded over the folder);
`backend` parses the backend id once, and for a follow-up keeps its thread's backend,
model and server (`check_follow_up` refuses another); `explorer` builds the `Explorer`.

What watches a run is an observer (`RunObserver`): recording it in the index file is one,
`RecordRun`, which the front ends add (`recording`; off with `FSNB_RECORD=0`), so a
script's `Explorer(...).run()` writes no index file.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from fsnb.agent.limits import CONTEXT_CHARS
from fsnb.errors import FsnbError

if TYPE_CHECKING:
    from fsnb.agent.events import Event
    from fsnb.agent.loop import AskCallback, Explorer
    from fsnb.agent.result import ExplorationResult
    from fsnb.protocol import LLM
    from fsnb.tools import Registry

#: The reply a question of the agent gets when no one answers it.
DEFAULT_ANSWER = "No answer was given; continue with your best judgement."
#: Set to 0 (or false, no, off), runs are not recorded in the index file.
RECORD_VARIABLE = "FSNB_RECORD"
#: Command-line names (argparse `dest`) of fields spelled otherwise.
_ARG_NAMES = {"timeout": "timeout_s"}
log = logging.getLogger(__name__)


class RunObserver(Protocol):
    """What watches a run: each event as it happens, then the result."""

    def on_event(self, event: Event) -> None: ...

    def on_result(self, result: ExplorationResult) -> None: ...


class RecordRun:
    """Adds each finished run to the `explorations` table of the DuckDB file `db` (None:
    the default index); a file that cannot be written costs the record, never the run."""

    def __init__(self, db: str | os.PathLike[str] | None = None) -> None:
        self.db = os.fspath(db) if db else None

    def __repr__(self) -> str:
        return f"RecordRun({self.db!r})"

    def on_event(self, event: Event) -> None:
        """Nothing: a run is recorded whole, when it ends."""

    def on_result(self, result: ExplorationResult) -> None:
        from fsnb.index.explorations import record

        try:
            record(self.db, result.to_record())
        except Exception as exc:  # the answer matters more than its record
            log.warning("exploration not recorded in %s: %s", self.db or "the index", exc)


def recording(db: str | os.PathLike[str] | None = None) -> tuple[RunObserver, ...]:
    """The observers a front end adds: `RecordRun(db)`, unless `FSNB_RECORD=0`."""
    off = os.environ.get(RECORD_VARIABLE, "").strip().lower() in ("0", "false", "no", "off")
    return () if off else (RecordRun(db),)


@dataclass(frozen=True)
class Backend:
    """The backend a run uses: a name with its model and server, or an LLM object."""

    name: str
    model: str | None = None
    base_url: str | None = None
    llm: LLM | None = None

    def make(self) -> LLM:
        """The backend itself (`MissingKey` when it needs a key that is not set)."""
        from fsnb.llm import registry

        if self.llm is not None:
            return self.llm
        return registry.create(self.name, model=self.model, base_url=self.base_url)


def last_run(
    folder: str | os.PathLike[str], db: str | os.PathLike[str] | None = None
) -> ExplorationResult:
    """The last run recorded over `folder` in `db`, to follow up; `FsnbError` if none."""
    from fsnb.agent.result import ExplorationResult
    from fsnb.index.explorations import latest_run

    saved = latest_run(db, folder)
    if saved is None:
        msg = f"no earlier exploration of {folder} to continue: run fsnb explore first"
        raise FsnbError(msg)
    return ExplorationResult.from_record(saved)


@dataclass(frozen=True, kw_only=True)
class RunSpec:
    """A run's options: the folder, the backend (a name, a model id such as
    `ollama:llama3.2`, or an LLM object), the limits, the index, and the run it follows up
    (`follow`: "last", the last run recorded over the folder, or the run itself)."""

    folder: str | os.PathLike[str] = "."
    llm: str | LLM = "auto"
    model: str | None = None
    base_url: str | None = None
    max_steps: int = 25
    timeout_s: float = 300.0
    max_result_chars: int = 15_000
    context_chars: int | None = CONTEXT_CHARS
    max_question_chars: int | None = 4_000
    default_answer: str = DEFAULT_ANSWER
    db: str | os.PathLike[str] | None = None
    use_index: bool | Literal["auto"] = "auto"
    reveal_secrets: bool = False
    registry: Registry | None = None
    follow: Literal["last"] | ExplorationResult | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace, defaults: RunSpec | None = None) -> RunSpec:
        """The spec of a parsed command line (`fsnb explore`'s, `%%explore`'s): each option
        given (not None) over `defaults`; `follow_up` (`-c`) follows the last run."""
        names = {f.name for f in dataclasses.fields(cls)} - {"follow"}
        given: dict[str, Any] = {}
        for arg, value in vars(args).items():
            name = _ARG_NAMES.get(arg, arg)
            if name in names and value is not None:
                given[name] = value
        if getattr(args, "follow_up", False):
            given["follow"] = "last"
        return dataclasses.replace(defaults or cls(), **given)

    def resolved(self) -> RunSpec:
        """This spec with `follow` the run it continues ("last": the last one recorded over
        the folder, `FsnbError` when there is none); a run that cannot be followed up (a
        saved one loaded without a folder) is refused with its reason."""
        from fsnb.agent.result import NotContinued

        if self.follow == "last":
            return dataclasses.replace(self, follow=last_run(self.folder, self.db))
        if self.follow is not None and isinstance(self.follow.explorer, NotContinued):
            raise FsnbError(self.follow.explorer.why)
        return self

    @property
    def after(self) -> ExplorationResult | None:
        """The run this one follows up, if any."""
        follow = self.resolved().follow
        return None if isinstance(follow, str) else follow

    def backend(self) -> Backend:
        """The run's backend, its id parsed once (`ollama:llama3.2`, in `llm` or `model`).
        A follow-up keeps its thread's backend and server, and its model unless another is
        named; naming another backend or server is refused (`FsnbError`, one line)."""
        from fsnb.agent.result import check_follow_up
        from fsnb.llm import registry

        after = self.after
        if not isinstance(self.llm, str):  # an LLM object: its own backend and server
            if after is not None:
                server = getattr(self.llm, "base_url", None)
                check_follow_up(after, self.llm.backend, server, exact=True)
            return Backend(self.llm.backend, llm=self.llm)
        name, model = registry.split_id(self.llm, self.model)
        name = (name or registry.AUTO).lower()
        if name not in registry.names():
            msg = f"unknown LLM backend {name!r}; choose one of: {', '.join(registry.names())}"
            raise ValueError(msg)
        if after is None:
            return Backend(name, model, self.base_url or None)
        named = None if name == registry.AUTO else name
        check_follow_up(after, named, self.base_url)
        return Backend(
            named or after.backend or registry.AUTO,
            model or after.model or None,
            self.base_url or after.base_url,
        )

    def explorer(
        self,
        *,
        ask: AskCallback | None = None,
        observers: Sequence[RunObserver] = (),
        backend: Backend | None = None,
    ) -> Explorer:
        """The `Explorer` of this spec (`backend`: the one `backend()` gave, if asked
        already); run it with `after=spec.after`. `observers` watch its runs
        (`recording(db)` records them)."""
        from fsnb.agent.loop import Explorer

        spec = self.resolved()
        return Explorer(
            spec.folder,
            (backend or spec.backend()).make(),
            max_steps=spec.max_steps,
            timeout_s=spec.timeout_s,
            max_result_chars=spec.max_result_chars,
            context_chars=spec.context_chars,
            max_question_chars=spec.max_question_chars,
            ask=ask,
            default_answer=spec.default_answer,
            registry=spec.registry,
            db=spec.db,
            use_index=spec.use_index,
            reveal_secrets=spec.reveal_secrets,
            observers=observers,
        )


__all__ = [
    "DEFAULT_ANSWER",
    "Backend",
    "RecordRun",
    "RunObserver",
    "RunSpec",
    "last_run",
    "recording",
]
