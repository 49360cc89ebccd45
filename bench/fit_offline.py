"""Fit the offline answerer's weights from labelled passages; prints one JSON object.

For every question of the fitted corpora (every `data/<corpus>/questions.json` but the
held-out ones, `quality.HELD_OUT`) that expects facts, the offline strategy explores the
folder as usual; at its answer step the candidates for the first line are described by
their named features for each part of the question (`fsnb.offline.features`) and labelled
right when their text holds one of the part's expected facts (in a question of several
parts, the facts of the kinds of value the part asks for: a date for "when"). The rows go
to `bench/data/offline_lead.csv`, and a conditional logit of the form of
`fsnb.offline.scoring` is fitted on them with scipy.

The report gives, leaving one corpus out at a time, how often the unit the fitted model
scores best for a question's first part holds a fact (top-1), beside the same figure for
the weights in use; and the probability under which a first line is not stated, where
stating the left-out choices above it gains most (a wrong one costs WRONG_COST).

    .venv/bin/python bench/fit_offline.py            # label, fit and report
    .venv/bin/python bench/fit_offline.py --labels   # refit from the stored labels only
    .venv/bin/python bench/fit_offline.py --write    # ... and put the fit in use
    .venv/bin/python bench/fit_offline.py --labels --extend period   # fit only the named
        # features' weights, the weights in use held, and put them in use
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from quality import HELD_OUT, _norm, sandbox  # noqa: E402

LABELS = ROOT / "bench" / "data" / "offline_lead.csv"
WEIGHTS = ROOT / "src" / "fsnb" / "offline" / "data" / "weights.json"
#: What stating a wrong first line costs, against 1 gained by stating a right one: a
#: confident wrong answer is worse than "not found".
WRONG_COST = 2.0


def label(data: Path) -> list[dict[str, Any]]:
    """The first-line candidates of every fitted question with facts, featured and labelled."""
    import fsnb
    from fsnb.offline import OfflineLLM
    from fsnb.offline.compose import candidates
    from fsnb.offline.features import NAMES, parts
    from fsnb.offline.lead import _short, sources
    from fsnb.offline.passages import features
    from fsnb.offline.policy import _readings

    class Recording(OfflineLLM):
        seen: list[Any]

        def _answer(self, corpus: Any, progress: Any) -> Any:
            self.seen.append((corpus, progress))
            return super()._answer(corpus, progress)

    rows: list[dict[str, Any]] = []
    for qfile in sorted(data.glob("*/questions.json")):
        if qfile.parent.name in HELD_OUT:
            continue
        for item in json.loads(qfile.read_text(encoding="utf-8"))["questions"]:
            facts = [_norm(f["text"]) for f in item.get("facts", [])]
            if not facts or item.get("expect") == "not_found":
                continue
            llm = Recording()
            llm.seen = []
            fsnb.explore(item["question"], folder=qfile.parent, llm=llm)
            if not llm.seen:
                continue  # answered from tables or the file listing, not from passages
            corpus, progress = llm.seen[-1]
            q, stats, tuning = corpus.question, corpus.stats, llm.tuning
            readings = _readings(corpus, progress)
            pool = candidates(q, readings, stats, tuning=tuning)
            best = max((c.score for c in pool), default=0.0)
            singles = [
                c for c in pool if not c.parts and c.score >= tuning.floor * best and _short(c)
            ]
            about = sources(q, readings)
            weights = {t: stats.idf(t) * q.weight(t) for t in q.content}
            asked = parts(q, weights, tuning)
            for number, part in enumerate(asked):
                # a part's facts: those of the kinds of value it asks for (a date for "when")
                wants = part.asked.wants if len(asked) > 1 else frozenset()
                mine = [f for f in facts if features(f) & wants]
                theirs = [f for f in facts if any(features(f) & p.asked.wants for p in asked)]
                own = mine or [f for f in facts if f not in theirs] or facts
                for c in singles:
                    described = part.describe(c, about[c.path], best)
                    rows.append(
                        {
                            "corpus": qfile.parent.name,
                            "question": item["id"],
                            "part": number,
                            "path": c.path,
                            "start": c.span.start,
                            **{n: round(described[n], 6) for n in NAMES},
                            "label": int(any(f in _norm(c.text) for f in own)),
                        }
                    )
            print(f"{qfile.parent.name} {item['id']}: {len(singles)} candidates", file=sys.stderr)
    return rows


#: The features that make up a candidate's value, and those that weigh on its score.
VALUE = ("said", "context", "earlier", "kind_word", "kinds", "near")
OUTER = ("standing", "period", "lacking", "length", "passage", "strong")
#: Signs the meaning of a feature fixes: a longer unit says no more per word (the first
#: line is the clause that answers, not the sentence that shares the most words).
SIGNS = {"length": (None, 0.0)}
#: Scales a calibration may multiply the weights in use by.
SCALES = (0.01, 100.0)
#: Pull of the parameters towards 0 (L2), against fitting a few questions' quirks.
L2 = 0.1


def _groups(rows: list[dict[str, Any]]) -> dict[tuple, list[dict[str, Any]]]:
    """The candidates of each part of each question."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["corpus"], r["question"], int(r["part"]))].append(r)
    return groups


def _model(params: Any) -> Any:
    """The Model the parameter vector stands for: value weights are positive (their logs
    are fitted) with `said` at 1, the scale of every other."""
    import math

    from fsnb.offline.scoring import Model

    logs, rest = params[: len(VALUE) - 1], params[len(VALUE) - 1 :]
    value = {"said": 1.0} | {n: math.exp(w) for n, w in zip(VALUE[1:], logs, strict=True)}
    weights = dict(zip(OUTER, rest[1:], strict=True))
    return Model("lead", value, float(rest[0]), weights, 0.0)


def _scores(model: Any, group: list[dict[str, Any]]) -> list[Any]:
    return [model.score({n: float(r[n]) for n in VALUE + OUTER}) for r in group]


def fit(rows: list[dict[str, Any]]) -> Any:
    """The conditional logit: the parameters under which, in each part's candidates, the
    right ones take the largest softmax share (with an L2 pull); a fitted Model."""
    import numpy as np
    from scipy.optimize import minimize

    from fsnb.offline.scoring import VALUE_FLOOR

    data = []
    for group in _groups(rows).values():
        right = np.array([int(r["label"]) == 1 for r in group])
        if right.any() and not right.all():
            inner = np.array([[float(r[n]) for n in VALUE] for r in group])
            outer = np.array([[float(r[n]) for n in OUTER] for r in group])
            data.append((inner, outer, right))

    def loss(params: Any) -> float:
        value = np.concatenate([[1.0], np.exp(params[: len(VALUE) - 1])])
        scale, weights = params[len(VALUE) - 1], params[len(VALUE) :]
        total = L2 * float(params @ params) / 2
        for inner, outer, right in data:
            score = scale * np.log(VALUE_FLOOR + inner @ value) + outer @ weights
            share = np.exp(score - score.max())
            total -= float(np.log(share[right].sum() / share.sum()))
        return total

    start = np.zeros(len(VALUE) + len(OUTER))
    start[len(VALUE) - 1] = 1.0
    bounds = [(None, None)] * len(VALUE) + [SIGNS.get(n, (None, None)) for n in OUTER]
    return _model(minimize(loss, start, method="L-BFGS-B", bounds=bounds).x)


def _tops(rows: list[dict[str, Any]], model: Any) -> list[tuple[float, int, int]]:
    """Per question, its first part's choice: (probability, right, any candidate right)."""
    out = []
    for (_, _, part), group in _groups(rows).items():
        if part == 0:
            scores = _scores(model, group)
            at = model.choose(scores)
            top, chosen = group[at], model.chosen(scores, at).probability
            out.append((chosen, int(top["label"]), int(any(int(r["label"]) for r in group))))
    return out


def _top1(tops: list[tuple[float, int, int]]) -> float | None:
    answerable = [t for t in tops if t[2]]
    return round(sum(t[1] for t in answerable) / len(answerable), 3) if answerable else None


def threshold(tops: list[tuple[float, int, int]]) -> float:
    """The probability under which a first line is not stated: the one at which stating
    the choices above it gains most, a right one counting 1 and a wrong one -WRONG_COST."""

    def gain(cut: float) -> float:
        return sum(t[1] - WRONG_COST * (1 - t[1]) for t in tops if t[0] >= cut)

    return round(max([0.0, *sorted(t[0] for t in tops)], key=gain), 4)


def calibrate(rows: list[dict[str, Any]], model: Any) -> Any:
    """`model` with every weight times the one scale under which its softmax shares best
    fit the labels: the same ranking, with probabilities a threshold can be set on."""
    import math

    from scipy.optimize import minimize_scalar

    from fsnb.offline.scoring import Model

    data = []
    for group in _groups(rows).values():
        right = [int(r["label"]) == 1 for r in group]
        if any(right) and not all(right):
            data.append(([s.score for s in _scores(model, group)], right))

    def loss(scale: float) -> float:
        total = 0.0
        for scores, right in data:
            top = max(scores)
            shares = [math.exp(scale * (s - top)) for s in scores]
            total -= math.log(sum(x for x, r in zip(shares, right, strict=True) if r) / sum(shares))
        return total

    scale = float(minimize_scalar(loss, bounds=SCALES, method="bounded").x)
    weights = {n: w * scale for n, w in model.weights.items()}
    return Model(model.name, model.value, model.value_weight * scale, weights, 0.0)


def extend(rows: list[dict[str, Any]], model: Any, names: list[str]) -> Any:
    """`model` with the weights of the features `names` fitted (the same conditional
    logit and L2 pull as `fit`), every other weight held as it is."""
    import math

    import numpy as np
    from scipy.optimize import minimize

    from fsnb.offline.scoring import Model

    data = []
    for group in _groups(rows).values():
        right = [int(r["label"]) == 1 for r in group]
        if any(right) and not all(right):
            held = [s.score for s in _scores(model, group)]
            held = [h - sum(model.weights.get(n, 0.0) * float(r[n]) for n in names)
                    for h, r in zip(held, group, strict=True)]  # fmt: skip
            added = np.array([[float(r[n]) for n in names] for r in group])
            data.append((np.array(held), added, np.array(right)))

    def loss(weights: Any) -> float:
        total = L2 * float(weights @ weights) / 2
        for held, added, right in data:
            score = held + added @ weights
            share = np.exp(score - score.max())
            total -= math.log(share[right].sum() / share.sum())
        return total

    fitted = minimize(loss, np.zeros(len(names)), method="L-BFGS-B").x
    weights = dict(model.weights) | {n: float(w) for n, w in zip(names, fitted, strict=True)}
    return Model(model.name, model.value, model.value_weight, weights, model.threshold)


def extended(rows: list[dict[str, Any]], names: list[str]) -> tuple[dict[str, Any], Any]:
    """Leave-one-corpus-out top-1 of the weights in use with `names` fitted, beside the
    weights in use; and the extension fitted on every corpus."""
    from fsnb.offline.scoring import model

    current = model("lead")
    left_out, pooled = {}, []
    for name in sorted({r["corpus"] for r in rows}):
        test = [r for r in rows if r["corpus"] == name]
        tops = _tops(test, extend([r for r in rows if r["corpus"] != name], current, names))
        pooled += tops
        left_out[name] = {"top1_extended": _top1(tops), "top1_in_use": _top1(_tops(test, current))}
    fitted = extend(rows, current, names)
    result = {
        "extended": names,
        "left_out": left_out,
        "left_out_top1": _top1(pooled),
        "in_use_top1": _top1(_tops(rows, current)),
        "weights": {n: round(fitted.weights[n], 4) for n in names},
    }
    return result, fitted


def report(rows: list[dict[str, Any]]) -> tuple[dict[str, Any], Any]:
    """Leave-one-corpus-out top-1 and precision against the weights in use; the fit on
    every corpus, its threshold chosen on the left-out choices."""
    from fsnb.offline.scoring import model

    current = model("lead")
    left_out: dict[str, Any] = {}
    pooled: list[tuple[float, int, int]] = []
    for name in sorted({r["corpus"] for r in rows}):
        test = [r for r in rows if r["corpus"] == name]
        tops = _tops(test, fit([r for r in rows if r["corpus"] != name]))
        pooled += tops
        left_out[name] = {
            "questions": len(tops),
            "top1_fitted": _top1(tops),
            "top1_in_use": _top1(_tops(test, current)),
        }
    cut = threshold(pooled)
    stated = [t for t in pooled if t[0] >= cut]
    in_use = _tops(rows, current)
    calibrated: list[tuple[float, int, int]] = []
    for name in sorted({r["corpus"] for r in rows}):
        scaled = calibrate([r for r in rows if r["corpus"] != name], current)
        calibrated += _tops([r for r in rows if r["corpus"] == name], scaled)
    scaled = calibrate(rows, current)
    said = threshold(calibrated)
    kept = [t for t in calibrated if t[0] >= said]
    fitted = fit(rows)
    result = {
        "rows": len(rows),
        "right": sum(int(r["label"]) for r in rows),
        "left_out": left_out,
        "left_out_top1": _top1(pooled),
        "left_out_stated": f"{len(stated)} of {len(pooled)}",
        "left_out_precision": round(sum(t[1] for t in stated) / len(stated), 3) if stated else None,
        "in_use_top1": _top1(in_use),
        "calibrated": {
            "scale": round(scaled.value_weight / current.value_weight, 4),
            "threshold": said,
            "left_out_stated": f"{len(kept)} of {len(calibrated)}",
            "left_out_precision": round(sum(t[1] for t in kept) / len(kept), 3) if kept else None,
        },
        "model": {
            "value": {n: round(w, 4) for n, w in fitted.value.items()},
            "value_weight": round(fitted.value_weight, 4),
            "weights": {n: round(float(w), 4) for n, w in fitted.weights.items()},
            "threshold": cut,
        },
    }
    return result, (fitted, replace(scaled, threshold=said))


def _read(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", action="store_true", help="refit from the stored labels")
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--write", action="store_true", help="put the fit in use")
    parser.add_argument(
        "--calibrate", action="store_true", help="keep the weights in use, scaled, with a threshold"
    )
    parser.add_argument(
        "--extend", nargs="+", metavar="FEATURE", help="fit only these features' weights"
    )
    args = parser.parse_args()
    if args.labels:
        rows = _read(LABELS)
    else:
        with sandbox(warm=False):
            rows = label(args.data)
        _write(LABELS, rows)
    stored = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    if args.extend:
        result, fitted = extended(rows, args.extend)
        weights = stored["models"]["lead"]["weights"]
        weights |= {n: round(fitted.weights[n], 4) for n in args.extend}
    else:
        result, (_, scaled) = report(rows)
        if args.write:
            stored["about"] = "Fitted by bench/fit_offline.py from bench/data/offline_lead.csv."
            stored["models"]["lead"] = result["model"]
        elif args.calibrate:
            stored["models"]["lead"] = {
                "value": dict(scaled.value),
                "value_weight": round(scaled.value_weight, 4),
                "weights": {n: round(w, 4) for n, w in scaled.weights.items()},
                "threshold": scaled.threshold,
            }
    if args.write or args.calibrate or args.extend:
        WEIGHTS.write_text(json.dumps(stored, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
