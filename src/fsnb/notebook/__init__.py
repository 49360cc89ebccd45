"""The notebook kit: the `%load_ext fsnb` magics, the ExplorePanel widget, `connect()`.

Submodules load on first use (PEP 562), so `import fsnb.notebook` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ExploreMagics": "fsnb.notebook.magics",
    "ExplorePanel": "fsnb.notebook.widget",
    "Rendering": "fsnb.notebook.display",
    "connect": "fsnb.notebook.connection",
    "load_ipython_extension": "fsnb.notebook.magics",
    "render": "fsnb.notebook.display",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    msg = f"module 'fsnb.notebook' has no attribute {name!r}"
    raise AttributeError(msg)
