"""Answer quality of the offline backend over the sample questions; prints one JSON object.

For every `data/<corpus>/questions.json`, each question is explored with
`fsnb.explore(question, folder=data/<corpus>, llm="offline")` and scored:

- fact_recall: share of the expected facts whose text occurs in the answer (case and
  whitespace ignored; the answer body only, not the appended list of sources);
- source_recall: share of the expected source files among the cited paths;
- citations_verified: share of the answer's citations that the loop verified.

Targets (offline backend): fact recall >= 0.8 and source recall >= 0.9 on the "single"
questions of test_acquisition and large_acquisition. Every other figure is reported as is.
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
import os
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before fsnb: nothing may reach the model hub
from fsnb.offline import Tuning

DATA = Path(__file__).resolve().parent.parent / "data"
TARGETS = {"fact_recall": 0.8, "source_recall": 0.9}
TARGET_CORPORA = ("test_acquisition", "large_acquisition")
TARGET_LEVEL = "single"


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def score_question(item: dict[str, Any], result: Any) -> dict[str, Any]:
    """The figures for one question from its exploration result."""
    answer = _norm(result.answer)
    facts = item["facts"]
    missing = [f["text"] for f in facts if _norm(f["text"]) not in answer]
    cited = {c.path for c in result.citations}
    sources = item["sources"]
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
        "citations": len(result.citations),
        "missing_facts": missing,
        "error": result.error,
    }


def _mean(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return round(mean(values), 3) if values else None


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-corpus figures: means over questions, citations verified over all citations."""
    citations = sum(r["citations"] for r in rows)
    verified = sum((r["citations_verified"] or 0) * r["citations"] for r in rows)
    levels = sorted({r["level"] for r in rows})
    return {
        "fact_recall": _mean(rows, "fact_recall"),
        "source_recall": _mean(rows, "source_recall"),
        "citations_verified": round(verified / citations, 3) if citations else None,
        "mean_steps": _mean(rows, "steps"),
        "mean_seconds": _mean(rows, "seconds"),
        "by_level": {
            level: {
                "fact_recall": _mean([r for r in rows if r["level"] == level], "fact_recall"),
                "source_recall": _mean([r for r in rows if r["level"] == level], "source_recall"),
                "n": sum(r["level"] == level for r in rows),
            }
            for level in levels
        },
    }


def targets(corpora: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each target with the figure reached on each corpus it applies to, and whether met."""
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
                f"sources {row['source_recall']}, {seconds:.1f} s",
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
        "corpora": corpora,
        "questions": rows,
        "targets": targets(corpora),
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
