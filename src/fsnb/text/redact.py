"""Secret masking for text that goes to an LLM: keys and structure kept, values withheld.

`mask_secrets(text)` replaces credential values with `[secret withheld]` and counts them:

- values under credential-like keys (dotenv, YAML, JSON, INI, XML, query strings,
  connection strings), two-word labels included ("Encryption key:", "Storage account key:");
- well-known token shapes anywhere (AWS, GitHub, GitLab, Slack, Google, OpenAI, Stripe, npm,
  PyPI, Hugging Face, SendGrid, JWTs, also split over lines by PDF extraction, bearer tokens),
  and a bare 40-character AWS secret key only beside an AWS word or key id;
- private-key blocks (the BEGIN/END lines stay), and key bodies shown without their BEGIN line
  (a grep hit): base64 lines that start with DER (`MII`) or two full-width PEM lines;
- passwords in URLs (user and host stay), and credentials named in a sentence when the value
  looks like one ("the admin password is hunter2!");
- table cells under a credential column or beside a credential label: Markdown and reflowed
  PDF pipe tables, CSV, TSV and space-aligned frames (pandas `to_string`);
- a passphrase of plain lowercase words on its own line after a password key.

Docling's Markdown escapes and HTML entities (`aws\\_secret\\_access\\_key`, `&amp;`) are
seen through. Left alone: prose about credentials ("the password is required", "Password:
must be 12 characters", "Secret: the board has not been told"), code that names them
(`api_key = key`, `token: str`), placeholders and variable references, amounts, hashes,
certificates and base64 data with no credential around it. A value run on into the next
sentence ("Password: Hunter2!x Please rotate") loses only its first, password-shaped token.
Every pattern runs in linear time: open repeats cannot backtrack, the others are bounded, and
BEGIN/END lines are paired by a search, so hostile text cannot make masking slow.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left
from collections.abc import Callable

MARKER = "[secret withheld]"

#: A block's BEGIN and END lines, paired by `_Masker.pem_blocks` with a search that never
#: scans past the same END twice (a lazy `BEGIN(.+?)END` is quadratic without END lines).
_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
#: A block whose END line is missing (a page cut in the middle): its base64 lines.
_PEM_OPEN = re.compile(
    r"(-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)"
    r"((?:(?:\\r|\\n|\r|\n)(?:\d+[:-] )?[ \t]*(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=]{16,}))+)"
)
_URL_CREDENTIAL = re.compile(
    r"\b([a-z][a-z0-9+.-]{0,30}://[^\s:/@'\"<>]*:)([^\s@/'\"<>]+)(@)", re.I
)
#: Every open repeat takes `[\w-]`, all that the closing `(?![\w-])` refuses, so it never
#: backtracks; the others are bounded (a narrower class made "xoxb-xoxb-...xoxb-_" quadratic).
_TOKEN_SHAPES = re.compile(
    r"\b(?:"
    r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}"  # AWS key ids
    r"|gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}"  # GitHub
    r"|glpat-[\w-]{20,}"  # GitLab
    r"|xox[abprs]-[\w-]{10,}"  # Slack
    r"|AIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|GOCSPX-[\w-]{20,}"  # Google OAuth client secrets
    r"|sk-(?=[\w-]{0,200}\d)(?=[\w-]{0,200}[A-Z])[\w-]{20,}"  # OpenAI, Anthropic
    r"|(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,512}|whsec_[0-9A-Za-z]{24,512}"  # Stripe
    r"|npm_[A-Za-z0-9]{36}"  # npm
    r"|pypi-AgE[\w-]{50,}"  # PyPI
    r"|hf_[A-Za-z0-9]{30,512}"  # Hugging Face
    r"|SG\.[\w-]{22}\.[\w-]{43}"  # SendGrid
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[\w-]{8,}"  # JWT
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
    r"(?<![\w.-])(?:api|access|secret|private|client|auth|refresh|session|app|encryption|signing"
    r"|master|account)[ \t]\Z",
    re.I,
)
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_VALUE = re.compile(
    r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.){0,4096})\"|'(?P<sq>[^'\n]{0,4096})')(?=[\s,;})\]&#>/]|$)"
    r"|(?P<bare>[^\s,;&'\"`()\[\]{}<>=\\][^\s,;&'\"`)}\]<>\\]{0,255})"
)
_BARE_TAIL = re.compile(r"[^\s,;&'\"`)}\]<>\\]*")
_XML = re.compile(r"<([A-Za-z_][\w.-]*)>([^<\n]+)</\1>")

#: Markdown escapes of punctuation (Docling writes `aws\_secret`) and HTML entities: the
#: masker reads the text without them when the text has them (`_ESCAPE_HINT`).
_ESCAPED = re.compile(r"\\[!-/:-@\[-`{-~]|&(?:amp|lt|gt|quot|apos|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ESCAPE_HINT = re.compile(r"\\[_*#\[\]`]|&(?:amp|lt|gt|quot|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
#: A JWT that PDF extraction broke over lines, at its dots or with a hyphen inside a part.
_JWT_PART = r"[\w-]{2,2000}(?:(?:-?[ \t]*\r?\n|-[ \t]+)[ \t]*[\w-]{1,2000}){0,6}"
_JWT_SPLIT = re.compile(
    rf"\beyJ{_JWT_PART}\.[ \t]*\r?\n?[ \t]*eyJ{_JWT_PART}\.[ \t]*\r?\n?[ \t]*"
    r"[\w-]{8,2000}(?:-[ \t]*\r?\n[ \t]*[\w-]{1,2000}){0,4}(?![\w-])"
)
#: An AWS secret access key: 40 characters of mixed base64, masked only beside AWS words.
_AWS_SECRET = re.compile(
    r"(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])"
    r"(?=[A-Za-z0-9/+]{0,39}\d)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"
)
_AWS_CONTEXT = re.compile(r"aws|secret|key|(?:AKIA|ASIA)[0-9A-Z]{16}", re.I)
#: A line of base64 (after an optional grep `12:` / `12-` prefix): key material when a run
#: of them starts with DER (`MII`) or holds two full PEM (64) or OpenSSH (70) lines.
_B64_LINE = re.compile(
    r"^((?:[^\s:]{1,200}:)?\d{1,9}[:-][ \t]?|[ \t]*)([A-Za-z0-9+/]{4,}={0,2})[ \t\r]*$", re.M
)
#: 40+ non-blank characters: found far faster than a run of the base64 class, so the base64
#: patterns are tried only inside such runs.
_LONG_RUN = re.compile(r"\S{40,}")
#: A credential named in a sentence: "the admin password is hunter2!", "my PIN is 4821".
_PROSE_SECRET = re.compile(
    r"\b(?P<key>pass(?:word|phrase|code)s?|passwd|pins?|pwd)\b(?:/(?:pass(?:word|phrase|code)|pin)\b)?"
    r"(?:[ \t]+(?:for|of|to|on)[ \t]+[^\n.;:!?]{1,40}?)?"
    r"[ \t]+(?:is|was|are|were)[ \t]*:?[ \t]+[\"'“‘]?(?P<value>[^\s\"'”’]{1,128})",
    re.I,
)
#: Words that make a line of a table worth reading cell by cell.
_TABLE_WORDS = ("pass", "pwd", "secret", "token", "key", "credential")  # and "PIN", "Pin"
_RULE_CELL = re.compile(r"[ \t]*:?-{3,}:?[ \t]*")
_ALIGNED_HEADER = re.compile(r"[ \t]*[A-Za-z_][\w.-]*(?:[ \t]+[A-Za-z_][\w.-]*)+[ \t]*")
_HEADER_WORD = re.compile(r"[A-Za-z_][\w.-]*")
_PIN = re.compile(r"(?i)(?:pin|passcode)(?:[ _-]?(?:code|number|no\.?))?")
#: Words that make a value a sentence or a note, not a passphrase ("must be 12 characters").
_STOP = frozenset(
    "a an the is are was were be been being must should will would can could may might shall "
    "do does did has have had not no none and or but if of to in on at by for with from as "
    "see use ask your you our we they it its this that these those same above below contact "
    "please click enter set reset change required optional available upon request only least "
    "most more than any all each per via every characters character digits letters long "
    "minimum maximum min max length days months hours policy rules secure vault manager admin "
    "administrator sent email separately new old default".split()
)
#: Cells under a credential header that say something about it, not the secret.
_STATUS = frozenset(
    "n/a na tbd tba required optional set unset reset expired changed unknown hidden redacted "
    "masked encrypted hashed same default none empty blank pending active disabled locked "
    "sso ldap oauth".split()
)
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")
_AMOUNT = re.compile(r"[$€£¥]?\d[\d.,/:-]*%?|\d+(?:st|nd|rd|th|s|x|k|m|h|d)")
_ACRONYM = re.compile(r"[A-Z]{2,}-?\d{1,4}")
_CAMEL_INSIDE = re.compile(r"[a-z][A-Z]")
_SYMBOL_INSIDE = re.compile(r"[A-Za-z0-9][!@#$%^&*+=?~][A-Za-z0-9]")

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
    if len(words) < 2 or (_kind(key) == "password" and _passphrase(value)):
        return False
    styled = key[:1].isupper() and not key.isupper()  # "Password:" in a document
    return styled or len(words) > 5 or value.rstrip().endswith((".", "!", "?", ":"))


def _passphrase(value: str) -> bool:
    """2-6 lowercase words with no function word, verb form or punctuation: "correct horse
    battery staple", not "must be 12 characters" or "provided separately"."""
    words = value.split()
    return 2 <= len(words) <= 6 and all(
        w.isalpha() and w.islower() and w not in _STOP and not w.endswith(("ed", "ly", "ing"))
        for w in words
    )


def _passwordish(token: str) -> bool:
    """A single token shaped like a password: letters and digits in one run ("hunter2"),
    camel case inside a word, or a symbol between letters ("P@ss"). Amounts, ordinals,
    acronyms with numbers ("SHA256") and hyphenated words ("12-character") are not."""
    core = token.rstrip(".,;:)")
    if not 4 <= len(core) <= 256 or MARKER in core or _TRIVIAL.fullmatch(core):
        return False
    if _AMOUNT.fullmatch(core) or _ACRONYM.fullmatch(core):
        return False
    if any(c.isupper() for c in core) and any(c.islower() for c in core) and _mixed(core):
        return True  # three classes: "Blue-Sky-42"
    for run in _ALNUM_RUN.findall(core):
        letters = any(c.isalpha() for c in run)
        if letters and any(c.isdigit() for c in run) and not _ACRONYM.fullmatch(run):
            return True
        if _CAMEL_INSIDE.search(run):
            return True
    return bool(_SYMBOL_INSIDE.search(core))


def _cell_kind(cell: str) -> str:
    """The credential kind of a table header or key cell: a short label, not a sentence."""
    label = cell.strip().strip("*_`:").strip()
    words = label.split()
    if (
        not label
        or len(label) > 40
        or len(words) > 3
        or _STOP.intersection(w.lower() for w in words)
    ):
        return ""
    if _PIN.fullmatch(label):
        return "password"
    return _kind(label) if all(_HEADER_WORD.fullmatch(w) for w in words) else ""


def _cell_secret(kind: str, value: str, *, header: bool = False) -> bool:
    """Whether a table cell under (or beside) a credential label holds the credential.

    Beside a label in a header row the cell may itself be a label, so only a
    password-shaped value counts there.
    """
    value = value.strip().strip("`")
    if not value or MARKER in value or _TRIVIAL.fullmatch(value):
        return False
    if value.lower() in _STATUS or value.lower().startswith(("see ", "ask ", "in ")):
        return False
    if header:
        return _passwordish(value)
    if any(c.isspace() for c in value):
        return kind == "password" and _passphrase(value)
    if kind == "password":  # "Expired", "Rotated": a status, not a password
        return not (value.isalpha() and value.lower().endswith("ed"))
    if _NUMBER.fullmatch(value):
        return False
    return len(value) >= 8 and (len(value) >= 20 or _mixed(value) or _passwordish(value))


def _separator(line: str) -> str:
    """The cell separator of a table row: `|`, a tab or a comma ('' for none)."""
    if "|" in line:
        return "|"
    if "\t" in line:
        return "\t"
    if "," in line and line.count(" ") <= 3 * line.count(",") + 3:  # not a sentence
        return ","
    return ""


def _cells(line: str, sep: str) -> list[tuple[int, int]]:
    """Spans of a row's cells (stripped), split at `sep` outside double quotes."""
    lead = len(line) - len(line.lstrip())
    start = lead + 1 if sep == "|" and line[lead : lead + 1] == "|" else 0
    bounds, quoted = [], False
    if sep == "|" or '"' not in line:
        cut = line.find(sep, start)
        while cut >= 0:
            bounds.append(cut)
            cut = line.find(sep, cut + 1)
    else:
        for i in range(start, len(line)):
            if line[i] == '"':
                quoted = not quoted
            elif line[i] == sep and not quoted:
                bounds.append(i)
    spans = []
    for cut in bounds:
        spans.append((start, cut))
        start = cut + 1
    if not (sep == "|" and not line[start:].strip()):  # a trailing `|` closes the row
        spans.append((start, len(line)))
    out = []
    for a, b in spans:
        cell = line[a:b]
        a += len(cell) - len(cell.lstrip())
        b -= len(cell) - len(cell.rstrip())
        out.append((a, max(a, b)))
    return out


def _aligned(row: str, header: str) -> bool:
    """A row of the header's frame: as wide (pandas pads every line) or column-spaced."""
    if len(row.rstrip()) == len(header.rstrip()):
        return True
    return "  " in header.strip() and "  " in row.strip()


def _find_all(low: str, words: tuple[str, ...]) -> list[int]:
    """Sorted offsets of every occurrence of `words` in `low`."""
    hits = []
    for word in words:
        at = low.find(word)
        while at >= 0:
            hits.append(at)
            at = low.find(word, at + 1)
    return sorted(hits)


def _unescape(text: str) -> str:
    """`text` without Markdown punctuation escapes and HTML entities, but for escaped
    pipes (`&#124;`), which would split a table cell in two."""

    def one(match: re.Match[str]) -> str:
        found = match.group(0)
        char = found[1] if found[0] == "\\" else html.unescape(found)
        return found if char == "|" else char  # an escaped pipe stays: it is inside a cell

    return _ESCAPED.sub(one, text)


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

    def pem_blocks(self, text: str) -> str:
        """Each BEGIN ... END private-key block: the lines kept, the body withheld."""
        ends = list(_PEM_END.finditer(text))
        starts = [end.start() for end in ends]
        out: list[str] = []
        pos = 0
        for begin in _PEM_BEGIN.finditer(text):
            at = bisect_left(starts, begin.end() + 1)  # an END after a body of 1+ characters
            if begin.start() < pos or at == len(ends):
                continue
            end = ends[at]
            inner = text[begin.end() : end.start()]
            sep = "\\n" if "\\n" in inner and "\n" not in inner else "\n"
            out.append(f"{text[pos : begin.end()]}{sep}{MARKER}{sep}{end.group(0)}")
            self.count += 1
            pos = end.end()
        out.append(text[pos:])
        return "".join(out)

    def key_lines(self, text: str) -> str:
        """Private-key body lines shown without their BEGIN line (a grep hit, a cut page):
        a run of base64 lines that starts with DER (`MII`) or holds two full-width lines.
        A run under a BEGIN line that is no private key (a certificate) stays."""
        out: list[str] = []
        pos = 0
        run: list[re.Match[str]] = []

        def flush() -> None:
            nonlocal pos
            if not run:
                return
            bodies = [m.group(2) for m in run]
            full = [b for b in bodies if len(b) in (64, 70) and _mixed(b) and not b.islower()]
            der = any(b.startswith("MII") and len(b) >= 40 for b in bodies)
            before = text[max(0, run[0].start() - 200) : run[0].start()].rstrip("\r\n")
            before = before[before.rfind("\n") + 1 :]
            public = before.lstrip().startswith("-----BEGIN") and "PRIVATE" not in before
            if (der or len(full) >= 2) and not public:
                out.append(text[pos : run[0].start()] + run[0].group(1) + MARKER)
                pos = run[-1].end()
                self.count += 1
            run.clear()

        def add(line: re.Match[str] | None) -> None:
            if run and line and line.start() == run[-1].end() + 1:
                run.append(line)
                return
            tail = _B64_LINE.match(text, run[-1].end() + 1) if run else None
            if tail and (tail.group(2).endswith("=") or _mixed(tail.group(2))):
                run.append(tail)  # a body's short last line
            flush()
            if line:
                run.append(line)

        seen = 0  # the lines up to here are read: only lines with a long run are read at all
        for long in _LONG_RUN.finditer(text):
            if long.start() < seen:
                continue
            start = text.rfind("\n", seen, long.start()) + 1 or seen
            end = text.find("\n", long.end())
            seen = len(text) if end < 0 else end + 1
            line = _B64_LINE.match(text, start)
            if line and len(line.group(2)) >= 40:
                add(line)
        add(None)
        out.append(text[pos:])
        return "".join(out)

    def aws_secrets(self, text: str) -> str:
        """`aws_secret` at each 40-character base64 run inside a long non-blank run."""
        out: list[str] = []
        pos = 0
        for long in _LONG_RUN.finditer(text):
            for found in _AWS_SECRET.finditer(text, long.start(), long.end()):
                out.append(text[pos : found.start()] + self.aws_secret(found))
                pos = found.end()
        out.append(text[pos:])
        return "".join(out)

    def aws_secret(self, match: re.Match[str]) -> str:
        """40 characters of base64 beside an AWS word on its line or the line before."""
        text = match.string
        before = text[max(0, match.start() - 300) : match.start()]
        lines = before.split("\n")
        near = "\n".join(lines[-2:]) + text[match.end() : match.end() + 200].split("\n", 1)[0]
        if not _AWS_CONTEXT.search(near):
            return match.group(0)
        return self.token(match)

    def prose_all(self, text: str) -> str:
        """`prose` at each credential word, found with `str.find` (an alternation that
        `re` tries at every position is several times slower)."""
        low = text.lower()
        if len(low) != len(text):
            return _PROSE_SECRET.sub(self.prose, text)
        out: list[str] = []
        pos = 0
        for at in _find_all(low, ("pass", "pin", "pwd")):
            found = _PROSE_SECRET.match(text, at) if at >= pos else None
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
        if not (digits or _passwordish(value)):
            return match.group(0)
        self.count += 1
        return (
            match.string[match.start() : match.start("value")]
            + MARKER
            + match.string[end : match.end()]
        )

    def tables(self, text: str) -> str:
        """Cells under a credential column and beside a credential label, in pipe tables
        (Markdown and reflowed PDF rows), CSV and TSV lines and space-aligned frames."""
        lines = text.split("\n")
        hinted, line, pos = set(), 0, 0
        for at in sorted(_find_all(text.lower(), _TABLE_WORDS) + _find_all(text, ("PIN", "Pin"))):
            line, pos = line + text.count("\n", pos, at), at
            hinted.add(line)
        block: tuple[str, int, list[tuple[int, str]]] | None = None  # sep, width, columns
        aligned: tuple[str, list[tuple[int, int, str]]] | None = None  # header, columns
        last = -1  # the last line read only to follow a table: its row decides `block` late
        for n, line in enumerate(lines):
            if not (block and block[2]) and not aligned and n not in hinted:
                if line.strip():  # no credential word and no credential column above
                    last, block = n, None
                continue
            if not line.strip():
                aligned = None
                continue
            sep = _separator(line)
            if last >= 0:
                was = _separator(lines[last])
                block = (was, len(_cells(lines[last], was)), []) if was else None
                last = -1
            if aligned and not sep and _aligned(line, aligned[0]):
                lines[n] = self._aligned_row(line, *aligned)
                continue
            aligned = None
            if not sep:
                block = None
                if len(line) <= 2000 and _ALIGNED_HEADER.fullmatch(line):
                    words = list(_HEADER_WORD.finditer(line))
                    columns = [(w.start(), w.end(), _cell_kind(w.group(0))) for w in words]
                    if any(kind for _, _, kind in columns):
                        aligned = (line, columns)
                continue
            cells = _cells(line, sep)
            if len(cells) < 2:
                block = None
                continue
            if sep == "|" and all(_RULE_CELL.fullmatch(line[a:b] or "---") for a, b in cells):
                continue  # the |---|---| under a header
            values = [line[a:b] for a, b in cells]
            header = not (block and block[0] == sep and block[1] == len(cells))
            hits = set()
            for i in range(len(values) - 1):  # a label cell, its value beside it
                kind = _cell_kind(values[i])
                if kind and _cell_secret(kind, values[i + 1], header=header):
                    hits.add(i + 1)
            if header:  # a label beside its (withheld) value: a key/value table, no columns
                columns = [(i, _cell_kind(v)) for i, v in enumerate(values)]
                pairs = hits or any(MARKER in values[i + 1] for i, k in columns[:-1] if k)
                block = (sep, len(cells), [] if pairs else [c for c in columns if c[1]])
            else:
                hits.update(i for i, kind in block[2] if _cell_secret(kind, values[i]))
            if hits:
                lines[n] = self._replace(line, [cells[i] for i in sorted(hits)])
        return "\n".join(lines)

    def _aligned_row(self, row: str, header: str, columns: list[tuple[int, int, str]]) -> str:
        """A row of a space-aligned frame (pandas `to_string`): each credential column's
        cell, found between its neighbours' header words."""
        spans = []
        for i, (_, _, kind) in enumerate(columns):
            if not kind:
                continue
            lo = columns[i - 1][1] if i else 0
            hi = columns[i + 1][0] if i + 1 < len(columns) else len(row)
            cell = row[lo:hi]
            if _cell_secret(kind, cell):
                a = lo + len(cell) - len(cell.lstrip())
                spans.append((a, a + len(cell.strip())))
        return self._replace(row, spans) if spans else row

    def _replace(self, line: str, spans: list[tuple[int, int]]) -> str:
        self.count += len(spans)
        out, pos = [], 0
        for a, b in spans:
            out.append(line[pos:a] + MARKER)
            pos = b
        return "".join(out) + line[pos:]

    def line(self, match: re.Match[str]) -> str:
        key, value = match.group(2), _uncommented(match.group(3))
        tight = _tight(key, match.group(1))
        if _prose(key, value):
            # PDF reflow runs the next sentence on: "Password: Hunter2!x Please rotate".
            first = value.split()[0]
            if not (_passwordish(first) and _withhold(key, first, bare=True, tight=tight)):
                return match.group(0)
            value = first
        elif not _withhold(key, value, bare=True, tight=tight):
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
            prefix = _KEY_PREFIX.search(text, max(floor, start - 12), start)
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
            if bare and _followed_by_words(value) and not _passwordish(raw):
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
    """`text` with secret values replaced by `[secret withheld]`, and how many were.

    Text with Markdown escapes or HTML entities (Docling's `aws\\_secret\\_access\\_key`)
    is masked as written and read without them: when that finds as many or more, the
    model gets the unescaped text, else the text as it was.
    """
    masked, count = _mask(text)
    if ("\\" in text or "&" in text) and _ESCAPE_HINT.search(text):
        # Read as written, an escape cuts a value short ("P\\*ss" masks "P"); read without
        # them, JSON's `\\"` loses its meaning. The reading that finds more wins.
        plain, found = _mask(_unescape(text))
        if found and found >= count:
            return plain, found
    return masked, count


def _mask(text: str) -> tuple[str, int]:
    masker = _Masker()
    low = text.lower()
    if "private key" in low:
        text = masker.pem_blocks(text)
        text = _PEM_OPEN.sub(masker.pem, text)
    if _LONG_RUN.search(text):
        text = masker.key_lines(text)
        if "aws" in low or "secret" in low or "key" in low or "AKIA" in text or "ASIA" in text:
            text = masker.aws_secrets(text)
    passes: tuple[tuple[bool, re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
        ("://" in text, _URL_CREDENTIAL, masker.value),
        ("authorization" in low, _AUTH_HEADER, masker.header),
        ("bearer" in low, _BEARER, masker.value),
        ("cookie" in low, _COOKIE_HEADER, masker.value),
        ("password" in text, _NETRC, masker.value),
        (True, _TOKEN_SHAPES, masker.token),
        ("eyJ" in text, _JWT_SPLIT, masker.token),
        (True, _LINE, masker.line),
        ("</" in text, _XML, masker.xml),
    )
    for needed, pattern, replace in passes:
        if needed:
            text = pattern.sub(replace, text)
    if any(word in low for word in _TABLE_WORDS) or "PIN" in text or "Pin" in text:
        text = masker.tables(text)
    if "pass" in low or "pin" in low or "pwd" in low:
        text = masker.prose_all(text)
    return masker.pairs(text), masker.count


def secret_cell(label: str, value: str) -> bool:
    """Whether `value`, held under the column or key `label` of structured data (a table's
    records, a query's rows), is a credential to withhold, as a printed table's cell is."""
    kind = _cell_kind(label)
    return bool(kind) and _cell_secret(kind, value)


def withheld_note(count: int) -> str:
    """The line appended to a masked tool result."""
    values = "value" if count == 1 else "values"
    return f"[{count} secret {values} withheld; the user can allow them with reveal_secrets]"


__all__ = ["MARKER", "mask_secrets", "secret_cell", "withheld_note"]
