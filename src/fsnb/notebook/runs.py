"""What `%%explore` runs, apart from parsing its line: the run's spec and explorer, the
panel it shows (or the `-f` form it prints), binding the result to `_explore` and `-o`, and
follow-ups (`-c`). A mixin of `ExploreMagics`, which holds the settings it reads."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError

from fsnb.db.errors import USER_ERRORS
from fsnb.errors import one_line
from fsnb.notebook.commands import interrupted_line, show, usage_error
from fsnb.notebook.display import folder_label

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer
    from fsnb.agent.result import ExplorationResult
    from fsnb.agent.spec import RunSpec
    from fsnb.llm import LLM
    from fsnb.notebook.pending import Waiter
    from fsnb.notebook.widget import ExplorePanel

#: How long an interrupted `%%explore` waits for its run to end.
CANCEL_WAIT_S = 10.0


def folder_path(raw: str, shell: Any) -> str:
    from fsnb.notebook.interpolation import expand

    folder = expand(shell, raw.strip("\"'"))
    if not Path(folder).expanduser().is_dir():
        msg = f"not a folder: {folder} (working directory: {Path.cwd()})"
        raise UsageError(msg)
    return folder


def variable_name(value: str | None) -> str | None:
    if value is not None and not value.isidentifier():
        msg = f"-o needs a Python variable name, not {value!r}"
        raise UsageError(msg)
    return value


def holds_llm(namespace: Mapping[str, Any], name: str) -> bool:
    """Whether `name` is a variable holding an LLM backend (an object with `next_action`)."""
    return name.isidentifier() and hasattr(namespace.get(name), "next_action")


class Runs:
    """The runs of `%%explore`; `ExploreMagics` gives the shell and the settings."""

    shell: Any
    waiter: Waiter
    panel: ExplorePanel | None
    evidence_images: bool
    ask_timeout_s: float
    max_steps: int
    timeout_s: float
    db: str
    reveal_secrets: bool
    llm: str
    model: str
    base_url: str

    @property
    def _ns(self) -> dict[str, Any]:
        return self.shell.user_ns

    def _run(self, args: argparse.Namespace, question: str) -> ExplorePanel | None:
        """Run in a panel: it shows at once and the cell blocks until the run ends, then
        shows the record; an interrupt cancels the run, binds what it found and says so in
        one line. With `--background` the panel is the cell's value (shown with its static
        record) and later cells that use the result wait for it (`fsnb.notebook.pending`)."""
        from fsnb.notebook.kernel_thread import noting_interrupts
        from fsnb.notebook.widget import ExplorePanel

        out = variable_name(args.out)
        explorer, after = self._explorer_for(args)
        self.panel = panel = ExplorePanel(folder=folder_label(explorer.root))
        panel.evidence_images = self.evidence_images  # FSNB_EVIDENCE_IMAGES=0 wins
        panel.attach(
            explorer,
            question,
            ask_timeout_s=self.ask_timeout_s,
            on_done=lambda result: self._bind(result, out),
            after=after,
        )
        if args.background and not args.wait:
            self.waiter.add(panel, out)
            return panel
        with noting_interrupts() as interrupted:
            panel.display_view()
            panel.wait(until=interrupted)
            if interrupted.is_set():
                panel.cancel()
                interrupted.clear()  # a second interrupt stops waiting for the cancel
                result = panel.wait(CANCEL_WAIT_S, until=interrupted)
                print(interrupted_line(result, out))
        panel.display_record()
        return None

    def _print_answer(self, args: argparse.Namespace, question: str) -> None:
        """`-f FORMAT`: run to the end in this cell, no panel; bind the result as the panel
        would and print it in that form. An interrupt cancels the run (one line on stderr)."""
        from fsnb.notebook.kernel_thread import noting_interrupts

        out = variable_name(args.out)
        explorer, after = self._explorer_for(args)
        run = explorer.start(question, after=after)
        with noting_interrupts() as interrupted:
            while run.is_alive() and not interrupted.is_set():
                run.join(0.1)
            if interrupted.is_set():
                run.cancel()
                run.join(CANCEL_WAIT_S)
        result = run.result(0)
        if result is not None:
            self._bind(result, out)
            show(result, args.format)
        if interrupted.is_set():
            print(interrupted_line(result, out), file=sys.stderr)

    def _bind(self, result: ExplorationResult, out: str | None) -> None:
        """Give the result to `_explore` and to the `-o` variable."""
        self._ns["_explore"] = result
        if out:
            self._ns[out] = result

    def _explorer_for(self, args: argparse.Namespace) -> tuple[Explorer, ExplorationResult | None]:
        """The explorer of this run, and with `--continue` the run it follows up (whose
        explorer goes on, keeping its parsed documents, unless options name another; its
        backend, model and server stay, whatever the configured defaults)."""
        from fsnb.agent.loop import Explorer
        from fsnb.agent.result import ExplorationResult

        after = None
        if args.follow_up:
            self.waiter.settle()  # a background run's result is what this follows up
            after = self._ns.get("_explore")
            if not isinstance(after, ExplorationResult):
                msg = "nothing to continue: --continue follows up _explore, set by %%explore"
                raise UsageError(msg)
            chosen = (args.llm, args.model, args.base_url, args.max_steps, args.timeout)
            if isinstance(after.explorer, Explorer) and all(
                c is None for c in (*chosen, args.db, args.use_index)
            ):
                return after.explorer, after
        return self._explorer(self._spec(args, after)), after

    def _spec(self, args: argparse.Namespace, after: ExplorationResult | None) -> RunSpec:
        """The run's `RunSpec`: the options given over the configured defaults; a follow-up
        (`after`) goes on in its folder, with its thread's backend, model and server."""
        from fsnb.agent.spec import RunSpec

        if args.max_steps is not None and args.max_steps < 1:
            msg = f"--max-steps must be at least 1, not {args.max_steps}"
            raise UsageError(msg)
        defaults = RunSpec(
            max_steps=self.max_steps,
            timeout_s=self.timeout_s,
            db=self.db or None,
            reveal_secrets=self.reveal_secrets,
        )
        if after is None:  # the configured backend is a default, never a follow-up's choice
            defaults = replace(
                defaults, llm=self.llm, model=self.model or None, base_url=self.base_url or None
            )
        spec = RunSpec.from_args(args, defaults)
        if after is None:
            spec = replace(spec, folder=folder_path(args.folder, self.shell))
        else:
            spec = replace(spec, folder=after.folder, follow=after)
        if isinstance(spec.llm, str) and (held := self._held_llm(spec.llm)) is not None:
            spec = replace(spec, llm=held)
        return spec

    def _explorer(self, spec: RunSpec) -> Explorer:
        """The spec's explorer, its runs recorded; what a user can fix is a `UsageError`."""
        from fsnb.agent.spec import recording
        from fsnb.llm import MissingKey, registry

        try:
            backend = spec.backend()
        except USER_ERRORS as exc:
            raise usage_error(exc) from None
        try:
            return spec.explorer(observers=recording(spec.db), backend=backend)
        except MissingKey as exc:
            variables = registry.key_variables(backend.name)
            hint = f" (in a notebook: %env {variables[0]}=...)" if variables else ""
            raise UsageError(one_line(exc) + hint) from None
        except USER_ERRORS as exc:
            raise usage_error(exc) from None

    def _held_llm(self, name: str) -> LLM | None:
        """The LLM object held in the variable `name`, if it names one and no backend."""
        from fsnb.llm import registry

        if name.lower() in registry.names() or not name.isidentifier() or name not in self._ns:
            return None
        value = self._ns[name]
        if not hasattr(value, "next_action"):
            msg = f"--llm {name}: that variable holds no LLM backend (it has no next_action)"
            raise UsageError(msg)
        return value
