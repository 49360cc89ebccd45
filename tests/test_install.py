"""What users install is what is tested: fsnb's wheel in a fresh virtual environment.

The dev environment carries JupyterLab, nbconvert and the rest of the `dev` extra, and
with them packages fsnb never declared (httpx came that way; google-genai 3.x depends on
httpx2 instead, so `--llm gemini` failed on `import httpx` only where users install it).
Here the wheel is built from this tree (`pip wheel --no-deps .`), installed WITHOUT extras
into a new venv (no `--system-site-packages`, no user site, no PYTHONPATH but the network
guard's), and the venv's own `fsnb` and `ipython` are run: every module imports, the CLI
answers offline and through the gemini and openai backends (against the fake servers of
tests/fake_gemini.py and tests/fake_openai.py on 127.0.0.1), and `%load_ext fsnb` with a
`%%explore` cell answers in IPython.

The venv is built once for the module (about a minute with pip's cache warm) and removed
afterwards. A build or install that fails FAILS the tests (with pip's output): it never
skips, since a dependency users cannot install is exactly what this test is for.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import NETGUARD, make_pdf

if TYPE_CHECKING:
    from fake_gemini import FakeGemini
    from fake_openai import FakeOpenAI

pytest_plugins = ["fake_gemini", "fake_openai"]  # the `fake_gemini` and `fake_openai` fixtures

ROOT = Path(__file__).resolve().parent.parent
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 300
# The module's venv (a build and an install) is made in its first test's setup.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2 * INSTALL_TIMEOUT_S + RUN_TIMEOUT_S)]
QUOTE = "The Purchase Price is $9,000,000 payable at Closing."
CFO = "The CFO is Dana Ito."
# Variables of the test run that must not reach the venv's processes: the dev env's own
# interpreter settings, and any backend or fsnb setting of whoever runs the tests.
DROPPED = ("PYTHON", "VIRTUAL_ENV", "CONDA", "PIP_REQUIRE_VIRTUALENV", "FSNB_", "GOOGLE_",
           "GEMINI_", "OPENAI_", "OLLAMA_")  # fmt: skip


@dataclass(frozen=True)
class Venv:
    root: Path
    wheel: Path
    install_s: float

    @property
    def bin(self) -> Path:
        return self.root / "bin"


def _tail(run: subprocess.CompletedProcess[str], lines: int = 40) -> str:
    out = "\n".join((run.stdout + run.stderr).splitlines()[-lines:])
    return f"exit status {run.returncode}; last lines of its output:\n{out}"


def _step(what: str, command: list[str], env: dict[str, str], timeout: float) -> None:
    """Run one build step; a failure fails the test with pip's own words."""
    try:
        run = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} took more than {timeout:.0f}s: {' '.join(command)}", pytrace=False)
    if run.returncode:
        pytest.fail(f"{what} failed: {' '.join(command)}\n{_tail(run)}", pytrace=False)


#: Wheels only, and no byte-compiling of some 800 MB of packages the tests barely import
#: (a module is compiled when first imported instead).
QUICK = ("--only-binary=:all:", "--no-compile", "--disable-pip-version-check")


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    """fsnb's wheel, installed without extras into a new venv (removed at the end)."""
    base = tmp_path_factory.mktemp("install")
    # pip talks to the package index: no network guard for it, and nothing of this env.
    env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED)}
    env["PYTHONNOUSERSITE"] = "1"
    started = time.monotonic()
    _step(
        "building fsnb's wheel",
        [sys.executable, "-m", "pip", "wheel", "--no-deps", str(ROOT), "-w", str(base / "dist")],
        env,
        INSTALL_TIMEOUT_S,
    )
    [wheel] = (base / "dist").glob("fsnb-*.whl")
    root = base / "venv"
    _step("creating a venv", [sys.executable, "-m", "venv", str(root)], env, 120)
    _step(
        "installing fsnb's wheel without extras into a fresh venv",
        [str(root / "bin" / "python"), "-m", "pip", "install", *QUICK, str(wheel)],
        env,
        INSTALL_TIMEOUT_S,
    )
    yield Venv(root, wheel, time.monotonic() - started)
    shutil.rmtree(base, ignore_errors=True)  # some 800 MB


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PDF (parsed by Docling in the venv) and a text note."""
    root = tmp_path_factory.mktemp("corpus")
    make_pdf(
        root / "agreement.pdf",
        [[QUOTE, "The Closing Date is June 30, 2025."]],
        title="Share Purchase Agreement",
    )
    (root / "notes.txt").write_text(f"Meeting notes\n{CFO}\n", encoding="utf-8")
    return root


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    """The venv's processes: the network guard (PYTHONPATH holds it alone), offline Hugging
    Face, an index and parse cache of their own, and no setting from the test run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED)}
    env.update(
        PYTHONPATH=str(NETGUARD),
        PYTHONNOUSERSITE="1",
        FSNB_NETGUARD_LOG=os.environ["FSNB_NETGUARD_LOG"],  # set by conftest
        HF_HUB_OFFLINE="1",
        FSNB_DB=str(tmp / "index.duckdb"),
        FSNB_CACHE_DIR=str(tmp / "parse-cache"),
        **extra,
    )
    return env


def _run(
    venv: Venv, tmp: Path, program: str, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """`program` of the venv, run in `tmp` (no .env of the repository is found from there)."""
    return subprocess.run(
        [str(venv.bin / program), *args],
        capture_output=True,
        text=True,
        cwd=tmp,
        env=_env(tmp, **env),
        timeout=RUN_TIMEOUT_S,
        check=False,
    )


def _explore(venv: Venv, tmp: Path, folder: Path, *args: str, **env: str) -> dict:
    run = _run(venv, tmp, "fsnb", "explore", *args, "--folder", str(folder), "--json", **env)
    assert run.returncode == 0, _tail(run)
    return json.loads(run.stdout)


PROBE = """
import importlib, importlib.metadata as md, json, pkgutil, re, socket, sys
import fsnb
failed = {}
for module in pkgutil.walk_packages(fsnb.__path__, "fsnb."):
    try:
        importlib.import_module(module.name)
    except Exception as error:  # noqa: BLE001
        failed[module.name] = f"{type(error).__name__}: {error}"
def requires(name):  # the installed distributions that require `name` (extras aside)
    return sorted(
        d.metadata["Name"] for d in md.distributions() for r in d.requires or []
        if "extra ==" not in r
        and re.match(r"[A-Za-z0-9._-]+", r).group(0).lower().replace("_", "-") == name
    )
try:
    import httpx
    has_httpx = True
except ImportError:
    has_httpx = False
from fsnb.offline.english import zipf
print(json.dumps({
    "fsnb": fsnb.__file__,
    "zipf": [zipf("the"), zipf("warranty"), zipf("check-in")],
    "prefix": sys.prefix,
    "path": sys.path,
    "guarded": hasattr(socket.socket.connect, "__wrapped__"),
    "failed": failed,
    "modules": sum(1 for _ in pkgutil.walk_packages(fsnb.__path__, "fsnb.")),
    "distributions": sorted(d.metadata["Name"].lower() for d in md.distributions()),
    "httpx": has_httpx,
    "httpx_required_by": requires("httpx"),
}))
"""


@pytest.fixture(scope="module")
def probe(venv: Venv, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """What the venv's Python sees: where fsnb comes from, what imports, what is installed."""
    tmp = tmp_path_factory.mktemp("probe")
    run = _run(venv, tmp, "python", "-c", PROBE)
    assert run.returncode == 0, _tail(run)
    return json.loads(run.stdout.splitlines()[-1])


def test_the_wheel_is_installed_alone(venv: Venv, probe: dict):
    print(f"build and install: {venv.install_s:.0f}s")  # shown with -s
    site = venv.root.resolve()
    assert Path(probe["fsnb"]).resolve().is_relative_to(site), probe["fsnb"]
    assert not any(Path(p).resolve() == ROOT / "src" for p in probe["path"] if p)
    assert Path(probe["prefix"]).resolve() == site
    assert probe["guarded"], "the network guard did not reach the venv's Python"
    dev_only = {"pytest", "jupyterlab", "nbval", "playwright", "ruff", "reportlab"}
    assert not dev_only & set(probe["distributions"])
    assert {"fsnb", "google-genai", "openai", "docling-slim"} <= set(probe["distributions"])
    # fsnb ships its English word list (fsnb/offline/data/english.txt) instead: wordfreq
    # is 58 MB of lists in 40 languages, with ftfy, locate and msgpack.
    assert "wordfreq" not in probe["distributions"]


def test_the_wheel_ships_its_data_and_type_marker(venv: Venv, probe: dict):
    """Files beside the modules: the English word list, read from the installed package,
    and `py.typed` (PEP 561), so type checkers read fsnb's annotations."""
    names = set(zipfile.ZipFile(venv.wheel).namelist())
    assert {"fsnb/py.typed", "fsnb/offline/data/english.txt"} <= names
    assert probe["zipf"] == [7.73, 3.73, 5.31]


def test_httpx_comes_only_if_a_dependency_asks_for_it(probe: dict):
    """google-genai 3.x and openai 3.x use httpx2: then httpx is not there to be imported."""
    if not probe["httpx_required_by"]:
        assert not probe["httpx"], "httpx is installed though no installed package requires it"
    else:
        assert probe["httpx"], f"required by {probe['httpx_required_by']} yet not importable"


def test_every_module_imports_without_extras(probe: dict):
    assert probe["modules"] > 50
    assert probe["failed"] == {}


def test_the_schema_migrates_from_the_wheel(venv: Venv, tmp_path: Path):
    """The migration files (`fsnb/db/migrations/*.sql`, data beside the modules) ship in the
    wheel, and a new index file is migrated from them to the last version."""
    names = {Path(n).name for n in zipfile.ZipFile(venv.wheel).namelist()}
    code = (
        "from fsnb.db.database import database\n"
        "from fsnb.db.schema import SCHEMA_VERSION, migrations\n"
        "with database().write() as con:\n"
        "    found = con.execute('SELECT max(version) FROM schema_version').fetchone()[0]\n"
        "print(found, SCHEMA_VERSION, len(migrations()))\n"
    )
    run = _run(venv, tmp_path, "python", "-c", code)
    assert run.returncode == 0, _tail(run)
    found, version, files = map(int, run.stdout.split())
    assert found == version == files
    shipped = {n[:3] for n in names if n.endswith(".sql")}
    assert {f"{n:03d}" for n in range(1, version + 1)} <= shipped


def test_cli_answers_offline(venv: Venv, corpus: Path, tmp_path: Path):
    out = _explore(venv, tmp_path, corpus, "What is the purchase price?", "--llm", "offline")
    assert out["error"] is None and out["llm"]["backend"] == "offline"
    assert "$9,000,000" in out["answer"]
    assert any(c["path"] == "agreement.pdf" and c["verified"] for c in out["citations"]), out


def _actions() -> list[dict]:
    return [
        {
            "kind": "tool_call",
            "tool": "scan_folder",
            "args": [{"name": "folder", "value": "."}],
            "reason": "Preview every document first.",
        },
        {
            "kind": "tool_call",
            "tool": "parse_file",
            "args": [{"name": "path", "value": "agreement.pdf"}],
            "reason": "The agreement should state the price.",
        },
        {
            "kind": "stop",
            "answer": "The purchase price is $9,000,000 [1].",
            "citations": [{"id": 1, "path": "agreement.pdf", "page": 1, "quote": QUOTE}],
            "reason": "The agreement states it.",
        },
    ]


def _check_scripted(out: dict, backend: str) -> None:
    assert out["error"] is None, out["error"]
    assert out["llm"]["backend"] == backend
    assert out["answer"].startswith("The purchase price is $9,000,000 [1].")
    [citation] = out["citations"]
    assert (citation["path"], citation["page"], citation["verified"]) == ("agreement.pdf", 1, True)
    assert [s["tool"] for s in out["steps"] if s["kind"] == "tool_call"] == [
        "scan_folder",
        "parse_file",
    ]


def test_cli_answers_through_gemini(
    venv: Venv, corpus: Path, tmp_path: Path, fake_gemini: FakeGemini
):
    """The real google-genai client of the venv, against the fake server."""
    for action in _actions():
        fake_gemini.enqueue_action(action)
    out = _explore(
        venv, tmp_path, corpus, "What is the purchase price?", "--llm", "gemini",
        "--model", "gemini-2.5-flash",
        GEMINI_API_KEY="dummy-key", GOOGLE_API_KEY="dummy-key",
        FSNB_GEMINI_BASE_URL=fake_gemini.url,
    )  # fmt: skip
    _check_scripted(out, "gemini")
    assert len(fake_gemini.requests) == 3
    first = fake_gemini.requests[0]
    assert first.path == "/v1beta/models/gemini-2.5-flash:generateContent"
    assert first.headers["x-goog-api-key"] == "dummy-key"


def test_cli_answers_through_openai(
    venv: Venv, corpus: Path, tmp_path: Path, fake_openai: FakeOpenAI
):
    """The real openai client of the venv, against the fake Chat Completions server."""
    for action in _actions():
        fake_openai.enqueue_action(action)
    out = _explore(
        venv, tmp_path, corpus, "What is the purchase price?", "--llm", "openai",
        "--base-url", fake_openai.url, "--model", "fake-model",
        OPENAI_API_KEY="dummy-key",
    )  # fmt: skip
    _check_scripted(out, "openai")
    assert len(fake_openai.requests) == 3
    first = fake_openai.requests[0]
    assert first.path == "/v1/chat/completions"
    assert first.headers["authorization"] == "Bearer dummy-key"
    assert first.body["model"] == "fake-model"


def test_ipython_loads_the_extension_and_explores(venv: Venv, corpus: Path, tmp_path: Path):
    """`%load_ext fsnb`, then a `%%explore` cell (with `--wait`, so the cell blocks until
    the answer), in the venv's own IPython."""
    cell = f"%%explore {corpus} --llm offline --wait -o r\nWho is the CFO?"
    script = tmp_path / "explore.ipy"
    script.write_text(
        "%load_ext fsnb\n"
        "import json\n"
        f"outcome = get_ipython().run_cell({cell!r})\n"
        "assert outcome.success, outcome.error_in_exec or outcome.error_before_exec\n"
        "print('RESULT', json.dumps({'ok': r.ok, 'answer': r.answer, 'backend': r.backend,"
        " 'paths': [c.path for c in r.citations if c.verified]}))\n",
        encoding="utf-8",
    )
    run = _run(venv, tmp_path, "ipython", "--no-banner", "--colors=nocolor", str(script))
    assert run.returncode == 0, _tail(run)
    [line] = [x for x in run.stdout.splitlines() if x.startswith("RESULT ")]
    result = json.loads(line.removeprefix("RESULT "))
    assert result["ok"] and result["backend"] == "offline", result
    assert "Dana Ito" in result["answer"] and result["paths"] == ["notes.txt"], result
    assert "Dana Ito" in run.stdout.split("RESULT ")[0]  # the cell showed the answer too
