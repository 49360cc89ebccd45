"""The patterns that find credentials in text: token shapes, URL passwords, HTTP headers,
netrc lines, `key: value` lines and pairs, XML elements, split JWTs, and passwords named in
a sentence. Each runs in linear time: open repeats cannot backtrack, the others are bounded.
"""

from __future__ import annotations

import re

URL_CREDENTIAL = re.compile(r"\b([a-z][a-z0-9+.-]{0,30}://[^\s:/@'\"<>]*:)([^\s@/'\"<>]+)(@)", re.I)
#: Every open repeat takes `[\w-]`, all that the closing `(?![\w-])` refuses, so it never
#: backtracks; the others are bounded (a narrower class made "xoxb-xoxb-...xoxb-_" quadratic).
TOKEN_SHAPES = re.compile(
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
AUTH_HEADER = re.compile(
    r"\b((?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|token|bot|digest|negotiate)[ \t]+)?)"
    r"([\w.~+/=-]{8,})",
    re.I,
)
BEARER = re.compile(r"\b(bearer[ \t]+)((?=[\w.~+/-]*\d)[\w.~+/-]{16,}=*)", re.I)
COOKIE_HEADER = re.compile(r"^([ \t]*(?:set-)?cookie:[ \t]*)([^\n]*=[^\n]*)$", re.I | re.M)
NETRC = re.compile(
    r"^([ \t]*(?:(?:machine|default)\b[^\n]*?[ \t])?password[ \t]+)(\S+)"
    r"(?=[ \t\r]*$|[ \t]+(?:machine|login|account|macdef|default)\b)",
    re.M,
)
#: `key: value` / `KEY=value` / `export KEY=value` / `- key: value` at the start of a line,
#: unquoted (a quoted value is left to `PAIR`); the value runs to the end of the line or
#: to a ` #` comment.
LINE = re.compile(
    r"^((?:\d+[:-] )?[ \t]*(?:export[ \t]+|-[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*)"
    r"([^\s\"'`#=>|&()\[\]{}][^\n]*)",
    re.M,
)
#: A key and a quoted value or one token, anywhere: JSON, inline YAML, query and
#: connection strings, logfmt, code. Found by its credential word (fast), then read
#: back to the start of the key and on to the value (`VALUE`). Quantifiers are bounded
#: so that no text makes masking slow.
_PAIR_SOURCE = (
    r"(?:pass|pwd|secret|token|key|credential|auth|session|cookie|dsn|conn)[\w.-]{0,60}"
    r"(?P<close>[\"'\]*]{0,3}[ \t]*(?::=|=>|[:=])(?:\*\*|__)?[ \t]*)"
)
PAIR = re.compile(_PAIR_SOURCE)  # run over the lower-cased text: much faster than re.I
PAIR_I = re.compile(_PAIR_SOURCE, re.I)
#: "API key: ...", "Client secret: ...": a first word that makes a two-word key.
KEY_PREFIX = re.compile(
    r"(?<![\w.-])(?:api|access|secret|private|client|auth|refresh|session|app|encryption|signing"
    r"|master|account)[ \t]\Z",
    re.I,
)
KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
VALUE = re.compile(
    r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.){0,4096})\"|'(?P<sq>[^'\n]{0,4096})')(?=[\s,;})\]&#>/]|$)"
    r"|(?P<bare>[^\s,;&'\"`()\[\]{}<>=\\][^\s,;&'\"`)}\]<>\\]{0,255})"
)
BARE_TAIL = re.compile(r"[^\s,;&'\"`)}\]<>\\]*")
XML = re.compile(r"<([A-Za-z_][\w.-]*)>([^<\n]+)</\1>")
#: A JWT that PDF extraction broke over lines, at its dots or with a hyphen inside a part.
_JWT_PART = r"[\w-]{2,2000}(?:(?:-?[ \t]*\r?\n|-[ \t]+)[ \t]*[\w-]{1,2000}){0,6}"
JWT_SPLIT = re.compile(
    rf"\beyJ{_JWT_PART}\.[ \t]*\r?\n?[ \t]*eyJ{_JWT_PART}\.[ \t]*\r?\n?[ \t]*"
    r"[\w-]{8,2000}(?:-[ \t]*\r?\n[ \t]*[\w-]{1,2000}){0,4}(?![\w-])"
)
#: A credential named in a sentence: "the admin password is hunter2!", "my PIN is 4821".
PROSE_SECRET = re.compile(
    r"\b(?P<key>pass(?:word|phrase|code)s?|passwd|pins?|pwd)\b(?:/(?:pass(?:word|phrase|code)|pin)\b)?"
    r"(?:[ \t]+(?:for|of|to|on)[ \t]+[^\n.;:!?]{1,40}?)?"
    r"[ \t]+(?:is|was|are|were)[ \t]*:?[ \t]+[\"'“‘]?(?P<value>[^\s\"'”’]{1,128})",
    re.I,
)
