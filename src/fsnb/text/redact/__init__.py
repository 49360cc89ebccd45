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

This module is the API; `masker` runs one reading of a text, with `key_material`, `tables`
and the `patterns`, all judging keys and values by `credentials`.
"""

from __future__ import annotations

import html
import re

from fsnb.text.redact.credentials import MARKER
from fsnb.text.redact.masker import mask
from fsnb.text.redact.tables import cell_kind, cell_secret

#: Markdown escapes of punctuation (Docling writes `aws\_secret`) and HTML entities: the
#: masker reads the text without them when the text has them (`_ESCAPE_HINT`).
_ESCAPED = re.compile(r"\\[!-/:-@\[-`{-~]|&(?:amp|lt|gt|quot|apos|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ESCAPE_HINT = re.compile(r"\\[_*#\[\]`]|&(?:amp|lt|gt|quot|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")


def mask_secrets(text: str) -> tuple[str, int]:
    """`text` with secret values replaced by `[secret withheld]`, and how many were.

    Text with Markdown escapes or HTML entities (Docling's `aws\\_secret\\_access\\_key`)
    is masked as written and read without them: when that finds as many or more, the
    model gets the unescaped text, else the text as it was.
    """
    masked, count = mask(text)
    if ("\\" in text or "&" in text) and _ESCAPE_HINT.search(text):
        # Read as written, an escape cuts a value short ("P\\*ss" masks "P"); read without
        # them, JSON's `\\"` loses its meaning. The reading that finds more wins.
        plain, found = mask(_unescape(text))
        if found and found >= count:
            return plain, found
    return masked, count


def _unescape(text: str) -> str:
    """`text` without Markdown punctuation escapes and HTML entities, but for escaped
    pipes (`&#124;`), which would split a table cell in two."""

    def one(match: re.Match[str]) -> str:
        found = match.group(0)
        char = found[1] if found[0] == "\\" else html.unescape(found)
        return found if char == "|" else char  # an escaped pipe stays: it is inside a cell

    return _ESCAPED.sub(one, text)


def secret_cell(label: str, value: str) -> bool:
    """Whether `value`, held under the column or key `label` of structured data (a table's
    records, a query's rows), is a credential to withhold, as a printed table's cell is."""
    kind = cell_kind(label)
    return bool(kind) and cell_secret(kind, value)


def withheld_note(count: int) -> str:
    """The line appended to a masked tool result."""
    values = "value" if count == 1 else "values"
    return f"[{count} secret {values} withheld; the user can allow them with reveal_secrets]"


__all__ = ["MARKER", "mask_secrets", "secret_cell", "withheld_note"]
