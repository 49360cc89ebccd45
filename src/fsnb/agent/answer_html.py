"""The answer's markdown as safe HTML, rendered once, in Python, for every HTML view.

CommonMark (plus tables) through markdown-it-py with raw HTML off, so text from documents
or an LLM cannot inject markup: tags are escaped and `javascript:` links are not links.
Each `[n]` citation marker becomes a button (`data-cite="n"`) that the widget wires to
the cited passage; headings start at <h3>, and links open in a new tab.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

CITATION_CLASS = "fsnb-citation"
_MARKER = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_HEADING_SHIFT = 2


def _citation(state: StateInline, silent: bool) -> bool:
    """`[1]` or `[1, 2]`, unless `(` follows (a link such as `[1](url)`)."""
    found = _MARKER.match(state.src, state.pos, state.posMax)
    if found is None or state.src[found.end() : found.end() + 1] == "(":
        return False
    if not silent:
        token = state.push("fsnb_citation", "", 0)
        token.meta = {"ids": [int(n) for n in found.group(1).split(",")]}
    state.pos = found.end()
    return True


def _render_citation(
    _self: Any, tokens: Sequence[Token], idx: int, _options: OptionsDict, _env: EnvType
) -> str:
    return "".join(
        f'<button type="button" class="{CITATION_CLASS}" data-cite="{n}">[{n}]</button>'
        for n in tokens[idx].meta["ids"]
    )


def _shape(state: StateCore) -> None:
    """Headings two levels down (the answer sits under the panel's title); new-tab links."""
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + _HEADING_SHIFT, 6)}"
        for child in token.children or ():
            if child.type == "link_open":
                child.attrSet("target", "_blank")
                child.attrSet("rel", "noopener noreferrer")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.inline.ruler.before("link", "fsnb_citation", _citation)
    md.add_render_rule("fsnb_citation", _render_citation)
    md.core.ruler.push("fsnb_shape", _shape)
    return md


_MD = _parser()


def answer_html(markdown: str) -> str:
    """The answer as HTML: safe to insert into a page, citation markers as buttons."""
    return _MD.render(markdown or "")
