"""The IPython conventions of the magics, through a real shell: `$name`/`{expr}` through the
shell's `var_expand`, `-h`, `%config` validated when set, and `-f markdown|json|text`."""

from __future__ import annotations

import json
import logging
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from traitlets import TraitError

from fsnb.agent import Action, CitedSource
from fsnb.llm import ReplayLLM
from fsnb.notebook.commands import formatted
from fsnb.notebook.interpolation import UnresolvedWarning
from fsnb.notebook.magics import ExploreMagics

QUOTE = "The Purchase Price is $9,000,000 payable at Closing"
ANSWER = "The price is $9,000,000 [1]."
NAMES = ("script", "r", "thing", "sub", "n", "mine", "_explore")


def _stop() -> Action:
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    return Action.stop(ANSWER, "found it", [cite])


@pytest.fixture
def ip():
    shell = InteractiveShell.instance()
    shell.config.pop("ExploreMagics", None)  # what %config set in other tests
    shell.run_line_magic("reload_ext", "fsnb")  # a fresh ExploreMagics with default config
    yield shell
    shell.config.pop("ExploreMagics", None)
    for name in NAMES:
        shell.user_ns.pop(name, None)


def _magics(ip: InteractiveShell) -> ExploreMagics:
    return next(c for c in ip.configurables if isinstance(c, ExploreMagics))


def _script(ip: InteractiveShell) -> ReplayLLM:
    """`--llm script`: read the agreement, then answer from it."""
    read = Action.call("parse_file", "read it", path="agreement.pdf")
    ip.user_ns["script"] = llm = ReplayLLM([read, _stop()])
    return llm


def _asked(ip: InteractiveShell, folder: Path, line: str, cell: str | None = None) -> str:
    """The question the backend was sent for `%explore` (or `%%explore` with a cell)."""
    llm = _script(ip)
    options = f"--llm script -f text -o r {line}"
    if cell is None:
        ip.run_line_magic("explore", f"{folder} {options}")
    else:
        ip.run_cell_magic("explore", f"{folder} {options}", cell)
    assert ip.user_ns["r"].task == llm.history[0].task
    return llm.history[0].task


# -- interpolation --------------------------------------------------------------------------


def test_names_and_expressions_are_expanded_as_ipython_does(ip: InteractiveShell, folder: Path):
    ip.user_ns.update(thing="purchase price", n=3, sub=folder.name)
    cell = (
        "# NBVAL_IGNORE_OUTPUT\n"
        "What is the $thing? Top {n * 2} hits, {thing.upper()!r};\n"
        "costs $$5 and {{braces}} stay; so does $9,000,000."
    )
    with _no_warning():
        asked = _asked(ip, folder, "", cell)
    assert asked == (
        "What is the purchase price? Top 6 hits, 'PURCHASE PRICE';\n"
        "costs $5 and {braces} stay; so does $9,000,000."
    )
    # the folder too, in a line form with the question after it
    _script(ip)
    with _no_warning():
        ip.run_line_magic(
            "explore", f"{folder.parent}/$sub --llm script -f text -o r What's the {{thing}}?"
        )
    assert ip.user_ns["r"].task == "What's the purchase price?"


def test_what_does_not_evaluate_stays_and_is_named_in_one_warning(
    ip: InteractiveShell, folder: Path
):
    ip.user_ns["thing"] = "price"
    with pytest.warns(UnresolvedWarning) as caught:
        asked = _asked(ip, folder, "", "The $thing, {undefined_name} and $missing.attr?")
    assert asked == "The price, {undefined_name} and $missing.attr?"
    [warning] = [w for w in caught if issubclass(w.category, UnresolvedWarning)]
    assert "{undefined_name}" in str(warning.message) and "$missing.attr" in str(warning.message)

    with pytest.warns(UnresolvedWarning, match=r"nothing substituted: expected '\}'"):
        asked = _asked(ip, folder, "", "The $thing and a stray { brace")
    assert asked == "The $thing and a stray { brace"  # as IPython: the text left as written


def test_a_folder_that_does_not_evaluate_is_not_a_folder(ip: InteractiveShell, folder: Path):
    with pytest.warns(UnresolvedWarning), pytest.raises(UsageError, match=r"not a folder: \$nope"):
        ip.run_cell_magic("explore", "$nope --llm offline -f text", "q?")


# -- -h -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("magic", "line", "usage"),
    [
        ("explore", "-h", "%explore [--llm LLM]"),
        ("explore", "some/folder What is X? --help", "-f FORMAT, --format FORMAT"),
        ("explore_index", "-h", "%explore_index [--db DB] folder"),
        ("explore_sql", "-h", "%explore_sql [-o OUT]"),
        ("explore_connection", "--help", "%explore_connection [--db DB]"),
        ("explore_models", "-h", "%explore_models [--base-url BASE_URL]"),
    ],
)
def test_help(ip: InteractiveShell, capsys: pytest.CaptureFixture[str], magic, line, usage):
    assert ip.run_line_magic(magic, line) is None
    out = capsys.readouterr().out
    assert usage in out and "options:" in out and not out.startswith("::")


def test_help_in_a_cell(ip: InteractiveShell, capsys: pytest.CaptureFixture[str]):
    assert ip.run_cell_magic("explore", "-h", "the question is ignored") is None
    assert "-f FORMAT, --format FORMAT" in capsys.readouterr().out


# -- %config --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("llm = 'claude'", "unknown LLM backend 'claude'; choose one of: auto, gemini, openai"),
        ("llm = 'nope:model-1'", "unknown LLM backend 'nope:model-1'"),
        ("llm = 'mine'", "the name of a variable holding an LLM object"),
        ("max_steps = 0", "max_steps must be at least 1, not 0"),
        ("timeout_s = -1", "timeout_s must be a number of seconds above 0, not -1.0"),
        ("ask_timeout_s = float('nan')", "ask_timeout_s must be a number of seconds above 0"),
        ("base_url = 'localhost:11434'", "base_url must be an http(s) URL"),
    ],
)
def test_config_is_refused_when_set(
    ip: InteractiveShell, caplog: pytest.LogCaptureFixture, setting: str, expected: str
):
    ip.user_ns["mine"] = "a string, not an LLM"
    magics = _magics(ip)
    before = {name: getattr(magics, name) for name in magics.trait_names(config=True)}
    with caplog.at_level(logging.ERROR):
        ip.run_line_magic("config", f"ExploreMagics.{setting}")
    assert expected in caplog.text  # %config reports it at once, one line
    assert {name: getattr(magics, name) for name in before} == before  # nothing changed
    name, _, value = setting.partition(" = ")
    with pytest.raises(TraitError, match=re.escape(expected)):
        setattr(magics, name, eval(value, dict(ip.user_ns)))


def test_a_refused_value_does_not_stop_the_magics_from_loading(
    ip: InteractiveShell, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
):
    with caplog.at_level(logging.ERROR):  # the shell keeps even a refused %config line
        ip.run_line_magic("config", "ExploreMagics.max_steps = 0")
    ip.run_line_magic("config", "ExploreMagics.timeout_s = 30")
    ip.run_line_magic("reload_ext", "fsnb")
    magics = _magics(ip)
    assert (magics.max_steps, magics.timeout_s) == (25, 30.0)
    assert capsys.readouterr().err == (
        "fsnb: %config ExploreMagics.max_steps ignored: max_steps must be at least 1, not 0\n"
    )


def test_config_takes_backends_model_ids_and_variables(ip: InteractiveShell, folder: Path):
    magics = _magics(ip)
    for value in ("offline", "OLLAMA", "ollama:llama3.2", "gemini:gemini-2.5-flash"):
        ip.run_line_magic("config", f"ExploreMagics.llm = {value!r}")
        assert magics.llm == value
    _script(ip)
    ip.run_line_magic("config", "ExploreMagics.llm = 'script'")  # a variable holding an LLM
    ip.run_line_magic("config", "ExploreMagics.max_steps = 2")
    ip.run_line_magic("config", "ExploreMagics.base_url = 'http://127.0.0.1:9/v1'")
    assert (magics.llm, magics.max_steps, magics.base_url) == ("script", 2, "http://127.0.0.1:9/v1")
    ip.run_cell_magic("explore", f"{folder} -f text -o r", "What is the price?")
    assert ip.user_ns["r"].answer == ANSWER and ip.user_ns["r"].backend == "replay"


# -- -f ---------------------------------------------------------------------------------------


def test_format_text(ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]):
    _script(ip)
    value = ip.run_cell_magic("explore", f"{folder} --llm script -f text -o r", "The price?")
    result = ip.user_ns["r"]
    assert value is None and ip.user_ns["_explore"] is result  # printed, not a panel
    out = capsys.readouterr().out
    assert out == f'{ANSWER}\n\nSources:\n- [1] agreement.pdf, page 1: "{QUOTE}"\n'


def test_format_markdown(ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]):
    _script(ip)
    ip.run_line_magic("explore", f"{folder} --llm script --format markdown -o r The price?")
    out = capsys.readouterr().out
    assert out.startswith(f"**The price?**\n\n{ANSWER}\n\nSources:\n- [1] agreement.pdf")
    assert out.rstrip().endswith("_") and "2 LLM calls" in out  # the summary, in italics
    assert ip.user_ns["r"].answer == ANSWER


def test_format_json(ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]):
    _script(ip)
    ip.run_cell_magic("explore", f"{folder} --llm script -f json", "The price?")
    data = json.loads(capsys.readouterr().out)  # nothing but the JSON on stdout
    assert data == json.loads(ip.user_ns["_explore"].to_json())
    assert data["citations"][0]["verified"] and data["llm"]["backend"] == "replay"


def test_format_text_of_a_failed_run(
    ip: InteractiveShell, folder: Path, capsys: pytest.CaptureFixture[str]
):
    ip.user_ns["script"] = ReplayLLM([Action.call("glob", "look", pattern="*.txt")] * 3)
    ip.run_cell_magic("explore", f"{folder} --llm script --max-steps 1 -f text", "q?")
    out = capsys.readouterr().out
    assert out == "Error: step limit (1) reached without an answer\n"


def test_format_is_checked(ip: InteractiveShell, folder: Path):
    with pytest.raises(UsageError, match=r"argument -f/--format: invalid choice: 'html'"):
        ip.run_cell_magic("explore", f"{folder} -f html", "q?")
    with pytest.raises(UsageError, match=r"^no question"):
        ip.run_cell_magic("explore", f"{folder} -f text", "# NBVAL_SKIP\n")


@contextmanager
def _no_warning() -> Iterator[None]:
    """Fail on any UnresolvedWarning inside the block."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnresolvedWarning)
        yield


@pytest.mark.parametrize(
    ("form", "mime"), [("markdown", "text/markdown"), ("json", "application/json")]
)
def test_format_is_displayed_rendered(ip: InteractiveShell, folder: Path, form: str, mime: str):
    """In a notebook `-f markdown` shows rendered Markdown and `-f json` a JSON tree, as
    jupyter-ai's `-f` does; their text is the text/plain a terminal prints."""
    from IPython.utils.capture import capture_output

    _script(ip)
    with capture_output() as shown:
        ip.run_cell_magic("explore", f"{folder} --llm script -f {form}", "The price?")
    (output,) = shown.outputs
    result = ip.user_ns["_explore"]
    if form == "json":
        assert output.data[mime] == json.loads(result.to_json())
    else:
        assert output.data[mime].startswith(f"**The price?**\n\n{ANSWER}")
    assert output.data["text/plain"] == formatted(result, form)
