"""What each backend offers: its models, what it needs (a key, a server) and whether it is
usable now, one row per model id (`fsnb models`, `%explore_models`).

Read from what each backend's factory declares (see `fsnb.llm.registry`): `key_variables`,
`models`, `default_model`, `server` (the local server it talks to by default) and
`base_url_variables` (where a server may be configured). A server is asked which models it
serves (Ollama's `GET /api/tags`, else the OpenAI-compatible `GET /models`) with a short
timeout, at the configured base URL only and never through a proxy.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from fsnb import config
from fsnb.errors import one_line
from fsnb.llm import registry

if TYPE_CHECKING:
    import pandas as pd

#: Seconds a server may take to list its models.
TIMEOUT_S = 2.0
COLUMNS = ("id", "backend", "model", "default", "needs", "available", "status")
#: What a terminal shows (the id says the backend and the model).
TEXT_COLUMNS = ("id", "default", "available", "needs", "status")


@dataclass(frozen=True)
class ModelRow:
    """One model of one backend (`model` empty: the backend takes no model, or none is known)."""

    id: str
    backend: str
    model: str
    default: bool
    needs: str
    available: bool
    status: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def rows(base_url: str | None = None, timeout_s: float = TIMEOUT_S) -> list[ModelRow]:
    """Every backend's models; `base_url` is the server of the backends that talk to one."""
    return [row for name in registry.names() for row in backend_rows(name, base_url, timeout_s)]


def frame(base_url: str | None = None, timeout_s: float = TIMEOUT_S) -> pd.DataFrame:
    """`rows` as a DataFrame, in the order of `COLUMNS`."""
    import pandas as pd

    return pd.DataFrame([r.to_dict() for r in rows(base_url, timeout_s)], columns=list(COLUMNS))


def backend_rows(
    name: str, base_url: str | None = None, timeout_s: float = TIMEOUT_S
) -> list[ModelRow]:
    """The rows of one backend: its known models, or those its server lists."""
    if name == registry.AUTO:
        chosen = "gemini: a Gemini key is set" if config.api_key() else "offline: no Gemini key"
        return [ModelRow(name, name, "", False, "nothing", True, chosen)]
    try:
        make = registry.factory(name)
    except Exception as exc:  # a third-party backend that does not import
        return [ModelRow(name, name, "", False, "?", False, f"cannot load: {one_line(exc, 200)}")]
    keys = tuple(getattr(make, "key_variables", ()))
    models = list(getattr(make, "models", ()))
    default = config.model_from_env() or getattr(make, "default_model", None)
    url = _server(make, base_url)
    if keys and config.setting(keys):
        available, status = True, f"key set ({_which(keys)})"
    elif url:  # no key, or none needed: the server decides
        try:
            models = server_models(url, timeout_s)
            available, status = True, f"answering at {url}"
        except (OSError, ValueError) as exc:
            available, status = False, f"not answering at {url}: {_reason(exc)}"
    elif keys:
        available, status = False, "no key"
    else:
        available, status = True, "ready"
    needs = _needs(keys, make, url)
    return [
        ModelRow(model_id(name, m), name, m, m == default, needs, available, status)
        for m in models or [""]
    ]


def model_id(backend: str, model: str | None) -> str:
    """`backend:model`, or the backend alone (no model)."""
    return f"{backend}{registry.SEPARATOR}{model}" if model else backend


def server_models(base_url: str, timeout_s: float = TIMEOUT_S) -> list[str]:
    """The models the server at `base_url` serves: Ollama's `GET /api/tags` at its root,
    else `GET {base_url}/models` (OpenAI-compatible). OSError when it does not answer."""
    base = base_url.rstrip("/")
    try:
        tags = _get_json(f"{base.removesuffix('/v1')}/api/tags", timeout_s)
        return sorted(str(m["name"]) for m in tags["models"])
    except (urllib.error.HTTPError, ValueError, KeyError, TypeError):
        pass  # not Ollama: ask the OpenAI-compatible route
    listing = _get_json(f"{base}/models", timeout_s)
    try:
        return sorted(str(m["id"]) for m in listing["data"])
    except (KeyError, TypeError) as exc:
        msg = f"{base}/models did not list models ({type(exc).__name__})"
        raise ValueError(msg) from None


def _get_json(url: str, timeout_s: float) -> Any:
    """GET `url` straight to its host (no proxy from the environment), its body as JSON."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=timeout_s) as response:
        return json.loads(response.read())


def _server(make: Any, base_url: str | None) -> str | None:
    """The server a backend would talk to: `base_url`, its configured one, or its default;
    None for a backend that talks to no server of ours to ask."""
    variables = tuple(getattr(make, "base_url_variables", ()))
    default = getattr(make, "server", None)
    if not (variables or default):
        return None
    return base_url or (config.setting(variables) if variables else None) or default


def _needs(keys: tuple[str, ...], make: Any, url: str | None) -> str:
    variables = tuple(getattr(make, "base_url_variables", ()))
    if keys:
        return " or ".join([*keys, *variables])  # a key, or a server that needs none
    return "a server (--base-url)" if url else "nothing"


def _which(keys: tuple[str, ...]) -> str:
    """The variable that holds the key (".env": only the file does)."""
    return next((k for k in keys if os.environ.get(k, "").strip()), ".env")


def _reason(exc: BaseException) -> str:
    reason = getattr(exc, "reason", None) or exc  # urllib wraps the socket's error
    return one_line(getattr(reason, "strerror", None) or reason, 120) or type(exc).__name__
