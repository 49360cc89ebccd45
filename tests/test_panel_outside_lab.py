"""The panel outside JupyterLab: colors that follow the page's color scheme where JupyterLab's
CSS variables are absent, and a cited file the front end can open (in Lab) or copy."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import tinycss2

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


def _page(state: dict, reply: dict, head: str = "") -> str:
    """A plain HTML page with the panel's module, its CSS and a saved widget state."""
    module = (STATIC / "widget.js").read_text().replace("export default", "window.fsnbWidget =")
    return f"""<!doctype html><html><head>{head}<style>{(STATIC / "widget.css").read_text()}</style>
</head><body><div id="out"></div><script type="module">{module}
const state = {json.dumps(state)};
const model = {{ get: (key) => state[key], on() {{}}, off() {{}} }};
const experimental = {{ invoke: async () => [{json.dumps(reply)}, []] }};
window.fsnbWidget.render({{ model, el: document.getElementById("out"), experimental }});
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
