"""Shared fixtures: an isolated parse cache, offline Hugging Face, small sample folders,
and a network guard that fails any test whose code connects beyond 127.0.0.1."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(__file__).resolve().parent.parent / "data"
NETGUARD = Path(__file__).resolve().parent / "netguard"

# The guard, here and (through PYTHONPATH) in every Python process the tests start.
sys.path.insert(0, str(NETGUARD))
import sitecustomize as netguard  # noqa: E402  (tests/netguard/sitecustomize.py)

if not os.environ.get(netguard.LOG_VARIABLE):  # once, even if conftest is imported twice
    os.environ[netguard.LOG_VARIABLE] = tempfile.mkstemp(prefix="fsnb-netguard-", suffix=".log")[1]
_NETLOG = Path(os.environ[netguard.LOG_VARIABLE])
if str(NETGUARD) not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(NETGUARD), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
netguard.install()

# The notebooks (nbval) run in kernels that no fixture reaches: give the whole session an
# index file of its own, so no run reads or writes the user's ~/.fsnb/index.duckdb.
if not os.environ.get("FSNB_TEST_SESSION"):
    os.environ["FSNB_TEST_SESSION"] = tempfile.mkdtemp(prefix="fsnb-session-")
    os.environ["FSNB_DB"] = str(Path(os.environ["FSNB_TEST_SESSION"]) / "index.duckdb")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files holding slow or browser tests first, each file's tests in their order:
    with `--dist loadfile` the long files then run beside the many short ones, instead of
    one of them ending the run on one core while the other waits."""
    long = {
        item.path
        for item in items
        if item.get_closest_marker("slow") or item.get_closest_marker("browser")
    }
    items.sort(key=lambda item: item.path not in long)  # stable: the order within stays


@pytest.fixture(autouse=True)
def _loopback_only():
    """Fail the test if it (or a process it started) tried to reach a non-loopback address."""
    before = _NETLOG.stat().st_size
    yield
    with _NETLOG.open(encoding="utf-8") as log:
        log.seek(before)
        attempts = log.read().split()
    if attempts:
        pytest.fail(f"connections beyond loopback were attempted: {' '.join(attempts[:6])}")


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test gets its own parse cache and index file, so no test sees another's."""
    monkeypatch.setenv("FSNB_CACHE_DIR", str(tmp_path_factory.mktemp("parse-cache")))
    monkeypatch.setenv("FSNB_DB", str(tmp_path_factory.mktemp("db") / "index.duckdb"))


def unprivileged() -> list[str]:
    """A command prefix that drops root's power to bypass file permissions (setpriv), so
    chmod applies to a child process as it would to any user."""
    import shutil

    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot drop the permission override")
    caps = "-dac_override,-dac_read_search"
    return ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"]


def make_pdf(path: Path, pages: list[list[str]], title: str | None = None) -> Path:
    """Write a real PDF with reportlab: one list of paragraphs per page."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate

    styles = getSampleStyleSheet()
    story = []
    if title:
        story.append(Paragraph(title, styles["Heading1"]))
    for number, paragraphs in enumerate(pages):
        if number:
            story.append(PageBreak())
        story.extend(Paragraph(text, styles["Normal"]) for text in paragraphs)
    path.parent.mkdir(parents=True, exist_ok=True)
    SimpleDocTemplate(str(path), pagesize=letter, invariant=1).build(story)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A small corpus: two PDFs, a note, a nested markdown file and a few awkward files."""
    root = tmp_path / "corpus"
    make_pdf(
        root / "agreement.pdf",
        [
            ["The Purchase Price is $9,000,000 payable at Closing.",
             "See Document: Escrow Letter for the escrow terms."],
            ["The Closing Date is June 30, 2025.", "Schedule 2 lists the key employees."],
        ],
        title="Share Purchase Agreement",
    )  # fmt: skip
    make_pdf(root / "letters" / "escrow.pdf", [["Escrow amount: $900,000 for 12 months."]],
             title="Escrow Letter")  # fmt: skip
    (root / "notes.txt").write_text("Meeting notes\nThe CFO is Dana Ito.\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "summary.md").write_text("# Summary\n\nDeal value: $9,000,000.\n")
    (root / "empty.txt").write_bytes(b"")
    (root / "blob.bin").write_bytes(bytes(range(256)) * 4)
    (root / ".env").write_text("API_KEY=fake\n")
    (root / "id_rsa").write_text("-----BEGIN FAKE KEY-----\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "ignored.txt").write_text("should never be scanned")
    return root


def usage_error(call) -> str:
    """The message of the one-line UsageError that `call()` raises (no traceback)."""
    from IPython.core.error import UsageError

    with pytest.raises(UsageError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


#: How long a test waits for what must happen (a watcher's event, a blocked call) before
#: it fails: generous, since it is never a timing assertion, only a guard against hanging.
DEADLINE_S = 30.0


def finishes(func: Callable[..., Any], *args: Any, seconds: float = 120, **kwargs: Any) -> Any:
    """`func(*args, **kwargs)`, failing the test instead of hanging it past `seconds` (a
    call blocked on a named pipe never returns)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = func(*args, **kwargs)
        except BaseException as exc:  # handed to the test thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{func.__name__} still running after {seconds} s (blocked)"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def until(check: Callable[[], bool], what: str, seconds: float = DEADLINE_S) -> None:
    """Poll `check` until it holds; fail after `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    pytest.fail(f"not within {seconds:.0f} s: {what}")
