"""Saved and exported notebooks show the answers: nbconvert, executed, offline.

A notebook with a `--background` `%%explore`, a default (blocking) one, a follow-up
(`-c`) and `%explore_index`, whose later cells use each result with no explicit wait, is
executed with `jupyter nbconvert --execute` (a real kernel; the network guard is on its
PYTHONPATH), then exported to HTML and to Markdown. What a reader sees there (the text
outside scripts) must hold each answer and its citations: the widget view cannot render
without a widget front end, so each run leaves a static record, updated when it ends.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from conftest import DATA

from fsnb.agent import ExplorationResult, Explorer
from fsnb.llm import get_llm

pytestmark = pytest.mark.slow

BACKGROUND = "What is the total purchase price?"
WAITED = "When was the NDA signed?"
FOLLOW = "Who signed it?"


def _code(number: int, source: str) -> dict:
    return {"cell_type": "code", "id": f"cell-{number}", "metadata": {}, "source": source,
            "outputs": [], "execution_count": None}  # fmt: skip


def _notebook(corpus: Path) -> dict:
    cells = [
        "%load_ext fsnb",
        f"%%explore {corpus} --llm offline --background -o bg\n{BACKGROUND}",
        "print('background', bg.status)",  # uses the result: waits for the run
        f"%%explore {corpus} --llm offline -o fg\n{WAITED}",
        "print('blocking', fg.status, _explore is fg)",
        f"%%explore -c -o more\n{FOLLOW}",
        "print('follow-up', more.status, more.task)",
        f"%explore_index {corpus}",  # parsed by the runs above: the index reads the cache
    ]
    return {
        "cells": [_code(n, source) for n, source in enumerate(cells)],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _nbconvert(tmp_path: Path, *args: str) -> None:
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    command = [sys.executable, "-m", "jupyter", "nbconvert", *args]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=400)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]


class _Visible(HTMLParser):
    """The text a browser shows: everything outside script and style elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style") and self._hidden > 0

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def _visible(markup: str) -> str:
    parser = _Visible()
    parser.feed(markup)
    return _words(" ".join(parser.parts))


def _words(text: str) -> str:
    return " ".join(html.unescape(text).split())


def _answer_lines(result: ExplorationResult) -> list[str]:
    """The answer's statements as plain text, cut at citation marks, markdown marks dropped."""
    lines = []
    for line in result.answer.splitlines():
        for piece in re.split(r"\[\d+\]", line):
            plain = re.sub(r"(?<!\w)_(.+?)_(?!\w)", r"\1", piece)  # _emphasis_
            text = re.sub(r"\*\*|^\s*[-*;.]?\s+|^_|_$|^[;.]$", "", plain).strip()
            if text:
                lines.extend(_words(p) for p in re.split(r"\s{2,}", text) if p.strip())
    return lines


def _expect(question: str) -> ExplorationResult:
    result = Explorer(DATA / "test_acquisition", get_llm("offline")).run(question)
    assert result.ok and result.citations
    return result


def test_executed_notebook_exports_with_the_answers(tmp_path: Path):
    corpus = DATA / "test_acquisition"
    (tmp_path / "explore.ipynb").write_text(json.dumps(_notebook(corpus)))
    _nbconvert(tmp_path, "--to", "notebook", "--execute", "explore.ipynb",
               "--output", "executed.ipynb")  # fmt: skip
    executed = nbformat.read(tmp_path / "executed.ipynb", as_version=4)
    outputs = [cell.outputs for cell in executed.cells]
    printed = ["".join(o.get("text", "") for o in outputs[n]) for n in (2, 4, 6)]
    assert printed == ["background done\n", "blocking done True\n", f"follow-up done {FOLLOW}\n"]
    index_text = json.dumps(outputs[7])
    assert "10 of 10 documents" in index_text and "0%" not in index_text  # the final state

    _nbconvert(tmp_path, "--to", "html", "executed.ipynb")
    _nbconvert(tmp_path, "--to", "markdown", "executed.ipynb")
    exports = {
        "html": _visible((tmp_path / "executed.html").read_text()),
        "markdown": _visible((tmp_path / "executed.md").read_text()),
    }
    for question in (BACKGROUND, WAITED):
        expected = _expect(question)
        for name, text in exports.items():
            assert _words(question) in text, name
            tight = "".join(text.split())  # markup splits text around tags with spaces
            for line in _answer_lines(expected):
                assert "".join(line.split()) in tight, (name, line)
            for cite in expected.citations:
                assert cite.path in text and _words(cite.quote) in text, (name, cite)
    for name, text in exports.items():
        assert "The exploration is running." not in text, name
        assert "ExplorePanel" not in text, name  # the widget view leaves no line of its own
    # each record shows its cited PDF passages as small images, the quote highlighted
    images = _images((tmp_path / "executed.html").read_text())
    evidence = [(src, alt) for src, alt in images if src.startswith("data:image/png;base64,")]
    assert len(evidence) >= 2 and all(len(src) < 80_000 for src, _ in evidence)
    assert _words(_expect(BACKGROUND).citations[0].quote) in {_words(alt) for _, alt in evidence}


def _images(markup: str) -> list[tuple[str, str]]:
    """(src, alt) of each <img> of `markup` (nbconvert rewrites attributes in its order)."""
    found: list[tuple[str, str]] = []

    class Images(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "img":
                found.append((dict(attrs).get("src") or "", dict(attrs).get("alt") or ""))

    Images().feed(markup)
    return found


def test_papermill_runs_the_same_notebook_without_a_wait(tmp_path: Path):
    """The notebook above, run by papermill instead of nbconvert: each later cell sees the
    result it uses (`-o`, `_explore`, `-c`), and `%explore_index` ends in its final state."""
    import papermill

    corpus = DATA / "test_acquisition"
    (tmp_path / "explore.ipynb").write_text(json.dumps(_notebook(corpus)))
    papermill.execute_notebook(
        str(tmp_path / "explore.ipynb"),
        str(tmp_path / "ran.ipynb"),
        cwd=str(tmp_path),
        kernel_name="python3",
        progress_bar=False,
    )
    outputs = [cell.outputs for cell in nbformat.read(tmp_path / "ran.ipynb", as_version=4).cells]
    printed = ["".join(o.get("text", "") for o in outputs[n]) for n in (2, 4, 6)]
    assert printed == ["background done\n", "blocking done True\n", f"follow-up done {FOLLOW}\n"]
    assert "10 of 10 documents" in json.dumps(outputs[7])
