"""False positives of the secret masker over the sample corpora; prints one JSON object.

Every file under the sample folders is parsed as the agent's tools see it (fsnb's own
parser, or a plain read for what is not a document: `.env`, a key file) and passed through
`mask_secrets`. `masked` counts the values withheld outside the files planted with fake
credentials on purpose (`planted`, counted apart); `examples` shows each masked line, before
and after, so that a false positive can be judged at a glance. Also reports the masker's
throughput over the parsed text (`mb_per_s`).

    .venv/bin/python bench/secrets_fp.py [FOLDER ...]
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
DATA = Path(__file__).resolve().parent.parent / "data"
FOLDERS = ["large_acquisition", "mixed", "statements", "test_acquisition"]
#: Files that hold fake credentials on purpose: masking them is right.
PLANTED = {"mixed/.env", "mixed/keys/id_rsa"}


def texts(folders: list[str]) -> list[tuple[str, str]]:
    """(path relative to data/, text) for every readable file in `folders`."""
    from fsnb.documents import parse
    from fsnb.errors import FsnbError

    out = []
    for folder in folders:
        for file in sorted((DATA / folder).rglob("*")):
            if not file.is_file():
                continue
            try:
                text = parse(file).text
            except FsnbError:  # not a document: as `read` would show it
                try:
                    text = file.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
            out.append((file.relative_to(DATA).as_posix(), text))
    return out


def changed_lines(before: str, after: str) -> list[dict[str, str]]:
    """The lines that masking changed (line counts are kept by the masker)."""
    old, new = before.splitlines(), after.splitlines()
    if len(old) != len(new):
        return [{"before": before[:300], "after": after[:300]}]
    return [{"before": a[:300], "after": b[:300]} for a, b in zip(old, new, strict=True) if a != b]


def main(folders: list[str]) -> dict[str, object]:
    from fsnb.text.redact import mask_secrets

    docs = texts(folders)
    masked = planted = 0
    examples: list[dict[str, str]] = []
    size = sum(len(text.encode()) for _, text in docs)
    began = time.perf_counter()
    for path, text in docs:
        out, count = mask_secrets(text)
        if path in PLANTED:
            planted += count
            continue
        masked += count
        if count:
            examples += [{"path": path, **line} for line in changed_lines(text, out)]
    elapsed = time.perf_counter() - began
    return {
        "documents": len(docs),
        "masked": masked,
        "planted": planted,
        "examples": examples,
        "megabytes": round(size / 1e6, 3),
        "mb_per_s": round(size / 1e6 / elapsed, 1) if elapsed else None,
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:] or FOLDERS), indent=1))
