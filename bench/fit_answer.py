"""Fit the offline answerer's "answer" model, which decides whether an extractive answer is
sure enough to state; prints one JSON object.

For every question of the development corpora (every `data/<corpus>/questions.json` but
the held-out ones, `quality.HELD_OUT`) the offline strategy explores the folder as usual,
with the answer gate open. Each answer built from passages (not from tables, a sameness
step or the file listing) is described by the features of its first line
(`fsnb.offline.features.answer_features`) and labelled right or wrong the way
`bench/quality.py` scores it. The rows go to `bench/data/offline_answer.csv`, and a
logistic regression is fitted on them with scipy (L2 on the weights, not the bias).

An answer is stated when its probability of being right is at least
WRONG_COST / (1 + WRONG_COST): where stating it gains more than it costs, a wrong one
costing WRONG_COST right ones. The report leaves one corpus out at a time: fitted on the
others, how many of its right and wrong answers would be stated or held back.

    .venv/bin/python bench/fit_answer.py            # label, fit and report
    .venv/bin/python bench/fit_answer.py --warm     # ... reusing the default parse cache
    .venv/bin/python bench/fit_answer.py --labels   # refit from the stored labels only
    .venv/bin/python bench/fit_answer.py --write    # ... and put the fit in use
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from fit_offline import (  # noqa: E402
    WEIGHTS,
    WRONG_COST,
    _write,
)
from fit_offline import _read as read_labels  # noqa: E402
from quality import HELD_OUT, sandbox, score_question  # noqa: E402

from fsnb.offline.features import ANSWER_NAMES as NAMES  # noqa: E402  (bias first)

LABELS = ROOT / "bench" / "data" / "offline_answer.csv"
#: The L2 penalty's weight (sklearn's C = 1).
L2 = 0.5
#: The probability an answer needs to be stated.
THRESHOLD = WRONG_COST / (1 + WRONG_COST)


def label(data: Path) -> list[dict[str, Any]]:
    """The extractive answers of every development question, featured and labelled."""
    import fsnb
    import fsnb.offline.compose as answer
    from fsnb.offline.scoring import Model

    describe = answer.answer_features
    open_gate = Model("answer", {}, 0.0, {}, threshold=0.0)  # every answer is stated
    rows: list[dict[str, Any]] = []
    for qfile in sorted(data.glob("*/questions.json")):
        if qfile.parent.name in HELD_OUT:
            continue
        for item in json.loads(qfile.read_text(encoding="utf-8"))["questions"]:
            seen: list[dict[str, float]] = []

            def record(*args: Any, seen: list[dict[str, float]] = seen, **kw: Any) -> dict:
                seen.append(describe(*args, **kw))
                return seen[-1]

            with (
                mock.patch.object(answer, "answer_features", record),
                mock.patch.object(answer, "model", lambda name: open_gate),
            ):
                result = fsnb.explore(item["question"], folder=qfile.parent, llm="offline")
            if not seen:
                continue  # answered from tables, a sameness step or the file listing
            gave = seen[-1] | {"bias": 1.0}
            right = score_question(item, result)["right"]
            row = {"corpus": qfile.parent.name, "question": item["id"]}
            row |= {n: round(gave[n], 6) for n in NAMES} | {"right": int(right)}
            rows.append(row)
            print(f"{qfile.parent.name} {item['id']}: right {right}", file=sys.stderr)
    return rows


def fit(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Logistic regression weights (bias unpenalised) for `rows`."""
    import numpy as np
    from scipy.optimize import minimize

    x = np.array([[r[n] for n in NAMES] for r in rows], dtype=float)
    y = np.array([r["right"] for r in rows], dtype=float)

    def loss(w: Any) -> tuple[float, Any]:
        z = x @ w
        p = 1 / (1 + np.exp(-z))
        nll = float(np.sum(np.logaddexp(0, z) - y * z)) + L2 * float(np.sum(w[1:] ** 2))
        grad = x.T @ (p - y) + 2 * L2 * np.concatenate([[0.0], w[1:]])
        return nll, grad

    found = minimize(loss, np.zeros(len(NAMES)), jac=True, method="L-BFGS-B")
    return {n: round(float(w), 4) for n, w in zip(NAMES, found.x, strict=True)}


def probability(weights: dict[str, float], row: dict[str, Any]) -> float:
    return 1 / (1 + math.exp(-sum(w * row[n] for n, w in weights.items())))


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Leave one corpus out: what the gate fitted on the others states of its answers."""
    corpora: dict[str, Any] = {}
    for held in sorted({r["corpus"] for r in rows}):
        weights = fit([r for r in rows if r["corpus"] != held])
        counts = dict.fromkeys(("stated_right", "stated_wrong", "held_right", "held_wrong"), 0)
        for r in (r for r in rows if r["corpus"] == held):
            stated = probability(weights, r) >= THRESHOLD
            counts[f"{'stated' if stated else 'held'}_{'right' if r['right'] else 'wrong'}"] += 1
        corpora[held] = counts
    total = {k: sum(c[k] for c in corpora.values()) for k in next(iter(corpora.values()))}
    right, wrong = total["stated_right"] + total["held_right"], total["stated_wrong"]
    stated = total["stated_right"] + wrong
    return {
        "answers": len(rows),
        "left_one_corpus_out": corpora,
        "pooled": total,
        "precision_before": round(right / len(rows), 3) if rows else None,
        "precision_after": round(total["stated_right"] / stated, 3) if stated else None,
        "right_kept": round(total["stated_right"] / right, 3) if right else None,
        "gain": total["held_wrong"] * WRONG_COST - total["held_right"],
    }


def _read(path: Path) -> list[dict[str, Any]]:
    """The stored labels, numbers as floats."""
    return [
        {k: v if k in ("corpus", "question") else float(v) for k, v in row.items()}
        for row in read_labels(path)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", action="store_true", help="refit from the stored labels")
    parser.add_argument("--write", action="store_true", help="put the fit in the weights file")
    parser.add_argument("--data", type=Path, default=ROOT / "data", help="folder of corpora")
    parser.add_argument("--warm", action="store_true", help="reuse the default parse cache")
    args = parser.parse_args()
    if args.labels:
        rows = _read(LABELS)
    else:
        with sandbox(warm=args.warm):
            rows = label(args.data)
        _write(LABELS, rows)
    weights = fit(rows)
    out = {"weights": weights, "threshold": round(THRESHOLD, 4), **report(rows)}
    if args.write:
        stored = json.loads(WEIGHTS.read_text(encoding="utf-8"))
        stored["models"]["answer"] = {
            "value": {},
            "value_weight": 0.0,
            "weights": weights,
            "threshold": round(THRESHOLD, 4),
        }
        WEIGHTS.write_text(json.dumps(stored, indent=2) + "\n", encoding="utf-8")
        out["written"] = str(WEIGHTS.relative_to(ROOT))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
