"""The panel outside JupyterLab: colors that follow the page's color scheme where JupyterLab's
CSS variables are absent, and a cited file the front end can open (in Lab) or copy."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import tinycss2
from conftest import DATA

from fsnb.agent import Action, CitedSource, Explorer
from fsnb.llm import ReplayLLM
from fsnb.notebook.widget import STATIC, ExplorePanel

QUOTE = "The Purchase Price is $9,000,000 payable at Closing"
CHROMIUM = "/usr/bin/chromium"


def _rules(css: str, media: str | None = None) -> list[tuple[str, dict[str, str]]]:
    """(selector, {property: value}) of the style rules at the top level or in `@media media`."""
    nodes = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    if media is not None:
        (block,) = [
            n
            for n in nodes
            if n.type == "at-rule" and " ".join(tinycss2.serialize(n.prelude).split()) == media
        ]
        nodes = tinycss2.parse_rule_list(block.content, skip_comments=True, skip_whitespace=True)
    rules = []
    for node in nodes:
        if node.type != "qualified-rule":
            continue
        declarations = tinycss2.parse_blocks_contents(
            node.content, skip_comments=True, skip_whitespace=True
        )
        values = {
            d.name: " ".join(tinycss2.serialize(d.value).split())
            for d in declarations
            if d.type == "declaration"
        }
        rules.append((tinycss2.serialize(node.prelude).strip(), values))
    return rules


def test_colors_fall_back_to_the_page_color_scheme():
    css = (STATIC / "widget.css").read_text()
    panel = [values for selector, values in _rules(css) if selector == ".fsnb-panel"]
    light = {k: v for values in panel for k, v in values.items() if k.startswith("--fsnb-scheme-")}
    ((selector, dark),) = _rules(css, "(prefers-color-scheme: dark)")
    assert selector == ".fsnb-panel" and set(dark) == set(light) and len(light) >= 9
    assert all(dark[name] != light[name] for name in light)  # a dark value for each color
    # every JupyterLab variable has a fallback; each color's ends in its scheme value
    declared = {k: v for values in panel for k, v in values.items()}
    lab_colors = {k: v for k, v in declared.items() if "--jp-" in v and "color" in v}
    assert len(lab_colors) >= 9
    for name, value in lab_colors.items():
        assert value.startswith("var(--jp-") and value.endswith(f"var(--fsnb-scheme-{name[7:]})))")
    uses = [value for _, values in _rules(css) for value in values.values() if "--jp-" in value]
    assert all(value.startswith("var(--jp-") and "," in value for value in uses)
    assert len(uses) == len(lab_colors) + 3  # and the two fonts and the font size, nowhere else


def test_the_citation_reply_names_the_cited_file(folder: Path):
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    llm = ReplayLLM([Action.stop("The price is $9,000,000 [1].", "found it", [cite])])
    panel = ExplorePanel()
    panel.attach(Explorer(folder, llm), "What is the price?").wait(30)
    reply = panel.citation_context(1)
    assert reply["file"] == str(folder.resolve() / "agreement.pdf")
    assert Path(reply["file"]).is_file() and reply["path"] == "agreement.pdf"
    assert str(folder.resolve()) not in str(panel.get_state())  # saved state stays relative


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_lab_urls_from_the_page_config(tmp_path: Path):
    """In JupyterLab, a file under the server's root opens at {baseUrl}lab/tree/{path}."""
    shutil.copy(STATIC / "widget.js", tmp_path / "widget.mjs")
    (tmp_path / "check.mjs").write_text(
        "const config = (data) => ({ getElementById: (id) =>"
        " id === 'jupyter-config-data' && data ? { textContent: JSON.stringify(data) } : null });"
        "const { labUrl } = await import('./widget.mjs');"
        "const lab = config({ baseUrl: '/user/ana/', serverRoot: '/srv/work/' });"
        "const urls = [];"
        "for (const page of [lab, config({ baseUrl: '/' }), config(null)]) {"
        "  globalThis.document = page;"
        "  for (const file of ['/srv/work/deal/a b#1.pdf', '/srv/workshop/x.pdf', '/etc/x.pdf'])"
        "    urls.push(labUrl(file));"
        "}"
        "console.log(JSON.stringify(urls));"
    )
    run = subprocess.run(
        ["node", "check.mjs"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) == ["/user/ana/lab/tree/deal/a%20b%231.pdf"] + [None] * 8


def _page(
    state: dict,
    reply: dict,
    head: str = "",
    body: str = '<div id="out"></div>',
    render: bool = True,
) -> str:
    """A plain HTML page with the panel's module, its CSS and a saved widget state; the
    panel renders into #out (unless not `render`: a page without widgets)."""
    module = (STATIC / "widget.js").read_text().replace("export default", "window.fsnbWidget =")
    show = 'window.fsnbWidget.render({ model, el: document.getElementById("out"), experimental });'
    return f"""<!doctype html><html><head>{head}<style>{(STATIC / "widget.css").read_text()}</style>
</head><body>{body}<script type="module">{module}
const state = {json.dumps(state)};
const model = {{ get: (key) => state[key], on() {{}}, off() {{}} }};
const experimental = {{ invoke: async () => [{json.dumps(reply)}, []] }};
{show if render else ""}
window.fsnbReady = true;
</script></body></html>"""


@pytest.mark.browser
def test_a_plain_page_follows_the_color_scheme_and_offers_the_path(folder: Path):
    from playwright.sync_api import expect, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (.ci/browser-deps)")
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    llm = ReplayLLM([Action.stop("The price is $9,000,000 [1].", "found it", [cite])])
    panel = ExplorePanel()
    panel.attach(Explorer(folder, llm), "What is the price?").wait(30)
    state, reply = panel.get_state(), {"ok": True, **panel.citation_context(1)}
    lab = (
        '<script id="jupyter-config-data" type="application/json">'
        f'{{"baseUrl": "/", "serverRoot": "{folder.parent.resolve()}"}}</script>'
        "<style>:root { --jp-layout-color1: rgb(1, 2, 3); }</style>"
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            for scheme, head, background in [
                ("light", "", "rgb(255, 255, 255)"),
                ("dark", "", "rgb(13, 17, 23)"),
                ("dark", lab, "rgb(1, 2, 3)"),  # JupyterLab's own colors win
            ]:
                page = browser.new_page(color_scheme=scheme)
                page.set_content(_page(state, reply, head))
                box = page.locator(".fsnb-panel")
                expect(box).to_have_css("background-color", background)
                page.locator("button.fsnb-citation").click()
                expect(page.locator(".fsnb-citation-quote mark")).to_contain_text("Purchase Price")
                if head:
                    expect(page.locator(".fsnb-open")).to_have_attribute(
                        "href", f"/lab/tree/{folder.name}/agreement.pdf"
                    )
                else:
                    copy = page.locator(".fsnb-copy")
                    expect(copy).to_have_attribute("title", reply["file"])
                    copy.click()  # no clipboard on this page: the path is shown, selected
                    field = page.locator(".fsnb-path-field")
                    expect(field).to_have_value(reply["file"])
                    assert field.evaluate("n => n.selectionEnd - n.selectionStart") > 0
                page.close()
        finally:
            browser.close()


#: Outputs as VS Code's notebook webview nests them (no JupyterLab class anywhere): the
#: panel's cell holds the panel and its record; the next cell, another run's record.
VSCODE_LIKE = """
<div class="cell_container"><div class="output_container"><div class="output" id="out"></div></div>
<div class="output_container" id="mine"><div class="output">{record}</div></div></div>
<div class="cell_container"><div class="output_container" id="other">
<div class="output">{other}</div></div></div>"""


def _finished_panel(folder: Path, task: str = "What is the price?") -> ExplorePanel:
    cite = CitedSource(id=1, path="agreement.pdf", page=1, quote=QUOTE)
    read = Action.call("parse_file", "read it", path="agreement.pdf")
    llm = ReplayLLM([read, Action.stop("The price is $9,000,000 [1].", "found it", [cite])])
    panel = ExplorePanel()
    panel.attach(Explorer(folder, llm), task).wait(30)
    assert panel.status == "done"
    return panel


@pytest.mark.browser
def test_a_plain_page_hides_the_record_under_its_panel(folder: Path):
    """In markup that is not JupyterLab's, the panel hides the record of its own run (once
    shown, or shown later), and no other; a page without the widget shows every record."""
    from playwright.sync_api import expect, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (.ci/browser-deps)")
    panel = _finished_panel(folder)
    state, reply = panel.get_state(), {"ok": True, **panel.citation_context(1)}
    record = panel.record()[0]["text/html"]
    other = _finished_panel(folder, "Who signed it?").record()[0]["text/html"]
    body = VSCODE_LIKE.format(record=record, other=other)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_content(_page(state, reply, body=body))
            expect(page.locator(".fsnb-panel")).to_be_visible()
            expect(page.locator("#mine")).to_be_hidden()  # its whole output, not only the div
            expect(page.locator("#other .fsnb-record")).to_be_visible()
            # a record displayed after the panel (a blocking cell shows it at the end)
            late = VSCODE_LIKE.format(record="", other=other)
            page = browser.new_page()
            page.set_content(_page(state, reply, body=late))
            expect(page.locator(".fsnb-panel")).to_be_visible()
            page.evaluate(
                "html => { const out = document.createElement('div');"
                " out.id = 'shown-late'; out.innerHTML = html;"
                " document.querySelector('#mine').after(out); }",
                record,
            )
            expect(page.locator("#shown-late")).to_be_hidden()
            expect(page.locator("#other .fsnb-record")).to_be_visible()
            # no widget (GitHub, nbconvert without widget state): the records show
            page = browser.new_page()
            page.set_content(_page(state, reply, body=body, render=False))
            page.wait_for_function("window.fsnbReady === true")
            expect(page.locator("#mine .fsnb-record")).to_be_visible()
            expect(page.locator("#other .fsnb-record")).to_be_visible()
            expect(page.locator("#mine img[src^='data:image/png;base64,']")).to_be_visible()
        finally:
            browser.close()


@pytest.mark.browser
def test_a_plain_page_shows_the_evidence_and_answers_the_keyboard(folder: Path):
    """The cited page with its highlight in view; Escape closes it; the arrow keys move
    between the tabs; a stopped run says so; numbers and dates in tables read as such."""
    from playwright.sync_api import expect, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (.ci/browser-deps)")
    corpus = folder.parent / "deal"
    shutil.copytree(DATA / "test_acquisition", corpus)
    quote = "The total risk-adjusted impact is estimated at $6.2 million to $8.7 million."
    cite = CitedSource(id=1, path="04_risk_assessment_memo.pdf", page=1, quote=quote)
    read = Action.call("parse_file", "read it", path=cite.path)
    llm = ReplayLLM([read, Action.stop("The impact is $6.2 to $8.7 million [1].", "found", [cite])])
    panel = ExplorePanel()
    panel.attach(Explorer(corpus, llm), "What is the impact?").wait(30)
    state, reply = panel.get_state(), {"ok": True, **panel.citation_context(1)}
    assert reply["evidence"]["box"][1] > 800 and "note" not in reply  # low on its page
    query = {"sql": "SELECT ...", "columns": ["day", "total_usd", "ratio", "name"],
             "rows": [["2025-01-15", 1234.5, 0.123456, "a"], ["2025-02-01", 98765, 2, "b"]],
             "row_count": 2, "more_rows": False}  # fmt: skip
    state = {
        **state,
        "stopped": True,
        "trace": [*state["trace"], {**state["trace"][-1], "query": query}],
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 900, "height": 900})
            page.set_content(_page(state, reply))
            expect(page.locator(".fsnb-stopped")).to_be_visible()
            expect(page.locator(".fsnb-stopped")).to_have_text("stopped early")
            page.locator("button.fsnb-citation").click()
            img = page.locator(".fsnb-citation-quote img.fsnb-evidence-img")
            expect(img).to_be_visible()
            assert img.evaluate("n => n.naturalWidth") == reply["evidence"]["width"]
            page.wait_for_function(IN_VIEW, arg=img.element_handle())
            assert img.evaluate("n => n.parentElement.scrollTop") > 0  # scrolled to it
            assert "null" not in page.locator(".fsnb-panel").inner_text()
            expect(
                page.locator(".fsnb-citation-quote .fsnb-open, .fsnb-citation-quote .fsnb-copy")
            ).to_have_count(1)
            page.keyboard.press("Escape")
            expect(page.locator(".fsnb-citation-quote")).to_be_hidden()
            # tabs: the arrow keys move the selection and the focus
            trace = page.locator(".fsnb-tab[data-tab='trace']")
            trace.focus()
            page.keyboard.press("ArrowRight")
            documents = page.locator(".fsnb-tab[data-tab='documents']")
            expect(documents).to_have_attribute("aria-selected", "true")
            expect(documents).to_be_focused()
            page.keyboard.press("ArrowRight")
            scratch = page.locator(".fsnb-tab[data-tab='scratchpad']")
            expect(scratch).to_have_attribute("aria-selected", "true")
            cells = page.locator(".fsnb-query tbody tr").first.locator("td")
            expect(cells).to_have_text(["2025-01-15", "1,234.50", "0.1235", "a"])
            expect(page.locator(".fsnb-query tbody tr").nth(1).locator("td").nth(1)).to_have_text(
                "98,765"
            )
            expect(cells.nth(1)).to_have_css("text-align", "right")
            expect(cells.nth(3)).to_have_css("text-align", "left")
            page.keyboard.press("ArrowRight")  # wraps round
            expect(trace).to_have_attribute("aria-selected", "true")
            page.keyboard.press("ArrowLeft")
            expect(scratch).to_be_focused()
            assert page.locator("[role=tab][tabindex='0']").count() == 1
        finally:
            browser.close()


#: The highlight's box (in the image's pixels) lies inside the scrolled view of the page.
IN_VIEW = """img => {
  const view = img.parentElement;
  const [, y0, , y1] = JSON.parse(img.dataset.box);
  const k = img.clientHeight / img.naturalHeight;
  if (!img.naturalHeight || !view.clientHeight) return false;
  return y0 * k >= view.scrollTop && y1 * k <= view.scrollTop + view.clientHeight;
}"""
