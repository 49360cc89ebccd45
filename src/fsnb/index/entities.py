"""Organizations and people named in a document's text (`organizations`, `people`), read
near their anchors (a legal form, a descriptive word, a role) so that most text is never
scanned by the slower patterns; conservative, like the rest of `metadata`."""

from __future__ import annotations

import re

_WORD = r"(?:[A-Z][\w'’&-]*|&)"
_DESCRIPTIVE = (
    r"Holdings|Industries|Systems|Solutions|Partners|Associates|Technologies|Group|Ventures"
    r"|Enterprises|Laboratories|Labs|Bank|Foundation|Institute|University"
)
_LEGAL = (
    r"Inc\.?|Incorporated|L\.?L\.?C\.?|Ltd\.?|Limited|Corp\.?|Corporation|Company|Co\."
    r"|L\.?L\.?P\.?|L\.P\.|PLC|plc|GmbH|AG|S\.A\.|N\.V\.|B\.V\.|Pty\.? Ltd\.?"
)
_JOIN = r",?(?:[ \t]+|[ \t]*\n[ \t]*)"  # "Acme Industries,\nInc." wraps in PDFs
_ORG = re.compile(
    rf"(?=[A-Z&])\b((?:{_WORD}[ \t]+){{0,5}}?"
    rf"(?:{_WORD}{_JOIN}(?:{_LEGAL})|(?:{_WORD}[ \t]+)?(?:{_DESCRIPTIVE})\b"
    rf"(?:{_JOIN}(?:{_LEGAL}))?))(?!\w)"
)
_LEGAL_TAIL = re.compile(rf"{_JOIN}(?:{_LEGAL})$")
_ORG_ANCHOR = re.compile(rf"(?:{_LEGAL}|{_DESCRIPTIVE})(?!\w)")
_ORG_LEADING = frozenset(
    "the this that these between to from by and for with of in on at dear re attn attention "
    "buyer seller signed dated client customer vendor party parties among per see under as if "
    "when all each our their its his her a an later also then however moreover both whereas "
    "upon after before since because although while during including such other any no not "
    "only every some thus therefore accordingly notwithstanding".split()
)
_HONORIFIC = r"(?:Dr|Mr|Mrs|Ms|Mx|Miss|Prof|Professor|Sir|Dame|Judge|Hon)"
_NAME = r"[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:-[A-Z][a-z]+)?"
_PERSON2 = rf"({_NAME}(?:[ \t]+[A-Z]\.)?[ \t]+(?:O['’])?{_NAME})"
_ROLE = (
    r"CEO|CFO|CTO|COO|CIO|CISO|CMO|CRO|CPO|General Counsel|Managing Director|Vice President"
    r"|President|Chairman|Chairwoman|Chair|Director|Partner|Founder|Co-Founder|Secretary"
    r"|Treasurer|Manager|Head of|Chief [A-Z][a-z]+ Officer|Attorney|Counsel|Esq\.?|VP"
)
_ROLE_ANCHOR = re.compile(rf"(?:{_ROLE})(?!\w)")
_PEOPLE = [
    re.compile(
        rf"(?=[DMPSJH])\b({_HONORIFIC}\.?[ \t]+{_NAME}(?:[ \t]+[A-Z]\.)?(?:[ \t]+{_NAME})?)\b"
    ),
    re.compile(rf"(?=[A-Z])\b{_PERSON2}(?:,[ \t]*|[ \t]+[-–—][ \t]+|[ \t]*\([ \t]*)(?:{_ROLE})\b"),
    re.compile(
        rf"(?=[NFADPSRWA])(?:\b(?:Name|From|Attn|Attention|Dear)[ \t]*:?[ \t]*"
        rf"|\b(?:Prepared|Signed|Reviewed|Approved|Written|Submitted|Authored)[ \t]+by:?[ \t]+)"
        rf"{_PERSON2}\b(?![ \t]+[A-Z])"
    ),
]
_NOT_NAME = frozenset(
    "agreement services service master company board department team committee office group "
    "purchase price closing date report memo letter legal financial risk assessment due "
    "diligence schedule exhibit section article buyer seller party client customer vendor "
    "management executive officer director directors partner partners capital working "
    "material adverse change total annual general counsel human resources sales marketing "
    "finance product engineering operations support project program dear sir madam regards "
    "sincerely best very truly yours north south east west new street avenue drive road suite "
    "city state county united states kingdom holdings industries systems solutions "
    "technologies inc llc ltd corp corporation chief vice president senior acquisition merger "
    "consent approval regulatory confidential draft final summary overview introduction "
    "conclusion appendix table consulting advisory advisors advisers law associates audit "
    "bank accounting analytics research compliance security technology".split()
)


def _near(text: str, anchor: re.Pattern[str]) -> list[str]:
    """The stretches of text (a line and those on either side) around each match of `anchor`."""
    spans: list[list[int]] = []
    for m in anchor.finditer(text):
        line = text.rfind("\n", 0, m.start())
        start = text.rfind("\n", 0, line) + 1 if line > 0 else 0
        after = text.find("\n", m.end())
        end = text.find("\n", after + 1) if after >= 0 else -1
        end = len(text) if end < 0 else end
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [text[a:b] for a, b in spans]


def organizations(text: str) -> list[str]:
    found: dict[str, str] = {}
    matches = [m for part in _near(text, _ORG_ANCHOR) for m in _ORG.finditer(part)]
    for m in matches:
        words = m.group(1).split()
        while words and words[0].lower().strip(",") in _ORG_LEADING:
            words.pop(0)
        while len(words) > 2 and not words[0].isupper() and all(w.isupper() for w in words[1:]):
            words.pop(0)  # "Meanwhile ACME HOLDINGS LLC": a sentence's first word
        if words and words[-1].endswith(".") and words[-1][:-1].isalpha() and words[-1].isupper():
            words[-1] = words[-1][:-1]  # "LLC." ending a sentence
        name = " ".join(words)
        core = _LEGAL_TAIL.sub("", name).split()
        if len(words) < 2 or not core or (re.fullmatch(_DESCRIPTIVE, core[0]) and len(core) == 1):
            continue  # "the Company", a lone "Holdings" or "Solutions, Inc.": no name
        key = re.sub(r"\W+", " ", _LEGAL_TAIL.sub("", name)).casefold().strip()
        old = found.get(key)
        better = old is None or (old.isupper() and not name.isupper())
        if better or (not _LEGAL_TAIL.search(old) and _LEGAL_TAIL.search(name)):
            found[key] = name
    return list(found.values())


def people(text: str, orgs: list[str]) -> list[str]:
    honorific, by_role, labelled = _PEOPLE
    hits = [m.group(1) for m in honorific.finditer(text)]
    hits += [m.group(1) for part in _near(text, _ROLE_ANCHOR) for m in by_role.finditer(part)]
    hits += [m.group(1) for m in labelled.finditer(text)]
    hits.sort(key=text.find)
    found: dict[str, str] = {}
    for name in hits:
        bare = re.sub(rf"^{_HONORIFIC}\.?\s+", "", name)
        words = [w.strip(".").lower() for w in bare.split()]
        if any(w in _NOT_NAME for w in words) or any(bare in org for org in orgs):
            continue
        found.setdefault(bare.casefold(), name)
    full = [name.casefold().split() for name in found if " " in name]
    # "Mr. Mitchell" or "Dr. Sarah" next to "James Mitchell" or "Sarah Chen" is no one new.
    return [v for k, v in found.items() if " " in k or not any(k in words for words in full)]
