"""Secret masking for text that goes to an LLM: keys and structure kept, values withheld.

`mask_secrets(text)` replaces credential values with `[secret withheld]` and counts them:
values under credential-like keys (dotenv, YAML, JSON, INI, XML, query strings, connection
strings), well-known token shapes anywhere (AWS, GitHub, GitLab, Slack, Google, OpenAI,
Stripe, npm, PyPI, Hugging Face, SendGrid, JWTs, bearer tokens), private-key blocks (the
BEGIN/END lines stay) and passwords in URLs (user and host stay). Prose is left alone: a
value with several words after a capitalised key ("Password: must be 12 characters") is
text, not a secret. A compact set of precompiled patterns, fast enough for every result.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MARKER = "[secret withheld]"

_PEM_BLOCK = re.compile(
    r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)"
    r"(.+?)"
    r"(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)",
    re.DOTALL,
)
#: A block whose END line is missing (a page cut in the middle): its base64 lines.
_PEM_OPEN = re.compile(
    r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)"
    r"((?:(?:\\r|\\n|\r|\n)(?:\d+[:-] )?[ \t]*(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=]{16,}))+)"
)
_URL_CREDENTIAL = re.compile(
    r"\b([a-z][a-z0-9+.-]{0,30}://[^\s:/@'\"<>]*:)([^\s@/'\"<>]+)(@)", re.I
)
_TOKEN_SHAPES = re.compile(
    r"\b(?:"
    r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}"  # AWS key ids
    r"|gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}"  # GitHub
    r"|glpat-[A-Za-z0-9_-]{20,}"  # GitLab
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"  # Slack
    r"|AIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|GOCSPX-[A-Za-z0-9_-]{20,}"  # Google OAuth client secrets
    r"|sk-(?=[\w-]{0,200}\d)(?=[\w-]{0,200}[A-Z])[\w-]{20,}"  # OpenAI, Anthropic
    r"|(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{24,}"  # Stripe
    r"|npm_[A-Za-z0-9]{36}"  # npm
    r"|pypi-AgE[A-Za-z0-9_-]{50,}"  # PyPI
    r"|hf_[A-Za-z0-9]{30,}"  # Hugging Face
    r"|SG\.[\w-]{22}\.[\w-]{43}"  # SendGrid
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # JWT
    r")(?![\w-])"
)
_AUTH_HEADER = re.compile(
    r"\b((?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|token|bot|digest|negotiate)[ \t]+)?)"
    r"([\w.~+/=-]{8,})",
    re.I,
)
_BEARER = re.compile(r"\b(bearer[ \t]+)((?=[\w.~+/-]*\d)[\w.~+/-]{16,}=*)", re.I)
_COOKIE_HEADER = re.compile(r"^([ \t]*(?:set-)?cookie:[ \t]*)([^\n]*=[^\n]*)$", re.I | re.M)
_NETRC = re.compile(
    r"^([ \t]*(?:(?:machine|default)\b[^\n]*?[ \t])?password[ \t]+)(\S+)"
    r"(?=[ \t\r]*$|[ \t]+(?:machine|login|account|macdef|default)\b)",
    re.M,
)
#: `key: value` / `KEY=value` / `export KEY=value` / `- key: value` at the start of a line,
#: unquoted (a quoted value is left to `_PAIR`); the value runs to the end of the line or
#: to a ` #` comment.
_LINE = re.compile(
    r"^((?:\d+[:-] )?[ \t]*(?:export[ \t]+|-[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*)"
    r"([^\s\"'`#=>|&()\[\]{}][^\n]*)",
    re.M,
)
#: A key and a quoted value or one token, anywhere: JSON, inline YAML, query and
#: connection strings, logfmt, code. Found by its credential word (fast), then read
#: back to the start of the key and on to the value (`_VALUE`). Quantifiers are bounded
#: so that no text makes masking slow.
_PAIR_SOURCE = (
    r"(?:pass|pwd|secret|token|key|credential|auth|session|cookie|dsn|conn)[\w.-]{0,60}"
    r"(?P<close>[\"'\]*]{0,3}[ \t]*(?::=|=>|[:=])(?:\*\*|__)?[ \t]*)"
)
_PAIR = re.compile(_PAIR_SOURCE)  # run over the lower-cased text: much faster than re.I
_PAIR_I = re.compile(_PAIR_SOURCE, re.I)
#: "API key: ...", "Client secret: ...": a first word that makes a two-word key.
_KEY_PREFIX = re.compile(
    r"(?<![\w.-])(?:api|access|secret|private|client|auth|refresh|session|app)[ \t]\Z", re.I
)
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_VALUE = re.compile(
    r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.){0,4096})\"|'(?P<sq>[^'\n]{0,4096})')(?=[\s,;})\]&#>/]|$)"
    r"|(?P<bare>[^\s,;&'\"`()\[\]{}<>=\\][^\s,;&'\"`)}\]<>\\]{0,255})"
)
_BARE_TAIL = re.compile(r"[^\s,;&'\"`)}\]<>\\]*")
_XML = re.compile(r"<([A-Za-z_][\w.-]*)>([^<\n]+)</\1>")

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s.\-]+")
_PASSWORD_WORDS = re.compile(r"passw(?:or)?d|passphrase|(?:^|_)pwd(?:_|$)")
_STRONG_WORDS = re.compile(
    r"secret|token|credential|api_?key|access_?key|private_?key|secret_?key|signing_?key"
    r"|encryption_?key|master_?key|account_?key|auth_?key|client_?key|(?:^|_)dsn(?:_|$)"
    r"|conn(?:ection)?_?str(?:ing)?|(?:^|_)pass(?:_|$)"
)
_WEAK_WORDS = re.compile(r"(?:^|_)(?:auth|authorization|session|sessionid|cookie)(?:_|$)")
#: A key whose last part says it holds something about a secret, not the secret.
_ABOUT = frozenset(
    "name names file path dir url uri endpoint host hostname port timeout ttl expiry expires "
    "expiration expire lifetime age at date length len size type method mode provider policy "
    "rule rules hint label prompt field enabled enable disabled required algorithm alg version "
    "domain samesite secure httponly backend engine driver scheme format store storage location "
    "region prefix strength complexity manager service user username email login header_name "
    "usage used remaining".split()
)
_QUANTITY = frozenset({"max", "min", "num", "count", "total", "limit", "budget"})
#: Values that hold no secret: flags, empties, masks, placeholders, variable references.
_TRIVIAL = re.compile(
    r"(?i:true|false|yes|no|on|off|null|none|nil|undefined)|~|\*+|x+|\.+|•+|-+"
    r"|\$\{\w+\}?|\$[A-Z_][A-Z0-9_]*|\$\(\w+\)|\{\{.*\}\}|%\(\w+\)s|%s|<[^<>]*>|\[[^\[\]]*\]"
    r"|(?i:your)[-_ ][\w -]+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET|PASSWORD)"
)
_NUMBER = re.compile(r"[\d.,_:/ +-]+")
#: Unquoted values that are code, not secrets: names, attributes, annotations, calls.
_NAME = re.compile(r"[a-z]+(?:_[a-z]+)*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CODE = re.compile(
    r"(?:str|int|float|bool|bytes|list|dict|tuple|set|Any|Optional|None)\b.*"
    r"|(?:os\.)?(?:environ|getenv|process\.env)\b.*|.*(?:\s[-+*/%=]\s|[()|\[]).*"
)


def _kind(key: str) -> str:
    """'password', 'strong', 'weak' or '' for a key name (any spelling or nesting)."""
    flat = _SEPARATORS.sub("_", _CAMEL.sub("_", key)).lower()
    if flat in ("pwd", "oldpwd"):  # the shell's working directory
        return ""
    parts = [p for p in flat.split("_") if p]
    if not parts or parts[-1] in _ABOUT or _QUANTITY.intersection(parts):
        return ""
    if _PASSWORD_WORDS.search(flat):
        return "password"
    if _STRONG_WORDS.search(flat) or (key.isupper() and flat.endswith("_key")):
        return "strong"
    if _WEAK_WORDS.search(flat):
        return "weak"
    return ""


def _withhold(key: str, value: str, *, bare: bool = False, tight: bool = False) -> bool:
    """Whether `value` under `key` is a credential to withhold.

    A `bare` (unquoted) value may be code (`api_key=key`, `token: str`) unless it is
    `tight`, a dotenv line (`API_KEY=value`).
    """
    value = value.strip()
    kind = _kind(key)
    if not kind or not value or MARKER in value or _TRIVIAL.fullmatch(value):
        return False
    if bare and not tight and _code(key, value, kind):
        return False
    if kind == "password":
        return True
    if _NUMBER.fullmatch(value):
        return False
    if kind == "weak":  # auth, session, cookie: only values that look generated
        return " " not in value and len(value) >= 8 and (len(value) >= 20 or _mixed(value))
    return True


def _code(key: str, value: str, kind: str) -> bool:
    """A name or expression: snake_case, dotted, an annotation, or a plain word that is no
    password (an API key or token is never one lowercase word)."""
    value = value.rstrip(",;")
    if _CODE.fullmatch(value):
        return True
    if not _NAME.fullmatch(value):
        return False
    return "_" in value or "." in value or kind != "password" or value in key.lower()


def _tight(key: str, lead: str) -> bool:
    """`KEY=value` with an upper-case key and no spaces: a dotenv line."""
    return key.isupper() and lead.endswith(f"{key}=")


def _mixed(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _prose(key: str, value: str) -> bool:
    """A multi-word value that reads as a sentence, not a configured secret."""
    words = value.split()
    if len(words) < 2:
        return False
    styled = key[:1].isupper() and not key.isupper()  # "Password:" in a document
    return styled or len(words) > 5 or value.rstrip().endswith((".", "!", "?", ":"))


class _Masker:
    """One masking pass over a text, counting the values it withholds."""

    def __init__(self) -> None:
        self.count = 0

    def value(self, match: re.Match[str]) -> str:
        """Keep group 1, withhold group 2, keep the rest of the match."""
        self.count += 1
        return match.group(1) + MARKER + match.string[match.end(2) : match.end()]

    def pem(self, match: re.Match[str]) -> str:
        self.count += 1
        inner = match.group(2)
        sep = "\\n" if "\\n" in inner and "\n" not in inner else "\n"
        end = match.group(3) if match.lastindex == 3 else ""
        return f"{match.group(1)}{sep}{MARKER}{sep}{end}"

    def line(self, match: re.Match[str]) -> str:
        key, value = match.group(2), _uncommented(match.group(3))
        tight = _tight(key, match.group(1))
        if _prose(key, value) or not _withhold(key, value, bare=True, tight=tight):
            return match.group(0)
        self.count += 1
        return match.group(1) + MARKER + match.group(3)[len(value) :]

    def pairs(self, text: str) -> str:
        """Every `key: value` pair whose key is a credential, anywhere in the text."""
        out: list[str] = []
        pos = 0
        low = text.lower()
        hits = _PAIR.finditer(low) if len(low) == len(text) else _PAIR_I.finditer(text)
        for hit in hits:
            if hit.start() < pos:
                continue
            start, floor = hit.start(), max(pos, hit.start() - 60)
            while start > floor and text[start - 1] in _KEY_CHARS:
                start -= 1
            prefix = _KEY_PREFIX.search(text, max(floor, start - 9), start)
            start = prefix.start() if prefix else start
            key = text[start : hit.start("close")].lstrip("-.")
            if not (key[:1].isalpha() or key[:1] == "_") or not _kind(key):
                continue
            value = _VALUE.match(text, hit.end())
            if not value:
                continue
            bare = value["bare"] is not None
            raw = value["bare"] if bare else value["dq"] if value["dq"] is not None else value["sq"]
            tight = _tight(key, key + hit["close"])
            if not _withhold(key, raw, bare=bare, tight=tight):
                continue
            if bare and _followed_by_words(value):
                continue
            self.count += 1
            quote = "" if bare else value.group(0)[0]
            out.append(text[pos : hit.end()] + quote + MARKER + quote)
            pos = _BARE_TAIL.match(text, value.end()).end() if bare else value.end()
        out.append(text[pos:])
        return "".join(out)

    def header(self, match: re.Match[str]) -> str:
        """An Authorization header: a credential-shaped value, not the start of a sentence."""
        token = match.group(2)
        scheme = match.group(1).rstrip()[-1:].isalpha()  # "Bearer ", "Basic " before it
        shaped = any(c.isdigit() for c in token) or token.endswith("=") or len(token) >= 20
        shaped = shaped or (scheme and not token.islower())
        if not shaped or _TRIVIAL.fullmatch(token) or _followed_by_words(match):
            return match.group(0)
        return self.value(match)

    def xml(self, match: re.Match[str]) -> str:
        if not _withhold(match.group(1), match.group(2), bare=True):
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


def mask_secrets(text: str) -> tuple[str, int]:
    """`text` with secret values replaced by `[secret withheld]`, and how many were."""
    masker = _Masker()
    low = text.lower()
    passes: tuple[tuple[bool, re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
        ("private key" in low, _PEM_BLOCK, masker.pem),
        ("private key" in low, _PEM_OPEN, masker.pem),
        ("://" in text, _URL_CREDENTIAL, masker.value),
        ("authorization" in low, _AUTH_HEADER, masker.header),
        ("bearer" in low, _BEARER, masker.value),
        ("cookie" in low, _COOKIE_HEADER, masker.value),
        ("password" in text, _NETRC, masker.value),
        (True, _TOKEN_SHAPES, masker.token),
        (True, _LINE, masker.line),
        ("</" in text, _XML, masker.xml),
    )
    for needed, pattern, replace in passes:
        if needed:
            text = pattern.sub(replace, text)
    return masker.pairs(text), masker.count


def withheld_note(count: int) -> str:
    """The line appended to a masked tool result."""
    values = "value" if count == 1 else "values"
    return f"[{count} secret {values} withheld; the user can allow them with reveal_secrets]"


__all__ = ["MARKER", "mask_secrets", "withheld_note"]
