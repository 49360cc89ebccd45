"""The small vocabulary the tools share: sizes and times as they write them, and the
choice and extension-list arguments as they read them."""

from __future__ import annotations

from datetime import datetime


def human_size(num: int) -> str:
    """A byte count for people: 512 B, 3.4 KB, 1.2 MB."""
    return (
        f"{num} B"
        if num < 1024
        else f"{num / 1024:.1f} KB"
        if num < 2**20
        else f"{num / 2**20:.1f} MB"
    )


def when(mtime: float) -> str:
    """A modified time as the tools show it and file citations quote it (local time)."""
    return datetime.fromtimestamp(mtime).strftime("%Y-%m-%d %H:%M")


def choice(name: str, value: str, accepted: tuple[str, ...]) -> str:
    """`value` when it is one of `accepted`, else a `ValueError` naming them (for calls
    by hand: the registry checks an LLM's arguments against the schema first)."""
    if value not in accepted:
        msg = f"unknown {name} {value!r}: use one of {', '.join(accepted)}"
        raise ValueError(msg)
    return value


def extensions(file_types: str | None) -> set[str]:
    """The extensions an argument like "pdf,.DOCX" names, as '.pdf', '.docx'."""
    return {"." + t.strip().lower().lstrip(".") for t in (file_types or "").split(",") if t.strip()}


__all__ = ["choice", "extensions", "human_size", "when"]
