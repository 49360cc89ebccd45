"""Background explorations, and the cells that wait for them before they run.

`%%explore --background` returns at once; its result reaches `_explore` (and `-o VAR`)
when the run ends. In "Run All", nbconvert or papermill that moment never comes while
later cells run: the kernel's IO loop, which binds the result, gets no turn between
cells. So before each cell runs (IPython's `pre_run_cell`), a cell that uses a pending
run's result (names `_explore` or its `-o` variable, or asks a follow-up with `-c`)
first waits for that run, showing it live meanwhile; any other cell runs at once, so an
interactive user who goes on typing is not held up.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fsnb.notebook.widget import ExplorePanel

#: A follow-up (`%explore -c`, `%%explore --continue ...`) anywhere in a cell.
_FOLLOW_UP = re.compile(r"^\s*%%?explore\b[^\n]*?\s(?:-c|--continue)\b", re.MULTILINE)


@dataclass
class Pending:
    """A background run and the variable (`-o`) that receives its result."""

    panel: ExplorePanel
    out: str | None


class Waiter:
    """The background runs of one shell, and its `pre_run_cell` hook."""

    def __init__(self) -> None:
        self.runs: list[Pending] = []

    def add(self, panel: ExplorePanel, out: str | None) -> None:
        self.runs = [run for run in self.runs if run.panel.running]
        self.runs.append(Pending(panel, out))

    def uses(self, code: str, run: Pending) -> bool:
        """Whether the cell `code` uses what `run` will bind (false positives only wait)."""
        names = ["_explore", *([run.out] if run.out else [])]
        named = re.search(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b", code)
        return bool(named or _FOLLOW_UP.search(code))

    def before_cell(self, info: Any) -> None:
        """IPython's `pre_run_cell`: bind what ended meanwhile, then wait for each pending
        run this cell uses."""
        from fsnb.notebook import kernel_thread

        ended = [run for run in self.runs if not run.panel.running]
        kernel_thread.drain()  # their results, posted before they ended, are bound now
        self.runs = [run for run in self.runs if run not in ended]
        code = getattr(info, "raw_cell", "") or ""
        for run in list(self.runs):
            if self.uses(code, run):
                self.wait(run)
        self.runs = [run for run in self.runs if run.panel.running]

    def settle(self) -> None:
        """Wait for every pending run (a follow-up needs the last one's result)."""
        from fsnb.notebook import kernel_thread

        for run in list(self.runs):
            self.wait(run)
        kernel_thread.drain()
        self.runs = [run for run in self.runs if run.panel.running]

    def wait(self, run: Pending) -> None:
        """Block until `run` ends and its result is bound; an interrupt stops the waiting
        (the run goes on in the background) and says so in one line."""
        from fsnb.notebook.kernel_thread import noting_interrupts

        with noting_interrupts() as interrupted:
            run.panel.wait(until=interrupted)
        if interrupted.is_set():
            name = run.out or "_explore"
            print(
                f"Stopped waiting: the exploration goes on in the background; {name} "
                "is set when it ends.",
                file=sys.stderr,
            )
