"""The one root element of every piece of HTML fsnb shows in a notebook.

JupyterLab typesets `$...$` in HTML outputs as maths (MathJax 3), as do classic Notebook
and exported HTML (MathJax 2) and KaTeX-based front ends: `$473.26 ... $1,200` in an
answer would come out as a formula. fsnb shows dollar amounts, never maths, so each root
carries the classes these typesetters skip.

Docling's Markdown writes a literal pipe as `\\|`; `unescape_pipes` turns it back wherever
a quote is shown outside a Markdown table.
"""

from __future__ import annotations

#: Skipped by MathJax 2 (`tex2jax_ignore`) and MathJax 3 (`mathjax_ignore`, JupyterLab 4).
NO_MATH = "tex2jax_ignore mathjax_ignore"


def html_root(body: str, kind: str) -> str:
    """`body` inside one `<div>` of class `kind` that no maths typesetter enters."""
    return f"<div class='{kind} {NO_MATH}'>{body}</div>"


def unescape_pipes(text: str) -> str:
    """`text` with Docling's escaped pipes (`\\|`) as plain `|`."""
    return text.replace("\\|", "|")


__all__ = ["NO_MATH", "html_root", "unescape_pipes"]
