"""The offline strategy's numbers in one frozen dataclass.

`OfflineLLM(tuning=Tuning(margin=0.5))` runs the strategy with one number changed, and
`bench/quality.py --tuning margin=0.5` measures what the change does to answer quality.
Shares and thresholds are fractions of the best (score, document, passage) unless said.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from fsnb.offline.english import FLOOR


@dataclass(frozen=True)
class Tuning:
    """Limits, weights and thresholds of the offline strategy (defaults: the tuned values)."""

    # -- what to read ------------------------------------------------------------------------
    max_ranked: int = 3
    """Documents read from the ranking at most: the best and those within `margin` of it."""
    margin: float = 0.6
    """A document is read along with the best when it scores at least this share of it."""
    max_documents: int = 6
    """Once this many documents are read, no further cross-reference is followed."""
    max_reads: int = 14
    """Read steps at most before answering."""
    top_pages: int = 4
    """Pages read at most of the best document (the others: their first page and more)."""
    page_share: float = 0.5
    """A later page of a document is read when a section on it scores this share of the
    document's best section."""
    search_hits: int = 8
    """Passages asked of `semantic_search` when the folder is indexed."""

    # -- which cross-references to follow ---------------------------------------------------
    follow_passage: float = 0.9
    """Follow a reference whose passage scores at least this share of the best passage..."""
    follow_standing: float = 0.5
    """...or whose target ranks at least this share of the best document..."""
    follow_pair: tuple[float, float] = (0.5, 0.1)
    """...or both: (passage share, target standing) at least these."""
    quoted_bonus: float = 2.0
    """Priority added to a reference that sits in a passage the answer would quote."""

    # -- ranking the documents ----------------------------------------------------------------
    section_words: int = 120
    """Words per section at most when a long paragraph is cut for ranking."""
    section_weights: tuple[float, ...] = (1.0, 0.5, 0.25)
    """Weights of a document's best sections in its score (best, second, third...)."""
    title_weight: float = 0.6
    """Weight of the question terms a document's title or file name holds."""
    background_share: float = 0.4
    """A question term in more than this share of the documents is weighed down..."""
    background_slope: float = 1.5
    """...by this much per share of documents above `background_share`..."""
    background_floor: float = 0.25
    """...to no less than this weight."""

    # -- reading the question and scoring passages ------------------------------------------
    vague_weight: float = 0.3
    """Weight of vague verbs of the question ('apply', 'last', 'involve')."""
    hint_weight: float = 0.25
    """Weight of the words added for the kind of value asked for ('price' for an amount)."""
    kind_bonus: float = 1.0
    """Bonus, in mean question-term IDFs, for a value of a kind asked for (amount, date...)."""
    weak_kind_bonus: float = 0.5
    """The same for a number, a name or a place, which match more loosely."""
    context_weight: float = 1.0
    """Weight of question terms found in a passage's heading or table header."""
    rarest_bonus: float = 0.25
    """Share of its weight added again for the question's rarest term."""
    damping_words: int = 150
    """A passage's score is divided by 1 + words / this: longer passages say less per word."""

    # -- choosing the passages of the answer ------------------------------------------------
    max_statements: int = 6
    """Passages quoted in an answer at most."""
    floor: float = 0.25
    """Passages scoring under this share of the best are not quoted."""
    duplicate: float = 0.7
    """A passage sharing this share of its words with a chosen one is a near-duplicate."""
    paragraph_chars: int = 600
    """Paragraphs up to this long are candidates as a whole, besides their sentences."""
    group_items: int = 8
    """A run of list items or table rows is a candidate as a whole up to this many."""
    group_share: float = 0.3
    """A group scores as its best item plus this share of its other matching items."""
    standing_weight: float = 0.2
    """Part of a passage's score that depends on how its document ranks."""
    quote_chars: int = 300
    """Characters per quote at most; longer passages are quoted in pieces."""
    support_statements: int = 5
    """Passages after the first line that an answer to one fact adds at most."""
    answer_chars: int = 700
    """Characters of quoted text an answer holds at most..."""
    list_chars: int = 2000
    """...and an answer to a question that asks for a list."""
    part_chars: float = 0.5
    """Share of `answer_chars` added for each further part of a question ("..., and when")."""
    support_share: float = 0.5
    """A passage that adds no question term, only a new value of the kind asked for or a
    document not cited yet, follows the first line when it scores this share of the best
    passage: a rival answer."""
    list_heading: float = 0.4
    """Share of a list question's weight a section heading must name for the sections
    so headed to make the answer's first line ("Issued patents" for "which patents")."""
    lead_parts: int = 3
    """Units the answer's first line joins at most (one per part of the question)."""
    lead_gain: float = 0.25
    """Share of the question's weight a unit must add to join the first line."""
    lead_kind: float = 0.5
    """What giving a kind of value asked for is worth there, as a share of the question."""
    related_statements: int = 2
    """Related passages a "not found" answer shows."""

    # -- answering or saying "not found" ----------------------------------------------------
    phrase_window: int = 3
    """A phrase of the question ("credit limit") whose words never come within this many
    words of each other in the documents read is not stated there."""
    rare_word: float = 4.5
    """A question word no document holds, rarer than this in English (Zipf frequency, from
    the word list of `fsnb.offline.english`: at least its floor, 3.0), means the folder does
    not state the answer."""
    found_share: float = 0.5
    """Share of the question's weight the folder must hold for an answer at all."""
    best_share: float = 0.2
    """Share of it the best chosen passage must hold..."""
    union_share: float = 0.3
    """...and the chosen passages together."""

    # -- resolving cross-references to files ------------------------------------------------
    title_match: float = 0.75
    """Similarity a named reference ('the Escrow Agreement') needs with a file's title."""
    document_match: float = 0.6
    """The same for a 'Document: <Title>' reference, which is surely a document."""

    def __post_init__(self) -> None:
        if self.rare_word < FLOOR:
            msg = f"rare_word must be at least {FLOOR}: the English word list stops there"
            raise ValueError(msg)

    @classmethod
    def parse(cls, overrides: list[str]) -> Tuning:
        """A tuning from `key=value` texts ('margin=0.5', 'follow_pair=0.4,0.1'), each value
        read as the type of the field's default."""
        types = {f.name: type(f.default) for f in fields(cls)}
        values: dict[str, Any] = {}
        for item in overrides:
            key, sep, text = item.partition("=")
            key = key.strip()
            if not sep or key not in types:
                msg = f"{item!r} is not key=value with a key of: {', '.join(types)}"
                raise ValueError(msg)
            kind = types[key]
            try:
                values[key] = tuple(map(float, text.split(","))) if kind is tuple else kind(text)
            except ValueError:
                wanted = {int: "a whole number", tuple: "numbers separated by commas"}
                msg = f"{item!r}: {key} takes {wanted.get(kind, 'a number')}"
                raise ValueError(msg) from None
        return cls(**values)
