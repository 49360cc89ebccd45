"""The conventions of rg, fd and llm that `fsnb` follows: the trace on stderr and the answer
alone on stdout (`--quiet`: no trace), exit status 1 when a search finds nothing, the folder
as the last argument of every command, one `fsnb: ` line and status 2 for every usage error,
and `fsnb history` for the saved runs."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fsnb.cli import build_parser, main
from fsnb.cli.explore import _ask_on_stdin
from fsnb.index import Index

QUESTION = "What is the purchase price?"


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed width for tables (COLUMNS), whatever the runner's terminal: rows stay one line
    each here; `test_cli.py` checks how wide cells wrap."""
    monkeypatch.setenv("COLUMNS", "250")


@pytest.fixture
def db(folder: Path, tmp_path: Path) -> Path:
    path = tmp_path / "index.duckdb"
    Index(path).add_folder(folder, progress=False)
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _fsnb(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fsnb.cli", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )


# -- the trace on stderr, the answer on stdout --------------------------------------------


def test_explore_prints_the_answer_alone_on_stdout_and_the_trace_on_stderr(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = str(tmp_path / "runs.duckdb")
    run = _fsnb("explore", QUESTION, str(folder), "--llm", "offline", "--db", db)
    assert run.returncode == 0, run.stderr
    assert "$9,000,000" in run.stdout and "\nSources:\n- [1] " in run.stdout  # plain Markdown
    assert "╭" not in run.stdout and "step 1" not in run.stdout and "summary" not in run.stdout
    assert (
        "step 1 · scan" in run.stderr
        and " summary " in run.stderr
        and "$9,000,000" not in (run.stderr)
    )
    quiet = _fsnb("explore", QUESTION, str(folder), "--llm", "offline", "--db", db, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == run.stdout
    # the saved run prints the same answer
    (first, _) = json.loads(_run(capsys, "history", "--db", db, "--json")[1])
    assert _run(capsys, "history", "--db", db, "--id", first["id"]) == (0, run.stdout, "")


def test_the_agents_question_is_asked_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    stdin = io.StringIO("Falcon\n")
    stdin.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stdin", stdin)
    assert _ask_on_stdin("Which deal?") == "Falcon"
    out, err = capsys.readouterr()
    assert out == "" and "Which deal?" in err


# -- nothing found: exit status 1 ---------------------------------------------------------


def test_search_exits_1_when_nothing_matches(db: Path, folder: Path, capsys):
    where = [str(folder), "--db", str(db)]
    assert _run(capsys, "search", "zyzzyva", *where) == (1, "", "")
    assert _run(capsys, "search", "zyzzyva", *where, "--json") == (1, "[]\n", "")
    code, out, err = _run(capsys, "search", "escrow", *where)
    assert code == 0 and "escrow.pdf" in out and err == ""


def test_sql_with_no_rows_is_not_nothing_found(db: Path, capsys):
    code, out, _ = _run(capsys, "sql", "SELECT 1 AS n WHERE false", "--db", str(db))
    assert code == 0 and out == "(no rows)\n"


def test_fs_find_recent_and_dupes_exit_1_when_they_find_nothing(tmp_path: Path, capsys):
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.txt").write_text("alpha\n")
    os.utime(root / "a.txt", (1_000_000_000, 1_000_000_000))  # 2001
    where = [str(root), "--db", str(tmp_path / "i.duckdb")]
    code, out, err = _run(capsys, "fs", "find", "zyzzyva", *where)
    assert code == 1 and out == "" and err.startswith("No files found for 'zyzzyva'")
    code, out, _ = _run(capsys, "fs", "find", "zyzzyva", *where, "--json")
    assert code == 1 and json.loads(out)["results"] == []
    code, out, err = _run(capsys, "fs", "find", "a.txt", *where)
    assert code == 0 and "a.txt" in out and err == ""
    assert _run(capsys, "fs", "recent", *where, "--days", "1")[0] == 1
    assert _run(capsys, "fs", "dupes", *where)[0] == 1
    (root / "b.txt").write_text("alpha\n")
    code, out, _ = _run(capsys, "fs", "dupes", *where, "--json")
    assert code == 0 and sorted(json.loads(out)["groups"][0]["paths"]) == ["a.txt", "b.txt"]
    assert _run(capsys, "fs", "recent", *where, "--days", "1")[0] == 0  # b.txt: just now


# -- the folder is the last argument ------------------------------------------------------


def test_the_folder_is_the_last_argument_and_the_old_options_still_work(
    db: Path, folder: Path, capsys: pytest.CaptureFixture[str]
):
    f, d = str(folder), ["--db", str(db)]
    count = "SELECT count(*) AS n FROM documents"
    same = [
        (["search", "escrow", f, *d], ["search", "escrow", "--folder", f, *d]),
        (["search", "escrow", "-k", "3", f, *d], ["search", "-k", "3", "escrow", f, *d]),
        (["sql", count, f, *d], ["sql", count, "--folder", f, *d]),
        (["fs", "find", "*.txt", f], ["fs", "find", "*.txt", "--root", f]),
        (
            ["fs", "find", "*.txt", "--sort", "name", f],
            ["fs", "find", "--sort", "name", "*.txt", f],
        ),
        (["fs", "info", "notes.txt", f], ["fs", "info", "notes.txt", "--root", f]),
        (["fs", "tree", f], ["fs", "tree", "--root", f]),
        (["fs", "bookmark", "list", f, *d], ["fs", "bookmark", "list", "--root", f, *d]),
        (["scratch", "list", f, *d], ["scratch", "list", "--folder", f, *d]),
        (["history", f, *d], ["history", "--folder", f, *d]),
    ]
    for new, old in same:
        got = _run(capsys, *new)
        assert got == _run(capsys, *old), (new, got)
        assert got[0] == 0 and got[1], (new, got)
    n = json.loads(_run(capsys, "sql", count, f, *d, "--json")[1])[0]["n"]
    assert n == json.loads(_run(capsys, "sql", count, *d, "--json")[1])[0]["n"] >= 4
    with pytest.raises(SystemExit) as exit_:
        main(["search", "escrow", f, "--folder", "elsewhere", *d])
    out, err = capsys.readouterr()
    assert (exit_.value.code, out) == (2, "") and err.startswith("fsnb: two folders given, ")


def test_every_command_that_works_on_a_folder_takes_it_as_its_last_argument():
    parser = build_parser()
    usages = {" ".join(name): sub.format_usage() for name, sub in _parsers(parser)}
    folder = {name for name, usage in usages.items() if "FOLDER" in usage}
    assert folder >= {"explore", "index", "search", "sql", "history", "scan", "fs tree",
                      "fs find", "fs info", "fs du", "fs dupes", "fs recent", "fs bookmark",
                      "scratch list", "scratch show", "scratch drop", "scratch clear",
                      "mcp"}  # fmt: skip
    for name in folder:  # `fsnb mcp` serves one or more
        assert usages[name].rstrip().endswith(("FOLDER", "[FOLDER]", "FOLDER [FOLDER ...]")), (
            usages[name]
        )


# -- usage errors: `fsnb: `, one line, status 2 -------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["nope"],
        ["scan"],
        ["scan", "a", "b"],
        ["parse"],
        ["parse", "x.pdf", "--nope"],
        ["explore"],
        ["explore", "q", "--llm", "nope"],
        ["search"],
        ["sql", "SELECT 1", "--limit", "x"],
        ["fs", "find"],
        ["fs", "tree", "--depth", "x"],
        ["scratch", "show"],
        ["history", "--id"],
        ["history", "-n", "0"],
    ],
)
def test_every_usage_error_is_one_fsnb_line_with_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == ""
    assert err.startswith("fsnb: ") and err.count("\n") == 1 and "--help)" in err, err


def test_every_command_documents_its_exit_status():
    for name, parser in _parsers(build_parser()):
        epilog = " ".join((parser.epilog or "").split())
        assert epilog.startswith("exit status: 0 "), name
        assert "; 2 " in epilog and epilog.endswith("130 interrupted. Errors go to stderr, one "
                                                    "line each."), name  # fmt: skip


def _parsers(parser: argparse.ArgumentParser, name: tuple[str, ...] = ()):
    """Every parser under `parser` with its command words, `parser` itself first."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                yield from _parsers(sub, (*name, word))


# -- fsnb history -------------------------------------------------------------------------


def test_history_lists_the_saved_runs_and_prints_one(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = str(tmp_path / "runs.duckdb")
    assert _run(capsys, "history", "--db", db) == (
        0, "no saved runs (fsnb explore records them)\n", ""
    )  # fmt: skip
    assert _run(capsys, "history", "--db", db, "--json") == (0, "[]\n", "")
    assert not Path(db).exists()  # asked, not created
    base = [str(folder), "--llm", "offline", "--db", db, "--json"]
    assert main(["explore", QUESTION, *base]) == 0
    answered = json.loads(capsys.readouterr().out)
    assert main(["explore", "Who is the CFO?", *base, "--timeout", "0.001"]) == 1
    capsys.readouterr()

    code, out, err = _run(capsys, "history", "--db", db)
    header, *rows = out.splitlines()
    assert code == 0 and err == ""
    assert header.split() == ["id", "when", "folder", "question", "status", "backend", "model"]
    assert len(rows) >= 2 and "done" in rows[0] and "error" in out.split(QUESTION)[1]
    runs = json.loads(_run(capsys, "history", "--db", db, "--json")[1])
    assert [(r["question"], r["status"], r["backend"]) for r in runs] == [
        (QUESTION, "done", "offline"),
        ("Who is the CFO?", "error", "offline"),
    ]
    assert runs[1]["error"].startswith("timed out") and runs[0]["started_at"][10] == "T"

    done, failed = runs[0]["id"], runs[1]["id"]
    code, out, err = _run(capsys, "history", "--db", db, "--id", done[:8], "--json")
    assert code == 0 and json.loads(out) == answered  # what `explore --json` printed
    code, out, err = _run(capsys, "history", "--db", db, "--id", failed)
    assert (code, out) == (1, "") and err.startswith(f"fsnb: run {failed} failed: timed out")
    code, out, err = _run(capsys, "history", "--db", db, "--id", "zz")
    assert (code, out, err) == (2, "", "fsnb: no saved run 'zz' (fsnb history lists them)\n")

    code, out, err = _run(capsys, "history", "--db", db, "-n", "1", "--json")
    assert [r["id"] for r in json.loads(out)] == [failed]  # the newest
    assert err == "[the last 1 of 2 runs: raise -n]\n"
    elsewhere = str(tmp_path)
    assert _run(capsys, "history", elsewhere, "--db", db, "--json") == (0, "[]\n", "")
