"""The tutorial notebooks as a reader sees them: nothing there is meant for the test
runner (nbval's instructions are cell tags, never `# NBVAL_*` lines in the code)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_shows_no_test_runner_markers(path: Path):
    notebook = nbformat.read(path, as_version=4)
    for number, cell in enumerate(notebook.cells):
        assert "NBVAL" not in cell.source, f"cell {number}: use an nbval-* cell tag instead"
        for tag in cell.metadata.get("tags", []):
            assert not tag.startswith("nbval") or tag in {"nbval-ignore-output", "nbval-skip"}
