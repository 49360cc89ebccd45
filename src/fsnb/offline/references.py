"""Find cross-references in a document's text and resolve them to files of the folder.

Styles recognised: "Document: <Title>", "Exhibit A" / "Exhibit C - Earnout Terms" /
"Exhibit C (Earnout Terms)", "Schedule 3" / "Schedule 3.12", Appendix / Annex /
Attachment / Addendum labels, "the Escrow Agreement" (a capitalized name ending in a kind of
document), and file names such as "05_financial_adjustments_memo.pdf".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from fsnb.offline.ranking import path_words
from fsnb.offline.tuning import Tuning
from fsnb.text.words import stem

_LABEL_WORDS = "Exhibit|Schedule|Appendix|Annex|Attachment|Addendum|Enclosure|Rider"
_DOC_NOUNS = (
    "Agreement|Agreements|Memo|Memorandum|Report|Letter|Schedule|Schedules|Policy|Plan|"
    "Statement|Statements|Checklist|Summary|Summaries|Certificate|Opinion|Addendum|Manual|"
    "Guide|Guidelines|Specification|Contract|Contracts|Lease|Charter|Minutes|Handbook|"
    "Procedure|Procedures|Standard|Review|Assessment|Analysis|Budget|Forecast|Proposal|"
    "Notice|Register|Study|Index|Deed|Bylaws|Amendment|Term Sheet|Resolution|Resolutions|"
    "Order|Invoice|Protocol|Framework|Roadmap|Playbook|Whitepaper|Brief|Deck|Model"
)
_CONNECT = r"(?:of|and|to|the|for|on|in|a|an|with|under|between|&|-|–|—)"
_TITLE_WORD = r"(?!Document\b)(?:[A-Z][\w'’&]*(?:-\w[\w'’&]*)*|\d+(?:\.\d+)*[A-Za-z]?)"
_TITLE = rf"{_TITLE_WORD}(?:\s+(?:{_CONNECT}\s+)*{_TITLE_WORD})*"
_LABEL_ID = r"(?:[A-Z]{1,2}(?:-\d+)?|\d+(?:\.\d+)*[A-Za-z]?)(?!\w|\.\d)"

_JOINED_LABEL = re.compile(rf"\s+(?:and|&|or)\s+(?=(?i:{_LABEL_WORDS}|Document)\b)")
_GENERIC = frozenset(stem(w.lower()) for w in _DOC_NOUNS.replace(" ", "|").split("|"))

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("document", re.compile(rf"\bDocument:\s+(?P<title>{_TITLE})")),
    (
        "file",
        re.compile(
            r"(?<![\w/.-])(?P<label>[\w][\w./-]*\.(?:pdf|docx?|pptx?|xlsx?|csv|md|txt|html?))\b",
            re.I,
        ),
    ),
    (
        "label",
        re.compile(
            rf"\b(?P<label>(?i:{_LABEL_WORDS})\s+{_LABEL_ID})"
            rf"(?:\s*(?:[-–—:]\s*|\()(?P<title>{_TITLE})\)?)?"
        ),
    ),
    (
        "named",
        re.compile(
            rf"\b(?:the|per|under|see|in)\s+(?P<title>(?:[A-Z][\w'’&-]*\s+(?:{_CONNECT}\s+)?){{1,5}}?"
            rf"(?:{_DOC_NOUNS}))\b"
        ),
    ),
]


@dataclass(frozen=True)
class Reference:
    """A reference found in a text: its kind, label ('Exhibit C', a file name), title."""

    kind: str
    label: str
    title: str
    start: int
    end: int

    @property
    def name(self) -> str:
        """How the reference reads, for a trace line."""
        if self.label and self.title and not self.title.startswith(self.label):
            return f"{self.label} - {self.title}"
        return self.title or self.label


def find_references(text: str) -> list[Reference]:
    """Every cross-reference in `text`, in order; overlapping matches keep the first style."""
    found: list[Reference] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            groups = match.groupdict()
            title = groups.get("title") or ""
            if title and (joined := _JOINED_LABEL.search(title)):
                title = title[: joined.start()]  # "X and Exhibit B": two references
                end = match.start("title") + len(title)
            title = _trim_title(title)
            label = " ".join((groups.get("label") or "").split())
            if kind == "document" and (m := re.match(rf"(?i:{_LABEL_WORDS})\s+{_LABEL_ID}", title)):
                label = m.group(0)
            if not (title or label) or _heads_a_line(text, start, kind):
                continue
            found.append(Reference(kind, label, title, start, end))
            taken.append((start, end))
    return sorted(found, key=lambda r: r.start)


#: A line of at most this many characters may be a heading.
HEADING_CHARS = 80
#: A line whose letters are at least this share capitals is a heading ('EXHIBIT C').
CAPITALS = 0.9


def _heads_a_line(text: str, start: int, kind: str) -> bool:
    """A label that opens a heading ('## EXHIBIT C - EARNOUT TERMS') names the part of the
    document that follows; it is not a reference to another document."""
    if kind != "label":
        return False
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : len(text) if line_end < 0 else line_end].strip()
    before = text[line_start:start].strip()
    if before.strip("#"):
        return False
    letters = [c for c in line if c.isalpha()]
    capitals = sum(c.isupper() for c in letters) >= CAPITALS * len(letters)
    return before.startswith("#") or (len(line) <= HEADING_CHARS and capitals)


def _trim_title(title: str) -> str:
    words = title.split()
    while words and re.fullmatch(_CONNECT, words[-1]):
        words.pop()
    return " ".join(words)


@dataclass(frozen=True)
class Target:
    """A file a reference may point to: its path, title and text."""

    path: str
    title: str
    text: str


_NAME_STOPWORDS = frozenset("the of and to for a an on in".split())


def _words(text: str) -> set[str]:
    """Normalized words of a name, single letters and numbers kept ('Exhibit B' -> 2)."""
    found = re.findall(r"\d+(?:\.\d+)*|[^\W\d_]+", text.lower())
    return {stem(w) for w in found if w not in _NAME_STOPWORDS}


#: The weight of the share of the name's words a title holds in `similarity`; the share
#: of the title's words the name holds has the rest (hand-set).
NAME_SHARE = 0.75


def similarity(name: str, title: str) -> float:
    """How well a referenced name matches a title: mostly the share of the name's words
    the title holds, partly the share of the title's words the name holds; 0 when they
    share only words that name a kind of document ('agreement', 'letter')."""
    a, b = _words(name), _words(title)
    shared = a & b
    if not shared - _GENERIC:
        return 0.0  # 'Escrow Agreement' is not 'Consulting Agreement'
    return NAME_SHARE * len(shared) / len(a) + (1 - NAME_SHARE) * len(shared) / len(b)


def _label_pattern(label: str) -> re.Pattern[str]:
    kind, ident = label.split(None, 1)
    return re.compile(rf"\b{re.escape(kind)}\s+{re.escape(ident)}(?!\w|\.\d)", re.I)


_DEFINING = re.compile(
    r"(?:constitutes|is|forms|serves as|attached as|attached hereto as|designated as|being)"
    r"\s+(?:part of\s+)?$",
    re.I,
)


#: A label defined within this many characters of a document's start ('This memo
#: constitutes Exhibit A', a heading at the start) names the document.
HEAD_CHARS = 600
#: `_label_strength` when a file's title names the label (a definition at the start
#: gives 2, a heading inside 1).
TITLE_STRENGTH = 3.0


def _label_strength(ref: Reference, target: Target, head_chars: int = HEAD_CHARS) -> float:
    """3: the title names the label; 2: the opening lines define it ('This memo constitutes
    Exhibit A', or a heading at the start); 1: a heading inside the document starts with it.
    When the reference gives a title ('Exhibit B - Stock Valuation'), the label's line must
    not name a different one."""
    pattern = _label_pattern(ref.label)
    if pattern.search(target.title):
        return TITLE_STRENGTH if _agrees(ref, target.title) else 0.0
    strength = 0.0
    for match in pattern.finditer(target.text):
        line_start = target.text.rfind("\n", 0, match.start()) + 1
        line_end = target.text.find("\n", match.end())
        line = target.text[line_start : len(target.text) if line_end < 0 else line_end]
        before = target.text[line_start : match.start()]
        at_start = not before.strip(" #*|>-")
        heading = at_start and (line.lstrip().startswith("#") or len(line.strip()) <= HEADING_CHARS)
        if not _agrees(ref, line):
            continue
        if match.start() < head_chars and (heading or _DEFINING.search(before)):
            return 2.0
        if heading:
            strength = 1.0
    return strength


#: Similarity a label's line needs with the reference's title to agree with it (hand-set).
AGREES = 0.34


def _agrees(ref: Reference, line: str) -> bool:
    """Whether a line naming the label agrees with the reference's title, if it has one."""
    title = ref.title
    if title.lower().startswith(ref.label.lower()):
        title = title[len(ref.label) :].strip(" -–—:")
    if not title:
        return True
    rest = _label_pattern(ref.label).split(line, maxsplit=1)[-1]
    if not _words(rest) - {"to", "the"}:
        return True
    return similarity(title, rest) >= AGREES


def resolve(
    ref: Reference, targets: Sequence[Target], source: str | None = None, *, tuning: Tuning
) -> str | None:
    """The path of the file `ref` points to, or None; never `source`, the citing file."""
    others = [t for t in targets if t.path != source]
    if ref.kind == "file":  # its path, else a file of that name in any folder
        name = ref.label.lower().removeprefix("./")
        for key in (lambda path: path, lambda path: path.rsplit("/", 1)[-1]):
            found = [t.path for t in others if key(t.path.lower()) == key(name)]
            if found:
                return found[0]
        return None
    best: tuple[float, str] | None = None
    for t in others:
        score = _match_score(ref, t, tuning)
        if score > 0 and (best is None or score > best[0]):
            best = (score, t.path)
    return best[1] if best else None


def _match_score(ref: Reference, target: Target, tuning: Tuning) -> float:
    """0 when the target does not fit the reference; higher is a better fit."""
    title_sim = 0.0
    if ref.title:
        title_sim = max(
            similarity(ref.title, target.title), similarity(ref.title, path_words(target.path))
        )
    if ref.kind == "label" or (ref.kind == "document" and ref.label):
        strength = _label_strength(ref, target)
        if strength:
            return strength + title_sim
        if ref.kind == "label":
            return 0.0
    threshold = tuning.document_match if ref.kind == "document" else tuning.title_match
    return title_sim if title_sim >= threshold else 0.0
