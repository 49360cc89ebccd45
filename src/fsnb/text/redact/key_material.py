"""Key material: private-key blocks (the BEGIN/END lines kept), key bodies shown without
their BEGIN line (a grep hit, a cut page), and bare AWS secret access keys beside an AWS
word. BEGIN and END lines are paired by a search, so no text makes this slow."""

from __future__ import annotations

import re
from bisect import bisect_left

from fsnb.text.redact.credentials import MARKER, mixed

#: A block's BEGIN and END lines, paired by `_KeyMasker.pem_blocks` with a search that never
#: scans past the same END twice (a lazy `BEGIN(.+?)END` is quadratic without END lines).
_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
#: A block whose END line is missing (a page cut in the middle): its base64 lines.
_PEM_OPEN = re.compile(
    r"(-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)"
    r"((?:(?:\\r|\\n|\r|\n)(?:\d+[:-] )?[ \t]*(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=]{16,}))+)"
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


def mask_key_material(text: str) -> tuple[str, int]:
    """`text` with private keys and AWS secret keys withheld, and how many were."""
    masker = _KeyMasker()
    low = text.lower()
    if "private key" in low:
        text = masker.pem_blocks(text)
        text = _PEM_OPEN.sub(masker.pem, text)
    if _LONG_RUN.search(text):
        text = masker.key_lines(text)
        if "aws" in low or "secret" in low or "key" in low or "AKIA" in text or "ASIA" in text:
            text = masker.aws_secrets(text)
    return text, masker.count


class _KeyMasker:
    """One pass over a text for key material, counting the values it withholds."""

    def __init__(self) -> None:
        self.count = 0

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
            full = [b for b in bodies if len(b) in (64, 70) and mixed(b) and not b.islower()]
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
            if tail and (tail.group(2).endswith("=") or mixed(tail.group(2))):
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
        self.count += 1
        return MARKER
