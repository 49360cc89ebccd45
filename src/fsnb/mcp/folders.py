"""The folders a server was started with, each under a short name, and how a call picks one.

With one folder, tools take exactly the registry's arguments. With several, each tool that
works on a folder takes one more, `root`: the folder's name (its directory name, made unique
with `-2`, `-3`, ...), required and listed in the schema as an enum.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from fsnb.errors import ToolError, one_line
from fsnb.security import Sandbox

#: The argument that names the folder when several are served.
ROOT = "root"


@dataclass(frozen=True)
class Served:
    """One folder the server serves: its name and its sandbox."""

    name: str
    sandbox: Sandbox

    @property
    def root(self) -> str:
        """The folder's absolute path."""
        return str(self.sandbox.root)

    @property
    def uri_name(self) -> str:
        """The name as the authority of a resource URI (`fsnb://<name>/...`)."""
        return quote(self.name, safe="")


class Folders:
    """The served folders by name, in the order given."""

    def __init__(self, paths: Sequence[str | os.PathLike[str]]) -> None:
        if not paths:
            msg = "name at least one folder to serve"
            raise ValueError(msg)
        self._by_name: dict[str, Served] = {}
        for path in paths:
            sandbox = Sandbox(path)  # NotADirectoryError/FileNotFoundError: not a folder
            if any(s.root == str(sandbox.root) for s in self._by_name.values()):
                continue  # the same folder twice is served once
            base = sandbox.root.name or "folder"
            name, n = base, 1
            while name in self._by_name:
                n += 1
                name = f"{base}-{n}"
            self._by_name[name] = Served(name, sandbox)

    def __iter__(self) -> Iterator[Served]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def names(self) -> list[str]:
        return list(self._by_name)

    def get(self, name: str) -> Served | None:
        return self._by_name.get(name)

    def pick(self, arguments: dict[str, Any]) -> tuple[Served, dict[str, Any]]:
        """The folder a call names and the call's other arguments; `ToolError` when several
        are served and `root` is missing or names none of them."""
        if len(self) == 1:
            return next(iter(self)), arguments
        rest = dict(arguments)
        name = rest.pop(ROOT, None)
        if not isinstance(name, str) or name not in self._by_name:
            known = ", ".join(self._by_name)
            given = "is missing" if name is None else f"{one_line(repr(name), 80)} is not one"
            msg = f"{ROOT} {given}: name the folder, one of {known}"
            raise ToolError(msg)
        return self._by_name[name], rest

    def schema(self, parameters: dict[str, Any]) -> dict[str, Any]:
        """A tool's input schema with `root` added when several folders are served."""
        if len(self) == 1:
            return parameters
        names = self.names()
        schema = {**parameters, "properties": dict(parameters.get("properties", {}))}
        schema["properties"][ROOT] = {
            "type": "string",
            "enum": names,
            "description": f"The folder to work in, by name: one of {', '.join(names)}.",
        }
        schema["required"] = [ROOT, *parameters.get("required", [])]
        return schema


__all__ = ["ROOT", "Folders", "Served"]
