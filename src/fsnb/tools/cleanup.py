"""`find_duplicates`: files with the same content, and the space removing the copies frees."""

from __future__ import annotations

from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import shown
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size
from fsnb.tools.payloads import DuplicateGroup, Duplicates, Unreadable
from fsnb.tools.registry import tool

#: Groups of copies the text lists; the payload holds them all.
GROUPS_SHOWN = 30
#: Paths of one group the text lists.
PATHS_SHOWN = 10


@tool
def find_duplicates(
    path: str = ".", *, ctx: ToolContext, min_size: int = 1
) -> ToolOutcome[Duplicates]:
    """Find files with identical content: grouped by size, then by sha256 hash.

    Lists the groups that waste the most space first, with what deleting the copies frees.
    Sensitive files (keys, credentials) are never opened.

    Args:
        path: Folder to search, relative to the root.
        min_size: Leave out files smaller than this many bytes.
    """
    if min_size < 0:
        msg = "min_size must be >= 0 (bytes)"
        raise ValueError(msg)
    box, files = ctx.sandbox, ctx.files
    base = box.relative(box.existing(path, "folder"))
    found = files.duplicates(base, min_size, ctx.check)
    about = files.source
    copies = sum(len(g.paths) - 1 for g in found.groups)
    if found.groups:
        lines = [
            f"{len(found.groups)} groups of duplicate files under {shown(base)} ({about}): "
            f"removing the {copies} extra copies would free {human_size(found.wasted)}."
        ]
    else:
        lines = [
            f"No duplicate files under {shown(base)} among {found.candidates} files of "
            f"{min_size} bytes or more ({about})."
        ]
    for g in found.groups[:GROUPS_SHOWN]:
        lines.append(
            f"\n{len(g.paths)} copies of {human_size(g.size)} (sha256 {g.sha256[:12]}), "
            f"{human_size(g.wasted)} to free:"
        )
        lines += [f"  {shown(p)}" for p in g.paths[:PATHS_SHOWN]]
        if len(g.paths) > PATHS_SHOWN:
            lines.append(f"  [{len(g.paths) - PATHS_SHOWN} more copies not shown]")
    if len(found.groups) > GROUPS_SHOWN:
        rest = len(found.groups) - GROUPS_SHOWN
        lines.append(f"\n[{rest} smaller groups not shown: raise min_size or narrow the path]")
    if found.unreadable:
        lines.append(f"\nCould not read {len(found.unreadable)} files:")
        lines += [f"  {shown(rel)}: {why}" for rel, why in found.unreadable[:PATHS_SHOWN]]
    payload = Duplicates(
        tuple(DuplicateGroup(g.size, g.sha256, tuple(map(shown, g.paths))) for g in found.groups),
        found.wasted,
        files.kind,
        found.hashed,
        tuple(Unreadable(shown(rel), why) for rel, why in found.unreadable),
    )
    return ToolOutcome("\n".join(lines), payload=payload)


__all__ = ["find_duplicates"]
