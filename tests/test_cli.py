"""The `fsnb` command as a person runs it: in its own process, in pipelines, with errors on
stderr and the documented exit status (0 done, 1 failed run or tool error, 2 cannot run)."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fsnb.cli import build_parser, main
from fsnb.index import Index

FSNB = [sys.executable, "-m", "fsnb.cli"]


def _fsnb(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FSNB, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
        check=False,
    )


@pytest.fixture
def db(folder: Path, tmp_path: Path) -> Path:
    path = tmp_path / "index.duckdb"
    Index(path).add_folder(folder, progress=False)
    return path


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (choices,) = [a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(choices)


def test_every_option_of_every_command_has_help():
    parser = build_parser()
    missing = [
        f"{name} {action.dest}"
        for name, sub in {"fsnb": parser, **_subcommands(parser)}.items()
        for action in sub._actions
        if not isinstance(action, argparse._SubParsersAction) and not action.help
    ]
    assert missing == []


def test_help_documents_the_exit_status():
    top, sql, search = _fsnb("--help"), _fsnb("sql", "--help"), _fsnb("search", "--help")
    assert top.returncode == sql.returncode == search.returncode == 0
    flat = [" ".join(run.stdout.split()) for run in (top, sql, search)]
    assert "exit status: 0 done; 1 nothing found (search; fs find, recent, dupes)" in flat[0]
    assert "exit status: 0 the query ran (no rows too: a query is not a search); 2 " in flat[1]
    assert "exit status: 0 hits printed; 1 no hits" in flat[2]


def test_index_prints_a_summary_line_and_failures_on_stderr(folder: Path, tmp_path: Path):
    db = str(tmp_path / "index.duckdb")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nnot a PDF body at all\n")
    run = _fsnb("index", str(folder), "--db", db)
    assert run.returncode == 1, run.stderr  # broken.pdf failed; the others are indexed
    assert run.stdout.startswith(f"indexed {folder}: ") and "IndexReport" not in run.stdout
    assert " added" in run.stdout and run.stdout.count("\n") == 1
    lines = run.stderr.splitlines()
    assert [line[:21] for line in lines if line.startswith("  failed ")] == [
        "  failed broken.pdf: "
    ]
    assert "1 file could not be read" in lines
    assert "  warning empty.txt: empty file (0 bytes)" in lines  # read: nothing in it
    (folder / "broken.pdf").unlink()
    again = _fsnb("index", str(folder), "--db", db)
    assert again.returncode == 0 and " unchanged" in again.stdout and " added" not in again.stdout


def test_sql_into_head_exits_quietly(db: Path):
    """A reader that stops early (`| head -1`) ends the command without a traceback."""
    sql = [*FSNB, "sql", "SELECT * FROM range(100000)", "--db", str(db)]
    for extra in (["--limit", "100000"], ["--json", "--limit", "100000"]):
        pipeline = f"{shlex.join([*sql, *extra])} | head -1; exit ${{PIPESTATUS[0]}}"
        run = subprocess.run(
            ["bash", "-c", pipeline], capture_output=True, text=True, timeout=300, check=False
        )
        assert run.stderr == "" and run.returncode == 0
        assert run.stdout.count("\n") == 1
    # with the default --limit the output may fit the pipe: then the row-cap note follows
    run = subprocess.run(
        ["bash", "-c", f"{shlex.join(sql)} | head -1"], capture_output=True, text=True, timeout=300
    )
    assert run.stdout == " range\n"
    assert run.stderr in ("", "[only the first 1,000 rows: aggregate, filter or raise --limit]\n")


def test_wide_text_is_cut_on_a_terminal_wrapped_when_piped_and_full_in_json(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    sql = "SELECT 7 AS n, repeat('x', 500) AS wide, 'short' AS s"
    piped = _fsnb("sql", sql, "--db", str(db), COLUMNS="60")  # stdout is a pipe here
    assert piped.returncode == 0, piped.stderr
    header, first, *more = piped.stdout.splitlines()
    assert header.split() == ["n", "wide", "s"] and "…" not in piped.stdout
    assert all(len(line) <= 60 for line in [header, first, *more])
    assert first.split() == ["7", "x" * 50, "short"] and len(more) == 9
    assert "".join(line.split()[0] for line in more) == "x" * 450  # every x is there
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # a terminal: cut to its width
    assert main(["sql", sql, "--db", str(db)]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["n", "wide", "s"]
    assert len(row) <= 60 and row.split()[1].endswith("x…") and row.endswith("short")
    full = _fsnb("sql", sql, "--db", str(db), "--json", COLUMNS="60")
    assert json.loads(full.stdout) == [{"n": 7, "wide": "x" * 500, "s": "short"}]


def test_status_never_creates_a_database(tmp_path: Path):
    new = tmp_path / "new.duckdb"
    run = _fsnb("status", "--db", str(new))
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == f"index: {new} (none yet: fsnb index FOLDER makes it)\n"
    assert _fsnb("status", "--db", str(new), "--json").stdout == "[]\n"
    for argv in (["search", "price"], ["sql", "SELECT 1"]):
        run = _fsnb(*argv, "--db", str(new))
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr == f"fsnb: no index at {new} yet: run fsnb index FOLDER first\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "price", "-k", "0"], "argument -k: a whole number of 1 or more, not '0'"),
        (["search", "price", "-k", "two"], "argument -k: a whole number of 1 or more, not 'two'"),
        (["sql", "SELECT 1", "--limit", "-5"], "argument --limit: a whole number of 1 or more"),
        (["sql", "SELECT 1", "--timeout", "0"], "argument --timeout: a number of seconds above 0"),
        (["explore", "q", "--max-steps", "0"], "argument --max-steps: a whole number of 1 or more"),
        (["parse", "a.pdf", "--offset", "-1"], "argument --offset: a whole number of 0 or more"),
    ],
)
def test_numbers_are_checked_as_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "" and message in err


def test_scan_and_parse_say_usage_errors_with_status_2_and_tool_errors_with_1(tmp_path: Path):
    scan = _fsnb("scan", str(tmp_path / "nowhere"))
    assert scan.returncode == 2 and scan.stdout == ""
    assert scan.stderr == f"fsnb: not a folder: {tmp_path / 'nowhere'}\n"
    parse = _fsnb("parse", str(tmp_path / "missing.pdf"))
    assert parse.returncode == 2 and parse.stdout == ""
    assert parse.stderr == "fsnb: missing.pdf does not exist\n"
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nnot a PDF body at all\n")
    broken = _fsnb("parse", str(tmp_path / "broken.pdf"))  # there, but cannot be read
    assert broken.returncode == 1 and broken.stdout == ""
    assert broken.stderr.startswith("fsnb: ") and broken.stderr.count("\n") == 1
    (tmp_path / "note.txt").write_text("Meeting notes\n")
    ok = _fsnb("parse", str(tmp_path / "note.txt"))
    assert ok.returncode == 0 and "Meeting notes" in ok.stdout and ok.stderr == ""


def test_a_failed_exploration_says_why_on_stderr(folder: Path):
    argv = ["explore", "What is the price?", "--folder", str(folder), "--llm", "offline"]
    run = _fsnb(*argv, "--timeout", "0.001")
    assert run.returncode == 1 and run.stdout == ""  # no answer: stdout holds nothing
    assert "timed out after 0.001 s" in run.stderr and " error " in run.stderr
    assert " summary " in run.stderr  # the trace and usage, on stderr
    quiet = _fsnb(*argv, "--timeout", "0.001", "-q")
    assert quiet.returncode == 1 and quiet.stdout == ""
    assert quiet.stderr == "fsnb: timed out after 0.001 s without an answer\n"
    as_json = _fsnb(*argv, "--timeout", "0.001", "--json")
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["error"].startswith("timed out")
    assert as_json.stderr.startswith("fsnb: timed out after 0.001 s")
    empty = _fsnb("explore", " ", "--folder", str(folder), "--llm", "offline")
    assert empty.returncode == 2 and empty.stdout == ""
    assert empty.stderr.startswith("fsnb: the question is empty") and empty.stderr.count("\n") == 1


def test_an_interrupt_is_one_line_and_status_130(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Index, "status", interrupted)
    assert main(["status", "--db", str(db)]) == 130
    assert capsys.readouterr() == ("", "fsnb: interrupted\n")
