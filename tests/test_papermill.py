"""papermill runs the parameterized report notebook (`notebooks/08_report.ipynb`) with another
folder and question: its output notebook holds that question's answer, the citations table
and the scratchpad table as a DataFrame, with no explicit wait anywhere."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from conftest import DATA

from fsnb.agent import Explorer
from fsnb.llm import get_llm

pytestmark = pytest.mark.slow

NOTEBOOK = Path(__file__).parents[1] / "notebooks" / "08_report.ipynb"
QUESTION = "How much did I spend on dining in 2025?"


def _texts(cell: nbformat.NotebookNode) -> str:
    """Everything a cell printed or showed, as one string."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        parts.extend(str(v) for k, v in output.get("data", {}).items() if k.startswith("text/"))
    return "".join(parts)


def test_papermill_runs_the_report_with_other_parameters(tmp_path: Path):
    import papermill

    folder = shutil.copytree(DATA / "statements", tmp_path / "cards")
    out = tmp_path / "report.ipynb"
    papermill.execute_notebook(
        str(NOTEBOOK),
        str(out),
        parameters={"folder": str(folder), "question": QUESTION},
        cwd=str(NOTEBOOK.parent),
        kernel_name="python3",
        progress_bar=False,
    )
    cells = [c for c in nbformat.read(out, as_version=4).cells if c.cell_type == "code"]
    injected = next(c for c in cells if "injected-parameters" in c.metadata.get("tags", []))
    assert json.dumps(str(folder)) in injected.source and QUESTION in injected.source

    expected = Explorer(folder, get_llm("offline")).run(QUESTION)
    assert expected.ok and expected.citations
    shown = [_texts(cell) for cell in cells]
    explore = next(t for c, t in zip(cells, shown, strict=True) if "%%explore" in c.source)
    assert QUESTION in explore and "running" not in explore.lower()
    headline = expected.answer.split("\n")[0]
    answer = next(t for c, t in zip(cells, shown, strict=True) if "result.answer" in c.source)
    assert answer.startswith(headline)
    table = next(t for c, t in zip(cells, shown, strict=True) if "citations_df" in c.source)
    assert "verified" in table
    assert all(cite.path in table for cite in expected.citations)
    frame = shown[-1]
    assert "source_file" in frame and "amount" in frame
