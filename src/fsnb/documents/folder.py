"""The folder's documents as an exploration may read them, handed to the offline strategy.

`FolderDocuments` implements `fsnb.protocol.Documents` over a run's `Sandbox`: the documents
its policy lets tools read (supported formats, regular files, nothing blocked or ignored),
named by their paths relative to the root and parsed through the parse cache, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fsnb.documents.batch import parse_many
from fsnb.documents.cache import ParseCache
from fsnb.documents.model import Document
from fsnb.documents.parse import document_files
from fsnb.errors import ParseError
from fsnb.security import Sandbox


class FolderDocuments:
    """The readable documents under a sandbox's root, parsed on first use and memoized:
    `paths()` lists those that parse (a file that cannot be read is left out, not fatal)."""

    def __init__(
        self, sandbox: Sandbox, *, cache: ParseCache | None = None, only: Sequence[str] = ()
    ) -> None:
        self.sandbox = sandbox
        self.cache = cache
        #: The documents listed, when not every one of the folder (`only`).
        self.chosen = list(only)
        self._docs: dict[str, Document] | None = None

    def only(self, paths: Sequence[str]) -> FolderDocuments:
        """The same folder's documents, listing only `paths`; any other readable document
        is still parsed when asked for by name (a file a reference points to)."""
        return FolderDocuments(self.sandbox, cache=self.cache, only=paths)

    def __repr__(self) -> str:
        return f"FolderDocuments({self.sandbox!r})"

    def paths(self) -> list[str]:
        """The relative POSIX paths of the documents that parse, in the sandbox's order."""
        return list(self._parsed())

    def document(self, path: str) -> Document:
        """The parsed document at `path`, one of `paths()` ('./a.pdf' is 'a.pdf').

        Raises `AccessDenied` for a path the sandbox refuses, `ParseError` for any other
        path that is not one of the folder's readable documents."""
        docs = self._parsed()
        if path not in docs:
            path = self.sandbox.relative(self.sandbox.resolve(path))
        if path not in docs and self.chosen:
            docs.update(self._parse([self.sandbox.root / path], listed=False))
        if path not in docs:
            raise ParseError(path, "not a readable document of the folder")
        return docs[path]

    def _parsed(self) -> dict[str, Document]:
        if self._docs is None:
            box = self.sandbox
            files = [box.root / p for p in self.chosen] if self.chosen else document_files(box)
            self._docs = self._parse(files)
        return self._docs

    def _parse(self, files: list[Path], *, listed: bool = True) -> dict[str, Document]:
        """The documents of `files` that parse, by relative path (`listed=False`: a file
        named by a reference, which must be one the folder's policy lets tools read)."""
        box = self.sandbox
        readable = set(document_files(box, str(files[0].parent))) if not listed else None
        files = [f for f in files if readable is None or f in readable]
        found = parse_many(files, cache=self.cache or ParseCache())
        return {box.relative(file): doc for file, doc in found if not isinstance(doc, ParseError)}
