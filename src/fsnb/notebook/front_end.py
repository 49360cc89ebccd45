"""The panel's front end, shared: one model per kernel holds widget.js and widget.css.

anywidget syncs a widget's `_esm` and `_css` with its state, so a saved notebook would hold
the whole front end (about 40 KB) once per panel. Each `ExplorePanel` instead syncs a small
loader (`static/loader.js`) and a reference to one `FrontEnd` model of its kernel (an
`anywidget.WidgetTrait`, anywidget's widget composition), whose `esm` and `css` the loader
imports and injects once per page (through `host.getModel`; where an older front end has
no `host`, the widget manager's `get_model`). A front end that cannot reach
that model shows no panel, and then the static record under it stays visible.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets as t

#: The front end: a plain ES module and its CSS, shipped in the package (no build step).
STATIC = Path(__file__).resolve().parent.parent / "static"

_shared: FrontEnd | None = None


class FrontEnd(anywidget.AnyWidget):
    """widget.js and widget.css, for every panel of this kernel (never displayed)."""

    _esm = "export default {};"
    esm = t.Unicode("").tag(sync=True)
    css = t.Unicode("").tag(sync=True)


def front_end() -> FrontEnd:
    """This kernel's front end model (made again if it was closed)."""
    global _shared
    if _shared is None or _shared.comm is None:
        _shared = FrontEnd(
            esm=(STATIC / "widget.js").read_text(encoding="utf-8"),
            css=(STATIC / "widget.css").read_text(encoding="utf-8"),
        )
    return _shared
