"""fsnb: ask questions of a folder of documents from a Jupyter notebook."""

from __future__ import annotations

from fsnb._version import __version__

__all__ = ["__version__", "load_ipython_extension"]


def load_ipython_extension(ipython):
    """`%load_ext fsnb`: register the magics (imported lazily to keep `import fsnb` fast)."""
    from fsnb.notebook.magics import load_ipython_extension as load

    load(ipython)
