"""Answers and speed as the folder grows: 100, 1,000, 10,000 documents; prints one JSON object.

For each size, a folder of that many documents (bench/scale_corpus.py: PDF, DOCX, XLSX,
HTML and Markdown in nested folders, the same 11 planted documents in every size and
near-duplicate distractors around them; cached under ~/.cache/fsnb-bench/scale) is:

1. indexed cold (empty parse cache, new index file) in a fresh process, with a pool of
   1 worker and of every core (`FSNB_WORKERS`; one run with `--workers 1`): `index_cold_s`,
   `index_docs_per_s` and `peak_rss_mb` (the writing process's peak RSS) for all cores,
   `..._1` for one worker (fsnb pools only from 2 workers: one worker parses on threads of
   the writing process, so its RSS holds the parser too); `index_mb`, the index on disk
   (the DuckDB file, its WAL and any search data derived beside it);
2. asked the questions (lookups of one planted fact, pairs from two documents, aggregates
   over two tables, two the folder cannot answer) with the offline backend over the warm
   index, once per start (`FSNB_START`): `scan` (the "before" curve: every document
   previewed) and `auto` (index-first above `FSNB_SCAN_MAX_DOCUMENTS`). `accuracy` is the
   mean per question of bench/quality.py's scores: the share of expected facts in the
   answer (fact recall; for an aggregate, whether the answer states its figure), for an
   unanswerable question whether the answer says the documents do not state it; `right`,
   the share of questions answered wholly right. `p50_s` and `p95_s`: wall time per
   question (nearest rank), after one warm-up question;
3. asked the same questions through the real Gemini backend against the local fake server
   (tests/fake_gemini.py) driven by a scripted shortest-path model (`ShortestPath`), once
   per start: `tokens_mean` (the run's total tokens as the fake counts them, about four
   characters a token over system prompt, opening message, tool results and replies) and
   `calls_mean` (LLM calls).

The spec's keys (`accuracy`, `p50_s`, `p95_s`, `tokens_mean`, ...) are for `auto`; the same
figures for `scan` carry a `_scan` suffix. `targets` compares the largest size with the
smallest: accuracy within 5 points, p50 <= 2x and <= 10 s, tokens <= 1.2x, writer RSS <=
1.5 GB.

    .venv/bin/python bench/scale.py --sizes 100,1000,10000 [--seed 0] [--questions N]
        [--starts scan,auto] [--no-tokens] [--reuse-index] [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from statistics import mean
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before fsnb: nothing may reach the model hub
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent / "tests")]

from scale_corpus import CACHE, build, subset  # noqa: E402

MODEL = "gemini-2.5-flash"
WARMUP = "Which warehouses does Orrin lease, and from whom?"
TARGETS = {
    "accuracy_points": 5,
    "p50_ratio": 2.0,
    "p50_s": 10.0,
    "tokens_ratio": 1.2,
    "peak_rss_mb": 1536,
}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- indexing (in a fresh process per run) -----------------------------------------------


def index_child(folder: str, db: str, workers: int) -> None:
    """Index `folder` into `db` (a new file) on `workers` processes; print the figures."""
    from fsnb.index import Index

    began = time.perf_counter()
    report = Index(db).add_folder(folder, progress=False, workers=workers)
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        json.dumps(
            {
                "seconds": seconds,
                "added": len(report.added),
                "failed": len(report.failed),
                "files": report.files,
                "peak_rss_mb": peak,
            }
        )
    )


def index_cold(folder: Path, db: Path, cache: Path, workers: int) -> dict[str, Any]:
    """A cold index of `folder` into a new `db` with an empty parse cache at `cache`, in a
    fresh process with `workers` workers."""
    for path in [*_index_files(db), cache]:  # the file, its WAL and what is derived from it
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    env = {**os.environ, "FSNB_CACHE_DIR": str(cache), "FSNB_WORKERS": str(workers)}
    args = [sys.executable, __file__, "--index-child", str(folder), str(db), str(workers)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"indexing failed ({done.returncode}):\n{done.stderr[-3000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    log(
        f"  indexed {figures['added']} documents on {workers} worker(s) in "
        f"{figures['seconds']:.1f} s, writer peak RSS {figures['peak_rss_mb']:.0f} MB"
    )
    return figures


def _index_files(db: Path) -> list[Path]:
    """The index file and those beside it named after it (`.wal`, derived search data)."""
    return sorted(db.parent.glob(f"{db.name}*")) if db.parent.is_dir() else []


def _index_mb(db: Path) -> float:
    """The index on disk: its file, WAL and derived files, in MB."""
    files = [f for path in _index_files(db) for f in (path.rglob("*") if path.is_dir() else [path])]
    return round(sum(f.stat().st_size for f in files if f.is_file()) / 2**20, 2)


def indexing(out: Path, workers: int, reuse: bool) -> dict[str, Any]:
    """The cold index figures for one worker and for `workers`; leaves the index built on
    `workers` at out/index.duckdb with its warm parse cache at out/parse-cache."""
    saved = out / "index.json"
    db = out / "index.duckdb"
    if reuse and saved.exists() and db.exists():
        return {**json.loads(saved.read_text(encoding="utf-8")), "index_reused": True}
    docs = out / "docs"
    every = index_cold(docs, db, out / "parse-cache", workers)
    if workers == 1:  # the all-cores pool is the one worker: one cold run says both
        one = every
    else:
        with tempfile.TemporaryDirectory(prefix="fsnb-scale-") as tmp:
            one = index_cold(docs, Path(tmp) / "one.duckdb", Path(tmp) / "cache", 1)
    figures = {
        "index_cold_s": round(every["seconds"], 2),
        "index_docs_per_s": round(every["added"] / every["seconds"], 1),
        "peak_rss_mb": round(every["peak_rss_mb"]),
        "index_cold_s_1": round(one["seconds"], 2),
        "index_docs_per_s_1": round(one["added"] / one["seconds"], 1),
        "peak_rss_mb_1": round(one["peak_rss_mb"]),
        "workers": workers,
        "indexed": every["added"],
        "index_failed": every["failed"],
        "index_mb": _index_mb(db),
    }
    saved.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return figures


# -- offline answers ---------------------------------------------------------------------


def score(item: dict[str, Any], result: Any) -> dict[str, Any]:
    """One question's accuracy (0 to 1), whether it is wholly right, and its source recall,
    as bench/quality.py scores them."""
    from quality import score_question

    scored = score_question(item, result)
    absent = item.get("expect") == "not_found"
    return {
        "accuracy": scored["not_found"] if absent else scored["fact_recall"],
        "right": scored["right"],
        "source_recall": scored["source_recall"],
        "missing": scored["missing_facts"],
        "error": result.error,
    }


def _start(result: Any) -> str:
    from fsnb.agent import events as ev

    started = next((e for e in result.events if isinstance(e, ev.Started)), None)
    return getattr(started, "start", None) or "?"


def offline_answers(docs: Path, db: Path, items: list[dict], start: str) -> list[dict]:
    """Each question explored offline with `FSNB_START=start`, scored and timed."""
    import fsnb
    from fsnb.offline import OfflineLLM

    os.environ["FSNB_START"] = start
    llm = OfflineLLM()
    fsnb.explore(WARMUP, folder=docs, llm=llm, db=db)  # imports, caches, first connection
    rows = []
    for item in items:
        began = time.perf_counter()
        result = fsnb.explore(item["question"], folder=docs, llm=llm, db=db)
        seconds = time.perf_counter() - began
        row = {
            "id": item["id"],
            "level": item["level"],
            "seconds": round(seconds, 2),
            "start": _start(result),
            **score(item, result),
        }
        log(
            f"  {start} {item['id']}: accuracy {row['accuracy']}, {seconds:.1f} s, "
            f"start {row['start']}"
        )
        rows.append(row)
    return rows


# -- scripted model through the Gemini backend -------------------------------------------

_HIT = re.compile(r"^\[\d+\] \S", re.M)  # a search hit listed in the opening message
_MORE = re.compile(r"call again with offset=(\d+)")
_PAGE = re.compile(r"^\[page (\d+)\]$", re.M)


class ShortestPath:
    """The scripted model: the fewest actions for a question whose sources and facts it
    knows, reading a file only once its path has been shown to it (opening message or a
    tool result). To find a source not shown yet it scans (unless the opening already
    lists the index's hits), then searches the index with the question, then greps the
    question's rarest name; it reads each source (on at the next offset while its facts
    are not in what it read), then stops quoting the sentence that holds each fact."""

    def __init__(self, item: dict[str, Any]) -> None:
        self.item = item
        self.seen = ""
        self.read: dict[str, str] = {}
        self.done: set[str] = set()  # discovery steps taken
        self.last: tuple[str, str] | None = None  # (tool, path) of the last action

    def __call__(self, sent: Any) -> str:
        texts = sent.texts()
        system = "".join(p.get("text", "") for p in sent.body["systemInstruction"]["parts"])
        newest = texts[-1][1]
        self.seen += "\n" + newest
        opening = texts[0][1]
        if self.last and self.last[0] == "parse_file":
            self.read[self.last[1]] = self.read.get(self.last[1], "") + "\n" + newest
        return json.dumps(self._next(opening, system))

    def _next(self, opening: str, system: str) -> dict[str, Any]:
        for source in self.item["sources"]:
            if source in self.seen:
                step = self._read(source)
                if step:
                    return step
            elif step := self._discover(opening, system):
                return step
        if not self.item["sources"] and not self._hits(opening) and "scan" not in self.done:
            self.done.add("scan")
            self.last = None
            return _call("scan_folder", "Scan: preview the folder.", folder=".")
        return self._stop()

    @staticmethod
    def _hits(opening: str) -> bool:
        return bool(_HIT.search(opening))

    def _read(self, source: str) -> dict[str, Any] | None:
        text = self.read.get(source)
        facts = [f["text"] for f in self.item["facts"] if f["source"] == source]
        if text is not None:
            flat = " ".join(text.split())
            more = _MORE.findall(text)
            if all(f in flat for f in facts) or not more or len(more) >= 4:
                return None
            self.last = ("parse_file", source)
            return _call("parse_file", "Read on.", path=source, offset=more[-1])
        self.last = ("parse_file", source)
        return _call("parse_file", "Read: it holds the answer.", path=source)

    def _discover(self, opening: str, system: str) -> dict[str, Any] | None:
        self.last = None
        if "scan" not in self.done and not self._hits(opening):
            self.done.add("scan")
            return _call("scan_folder", "Scan: preview every document.", folder=".")
        if "search" not in self.done and "semantic_search(" in system:
            self.done.add("search")
            return _call("semantic_search", "Search the index.", query=self.item["question"])
        if "grep" not in self.done:
            self.done.add("grep")
            return _call("grep", "Find the name.", pattern=_rarest(self.item["question"]))
        return None

    def _stop(self) -> dict[str, Any]:
        if self.item.get("expect") == "not_found" or not self.read:
            return {
                "kind": "stop",
                "reason": "Nothing states it.",
                "answer": "The documents do not state it.",
                "citations": [],
            }
        parts, citations = [], []
        wanted = [(f["text"], f["source"]) for f in self.item["facts"]]
        if not wanted:  # an aggregate: the figure, citing the source
            wanted = [(self.item["answer"]["text"], self.item["sources"][0])]
        for n, (fact, source) in enumerate(wanted, 1):
            quote, page = _quote(self.read.get(source, ""), fact)
            parts.append(f"{fact} [{n}]")
            citations.append({"id": n, "path": source, "page": page, "quote": quote})
        return {
            "kind": "stop",
            "reason": "The sources state it.",
            "answer": "; ".join(parts) + ".",
            "citations": citations,
        }


def _call(tool: str, reason: str, **args: str) -> dict[str, Any]:
    pairs = [{"name": k, "value": str(v)} for k, v in args.items()]
    return {"kind": "tool_call", "tool": tool, "reason": reason, "args": pairs}


def _rarest(question: str) -> str:
    """The question's capitalised name (not its first word), longest first: what to grep."""
    names = re.findall(r"(?<!^)(?<![.?!] )\b[A-Z][\w&-]+(?: [A-Z][\w&-]+)*", question)
    return max(names, key=len) if names else question.split()[-1].strip("?")


def _quote(text: str, fact: str) -> tuple[str, int]:
    """The words around `fact` in `text` (at most 25) and the page they are on."""
    flat_at = text.find(fact)
    if flat_at < 0:
        return fact, 1
    pages = [(m.start(), int(m.group(1))) for m in _PAGE.finditer(text)]
    page = max((n for at, n in pages if at <= flat_at), default=1)
    before = text[:flat_at].split()[-8:]
    after = text[flat_at + len(fact) :].split()[:8]
    return " ".join([*before, fact, *after]).strip(), page


def scripted_tokens(docs: Path, db: Path, items: list[dict], start: str) -> list[dict]:
    """Tokens and calls of the scripted model per question with `FSNB_START=start`."""
    from fake_gemini import FakeGemini

    from fsnb.agent.loop import Explorer
    from fsnb.llm.gemini import GeminiLLM

    os.environ["FSNB_START"] = start
    rows = []
    for item in items:
        model = ShortestPath(item)
        with FakeGemini(respond=model) as fake:
            llm = GeminiLLM(MODEL, api_key="fake-key", base_url=fake.url, backoff_s=0.01)
            result = Explorer(docs, llm, db=db, max_steps=10).run(item["question"])
            calls = len(fake.requests)
        usage = result.usage
        rows.append(
            {
                "id": item["id"],
                "tokens": usage.total_tokens,
                "calls": calls,
                "prompt_tokens": usage.prompt_tokens,
                "start": _start(result),
                "read": sorted(model.read),
                "error": result.error,
            }
        )
        log(f"  gemini {start} {item['id']}: {usage.total_tokens} tokens, {calls} calls")
    return rows


# -- figures -----------------------------------------------------------------------------


def _pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p * len(ordered)) - 1)]


def summary(rows: list[dict], tokens: list[dict]) -> dict[str, Any]:
    seconds = [r["seconds"] for r in rows]
    levels = sorted({r["level"] for r in rows})
    return {
        "accuracy": round(mean(r["accuracy"] for r in rows), 3) if rows else None,
        "right": round(mean(r["right"] for r in rows), 3) if rows else None,
        "p50_s": _pct(seconds, 0.5),
        "p95_s": _pct(seconds, 0.95),
        "tokens_mean": round(mean(t["tokens"] for t in tokens)) if tokens else None,
        "calls_mean": round(mean(t["calls"] for t in tokens), 2) if tokens else None,
        "by_level": {
            lv: round(mean(r["accuracy"] for r in rows if r["level"] == lv), 3) for lv in levels
        },
        "starts": dict(Counter(r["start"] for r in rows)),
    }


#: The figures each start gets: the spec's keys for `auto`, with `_scan` for `scan`.
PER_START = ("accuracy", "p50_s", "p95_s", "tokens_mean", "calls_mean", "right")


def run_size(size: int, args: argparse.Namespace) -> dict[str, Any]:
    """Build, index and question one size (see the module's docstring)."""
    out = build(size, args.seed, args.cache, log=log)
    corpus = json.loads((out / "corpus.json").read_text(encoding="utf-8"))
    items = subset(corpus["questions"], args.questions)
    docs, db = out / "docs", out / "index.duckdb"
    log(f"{size} documents: {docs}")
    figures = indexing(out, args.workers, args.reuse_index)
    os.environ["FSNB_CACHE_DIR"] = str(out / "parse-cache")  # warm: filled by the indexing
    per: dict[str, dict[str, Any]] = {}
    questions: dict[str, dict[str, Any]] = {item["id"]: {"level": item["level"]} for item in items}
    for start in args.starts:
        rows = offline_answers(docs, db, items, start)
        tokens = [] if args.no_tokens else scripted_tokens(docs, db, items, start)
        per[start] = summary(rows, tokens)
        for row in rows:
            questions[row["id"]].update(
                {
                    f"accuracy_{start}": row["accuracy"],
                    f"seconds_{start}": row["seconds"],
                    f"start_{start}": row["start"],
                }
            )
            if row["missing"]:
                questions[row["id"]][f"missing_{start}"] = row["missing"]
        for t in tokens:
            questions[t["id"]].update(
                {f"tokens_{start}": t["tokens"], f"calls_{start}": t["calls"]}
            )
    main = per.get("auto") or next(iter(per.values()))
    result: dict[str, Any] = {
        "documents": corpus["documents"],
        "index_cold_s": figures["index_cold_s"],
        "index_docs_per_s": figures["index_docs_per_s"],
        "peak_rss_mb": figures["peak_rss_mb"],
        **{k: main[k] for k in PER_START},
    }
    if "scan" in per:
        result.update({f"{k}_scan": per["scan"][k] for k in PER_START})
    result.update({k: v for k, v in figures.items() if k not in result})
    result["corpus"] = {
        k: corpus[k] for k in ("formats", "mb", "pdf_pages", "folders", "generate_s")
    }
    result["by_start"] = {
        s: {"by_level": f["by_level"], "starts": f["starts"]} for s, f in per.items()
    }
    result["questions"] = questions
    return result


def targets(sizes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The largest size against the smallest, for issue 27's targets."""
    if len(sizes) < 2:
        return {}
    small, large = sizes[min(sizes, key=int)], sizes[max(sizes, key=int)]
    out: dict[str, Any] = {"compared": f"{max(sizes, key=int)} vs {min(sizes, key=int)}"}
    for suffix in ("", "_scan"):
        acc, p50, tok = (f"accuracy{suffix}", f"p50_s{suffix}", f"tokens_mean{suffix}")
        if large.get(acc) is None:
            continue
        drop = round(100 * (small[acc] - large[acc]), 1)
        ratio = round(large[p50] / small[p50], 2) if small[p50] else None
        row = {
            "accuracy_drop_points": drop,
            "accuracy_met": drop <= TARGETS["accuracy_points"],
            "p50_ratio": ratio,
            "p50_met": ratio is not None
            and ratio <= TARGETS["p50_ratio"]
            and large[p50] <= TARGETS["p50_s"],
        }
        if small.get(tok):
            row["tokens_ratio"] = round(large[tok] / small[tok], 2)
            row["tokens_met"] = row["tokens_ratio"] <= TARGETS["tokens_ratio"]
        out[suffix.strip("_") or "auto"] = row
    out["peak_rss_met"] = large["peak_rss_mb"] <= TARGETS["peak_rss_mb"]
    out["targets"] = TARGETS
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="comma-separated sizes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--questions", type=int, help="ask this many (spread over levels)")
    parser.add_argument("--starts", default="scan,auto", help="FSNB_START values to run")
    parser.add_argument("--no-tokens", action="store_true", help="skip the scripted model")
    parser.add_argument(
        "--reuse-index",
        action="store_true",
        help="reuse the cached index and its cold figures when present",
    )
    parser.add_argument("--workers", type=int, help="the all-cores pool (default: the CPUs)")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"default {CACHE}")
    parser.add_argument("--index-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.index_child:
        folder, db, workers = args.index_child
        index_child(folder, db, int(workers))
        return {}
    from fsnb.documents.pool import default_workers

    os.environ["FSNB_RECORD"] = "0"  # explorations are not written into the index
    args.workers = args.workers or max(2, default_workers())
    args.starts = [s.strip() for s in args.starts.split(",") if s.strip()]
    sizes = {}
    for size in (int(s) for s in args.sizes.split(",")):
        began = time.perf_counter()
        sizes[str(size)] = run_size(size, args)
        log(f"{size} documents done in {time.perf_counter() - began:.0f} s")
    report = {
        "sizes": sizes,
        "targets": targets(sizes),
        "machine": {
            "cpus": os.cpu_count(),
            "workers": args.workers,
            "load_1min": round(os.getloadavg()[0], 2),
            "seed": args.seed,
            "python": sys.version.split()[0],
        },
    }
    print(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
