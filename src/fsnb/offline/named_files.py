"""Questions that name files by what they are, not by their format: "How many receipts do I
have?" (the files under Receipts), "How many statements are there?" asked of a folder called
statements (all its files), "How many reimbursement forms are there?" (a word for any
document: the files under Reimbursements), "How many DEA registrations do we have?" (the
files named DEA_registration_<name>), and "Where is my lease stored?" (the files named for
it).

A count qualifies only when it asks nothing more of the things than how many there are
(and maybe where): "How many invoices from Pinecrest are overdue?" asks about their content.
A file name names a kind of file when the counted words are its last plain words, followed
only by names and numbers ("DEA_registration_Fenwick", "NVS_invoice_2024-01"), in every
file the words match: "employee_handbook_2024" is a handbook, not an employee.
"""

from __future__ import annotations

import re
from pathlib import Path

from fsnb.offline.files import COUNT, LISTED, FileQuestion
from fsnb.offline.scope import folders_named, folders_under, name_key, named_folder
from fsnb.text.words import stem
from fsnb.tools.walk_catalog import name_score

_PLACED = r"(?:stored|saved|kept|filed)"
#: What may follow the counted words: "are there", "do we have on file", "in total".
_TAIL = re.compile(
    r"\s*(?:(?:are|is)(?:\s+there)?|do\s+(?:i|we|you)\s+have|exist)?"
    rf"(?:\s+(?:in\s+total|altogether|in\s+all|on\s+file|{_PLACED}))?\s*[?.!]?\s*",
    re.IGNORECASE,
)
#: "Where is my lease stored?", "Which folder is the lease in?", "Where did I save the W-2?"
_WHERE = re.compile(
    rf"^\s*(?:where\s+(?:is|are)\s+(?:my|the|our)\s+(?P<a>.+?)\s+{_PLACED}|"
    rf"where\s+(?:did|do)\s+(?:i|we)\s+(?:save|store|keep|file|put)\s+(?:my|the|our)\s+(?P<b>.+?)|"
    r"(?:which|what|in\s+which)\s+folder\s+(?:is|are|holds|has|contains)\s+(?:my|the|our)\s+"
    r"(?P<c>.+?)(?:\s+in)?)\s*[?.!]?\s*$",
    re.IGNORECASE,
)
#: Words without which a question is neither a count nor a "where" (`_WHERE`).
_ASKS_WHERE = re.compile(r"\b(?:where|folder)\b", re.IGNORECASE)
#: Nouns for any document: what qualifies them names the kind ("reimbursement forms").
_GENERIC = frozenset({"form", "record", "paper", "document", "doc", "file"})
_WORD = re.compile(r"[^\W_]+")


def named_question(task: str, root: str, tools: set[str]) -> FileQuestion | None:
    """The count or whereabouts of files `task` names by what they are, if it asks one."""
    if "find_files" not in tools or not (COUNT.search(task) or _ASKS_WHERE.search(task)):
        return None  # asked at every step of every exploration: no walk of the tree
    folders = folders_under(root)
    scope = named_folder(task, folders, files=True)
    base = scope.folder if scope else "."
    rest = scope.rest(task) if scope else task
    listing = {"query": "", "search_type": "name", "scope": base, "max_results": LISTED}
    if where := _WHERE.match(rest):
        thing = where["a"] or where["b"] or where["c"]
        words = " ".join(_fragments(thing.split()))
        if _named(root, base, words):
            what = f'files named for "{thing}"'
            return FileQuestion("types", "find_files", listing | {"query": words}, what)
        return None
    count = COUNT.search(rest)
    if count is None or (count["noun"] and not count["type"]):
        return None  # "how many files": `fsnb.offline.files`
    if not _TAIL.fullmatch(rest, count.end()):
        return None  # "how many receipts from the florist": about what they say
    words = [w for w in (count["type"], count["typed"], count["things"], count["plural"]) if w]
    keys = tuple(stem(w.lower()) for w in words)
    args = {"query": "*", "search_type": "metadata", "scope": base}
    asked = FileQuestion("count", "find_files", args)
    inside = [f for f in folders if base in (".", f) or f.startswith(f"{base}/")]
    if folder := _folder_for(keys, inside):
        return asked.within(folder)
    if base == "." and name_key(Path(root).resolve().name) in (keys, keys[-1:]):
        return asked
    glob = _glob(words)
    named = _named(root, base, glob)
    if len(named) > 1 and all(_kind_of(Path(n).stem, keys) for n in named):
        args |= {"query": glob, "search_type": "name"}
        asked = FileQuestion("count", "find_files", args, f'files named for "{" ".join(words)}"')
    elif not count["noun"]:
        return None  # "how many scanned documents" names nothing: all of them, as before
    return asked.within(base) if base != "." else asked


def _folder_for(keys: tuple[str, ...], folders: list[str]) -> str | None:
    """The one folder named by the words `keys`: by all of them; by the last under a folder
    named by the others ("tax forms": Taxes/2024/forms); by the others when the last is
    any document ("reimbursement forms": Reimbursements); by the last."""
    head = folders_named(keys[-1:], folders)
    qualifier = folders_named(keys[:-1], folders) if len(keys) > 1 else []
    within = [f for f in head if any(f.startswith(f"{q}/") for q in qualifier)]
    generic = qualifier if keys[-1] in _GENERIC else []
    for found in (folders_named(keys, folders), within, generic, head):
        if len(found) == 1:
            return found[0]
    return None


def _fragments(words: list[str]) -> list[str]:
    """The words as a file name holds them: a word by its stem, a token of letters and
    digits as written ("w-2")."""
    return [
        stem(w.lower()).removesuffix("i") if w.isalpha() else re.sub(r"[*?\[\]]", "", w.lower())
        for w in words
    ]


def _glob(words: list[str]) -> str:
    """A name pattern holding the words in order ("*dea*registr*")."""
    return "*" + "*".join(_fragments(words)) + "*"


def _named(root: str, base: str, query: str) -> list[str]:
    """The files under `base` that the finder's name search lists for `query`: those whose
    name or path matches the pattern, or holds every word of a plain query."""
    found = []
    for path in sorted((Path(root) / base).rglob("*")):
        rel = path.relative_to(root).as_posix()
        hidden = any(part.startswith(".") for part in rel.split("/"))
        if path.is_file() and not hidden and name_score(query, rel)[0] > 0:
            found.append(rel)
    return found


def _kind_of(name: str, keys: tuple[str, ...]) -> bool:
    """Whether the file name `name` is of the kind `keys` say: they are its last plain
    words, followed only by names (capitalised) and numbers."""
    words = _WORD.findall(name)
    stems = [stem(w.lower()) for w in words]
    ends = [i + len(keys) for i in range(len(stems)) if tuple(stems[i : i + len(keys)]) == keys]
    return bool(ends) and all(w[0].isdigit() or w[0].isupper() for w in words[ends[-1] :])


__all__ = ["named_question"]
