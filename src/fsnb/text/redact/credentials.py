"""What counts as a credential: the key names that hold one (`key_kind`), the values under
them worth withholding (`withhold`), and the shapes a password takes (`passwordish`,
`passphrase`), with the placeholders, numbers, code and prose that are none."""

from __future__ import annotations

import re

MARKER = "[secret withheld]"

#: Words that make a value a sentence or a note, not a passphrase ("must be 12 characters").
STOP = frozenset(
    "a an the is are was were be been being must should will would can could may might shall "
    "do does did has have had not no none and or but if of to in on at by for with from as "
    "see use ask your you our we they it its this that these those same above below contact "
    "please click enter set reset change required optional available upon request only least "
    "most more than any all each per via every characters character digits letters long "
    "minimum maximum min max length days months hours policy rules secure vault manager admin "
    "administrator sent email separately new old default".split()
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
TRIVIAL = re.compile(
    r"(?i:true|false|yes|no|on|off|null|none|nil|undefined)|~|\*+|x+|\.+|•+|-+"
    r"|\$\{\w+\}?|\$[A-Z_][A-Z0-9_]*|\$\(\w+\)|\{\{.*\}\}|%\(\w+\)s|%s|<[^<>]*>|\[[^\[\]]*\]"
    r"|(?i:your)[-_ ][\w -]+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET|PASSWORD)"
)
NUMBER = re.compile(r"[\d.,_:/ +-]+")
#: Unquoted values that are code, not secrets: names, attributes, annotations, calls.
_NAME = re.compile(r"[a-z]+(?:_[a-z]+)*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CODE = re.compile(
    r"(?:str|int|float|bool|bytes|list|dict|tuple|set|Any|Optional|None)\b.*"
    r"|(?:os\.)?(?:environ|getenv|process\.env)\b.*|.*(?:\s[-+*/%=]\s|[()|\[]).*"
)


def key_kind(key: str) -> str:
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


def withhold(key: str, value: str, *, bare: bool = False, tight: bool = False) -> bool:
    """Whether `value` under `key` is a credential to withhold.

    A `bare` (unquoted) value may be code (`api_key=key`, `token: str`) unless it is
    `tight`, a dotenv line (`API_KEY=value`).
    """
    value = value.strip()
    kind = key_kind(key)
    if not kind or not value or MARKER in value or TRIVIAL.fullmatch(value):
        return False
    if bare and not tight and _code(key, value, kind):
        return False
    if kind == "password":
        return True
    if NUMBER.fullmatch(value):
        return False
    if kind == "weak":  # auth, session, cookie: only values that look generated
        return " " not in value and len(value) >= 8 and (len(value) >= 20 or mixed(value))
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


def dotenv_line(key: str, lead: str) -> bool:
    """`KEY=value` with an upper-case key and no spaces: a dotenv line."""
    return key.isupper() and lead.endswith(f"{key}=")


def mixed(value: str) -> bool:
    """Whether `value` holds a digit and a letter."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def reads_as_prose(key: str, value: str) -> bool:
    """A multi-word value that reads as a sentence, not a configured secret."""
    words = value.split()
    if len(words) < 2 or (key_kind(key) == "password" and passphrase(value)):
        return False
    styled = key[:1].isupper() and not key.isupper()  # "Password:" in a document
    return styled or len(words) > 5 or value.rstrip().endswith((".", "!", "?", ":"))


def passphrase(value: str) -> bool:
    """2-6 lowercase words with no function word, verb form or punctuation: "correct horse
    battery staple", not "must be 12 characters" or "provided separately"."""
    words = value.split()
    return 2 <= len(words) <= 6 and all(
        w.isalpha() and w.islower() and w not in STOP and not w.endswith(("ed", "ly", "ing"))
        for w in words
    )


def passwordish(token: str) -> bool:
    """A single token shaped like a password: letters and digits in one run ("hunter2"),
    camel case inside a word, or a symbol between letters ("P@ss"). Amounts, ordinals,
    acronyms with numbers ("SHA256") and hyphenated words ("12-character") are not."""
    core = token.rstrip(".,;:)")
    if not 4 <= len(core) <= 256 or MARKER in core or TRIVIAL.fullmatch(core):
        return False
    if _AMOUNT.fullmatch(core) or _ACRONYM.fullmatch(core):
        return False
    if any(c.isupper() for c in core) and any(c.islower() for c in core) and mixed(core):
        return True  # three classes: "Blue-Sky-42"
    for run in _ALNUM_RUN.findall(core):
        letters = any(c.isalpha() for c in run)
        if letters and any(c.isdigit() for c in run) and not _ACRONYM.fullmatch(run):
            return True
        if _CAMEL_INSIDE.search(run):
            return True
    return bool(_SYMBOL_INSIDE.search(core))


def find_all(low: str, words: tuple[str, ...]) -> list[int]:
    """Sorted offsets of every occurrence of `words` in `low`."""
    hits = []
    for word in words:
        at = low.find(word)
        while at >= 0:
            hits.append(at)
            at = low.find(word, at + 1)
    return sorted(hits)
