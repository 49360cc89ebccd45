"""A file the process may not read gets a clear message, in a real unprivileged process.

As root, file permissions do not apply, so the check runs in a child process whose
capabilities to bypass them are dropped (setpriv); as another user, chmod is enough.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import unprivileged

SCRIPT = """
import sys
from fsnb.tools import scan_folder, read, parse_file
root = sys.argv[1]
print(scan_folder(root=root))
print("READ:", read("locked.txt", root=root))
print("PARSE:", parse_file("locked.txt", root=root))
"""


def test_unreadable_file_is_reported_and_the_rest_still_scanned(tmp_path: Path):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "open.txt").write_text("The auditor is Northgate LLP.")
    locked = root / "locked.txt"
    locked.write_text("hidden")
    locked.chmod(0)
    env = {**os.environ, "FSNB_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run(
        [*unprivileged(), sys.executable, "-c", SCRIPT, str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    ).stdout
    assert "=== locked.txt — error: permission denied" in out
    assert "=== open.txt — txt, 1 page" in out and "Northgate LLP" in out
    assert "READ: error: locked.txt: permission denied" in out
    assert "PARSE: error: cannot read locked.txt: permission denied" in out
    assert "hidden" not in out
