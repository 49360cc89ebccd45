"""The panel in a real JupyterLab, driven by headless Chromium (Debian's, via Playwright).

One JupyterLab server runs on 127.0.0.1 with a temporary configuration for the whole
module; each test has its own notebook, opened in a workspace of its own. One notebook
runs a `%%explore` cell with the offline backend; the test checks that trace rows, the answer
and a citation appear, clicks the citation (its passage comes back through an anywidget
command), opens and closes a trace row with the keyboard, and saves a screenshot in its tmp
folder. Another runs a slow `%%explore --wait` cell and interrupts the kernel: the panel
says "cancelled", `-o` is bound, and the next cell's output is clean.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import DATA

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]

pytestmark = pytest.mark.browser

#: The notebook's kernel is started, connected and idle (typing before that is lost).
KERNEL_READY = """() => {
  const widget = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = widget && widget.sessionContext && widget.sessionContext.session
    && widget.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle' && kernel.connectionStatus === 'connected';
}"""


#: The highlight's box (in the image's pixels) lies inside the scrolled view of the page.
IN_VIEW = """img => {
  const view = img.parentElement;
  const [, y0, , y1] = JSON.parse(img.dataset.box);
  const k = img.clientHeight / img.naturalHeight;
  if (!img.naturalHeight || !view.clientHeight) return false;
  return y0 * k >= view.scrollTop && y1 * k <= view.scrollTop + view.clientHeight;
}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


#: A backend that reads one file, then looks around slowly for as long as it is let.
SLOW_SCRIPT = """
import time
from fsnb.agent import Action
from fsnb.llm import ReplayLLM

class Slow(ReplayLLM):
    def next_action(self, conversation, notify):
        time.sleep(0.3)
        return super().next_action(conversation, notify)

read = Action.call("parse_file", "read it", path="01_acquisition_agreement.pdf")
script = Slow([read] + [Action.call("glob", "look", pattern="*")] * 300)
asker = ReplayLLM([
    Action(kind="ask_human", question="Which deal do you mean?", reason="ambiguous"),
    Action.stop("The deal you named.", "answered"),
])
"""


#: A backend that fills a scratch table and queries it.
LEDGER_SCRIPT = """
import json
from fsnb.agent import Action
from fsnb.llm import ReplayLLM

fees = [{"item": name, "fee": fee} for name, fee in [("legal", 300), ("audit", 900), ("filing", 50)]]
ledger = ReplayLLM([
    Action.call("create_table", "collect", name="fees", columns="item VARCHAR, fee DOUBLE"),
    Action.call("insert_data", "store", table="fees", rows=json.dumps(fees)),
    Action.call("query_data", "add up", sql="SELECT sum(fee) AS total FROM fees"),
    Action.stop("The fees come to 1250.", "computed"),
])
"""


def _notebook(*sources: str) -> dict:
    def code(source: str) -> dict:
        return {
            "cell_type": "code",
            "metadata": {},
            "source": source,
            "outputs": [],
            "execution_count": None,
        }

    return {
        "cells": [code(source) for source in sources],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@dataclass(frozen=True)
class Lab:
    """The module's JupyterLab server: its address, its root folder (the notebooks and the
    corpus) and the environment it runs in (its HOME and config folder hold its trust)."""

    url: str
    root: Path
    env: dict[str, str]

    def open(self, page, notebook: str, workspace: str) -> None:
        """Open `notebook` in a workspace of its own: the default workspace would also
        restore the notebooks that the module's earlier tests opened."""
        page.goto(f"{self.url}/lab/workspaces/{workspace}/tree/{notebook}")


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """One JupyterLab server for the module, on 127.0.0.1 with its own config, data and
    runtime folders, parse cache and index. Each notebook it serves belongs to one test."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (.ci/browser-deps)")
    base = tmp_path_factory.mktemp("jupyterlab")
    root = base / "lab"
    root.mkdir()
    corpus = root / "corpus"
    shutil.copytree(DATA / "test_acquisition", corpus)
    explore = f"%%explore {corpus} --llm offline -o result\nWhat is the total purchase price?"
    maths = "from IPython.display import HTML\nHTML(\"<div class='control'>from $45 to $12</div>\")"
    notebook = _notebook("%load_ext fsnb", explore, "result", maths)
    (root / "explore.ipynb").write_text(json.dumps(notebook))
    interrupt = _notebook(
        "%load_ext fsnb\n" + SLOW_SCRIPT,
        f"%%explore {corpus} --llm script --wait --max-steps 400 -o partial\nWhat is it?",
        "print(partial.status, partial.documents_read)",
        "print('clean')",
        f"%%explore {corpus} --llm asker --wait -o answered\nWhat is the price?",
        "print([row.result for row in answered.trace() if row.kind == 'ask_human'])",
    )
    (root / "interrupt.ipynb").write_text(json.dumps(interrupt))
    ledger = f"%%explore {corpus} --llm ledger -o booked\nWhat do the fees come to?"
    (root / "scratch.ipynb").write_text(
        json.dumps(_notebook("%load_ext fsnb\n" + LEDGER_SCRIPT, ledger))
    )
    port = _free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(base / "jupyter-config"),
        "JUPYTER_RUNTIME_DIR": str(base / "jupyter-runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(base / "lab-settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "lab-workspaces"),
        "HOME": str(base / "home"),
        # the kernels' parse cache and index: the module's, shared by its tests (conftest's
        # per-test ones are set only after a module fixture has started)
        "FSNB_CACHE_DIR": str(base / "parse-cache"),
        "FSNB_DB": str(base / "db" / "index.duckdb"),
    }
    (base / "db").mkdir()
    log = (base / "jupyterlab.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--ServerApp.root_dir={root}",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--allow-root",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        "JupyterLab did not start:\n"
                        + (base / "jupyterlab.log").read_text()[-3000:]
                    )
                time.sleep(0.5)
        yield Lab(url, root, env)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture
def jupyterlab(lab_server: Lab) -> Iterator[Lab]:
    """The module's server; after the test, its kernels are shut down (one still running a
    slow cell would otherwise go on beside the next test)."""
    yield lab_server
    with urllib.request.urlopen(f"{lab_server.url}/api/sessions", timeout=10) as answer:
        sessions = json.load(answer)
    for session in sessions:
        request = urllib.request.Request(
            f"{lab_server.url}/api/sessions/{session['id']}", method="DELETE"
        )
        with urllib.request.urlopen(request, timeout=30):
            pass


def test_explore_panel_in_jupyterlab(jupyterlab: Lab, tmp_path: Path):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            jupyterlab.open(page, "explore.ipynb", workspace="explore")
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            page.wait_for_function(KERNEL_READY, timeout=120_000)
            # Run both cells the way a person does: select the first cell, Shift+Enter twice.
            page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").first.click()
            page.keyboard.press("Escape")
            page.keyboard.press("Shift+Enter")
            page.keyboard.press("Shift+Enter")

            panel = page.locator(".fsnb-panel")
            try:
                expect(panel).to_be_visible(timeout=120_000)
            except AssertionError:
                page.screenshot(path=str(tmp_path / "no-panel.png"), full_page=True)
                raise
            expect(panel.locator(".fsnb-status")).to_have_text("done", timeout=120_000)
            assert panel.locator(".fsnb-trace-row").count() >= 3
            # the static record (for saved and exported notebooks) is there, hidden under it
            record = page.locator(".fsnb-record")
            expect(record).to_have_count(1)
            expect(record).to_contain_text("$45,000,000", timeout=30_000)  # updated at the end
            expect(record).to_be_hidden()
            answer = panel.locator(".fsnb-answer")
            expect(answer).to_contain_text("$45,000,000")
            expect(answer.locator("em").first).to_be_visible()  # markdown rendered
            citation = answer.locator("button.fsnb-citation").first
            expect(citation).to_be_visible()
            citation.click()
            quote = panel.locator(".fsnb-citation-quote")
            expect(quote).to_be_visible(timeout=15_000)
            expect(quote).to_contain_text(".pdf")
            # the cited page, rendered by the kernel (the _show_citation command) with the
            # quote highlighted, scrolled so that the highlight is in view
            img = quote.locator("img.fsnb-evidence-img")
            expect(img).to_be_visible(timeout=30_000)
            assert img.evaluate("n => n.naturalWidth") > 0
            page.wait_for_function(IN_VIEW, arg=img.element_handle(), timeout=15_000)
            expect(quote.locator(".fsnb-open")).to_have_count(1)  # opens the file in Lab
            expect(quote.locator("mark")).to_have_count(1)  # the passage's text, under it
            assert len(quote.inner_text().strip()) > 20
            page.screenshot(path=str(tmp_path / "evidence.png"), full_page=True)
            page.keyboard.press("Escape")  # closes the box, not JupyterLab's command mode
            expect(quote).to_be_hidden()

            # a trace row opens and closes from the keyboard, and keeps the focus
            row = panel.locator(".fsnb-trace-row").first
            expect(row).to_have_attribute("aria-expanded", "false")
            row.focus()
            page.keyboard.press("Enter")
            expect(row).to_have_attribute("aria-expanded", "true")
            detail = panel.locator(".fsnb-trace-detail")
            expect(detail).to_have_count(1)
            expect(detail).to_contain_text("documents")  # scan_folder's result
            assert row.evaluate("node => node === document.activeElement")
            page.screenshot(path=str(tmp_path / "explore-panel.png"), full_page=True)
            page.keyboard.press(" ")
            expect(row).to_have_attribute("aria-expanded", "false")
            expect(detail).to_have_count(0)

            # dollar amounts stay text: JupyterLab's MathJax typesets `$...$` in HTML outputs
            # (the control cell shows it does here), but never inside fsnb's HTML
            page.locator(".jp-Notebook .jp-CodeCell").nth(2).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Escape")
            page.keyboard.press("Shift+Enter")  # result: the ExplorationResult's HTML
            page.keyboard.press("Shift+Enter")  # the control: plain HTML with two dollars
            expect(page.locator(".control mjx-container").first).to_be_attached(timeout=60_000)
            shown = page.locator(".jp-Notebook .jp-CodeCell").nth(2).locator(".fsnb-result")
            expect(shown).to_contain_text("$45,000,000", timeout=30_000)
            fsnb_roots = ".fsnb-panel, .fsnb-result, .fsnb-record"
            assert page.locator(f":is({fsnb_roots}) mjx-container").count() == 0
        finally:
            browser.close()
    assert (tmp_path / "explore-panel.png").stat().st_size > 10_000


def _launch(p):
    return p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)


def test_a_saved_notebook_shows_its_panels_from_the_saved_state(jupyterlab: Lab, tmp_path: Path):
    """Executed by nbconvert (which saves the widget state) and opened without running a
    cell. Untrusted, JupyterLab renders no widget: each run's record shows, and no stray
    line. Trusted, each panel renders from the saved state, its front end loaded from the
    one shared model that the state holds (not once per panel), and hides its record."""
    from playwright.sync_api import expect, sync_playwright

    root = jupyterlab.root
    corpus = root / "corpus"
    questions = ("What is the total purchase price?", "When was the NDA signed?")
    cells = ["%load_ext fsnb"] + [f"%%explore {corpus} --llm offline\n{q}" for q in questions]
    saved = root / "saved.ipynb"
    saved.write_text(json.dumps(_notebook(*cells)))
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "nbconvert-runtime")}
    jupyter = [sys.executable, "-m", "jupyter"]
    done = subprocess.run([*jupyter, "nbconvert", "--to", "notebook", "--execute", "--inplace",
                           saved.name], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    state = json.loads(saved.read_text())["metadata"]["widgets"]
    models = state["application/vnd.jupyter.widget-state+json"]["state"].values()
    held = [m for m in models if "fsnb-citation-quote" in json.dumps(m["state"])]
    assert len(held) == 1  # widget.js once, for both panels
    with sync_playwright() as p:
        browser = _launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            jupyterlab.open(page, "saved.ipynb", workspace="saved")
            records = page.locator(".fsnb-record")
            expect(records).to_have_count(2, timeout=90_000)
            expect(records.first).to_be_visible()  # untrusted: no widget, the record shows
            expect(records.first.locator("img").first).to_be_visible()  # with its evidence
            outputs = page.locator(".jp-OutputArea-output")
            assert "ExplorePanel" not in " ".join(outputs.all_inner_texts())
            assert page.locator(".fsnb-panel").count() == 0
            # signed where the lab's server looks: its HOME and config folder
            signer = {key: jupyterlab.env[key] for key in ("HOME", "JUPYTER_CONFIG_DIR")}
            trusted = subprocess.run([*jupyter, "trust", str(saved)], capture_output=True,
                                     env={**env, **signer}, text=True, timeout=60)  # fmt: skip
            assert trusted.returncode == 0, trusted.stderr
            page.reload()
            panels = page.locator(".fsnb-panel")
            try:
                expect(panels).to_have_count(2, timeout=90_000)
            except AssertionError:
                page.screenshot(path=str(tmp_path / "saved-no-panel.png"), full_page=True)
                raise
            expect(panels.first.locator(".fsnb-status")).to_have_text("done")
            expect(panels.nth(1)).to_contain_text("When was the NDA signed?")
            expect(records).to_have_count(2)
            expect(records.first).to_be_hidden()
            expect(records.nth(1)).to_be_hidden()
        finally:
            browser.close()


def test_interrupting_a_wait_cell(jupyterlab: Lab, tmp_path: Path):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = _launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            jupyterlab.open(page, "interrupt.ipynb", workspace="interrupt")
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            page.wait_for_function(KERNEL_READY, timeout=120_000)
            page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").first.click()
            page.keyboard.press("Escape")
            page.keyboard.press("Shift+Enter")
            page.keyboard.press("Shift+Enter")  # the --wait cell: the panel shows at once

            panel = page.locator(".fsnb-panel")
            expect(panel).to_be_visible(timeout=120_000)
            expect(panel.locator(".fsnb-status")).to_have_text("running…", timeout=30_000)
            # live while the cell blocks: the read, then a few slow steps
            page.wait_for_function(
                "document.querySelectorAll('.fsnb-panel .fsnb-trace-row').length >= 3",
                timeout=60_000,
            )
            page.evaluate("window.jupyterapp.commands.execute('notebook:interrupt-kernel')")
            try:
                expect(panel.locator(".fsnb-status")).to_have_text("cancelled", timeout=30_000)
            except AssertionError:
                page.screenshot(path=str(tmp_path / "not-cancelled.png"), full_page=True)
                raise
            cells = page.locator(".jp-Notebook .jp-CodeCell")
            printed = cells.nth(1).locator("[data-mime-type='application/vnd.jupyter.stdout']")
            expect(printed).to_have_count(1)
            expect(printed).to_contain_text("cancelled after")
            expect(printed).to_contain_text("(1 document read); partial holds what it found.")
            expect(page.locator(".fsnb-record")).to_be_hidden()
            page.wait_for_function(KERNEL_READY, timeout=30_000)
            page.keyboard.press("Shift+Enter")  # print(partial.status, ...)
            page.keyboard.press("Shift+Enter")  # print('clean')
            expect(cells.nth(2).locator(".jp-OutputArea-output")).to_have_text(
                "cancelled ['01_acquisition_agreement.pdf']", timeout=30_000
            )
            last = cells.nth(3).locator(".jp-OutputArea-output")
            expect(last).to_have_text("clean", timeout=30_000)
            expect(last).to_have_count(1)  # nothing else: no traceback, no stderr
            stderr = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
            expect(stderr).to_have_count(0)
            page.screenshot(path=str(tmp_path / "interrupted.png"), full_page=True)

            # a --wait cell's question is answered in its panel while the cell blocks
            page.keyboard.press("Escape")
            cells.nth(4).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            asking = page.locator(".fsnb-panel").nth(1)
            ask = asking.locator(".fsnb-ask")
            expect(ask).to_be_visible(timeout=60_000)
            expect(ask).to_contain_text("Which deal do you mean?")
            expect(asking.locator(".fsnb-status")).to_have_text("waiting for you")
            ask.locator("input").fill("Project Falcon")
            ask.locator("input").press("Enter")
            expect(asking.locator(".fsnb-status")).to_have_text("done", timeout=30_000)
            cells.nth(5).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            expect(cells.nth(5).locator(".jp-OutputArea-output")).to_have_text(
                "['Project Falcon']", timeout=30_000
            )
        finally:
            browser.close()


def test_the_scratchpad_tab_sorts_and_shows_the_sql(jupyterlab: Lab, tmp_path: Path):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = _launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            jupyterlab.open(page, "scratch.ipynb", workspace="scratch")
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            page.wait_for_function(KERNEL_READY, timeout=120_000)
            page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").first.click()
            page.keyboard.press("Escape")
            page.keyboard.press("Shift+Enter")
            page.keyboard.press("Shift+Enter")

            panel = page.locator(".fsnb-panel")
            expect(panel).to_be_visible(timeout=120_000)
            expect(panel.locator(".fsnb-status")).to_have_text("done", timeout=120_000)
            panel.locator(".fsnb-tab[data-tab='scratchpad']").click()
            # this run's query: its SQL and its result
            query = panel.locator(".fsnb-query")
            expect(query).to_have_count(1)
            expect(query.locator(".fsnb-sql")).to_have_text("SELECT sum(fee) AS total FROM fees")
            expect(query.locator("td")).to_have_text("1,250")  # numbers with separators
            expect(query).to_contain_text("1 row")
            # a scratch table sorts on a header click, in the kernel; again: descending
            panel.locator(".fsnb-table tr.fsnb-clickable", has_text="fees").click()
            expect(panel.locator(".fsnb-row-range")).to_have_text("rows 1–3 of 3", timeout=30_000)
            first_fee = panel.locator(".fsnb-table tbody tr").first.locator("td").nth(1)
            expect(first_fee).to_have_text("300")
            header = panel.locator(".fsnb-sort", has_text="fee")
            header.click()
            expect(header).to_have_text("fee ▲", timeout=30_000)
            expect(first_fee).to_have_text("50")
            header.click()
            expect(header).to_have_text("fee ▼", timeout=30_000)
            expect(first_fee).to_have_text("900")
            page.screenshot(path=str(tmp_path / "scratchpad.png"), full_page=True)
        finally:
            browser.close()
