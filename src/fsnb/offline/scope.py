"""The folder a question names ("in my Taxes folder", "under Contracts", "in Invoices/2024"),
so that file questions and reading stay within it.

Phrases propose a name; only an actual folder of the tree, compared word by word on stems
(case, plurals and the separators "_", "-", "." and space aside), decides. A name is
proposed by a folder word ("the 2024 taxes directory": the words before it, longest first,
maybe a nested folder's last segments in any order), by a path ("in Taxes/2024"), or by a
preposition and one word: written as a name ("in Downloads"), after "my", or any way in a
question about the files themselves (`files=True`). A number alone ("in 2024") needs a
folder word. Of several matching folders, the shallowest when it alone is at its depth;
otherwise none, and the question is about the whole tree.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fsnb.text.words import stem

_FOLDER_WORD = re.compile(r"\b(?:sub-?)?(?:folders?|director(?:y|ies)|dirs?)\b", re.IGNORECASE)
#: Words that end a name read backwards from a folder word ("in my | Taxes folder").
_STOP = frozenset(
    "in under inside within from of into at on to my the our your his her their this that "
    "these those a an and or all every each any for with".split()
)
_PREPOSITION = r"(?:in|under|inside|within|from)"
_PATH = re.compile(
    rf"(?:\b{_PREPOSITION}\s+(?:(?:my|the|our|your)\s+)?)?"
    r"(?<![\w/])\.?/?([\w&.-]+(?:/[\w&.-]+)*/?)(?![\w/])",
    re.IGNORECASE,
)
_BARE = re.compile(rf"\b{_PREPOSITION}\s+(?:(my|the|our|your)\s+)?([^\W_][\w&-]*)", re.IGNORECASE)
_WORDS = re.compile(r"[^\W_]+")
#: A preposition or a path: a name may follow.
_CUE = re.compile(rf"\b{_PREPOSITION}\b|/", re.IGNORECASE)
#: What may follow the name and belongs to it: ", including all (of its) subfolders".
_SUBFOLDERS = re.compile(
    r",?\s*(?:including|and|with)\s+(?:all\s+)?(?:of\s+)?(?:its\s+|the\s+)?sub-?folders\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Scope:
    """A folder of the tree (relative POSIX path) and where the question names it."""

    folder: str
    start: int
    end: int

    def holds(self, path: str) -> bool:
        """Whether the relative `path` lies under the folder (at any depth)."""
        return PurePosixPath(path.removeprefix("./")).is_relative_to(self.folder)

    def rest(self, task: str) -> str:
        """The question without the words that named the folder."""
        joined = re.sub(r"\s+", " ", f"{task[: self.start]} {task[self.end :]}")
        return re.sub(r" ([,?.!;])", r"\1", joined).strip()


def name_key(name: str) -> tuple[str, ...]:
    """A name as compared: the stems of its words, lowercased."""
    return tuple(stem(w) for w in _WORDS.findall(name.lower()))


def folders_named(words: tuple[str, ...], folders: list[str], *, prefix: bool = False) -> list[str]:
    """The folders named by `words`: by their own name, or by their last segments (any
    order); the shallowest when one alone is. With `prefix`, and no folder so named, the
    folders whose own name begins with them ("the Bluestem folder": Bluestem_Diagnostics)."""
    if not words:
        return []
    found = []
    for folder in folders:
        parts = folder.split("/")
        for depth in range(1, len(parts) + 1):
            keys = [name_key(p) for p in parts[-depth:]]
            if (depth == 1 and keys[0] == words) or (
                depth > 1 and sorted(w for k in keys for w in k) == sorted(words)
            ):
                found.append(folder)
                break
    if not found and prefix and not all(w.isdigit() for w in words):
        found = [f for f in folders if name_key(f.rsplit("/", 1)[-1])[: len(words)] == words]
    return _shallowest(found)


def _path_matches(segments: list[str], folders: list[str]) -> list[str]:
    """The folders whose last segments are `segments`, in order."""
    keys = [name_key(s) for s in segments]
    found = [f for f in folders if [name_key(p) for p in f.split("/")[-len(keys) :]] == keys]
    return _shallowest(found)


def _shallowest(found: list[str]) -> list[str]:
    if not found:
        return []
    top = min(f.count("/") for f in found)
    return [f for f in found if f.count("/") == top]


def _by_folder_word(task: str, folders: list[str]) -> Scope | None:
    for word in _FOLDER_WORD.finditer(task):
        before = list(re.finditer(r"[\w&./-]+", task[: word.start()]))
        names = []
        for token in reversed(before):
            if token.group(0).lower() in _STOP:
                break
            names.insert(0, token)
        for first in range(len(names)):  # longest first
            words = name_key(" ".join(t.group(0) for t in names[first:]))
            found = folders_named(words, folders, prefix=True)
            if len(found) == 1:
                start = names[first].start()
                lead = re.search(
                    rf"\b{_PREPOSITION}\s+(?:(?:my|the|our|your)\s+)?$|"
                    r"\b(?:my|the|our|your)\s+$",
                    task[:start],
                    re.IGNORECASE,
                )
                return Scope(found[0], lead.start() if lead else start, word.end())
    return None


def _by_path(task: str, folders: list[str]) -> Scope | None:
    for path in _PATH.finditer(task):
        segments = [s for s in path.group(1).split("/") if s]
        if "/" not in path.group(0) or not segments:
            continue
        found = _path_matches(segments, folders)
        if len(found) == 1:
            return Scope(found[0], path.start(), path.end())
    return None


def _by_preposition(task: str, folders: list[str], files: bool) -> Scope | None:
    for bare in _BARE.finditer(task):
        owner, name = bare.group(1), bare.group(2)
        if name.isdigit():
            continue
        named = name[0].isupper() or (owner or "").lower() == "my" or files
        found = folders_named(name_key(name), folders, prefix=files) if named else []
        if len(found) == 1:
            return Scope(found[0], bare.start(), bare.end())
    return None


def named_folder(task: str, folders: Iterable[str], *, files: bool = False) -> Scope | None:
    """The folder of `folders` (relative POSIX paths) that `task` names, if one; `files`:
    the question is about the files themselves, so a plain "under finance" names one, and
    so does a capitalised folder name without a preposition ("does Finance have")."""
    cued = bool(_FOLDER_WORD.search(task) or _CUE.search(task))
    if not (cued or files):
        return None
    listed = sorted({f.strip("/") for f in folders if f.strip("/") not in ("", ".")})
    if not listed:
        return None
    found = None
    if cued:
        found = (
            _by_folder_word(task, listed)
            or _by_path(task, listed)
            or _by_preposition(task, listed, files)
        )
    if found is None and files:
        found = _by_capital(task, listed)
    if found is not None and (tail := _SUBFOLDERS.match(task, found.end)):
        found = Scope(found.folder, found.start, tail.end())
    return found


def _by_capital(task: str, folders: list[str]) -> Scope | None:
    """A capitalised word past the first that alone names one folder ("how many PDFs does
    Finance have"): for a question about the files themselves."""
    for word in list(re.finditer(r"\b[A-Z][\w&-]*", task))[1:]:
        found = folders_named(name_key(word.group(0)), folders, prefix=True)
        if len(found) == 1:
            return Scope(found[0], word.start(), word.end())
    return None


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder holding one of the relative `paths`, at any depth."""
    out: set[str] = set()
    for path in paths:
        out.update(str(p) for p in PurePosixPath(path.removeprefix("./")).parents)
    out.discard(".")
    return out


def folders_under(root: str | Path) -> list[str]:
    """The folders of the tree at `root` (relative POSIX paths), hidden ones left out;
    links are not followed."""
    base = Path(root)
    out = []
    for here, dirs, _ in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        rel = Path(here).relative_to(base)
        out.extend((rel / d).as_posix() for d in dirs)
    return out


__all__ = ["Scope", "folders_named", "folders_of", "folders_under", "name_key", "named_folder"]
