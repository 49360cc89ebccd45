from __future__ import annotations

from pathlib import Path

import pytest

from fsnb.errors import AccessDenied
from fsnb.security import Sandbox, Sensitivity, classify, may_flag


def test_relative_paths_resolve_inside_the_root(folder: Path):
    box = Sandbox(folder)
    assert box.resolve("letters/escrow.pdf") == (folder / "letters" / "escrow.pdf").resolve()
    assert box.resolve(".") == folder.resolve()
    assert box.resolve("letters/../notes.txt") == (folder / "notes.txt").resolve()


def test_dotdot_escape_is_denied(folder: Path):
    with pytest.raises(AccessDenied, match=r"access denied: \.\./secret\.txt is a path outside"):
        Sandbox(folder).resolve("../secret.txt")


def test_absolute_path_outside_is_denied_and_inside_is_allowed(folder: Path):
    box = Sandbox(folder)
    with pytest.raises(AccessDenied, match=r"is an absolute path outside the root folder$"):
        box.resolve("/etc/passwd")
    assert box.resolve(str(folder / "notes.txt")) == (folder / "notes.txt").resolve()


def test_symlink_escape_is_denied(folder: Path, tmp_path: Path):
    outside = tmp_path / "outside.txt"
    outside.write_text("private")
    (folder / "link.txt").symlink_to(outside)
    (folder / "linkdir").symlink_to(tmp_path, target_is_directory=True)
    box = Sandbox(folder)
    with pytest.raises(AccessDenied) as info:
        box.resolve("link.txt")
    assert (
        str(info.value) == "access denied: link.txt is a symlink to a path outside the root folder"
    )
    assert str(tmp_path) not in str(info.value)
    with pytest.raises(AccessDenied, match=r"outside the root folder$"):
        box.resolve("linkdir/outside.txt")


def test_symlink_inside_the_root_is_allowed(folder: Path):
    (folder / "alias.txt").symlink_to(folder / "notes.txt")
    assert Sandbox(folder).resolve("alias.txt") == (folder / "notes.txt").resolve()


@pytest.mark.parametrize(
    ("path", "level"),
    [
        ("id_rsa", Sensitivity.BLOCK),
        ("keys/server.pem", Sensitivity.BLOCK),
        ("home/.ssh/config", Sensitivity.BLOCK),
        ("home/.aws/credentials", Sensitivity.BLOCK),
        (".env", Sensitivity.SKIP),
        (".env.production", Sensitivity.SKIP),
        ("credentials.json", Sensitivity.SKIP),
        ("secrets.yaml", Sensitivity.SKIP),
        ("my_password_list.txt", Sensitivity.WARN),
        ("api_token.txt", Sensitivity.WARN),
        ("report.pdf", Sensitivity.NONE),
    ],
)
def test_sensitive_file_policy(path: str, level: Sensitivity):
    verdict = classify(path)
    assert verdict.level is level
    assert (verdict.reason == "") is (level is Sensitivity.NONE)


def test_blocked_file_is_denied_when_reading(folder: Path):
    with pytest.raises(AccessDenied, match="id_rsa is a private key file"):
        Sandbox(folder).resolve("id_rsa")


def test_walk_prunes_excluded_folders_and_sorts(folder: Path):
    rels = [Sandbox(folder).relative(f) for f, _ in Sandbox(folder).walk()]
    assert rels == sorted(rels, key=lambda r: r.split("/"))
    assert "node_modules/ignored.txt" not in rels
    assert {"notes.txt", "letters/escrow.pdf", ".env", "id_rsa"} <= set(rels)


def test_sandbox_root_must_be_a_folder(tmp_path: Path):
    with pytest.raises(NotADirectoryError, match="not a folder"):
        Sandbox(tmp_path / "missing")


def test_fsnbignore_hides_files_and_folders(folder: Path):
    (folder / ".fsnbignore").write_text("# answers\nnotes.txt\ndocs/\n*.bin\n")
    box = Sandbox(folder)
    rels = {box.relative(f) for f, _ in box.walk()}
    assert {"notes.txt", "docs/summary.md", "blob.bin", ".fsnbignore"}.isdisjoint(rels)
    assert "agreement.pdf" in rels
    with pytest.raises(AccessDenied, match=r"notes\.txt is excluded by \.fsnbignore"):
        box.resolve("notes.txt")
    with pytest.raises(AccessDenied, match=r"excluded by \.fsnbignore"):
        box.resolve("docs/summary.md")


@pytest.mark.parametrize(
    ("folder", "names"),
    [
        ("", ["report.pdf", "notes.md", "ID_RSA", "a.txt"]),
        ("home/.SSH/", ["config", "known_hosts"]),
        ("docs/", ["Passwords.xlsx", "readme"]),
        ("docs/", ["report.pdf", "notes.md"]),
        ("keys/", ["server.pem", "ssh", "env"]),
    ],
)
def test_one_pass_over_a_folder_flags_what_classify_would(folder: str, names: list[str]):
    flagged = [n for n in names if classify(folder + n).level is not Sensitivity.NONE]
    assert may_flag([folder, *names]) is bool(flagged)
    assert all(not may_flag([folder, n]) for n in names if n not in flagged)
