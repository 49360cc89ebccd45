"""Shared result type for corpus builders."""

from __future__ import annotations

from dataclasses import dataclass, field

from .questions import Question


@dataclass
class CorpusResult:
    """What a corpus builder produced: files, page counts, plain texts and questions."""

    name: str
    pages: dict[str, int] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    questions: list[Question] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
