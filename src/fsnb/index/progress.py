"""Progress bars that end in their final state wherever they are shown.

In a terminal: tqdm's bar, cleared when done. In a Jupyter kernel: tqdm's text bar in one
output that each update replaces (a display id), sent from the thread doing the work,
and closed as one line without timings ("indexing docs: 25 of 25 documents"), so a saved
or exported notebook shows how the work ended, not a widget frozen at 0%.
"""

from __future__ import annotations

import sys
from typing import Any

from tqdm.std import tqdm


def bar(total: int, desc: str, unit: str, noun: str) -> tqdm:
    """A bar over `total` items of `unit` (`noun` names them in the final line)."""
    if _in_kernel():
        return _OutputBar(total=total, desc=desc, unit=unit, noun=noun)
    from tqdm.auto import tqdm as auto

    return auto(total=total, desc=desc, unit=unit, leave=False)


def _in_kernel() -> bool:
    ipython = sys.modules.get("IPython")  # not imported: not in a kernel
    return ipython is not None and getattr(ipython.get_ipython(), "kernel", None) is not None


class _Output:
    """A file for tqdm: each write replaces the text of one notebook output."""

    encoding = "utf-8"

    def __init__(self) -> None:
        self._handle: Any = None

    def write(self, text: str) -> int:
        line = text.strip("\r\n")
        if line.strip():
            self.show(line)
        return len(text)

    def flush(self) -> None:
        pass

    def show(self, line: str) -> None:
        from IPython.display import display

        bundle = {"text/plain": line}
        if self._handle is None:
            self._handle = display(bundle, raw=True, display_id=True)
        else:
            self._handle.update(bundle, raw=True)


class _OutputBar(tqdm):
    """tqdm's text bar in one output, ending as a line that says how far it got."""

    monitor_interval = 0  # no monitor thread: the output changes only from the working one

    def __init__(self, *, noun: str, **kwargs: Any) -> None:
        self._output, self._noun = _Output(), noun
        super().__init__(file=self._output, leave=True, mininterval=0.5, **kwargs)

    def close(self) -> None:
        if self.disable:
            return
        done, total = self.n, self.total
        super().close()
        self._output.show(f"{self.desc}: {done:,} of {total:,} {self._noun}")
