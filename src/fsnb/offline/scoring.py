"""Fitted weights over named features, and the explanation of every score.

A candidate (a sentence, row or item for the answer's first line) is described by named
features (`fsnb.offline.features`). Its score has two stages, both fitted:

    value = sum(value weight x feature)            what it says of the question
    score = value_weight x log(VALUE_FLOOR + value) + sum(weight x feature)

The log gives diminishing returns to saying more and lets the other features (how its
document ranks, its length, whether it lacks the kind of value asked for) scale it. The
weights are a conditional logit's: fitted by `bench/fit_offline.py` (scipy) so that, among
a question's candidates, those that hold an expected fact score highest, on labelled
passages of the sample corpora; they are stored in `data/weights.json` of this package.
A choice's probability is its softmax share among the candidates it was chosen from. Each
score keeps what every feature gave, so a choice can say why it was made.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

#: The weights file, fitted by bench/fit_offline.py.
WEIGHTS_FILE = "weights.json"
#: Added to a candidate's value before its log: no value is not minus infinity.
VALUE_FLOOR = 0.05
#: Features an explanation names at most.
SHOWN = 4


@dataclass(frozen=True)
class Explained:
    """A score, what each feature gave to it, and the probability of the choice."""

    score: float
    gave: tuple[tuple[str, float, float], ...]  # (feature, value, contribution)
    probability: float = 1.0

    def why(self) -> str:
        """The features that gave most, in words: "p=0.91: value 1.2 (+2.10), ..."."""
        top = sorted(self.gave, key=lambda g: -abs(g[2]))[:SHOWN]
        said = ", ".join(f"{name} {value:.2g} ({gave:+.2f})" for name, value, gave in top)
        return f"p={self.probability:.2f}: {said}"


@dataclass(frozen=True)
class Model:
    """One fitted model: value weights, the value's weight, feature weights, a threshold
    on the probability of a choice."""

    name: str
    value: Mapping[str, float]
    value_weight: float
    weights: Mapping[str, float]
    threshold: float

    def score(self, features: Mapping[str, float]) -> Explained:
        """The candidate's score (names the model lacks give nothing), explained."""
        gave = []
        if self.value:
            value = sum(w * features.get(n, 0.0) for n, w in self.value.items())
            gave.append(("value", value, self.value_weight * math.log(VALUE_FLOOR + value)))
        for name, weight in self.weights.items():
            gave.append((name, features.get(name, 0.0), weight * features.get(name, 0.0)))
        return Explained(sum(g[2] for g in gave), tuple(gave))

    def judge(self, features: Mapping[str, float]) -> Explained:
        """The score of a yes-or-no model (a logistic regression: its weights, "bias"
        among them), with its probability of yes."""
        scored = self.score(features | {"bias": 1.0})
        return replace(scored, probability=1 / (1 + math.exp(-scored.score)))

    def choose(self, scores: Sequence[Explained]) -> int:
        """The index of the best of `scores` (the first among equals)."""
        return max(range(len(scores)), key=lambda i: (scores[i].score, -i))

    @staticmethod
    def chosen(scores: Sequence[Explained], index: int) -> Explained:
        """`scores[index]`, with its softmax share among `scores` as its probability."""
        best = scores[index]
        total = sum(math.exp(s.score - best.score) for s in scores)
        return replace(best, probability=1 / total)


def model(name: str) -> Model:
    """The fitted model `name` from the weights file."""
    entry = _weights()["models"][name]
    return Model(name, entry["value"], entry["value_weight"], entry["weights"], entry["threshold"])


@cache
def _weights() -> dict[str, Any]:
    text = (resources.files(__package__ or "") / "data" / WEIGHTS_FILE).read_text("utf-8")
    return json.loads(text)
