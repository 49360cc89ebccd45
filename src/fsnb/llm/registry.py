"""Backends by name: one mapping from name to factory for `get_llm`, the CLI and the magics.

Built-ins are "module:attr" references, imported when first used (each pulls in its SDK).
Other packages add theirs through the `fsnb.backends` entry-point group, in their
pyproject.toml::

    [project.entry-points."fsnb.backends"]
    mine = "my_package.backend:MyLLM"

A factory is called with the options given (`model=`, `base_url=`, backend-specific ones);
`model` and `base_url` are passed only to a factory that takes them (a field of its
`Options`, else a parameter it names), so a `--model` set as a default does not break a
backend without models.

A model may be named with its backend, `backend:model` (`ollama:llama3.2`,
`gemini:gemini-2.5-flash`), in `--llm` or in `--model`: `split_id` reads both.

What a factory may declare about itself (read by `fsnb.llm.catalog` and the front ends):
`Options` (a pydantic model, `extra="forbid"`, of the options it takes: a chat backend's
extends `fsnb.llm.chat.ChatOptions`), `key_variables` (the environment variables, any one of
which holds its key), `models` (the model names it knows), `default_model`, `server` (the
URL of the local server it talks to by default) and `base_url_variables` (where a user
names a server instead).
"""

from __future__ import annotations

import inspect
import pkgutil
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from fsnb import config
from fsnb.protocol import LLM

Factory = Callable[..., LLM]
ENTRY_POINT_GROUP = "fsnb.backends"
#: Options every front end may pass; a factory that does not take one never sees it.
COMMON_OPTIONS = ("model", "base_url")
#: Between the backend and the model in a model id (`ollama:llama3.2`).
SEPARATOR = ":"
AUTO = "auto"


def _auto(model: str | None = None, base_url: str | None = None, **options: Any) -> LLM:
    """gemini when a Gemini key is set, offline otherwise."""
    name = "gemini" if config.api_key() else "offline"
    return create(name, model=model, base_url=base_url, **options)


BUILTIN: dict[str, str | Factory] = {
    AUTO: _auto,
    "gemini": "fsnb.llm.gemini:GeminiLLM",
    "openai": "fsnb.llm.openai_chat:OpenAILLM",
    "ollama": "fsnb.llm.openai_chat:ollama",
    "offline": "fsnb.offline:OfflineLLM",
    "replay": "fsnb.llm.replay:ReplayLLM",
}


@cache
def _installed() -> dict[str, Any]:
    """Entry points of the `fsnb.backends` group (built-in names cannot be taken)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in BUILTIN}


def refresh() -> None:
    """Forget the entry points read so far (after installing a package at run time)."""
    _installed.cache_clear()


def names() -> list[str]:
    """Every backend name: the built-ins, then installed ones in alphabetical order."""
    return [*BUILTIN, *sorted(_installed())]


def factory(name: str) -> Factory:
    """The factory of a backend name (case-insensitive); ValueError naming the choices."""
    key = name.lower()
    if (found := BUILTIN.get(key)) is not None:
        return pkgutil.resolve_name(found) if isinstance(found, str) else found
    if (point := _installed().get(key)) is not None:
        return point.load()
    msg = f"unknown LLM backend {name!r}; choose one of: {', '.join(names())}"
    raise ValueError(msg)


def create(name: str, **options: Any) -> LLM:
    """A backend by name, built with `options` (None values left out)."""
    make = factory(name)
    given = {k: v for k, v in options.items() if v is not None}
    return make(**{k: v for k, v in given.items() if k not in COMMON_OPTIONS or _takes(make, k)})


def split_id(llm: str | None, model: str | None = None) -> tuple[str | None, str | None]:
    """(backend, model) from `--llm` and `--model`, either of which may be `backend:model`.

    `--llm` splits at its first colon (`ollama:qwen2.5:7b` is ollama's `qwen2.5:7b`); a
    `--model` only when what precedes the colon is a backend name, so an Ollama tag such as
    `llama3.2:3b` stays a model. `auto` (or None) gives way to a backend named in the model.
    ValueError when the two name different backends, or different models."""
    backend, named = _split(llm) if llm and SEPARATOR in llm else (llm, None)
    prefix, _, rest = (model or "").partition(SEPARATOR)
    if rest and prefix.lower() in names():
        if (backend or AUTO).lower() not in (AUTO, prefix.lower()):
            msg = f"--llm {llm} and --model {model} name different backends"
            raise ValueError(msg)
        backend, model = prefix, rest
    if named and model and named != model:
        msg = f"--llm {llm} names the model {named}, and --model another: {model}"
        raise ValueError(msg)
    return (backend.lower() if backend else None), (named or model or None)


def _split(model_id: str) -> tuple[str, str | None]:
    backend, _, model = model_id.partition(SEPARATOR)
    return backend.strip(), model.strip() or None


def key_variables(name: str) -> tuple[str, ...]:
    """The environment variables holding the key a backend needs (none: empty)."""
    return tuple(getattr(factory(name), "key_variables", ()))


def _takes(make: Factory, option: str) -> bool:
    """Whether `make` takes `option`: a field of its `Options`, else a parameter it names
    (`**kwargs` does not count: it may mean other things)."""
    if (declared := getattr(make, "Options", None)) is not None:
        return option in declared.model_fields
    try:
        return option in inspect.signature(make).parameters
    except (TypeError, ValueError):  # no signature to read: let the factory decide
        return True
