"""What one `add_folder` did: the files added, updated, deleted, failed and skipped, and the
pages OCR read (or could not, without the `ocr` extra)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from fsnb.documents.scans import summary
from fsnb.text.markup import html_root


@dataclass
class IndexReport:
    """What one `add_folder` did."""

    root: str
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: int = 0
    files: int = 0
    duration_s: float = 0.0
    #: Files indexed with a caveat (e.g. a name that is not valid UTF-8), and why.
    warnings: dict[str, str] = field(default_factory=dict)
    #: Where a damaged index file was moved by a rebuild.
    set_aside: str | None = None
    #: Rows of the file index written (new or changed files) and removed (gone or changed).
    files_written: int = 0
    files_removed: int = 0
    #: Pages read by OCR, with the mean confidence of each: path -> {page: confidence}.
    ocr: dict[str, dict[int, float]] = field(default_factory=dict)
    #: Files with scanned pages or images left unread: OCR is off or not installed.
    unread_scans: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": self.unchanged,
            "deleted": len(self.deleted),
            "failed": len(self.failed),
            "skipped": self.skipped,
            "files": self.files,
            "duration_s": round(self.duration_s, 3),
        }

    def ocr_note(self) -> str:
        """One line on what OCR read ("OCR read 14 pages of 6 files, mean confidence
        0.97"), and on the scans left unread for want of OCR; "" when there were none."""
        return "\n".join(summary(self.ocr, len(self.unread_scans)))

    def to_frame(self) -> pd.DataFrame:
        """One row per changed, failed or warned-about file: path, change, reason."""
        rows = [(p, "added", "") for p in self.added] + [(p, "updated", "") for p in self.updated]
        rows += [(p, "deleted", "") for p in self.deleted]
        rows += [(p, "failed", why) for p, why in self.failed.items()]
        rows += [(p, "warning", why) for p, why in self.warnings.items()]
        return pd.DataFrame(rows, columns=["path", "change", "reason"])

    def __repr__(self) -> str:
        parts = ", ".join(f"{k}={v}" for k, v in self.counts().items())
        note = self.ocr_note().replace("\n", "; ")
        return f"IndexReport({self.root}: {parts})" + (f"\n{note}" if note else "")

    def _repr_html_(self) -> str:
        summary = ", ".join(f"<b>{v}</b> {k}" for k, v in self.counts().items())
        note = "".join(f"<p>{html.escape(line)}</p>" for line in self.ocr_note().splitlines())
        table = self.to_frame().to_html(index=False)
        body = f"<p>Indexed {html.escape(self.root)}: {summary}</p>{note}{table}"
        return html_root(body, "fsnb-index")
