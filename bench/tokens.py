"""Tokens per single-document question on the shortest path; prints one JSON object.

For every question with "level": "single" in `data/<corpus>/questions.json`, the real
`GeminiLLM` explores the corpus against the local fake Gemini server (tests/fake_gemini.py)
driven by a scripted model that takes the shortest path: scan_folder, parse_file of the
document whose scan preview ranks first by BM25 for the question (path, title and preview
text), then stop with an answer quoting the best-matching sentence of what it read.

The fake server counts tokens from each request: about four characters a token over the
system instruction and the contents (prompt), the reply's text (completion), and the
longest prefix shared with an earlier request of the same run (cached, from 1,024 tokens,
Gemini's implicit caching minimum for Flash). Figures are the run's `Usage`, so they are
what the backend read from the server's usage metadata.

Target: mean total tokens <= 8,000 per question.

    .venv/bin/python bench/tokens.py [--data DIR] [--corpus NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from statistics import mean
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before fsnb: nothing may reach the model hub
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fake_gemini import FakeGemini, GeminiSent

from fsnb.agent.loop import Explorer
from fsnb.llm.gemini import GeminiLLM
from fsnb.offline.ranking import BM25, tokens

DATA = Path(__file__).resolve().parent.parent / "data"
TARGET = 8_000
MODEL = "gemini-2.5-flash"
_PAGE = re.compile(r"^\[page (\d+)\]$")


class ShortestPath:
    """The scripted model: scan, read the best-ranked document, answer with one quote."""

    def __init__(self, question: str) -> None:
        self.question = question
        self.chosen = ""

    def __call__(self, sent: GeminiSent) -> str:
        texts = sent.texts()
        steps = sum(role == "model" for role, _ in texts)
        last = texts[-1][1]
        if steps == 0:
            action = _call("scan_folder", "Scan: preview every document.", folder=".")
        elif steps == 1:
            self.chosen = self._best_document(last)
            action = _call("parse_file", "Read the best-matching document.", path=self.chosen)
        else:
            action = self._answer(last)
        return json.dumps(action)

    def _best_document(self, scan: str) -> str:
        """The scanned path whose header and preview rank first by BM25."""
        found = re.findall(r"^=== (.+?) — (.*?)(?=^=== |\Z)", scan, flags=re.M | re.S)
        units = [tokens(f"{path} {preview}") for path, preview in found]
        bm25, query = BM25(units), tokens(self.question)
        scores = [bm25.score(query, i) for i in range(len(units))]
        return found[max(range(len(found)), key=scores.__getitem__)][0] if found else "."

    def _answer(self, read: str) -> dict[str, Any]:
        """Stop, quoting the sentence of the read text that ranks first (5-25 words)."""
        page, candidates = 1, []
        for line in read.splitlines()[1:]:
            if mark := _PAGE.match(line.strip()):
                page = int(mark.group(1))
                continue
            for sentence in re.split(r"(?<=[.;:])\s+", line.strip()):
                words = sentence.split()
                if len(words) >= 5:
                    candidates.append((" ".join(words[:25]), page))
        if not candidates:
            return {"kind": "stop", "reason": "Nothing read.", "answer": "Not found."}
        units = [tokens(text) for text, _ in candidates]
        bm25, query = BM25(units), tokens(self.question)
        best = max(range(len(units)), key=lambda i: bm25.score(query, i))
        quote, page = candidates[best]
        return {
            "kind": "stop",
            "reason": "The document answers the question.",
            "answer": f"{quote} [1]",
            "citations": [{"id": 1, "path": self.chosen, "page": page, "quote": quote}],
        }


def _call(tool: str, reason: str, **args: str) -> dict[str, Any]:
    pairs = [{"name": k, "value": v} for k, v in args.items()]
    return {"kind": "tool_call", "tool": tool, "reason": reason, "args": pairs}


def run_question(folder: Path, item: dict[str, Any]) -> dict[str, Any]:
    """One question's figures from the run's usage."""
    model = ShortestPath(item["question"])
    with FakeGemini(respond=model) as fake:
        llm = GeminiLLM(MODEL, api_key="fake-key", base_url=fake.url, backoff_s=0.01)
        result = Explorer(folder, llm, max_steps=5, use_index=False).run(item["question"])
        calls = len(fake.requests)
    usage = result.usage
    return {
        "id": item["id"],
        "calls": calls,
        "read": model.chosen,
        "source_hit": model.chosen in item["sources"],
        "prompt": usage.prompt_tokens,
        "completion": usage.completion_tokens + usage.thinking_tokens,
        "cached": getattr(usage, "cached_tokens", 0),
        "total": usage.total_tokens,
        "error": result.error,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--corpus", nargs="*", help="corpora to run (default: all)")
    args = parser.parse_args(argv)
    os.environ.setdefault("FSNB_CACHE_DIR", tempfile.mkdtemp(prefix="fsnb-tokens-"))
    rows = []
    for questions in sorted(args.data.glob("*/questions.json")):
        corpus = questions.parent.name
        if args.corpus and corpus not in args.corpus:
            continue
        for item in json.loads(questions.read_text())["questions"]:
            if item.get("level") == "single":
                row = {"corpus": corpus, **run_question(questions.parent, item)}
                print(json.dumps(row), file=sys.stderr)
                rows.append(row)
    figures = {
        key: {"mean": round(mean(r[key] for r in rows)), "max": max(r[key] for r in rows)}
        for key in ("prompt", "completion", "cached", "total")
    }
    widest = max(rows, key=lambda r: r["total"])
    print(
        json.dumps(
            {
                "model": MODEL,
                "questions": len(rows),
                "target_mean_total": TARGET,
                "meets_target": figures["total"]["mean"] <= TARGET,
                "source_hits": sum(r["source_hit"] for r in rows),
                "figures": figures,
                "widest": widest,
                "per_question": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
