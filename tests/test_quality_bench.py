"""bench/quality.py's sandbox: every benchmark run explores in a database of its own, so no
earlier run's scratchpad tables, and no run beside it, change its answers, and the user's
database is left alone."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from quality import sandbox, stated, states_value


def test_a_run_gets_a_fresh_database_and_the_callers_settings_come_back(monkeypatch, tmp_path):
    mine = tmp_path / "mine.duckdb"
    monkeypatch.setenv("FSNB_DB", str(mine))
    monkeypatch.setenv("FSNB_CACHE_DIR", str(tmp_path / "cache"))
    with sandbox(warm=True):
        used = Path(os.environ["FSNB_DB"])
        assert used != mine and not used.exists()
        assert os.environ["FSNB_CACHE_DIR"] == str(tmp_path / "cache")  # warm: the same cache
    assert not used.parent.exists()  # thrown away with its folder
    assert os.environ["FSNB_DB"] == str(mine)


def test_a_cold_run_gets_a_fresh_parse_cache_too(monkeypatch):
    monkeypatch.delenv("FSNB_DB", raising=False)
    monkeypatch.delenv("FSNB_CACHE_DIR", raising=False)
    with pytest.raises(RuntimeError), sandbox(warm=False):
        cache = Path(os.environ["FSNB_CACHE_DIR"])
        assert cache.parent == Path(os.environ["FSNB_DB"]).parent
        raise RuntimeError("a run that fails")
    assert "FSNB_DB" not in os.environ and "FSNB_CACHE_DIR" not in os.environ


def test_a_citation_mark_is_no_figure_the_answer_states():
    """The answer "There are 24 PDF files [1]." states 24, not 1: a count of one file must be said."""
    one = {"answer": {"value": 1}}
    assert not stated("There are 24 PDF files [1].", one)
    assert not states_value("there are 24 pdf files [1].", one)
    assert stated("There is 1 PDF file [1].", one)
    assert states_value("there is 1 pdf file [1].", one)
