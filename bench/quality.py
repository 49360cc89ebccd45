"""Answer quality of the offline backend over the sample questions; prints one JSON object.

For every `data/<corpus>/questions.json`, each question is explored with
`fsnb.explore(question, folder=data/<corpus>, llm="offline")` and scored:

- fact_recall: share of the expected facts whose text occurs in the answer (case and
  whitespace ignored; the answer body only, not the appended list of sources);
- source_recall: share of the expected source files among the cited paths;
- citations_verified: share of the answer's citations that the loop verified;
- first_sentence: whether the answer's first sentence alone holds every expected fact (or,
  for a computed answer whose facts are the rows summed or counted, the number itself:
  `answer.value`);
- answer_chars: the answer's length in characters;
- not_found: for a question whose answer the corpus does not hold (`"expect":
  "not_found"`, level "absent"), whether the answer says the documents do not state it.

Each corpus and all of them together ("overall") get the means, the share of absent
questions answered "not found" (not_found_accuracy), and answer length mean and p90.
Targets (offline backend): fact recall >= 0.8 and source recall >= 0.9 on the "single"
questions of test_acquisition and large_acquisition; over the single questions of every
corpus, fact recall >= 0.9, mean answer length <= 800 characters and the first sentence
holding the facts in >= 80% of answers; not-found accuracy >= 0.9. Every other figure is
reported as is.
Each corpus's .fsnbignore keeps its questions.json out of the exploration. Each run
uses a fresh, empty parse cache unless --warm is given. `--tuning key=value` (repeatable)
changes one number of the offline strategy (`fsnb.offline.Tuning`); the JSON says which
tuning was used.

    .venv/bin/python bench/quality.py [--warm] [--data DIR] [--corpus NAME ...]
        [--tuning margin=0.5 --tuning follow_pair=0.4,0.1 ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before fsnb: nothing may reach the model hub
from fsnb.offline import Tuning
from fsnb.text.segments import Span, sentences

DATA = Path(__file__).resolve().parent.parent / "data"
TARGETS = {"fact_recall": 0.8, "source_recall": 0.9}
TARGET_CORPORA = ("test_acquisition", "large_acquisition")
TARGET_LEVEL = "single"


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


#: How an answer says the documents do not hold what was asked.
NOT_FOUND = re.compile(
    r"\b(?:do(?:es)? not (?:state|say|mention|contain|hold|give)|could not find|"
    r"(?:is|are) not (?:stated|mentioned|given|found)|no (?:document|passage)s? "
    r"(?:state|states|mention|mentions|say|says))\b",
    re.IGNORECASE,
)
#: Issue 14's targets, over the single questions of every corpus and the absent ones.
ANSWER_TARGETS = {
    "fact_recall": (0.9, ">="),
    "first_sentence": (0.8, ">="),
    "answer_chars_mean": (800, "<="),
    "not_found_accuracy": (0.9, ">="),
}


def first_sentence(answer: str) -> str:
    """The answer's first sentence: its first non-empty line, up to the first full stop
    that ends a sentence there."""
    line = next((ln.strip() for ln in answer.splitlines() if ln.strip()), "")
    parts = sentences(line, Span(0, len(line), "text"))
    return line[parts[0].start : parts[0].end] if parts else line


def states_value(opening: str, item: dict[str, Any]) -> bool:
    """Whether `opening` gives a computed answer's number (`answer.value`: a total, a count),
    for questions whose facts are the rows that went into it rather than the answer."""
    value = (item.get("answer") or {}).get("value")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    found = (n.replace(",", "") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", opening))
    return any(abs(float(n) - value) < 0.005 for n in found)


def score_question(item: dict[str, Any], result: Any) -> dict[str, Any]:
    """The figures for one question from its exploration result."""
    answer = _norm(result.answer)
    facts = item["facts"]
    missing = [f["text"] for f in facts if _norm(f["text"]) not in answer]
    opening = _norm(first_sentence(result.answer))
    cited = {c.path for c in result.citations}
    sources = item["sources"]
    absent = item.get("expect") == "not_found"
    said_not_found = bool(NOT_FOUND.search(result.answer))
    return {
        "fact_recall": round(1 - len(missing) / len(facts), 3) if facts else None,
        "source_recall": (
            round(sum(s in cited for s in sources) / len(sources), 3) if sources else None
        ),
        "citations_verified": (
            round(sum(c.verified for c in result.citations) / len(result.citations), 3)
            if result.citations
            else None
        ),
        "first_sentence": (
            float(all(_norm(f["text"]) in opening for f in facts) or states_value(opening, item))
            if facts
            else None
        ),
        "answer_chars": len(result.answer),
        "not_found": float(said_not_found) if absent else None,
        "citations": len(result.citations),
        "missing_facts": missing,
        "error": result.error,
    }


def _mean(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return round(mean(values), 3) if values else None


def _p90(values: list[int]) -> int | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Means over questions that have the figure, answer length mean and p90."""
    answered = [r for r in rows if r["level"] != "absent"]
    lengths = [r["answer_chars"] for r in answered]
    return {
        "fact_recall": _mean(answered, "fact_recall"),
        "source_recall": _mean(answered, "source_recall"),
        "first_sentence": _mean(answered, "first_sentence"),
        "answer_chars_mean": round(mean(lengths)) if lengths else None,
        "answer_chars_p90": _p90(lengths),
        "not_found_accuracy": _mean(rows, "not_found"),
        "n": len(rows),
    }


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-corpus figures: means over questions, citations verified over all citations."""
    citations = sum(r["citations"] for r in rows)
    verified = sum((r["citations_verified"] or 0) * r["citations"] for r in rows)
    levels = sorted({r["level"] for r in rows})
    return {
        **figures(rows),
        "citations_verified": round(verified / citations, 3) if citations else None,
        "mean_steps": _mean(rows, "steps"),
        "mean_seconds": _mean(rows, "seconds"),
        "by_level": {level: figures([r for r in rows if r["level"] == level]) for level in levels},
    }


def targets(corpora: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each target with the figure reached, and whether it is met."""
    out: dict[str, Any] = {}
    for metric, goal in TARGETS.items():
        reached = {
            name: corpora[name]["by_level"].get(TARGET_LEVEL, {}).get(metric)
            for name in TARGET_CORPORA
            if name in corpora
        }
        out[f"{TARGET_LEVEL}_{metric}"] = {
            "target": goal,
            "reached": reached,
            "met": bool(reached) and all(v is not None and v >= goal for v in reached.values()),
        }
    single = figures([r for r in rows if r["level"] == TARGET_LEVEL])
    absent = figures([r for r in rows if r["level"] == "absent"])
    for metric, (goal, way) in ANSWER_TARGETS.items():
        value = (absent if metric == "not_found_accuracy" else single)[metric]
        met = value is not None and (value >= goal if way == ">=" else value <= goal)
        name = metric if metric == "not_found_accuracy" else f"all_single_{metric}"
        out[name] = {"target": f"{way} {goal}", "reached": value, "met": met}
    return out


def run(data: Path, names: list[str] | None, tuning: Tuning | None = None) -> dict[str, Any]:
    """Explore every question of every corpus under `data` (or of the `names` given) with
    the offline strategy, tuned by `tuning` (default: its defaults)."""
    import fsnb
    from fsnb.offline import OfflineLLM

    llm = OfflineLLM(tuning=tuning)

    rows: list[dict[str, Any]] = []
    corpora: dict[str, dict[str, Any]] = {}
    for qfile in sorted(data.glob("*/questions.json")):
        folder = qfile.parent
        if names and folder.name not in names:
            continue
        spec = json.loads(qfile.read_text(encoding="utf-8"))
        corpus_rows = []
        for item in spec["questions"]:
            began = time.perf_counter()
            result = fsnb.explore(item["question"], folder=folder, llm=llm)
            seconds = time.perf_counter() - began
            row = {
                "corpus": folder.name,
                "id": item["id"],
                "level": item["level"],
                **score_question(item, result),
                "steps": len(result.steps()),
                "seconds": round(seconds, 2),
            }
            corpus_rows.append(row)
            print(
                f"{folder.name} {item['id']}: facts {row['fact_recall']}, "
                f"sources {row['source_recall']}, first {row['first_sentence']}, "
                f"not found {row['not_found']}, {row['answer_chars']} chars, {seconds:.1f} s",
                file=sys.stderr,
            )
        corpora[folder.name] = summarize(corpus_rows)
        rows.extend(corpus_rows)
    for row in rows:
        row.pop("citations", None)
        if not row["error"]:
            row.pop("error")
    return {
        "tuning": dataclasses.asdict(llm.tuning),
        "overall": figures(rows),
        "corpora": corpora,
        "questions": rows,
        "targets": targets(corpora, rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", action="store_true", help="reuse the default parse cache")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of corpora")
    parser.add_argument("--corpus", nargs="*", help="only these corpora")
    parser.add_argument(
        "--tuning",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a field of fsnb.offline.Tuning to change (repeatable): margin=0.5, "
        "follow_pair=0.4,0.1",
    )
    args = parser.parse_args()
    try:
        tuning = Tuning.parse(args.tuning)
    except ValueError as exc:
        parser.error(str(exc))
    if args.warm:
        report = run(args.data, args.corpus, tuning)
    else:
        with tempfile.TemporaryDirectory(prefix="fsnb-quality-cache-") as cache:
            os.environ["FSNB_CACHE_DIR"] = cache
            report = run(args.data, args.corpus, tuning)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
