"""Build and write ``questions.json`` files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: "aggregate": the same labelled value from several documents of one kind, added up.
LEVELS = ("single", "cross", "multi", "aggregate")
#: Questions whose answer the corpus does not hold: the right answer says so.
ABSENT = "absent"

Question = dict[str, Any]


def q(qid: str, question: str, level: str, *facts: tuple[str, str]) -> Question:
    """One question; ``facts`` are (literal text, source path relative to the corpus)."""
    if level not in LEVELS:
        raise ValueError(f"{qid}: bad level {level!r}")
    sources = list(dict.fromkeys(src for _, src in facts))
    return {
        "id": qid,
        "question": question,
        "level": level,
        "facts": [{"text": text, "source": src} for text, src in facts],
        "sources": sources,
    }


def absent(qid: str, question: str) -> Question:
    """A question the corpus cannot answer (a thing it never states, or that does not
    exist in it); the expected answer is "not found"."""
    return {
        "id": qid,
        "question": question,
        "level": ABSENT,
        "expect": "not_found",
        "facts": [],
        "sources": [],
    }


def write_questions(corpus: str, questions: list[Question], out_dir: Path) -> None:
    """Write ``out_dir/questions.json`` deterministically, hidden from fsnb by .fsnbignore.

    The questions carry their answers, so the agent exploring the corpus must not read them.
    """
    payload = {"corpus": corpus, "questions": questions}
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    (out_dir / "questions.json").write_text(text, encoding="utf-8")
    ignore = "# Evaluation data with the answers: not part of the corpus.\nquestions.json\n"
    (out_dir / ".fsnbignore").write_text(ignore, encoding="utf-8")


def check_facts(questions: list[Question], texts: dict[str, str]) -> list[str]:
    """Return problems: facts missing from the (whitespace-normalized) source text."""
    problems = []
    norm = {name: " ".join(text.split()) for name, text in texts.items()}
    for item in questions:
        for fact in item["facts"]:
            source = fact["source"]
            if source not in norm:
                problems.append(f"{item['id']}: unknown source {source}")
            elif fact["text"] not in norm[source]:
                problems.append(f"{item['id']}: {fact['text']!r} not in {source}")
    return problems
