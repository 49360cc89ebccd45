"""The offline answer's first line is chosen by named features and weights from a data
file, and says why: in the stop step's reason, so in `trace_df()` and the panel's trace."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from fsnb.agent import Explorer
from fsnb.notebook.widget import ExplorePanel
from fsnb.offline import OfflineLLM
from fsnb.offline.features import NAMES
from fsnb.offline.scoring import WEIGHTS_FILE, Model, model

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
QUESTION = "What is the total purchase price for the acquisition of InnovateTech?"


def test_the_weights_file_names_only_known_features():
    stored = json.loads((ROOT / "src/fsnb/offline/data" / WEIGHTS_FILE).read_text())
    lead = stored["models"]["lead"]
    assert set(lead["value"]) | set(lead["weights"]) <= set(NAMES)
    assert 0.0 <= lead["threshold"] < 1.0
    assert model("lead").value == lead["value"]


def test_a_score_is_the_sum_of_what_each_feature_gave():
    m = Model("t", {"said": 1.0, "near": 0.5}, 2.0, {"standing": 1.5, "lacking": -1.0}, 0.5)
    first = m.score({"said": 0.8, "near": 0.4, "standing": 1.0, "lacking": 0.0})
    second = m.score({"said": 0.2, "near": 0.0, "standing": 0.5, "lacking": 1.0})
    assert first.score == pytest.approx(sum(g[2] for g in first.gave))
    assert {n: g for n, _, g in first.gave}["value"] == pytest.approx(2 * math.log(1.05))
    assert m.choose([second, first]) == 1
    shares = [m.chosen([first, second], i).probability for i in range(2)]
    assert sum(shares) == pytest.approx(1.0) and shares[0] > shares[1]
    why = m.chosen([first, second], 0).why()
    assert why.startswith(f"p={shares[0]:.2f}: ") and "standing 1 (+1.50)" in why


def test_the_first_line_says_why_in_the_trace_and_the_panel():
    panel = ExplorePanel()
    panel.attach(Explorer(DATA / "large_acquisition", OfflineLLM()), QUESTION)
    result = panel.wait(120)
    assert result is not None and result.ok, result.error if result else "no result"
    assert result.answer.startswith("'Purchase Price' means")
    reason = result.trace_df().iloc[-1]["reason"]
    assert "Why this first line (" in reason and "p=" in reason and "value" in reason
    assert "How sure the answer is: p=" in reason and "coverage" in reason
    assert panel.trace[-1]["reason"] == reason  # the panel's trace row shows it


def test_an_unsure_answer_is_not_stated_but_its_passages_are_shown(monkeypatch):
    fitted = model("answer")
    strict = Model("answer", {}, 0.0, fitted.weights, threshold=0.999)
    monkeypatch.setattr("fsnb.offline.compose.model", lambda name: strict)
    result = Explorer(DATA / "large_acquisition", OfflineLLM()).run(QUESTION)
    said, shown = result.answer.split("The closest passages (I am not sure they answer it):")
    assert said.startswith("I could not find this for certain: the passages that would")
    assert "p=" in said and "coverage" in said
    assert "'Purchase Price' means One Hundred Twenty-Five Million Dollars" in shown
    assert "Too unsure to answer" in result.trace_df().iloc[-1]["reason"]


def test_the_answer_model_in_use_is_the_fit_of_the_stored_labels():
    """bench/fit_answer.py --write fitted the "answer" model on bench/data/offline_answer.csv;
    refitting gives the same weights, and left one corpus out at a time, the gate holds
    back wrong answers at less than their cost in right ones."""
    pytest.importorskip("scipy")
    sys.path.insert(0, str(ROOT / "bench"))
    import fit_answer

    rows = fit_answer._read(fit_answer.LABELS)
    assert fit_answer.fit(rows) == pytest.approx(dict(model("answer").weights), abs=1e-3)
    assert model("answer").threshold == pytest.approx(fit_answer.THRESHOLD, abs=1e-4)
    report = fit_answer.report(rows)
    assert report["gain"] > 0 and report["precision_after"] > report["precision_before"]


def test_the_fit_ranks_the_labelled_passages_better_than_chance():
    """Refit from the stored labels (bench/data/offline_lead.csv, written by
    bench/fit_offline.py): the right candidates come first far more often than by lot."""
    pytest.importorskip("scipy")
    sys.path.insert(0, str(ROOT / "bench"))
    import fit_offline

    rows = fit_offline._read(fit_offline.LABELS)
    fitted = fit_offline.fit(rows)
    tops = fit_offline._tops(rows, fitted)
    groups = [g for (_, _, p), g in fit_offline._groups(rows).items() if p == 0]
    chance = [sum(int(r["label"]) for r in g) / len(g) for g in groups]
    chance = sum(c for c in chance if c) / len([c for c in chance if c])
    assert fit_offline._top1(tops) > 2 * chance
