"""One masking reading of a text: key material, token shapes, headers, `key: value` lines
and pairs, XML elements, tables and credentials named in a sentence, in that order
(`mask`), each value withheld counted."""

from __future__ import annotations

import re
from collections.abc import Callable

from fsnb.text.redact.credentials import (
    MARKER,
    TRIVIAL,
    dotenv_line,
    find_all,
    key_kind,
    passwordish,
    reads_as_prose,
    withhold,
)
from fsnb.text.redact.key_material import mask_key_material
from fsnb.text.redact.patterns import (
    AUTH_HEADER,
    BARE_TAIL,
    BEARER,
    COOKIE_HEADER,
    JWT_SPLIT,
    KEY_CHARS,
    KEY_PREFIX,
    LINE,
    NETRC,
    PAIR,
    PAIR_I,
    PROSE_SECRET,
    TOKEN_SHAPES,
    URL_CREDENTIAL,
    VALUE,
    XML,
)
from fsnb.text.redact.tables import TABLE_WORDS, mask_tables


def mask(text: str) -> tuple[str, int]:
    """`text` with secret values replaced by `MARKER`, and how many were."""
    low = text.lower()
    text, withheld = mask_key_material(text)
    masker = _Masker()
    passes: tuple[tuple[bool, re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
        ("://" in text, URL_CREDENTIAL, masker.value),
        ("authorization" in low, AUTH_HEADER, masker.header),
        ("bearer" in low, BEARER, masker.value),
        ("cookie" in low, COOKIE_HEADER, masker.value),
        ("password" in text, NETRC, masker.value),
        (True, TOKEN_SHAPES, masker.token),
        ("eyJ" in text, JWT_SPLIT, masker.token),
        (True, LINE, masker.line),
        ("</" in text, XML, masker.xml),
    )
    for needed, pattern, replace in passes:
        if needed:
            text = pattern.sub(replace, text)
    if any(word in low for word in TABLE_WORDS) or "PIN" in text or "Pin" in text:
        text, found = mask_tables(text)
        withheld += found
    if "pass" in low or "pin" in low or "pwd" in low:
        text = masker.prose_all(text)
    return masker.pairs(text), masker.count + withheld


class _Masker:
    """One masking pass over a text, counting the values it withholds."""

    def __init__(self) -> None:
        self.count = 0

    def value(self, match: re.Match[str]) -> str:
        """Keep group 1, withhold group 2, keep the rest of the match."""
        self.count += 1
        return match.group(1) + MARKER + match.string[match.end(2) : match.end()]

    def prose_all(self, text: str) -> str:
        """`prose` at each credential word, found with `str.find` (an alternation that
        `re` tries at every position is several times slower)."""
        low = text.lower()
        if len(low) != len(text):
            return PROSE_SECRET.sub(self.prose, text)
        out: list[str] = []
        pos = 0
        for at in find_all(low, ("pass", "pin", "pwd")):
            found = PROSE_SECRET.match(text, at) if at >= pos else None
            if found:
                out.append(text[pos : found.start()] + self.prose(found))
                pos = found.end()
        out.append(text[pos:])
        return "".join(out)

    def prose(self, match: re.Match[str]) -> str:
        """A credential in a sentence: only a value shaped like one ("is required" stays)."""
        value = match.group("value").rstrip(".,;:)")
        key = match.group("key").lower()
        end = match.start("value") + len(value)
        rest = match.string[end : end + 2]
        clause_end = not rest or rest[:1] in "\n.,;!?" or rest.isspace()
        digits = value.isdigit() and 4 <= len(value) <= 12 and (key.startswith("pin") or clause_end)
        if not (digits or passwordish(value)):
            return match.group(0)
        self.count += 1
        return (
            match.string[match.start() : match.start("value")]
            + MARKER
            + match.string[end : match.end()]
        )

    def line(self, match: re.Match[str]) -> str:
        key, value = match.group(2), _uncommented(match.group(3))
        tight = dotenv_line(key, match.group(1))
        if reads_as_prose(key, value):
            # PDF reflow runs the next sentence on: "Password: Hunter2!x Please rotate".
            first = value.split()[0]
            if not (passwordish(first) and withhold(key, first, bare=True, tight=tight)):
                return match.group(0)
            value = first
        elif not withhold(key, value, bare=True, tight=tight):
            return match.group(0)
        self.count += 1
        return match.group(1) + MARKER + match.group(3)[len(value) :]

    def pairs(self, text: str) -> str:
        """Every `key: value` pair whose key is a credential, anywhere in the text."""
        out: list[str] = []
        pos = 0
        low = text.lower()
        hits = PAIR.finditer(low) if len(low) == len(text) else PAIR_I.finditer(text)
        for hit in hits:
            if hit.start() < pos:
                continue
            start, floor = hit.start(), max(pos, hit.start() - 60)
            while start > floor and text[start - 1] in KEY_CHARS:
                start -= 1
            prefix = KEY_PREFIX.search(text, max(floor, start - 12), start)
            start = prefix.start() if prefix else start
            key = text[start : hit.start("close")].lstrip("-.")
            if not (key[:1].isalpha() or key[:1] == "_") or not key_kind(key):
                continue
            value = VALUE.match(text, hit.end())
            if not value:
                continue
            bare = value["bare"] is not None
            raw = value["bare"] if bare else value["dq"] if value["dq"] is not None else value["sq"]
            tight = dotenv_line(key, key + hit["close"])
            if not withhold(key, raw, bare=bare, tight=tight):
                continue
            if bare and _followed_by_words(value) and not passwordish(raw):
                continue
            self.count += 1
            quote = "" if bare else value.group(0)[0]
            out.append(text[pos : hit.end()] + quote + MARKER + quote)
            pos = BARE_TAIL.match(text, value.end()).end() if bare else value.end()
        out.append(text[pos:])
        return "".join(out)

    def header(self, match: re.Match[str]) -> str:
        """An Authorization header: a credential-shaped value, not the start of a sentence."""
        token = match.group(2)
        scheme = match.group(1).rstrip()[-1:].isalpha()  # "Bearer ", "Basic " before it
        shaped = any(c.isdigit() for c in token) or token.endswith("=") or len(token) >= 20
        shaped = shaped or (scheme and not token.islower())
        if not shaped or TRIVIAL.fullmatch(token) or _followed_by_words(match):
            return match.group(0)
        return self.value(match)

    def xml(self, match: re.Match[str]) -> str:
        if not withhold(match.group(1), match.group(2), bare=True):
            return match.group(0)
        self.count += 1
        return f"<{match.group(1)}>{MARKER}</{match.group(1)}>"

    def token(self, match: re.Match[str]) -> str:
        self.count += 1
        return MARKER


def _uncommented(value: str) -> str:
    """A line's value without its ` # comment` and trailing blanks."""
    cut = value.find("#")
    while cut > 0 and value[cut - 1] not in " \t":
        cut = value.find("#", cut + 1)
    return (value[:cut] if cut > 0 else value).rstrip(" \t\r")


def _followed_by_words(match: re.Match[str]) -> bool:
    """Whether a bare value is the first word of a sentence ("password: click the link")."""
    rest = match.string[match.end() : match.end() + 80].split("\n", 1)[0]
    words = rest.split()
    return bool(rest[:1].isspace() and words and not words[0].startswith(("#", "//")))
