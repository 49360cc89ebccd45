"""The answer's markdown as safe HTML, rendered once, in Python, for every HTML view.

CommonMark (plus tables) through markdown-it-py with raw HTML off, so text from documents
or an LLM cannot inject markup: tags are escaped and `javascript:` links are not links.
Each `[n]` citation marker becomes a button (`data-cite="n"`) that the widget wires to
the cited passage; headings start at <h3>, and links open in a new tab.

Nothing in a rendered answer loads by itself: an image (inline, reference-style, raw HTML,
any URL) would let a prompt-injected model send data out in its URL, so it is shown as
text, `[image: ALT — not loaded]`. `inert_markdown` does the same for markdown outputs,
which the notebook renders with raw HTML allowed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

CITATION_CLASS = "fsnb-citation"
_MARKER = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_HEADING_SHIFT = 2
#: Inline images `![alt](destination)`, with one level of parentheses in the destination.
_INLINE_IMAGE = re.compile(r"!\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)")
#: Where a tag (or comment, declaration) would begin in raw HTML.
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
#: Breaks `![` and `<tag` apart without showing, in prose and in code alike.
_ZERO_WIDTH = "\u200b"


def image_text(alt: str) -> str:
    """What an image in an answer is shown as."""
    return f"[image: {alt.strip() or 'no description'} — not loaded]"


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


def _render_image(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return f'<span class="fsnb-image">{escapeHtml(image_text(alt))}</span>'


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
    md.add_render_rule("image", _render_image)
    md.core.ruler.push("fsnb_shape", _shape)
    return md


_MD = _parser()


def answer_html(markdown: str) -> str:
    """The answer as HTML: safe to insert into a page, citation markers as buttons."""
    return _MD.render(markdown or "")


def inert_markdown(markdown: str) -> str:
    """Markdown that renders no image and no raw HTML: inline images become their
    `image_text`, and every other `![` (reference-style images) and `<tag` is broken by a
    zero-width space, which leaves code blocks looking as they were."""
    text = _INLINE_IMAGE.sub(lambda m: "\\" + image_text(m.group(1))[:-1] + "\\]", markdown)
    return _TAG_START.sub("<" + _ZERO_WIDTH, text.replace("![", "!" + _ZERO_WIDTH + "["))
