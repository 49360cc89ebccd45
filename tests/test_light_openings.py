"""Light openings (`fsnb.documents.light`): previews of text, Markdown, CSV, HTML, DOCX,
PPTX and XLSX files read without Docling, checked against the full parse (Docling's
markdown export) on every sample file of those formats under data/ and on the fixtures
of tests/light_samples.py.

The tolerance, and why:
- Texts are compared with whitespace collapsed (`_flat`), as tests/test_openings.py
  compares PDF openings: the export separates blocks with blank lines and pads table cells
  to their column's width, and an opening stops after a block or a table row.
- Read whole, a light reader gives the full parse's text (whitespace aside), with the same
  format, page count and title; an opening of `chars` characters is a prefix of it, at
  least `chars` long, `partial` exactly when the text goes on.
- One exception: a sheet far longer than the opening is read only as far as the opening
  needs, so its first table is laid out from the rows read; the padding and the rule's
  dashes may then differ from the full parse's, and are left out of the comparison too
  (`_ruled`). The words, their order and every cell stay the same.
- A damaged office file is a one-line `ParseError` of the light reader's own (the full
  parse says only that Docling could not load it); empty, binary, blank and oversized
  files get the full parse's very errors.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import light_samples
import pytest

from fsnb.documents import ParseCache, document_files, opening, parse
from fsnb.documents.light import LIGHT_FORMATS
from fsnb.documents.parse import DOCLING_FORMATS, TEXT_SUFFIXES
from fsnb.errors import ParseError
from fsnb.security import Sandbox

DATA = Path(__file__).resolve().parent.parent / "data"
SRC = Path(__file__).resolve().parent.parent / "src"


def _format(file: Path) -> str | None:
    suffix = file.suffix.lower()
    return "txt" if suffix in TEXT_SUFFIXES else DOCLING_FORMATS.get(suffix)


DATA_SAMPLES = sorted(
    file
    for corpus in sorted(p for p in DATA.iterdir() if p.is_dir() and not p.name.startswith("_"))
    for file in document_files(Sandbox(corpus))
    if _format(file) in LIGHT_FORMATS
)
FIXTURES = [
    "rich.docx", "long.docx", "rich.pptx", "rich.xlsx", "long.xlsx", "page.html", "notes.md",
    "long.md", "semicolon.csv", "tab.csv", "ragged.csv", "one.csv", "plain.txt", "more.docx",
    "more.pptx", "more.xlsx", "more.html", "more.md",
]  # fmt: skip
#: Fixtures whose opening may lay a table out from part of its rows (`_ruled`).
READ_IN_PART = {"long.xlsx"}


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("light-samples")
    light_samples.build(root)
    light_samples.build_more(root)
    return root


def _flat(text: str) -> str:
    return " ".join(text.split())


def _ruled(text: str) -> str:
    """`_flat`, and a table's rule written with one dash a column."""
    return re.sub(r"\|-+(?=\|)", "|-", _flat(text))


def _agrees(file: Path, *, in_part: bool = False) -> None:
    full = parse(file, cache=False)
    norm = _ruled if in_part else _flat
    for chars in (10**9, 2000, 300):
        head = opening(file, chars, cache=False)
        assert head.parser in (f"light-{head.format}", "text")
        shown, whole = norm(head.text), norm(full.text)
        if chars == 10**9:
            assert shown == whole
        else:
            assert whole.startswith(shown), (chars, shown[-200:])
            assert len(head.text) >= min(chars, len(full.text))
        assert (head.format, head.pages, head.title) == (full.format, full.pages, full.title)
        assert head.partial == (len(shown) < len(whole))


@pytest.mark.parametrize("file", DATA_SAMPLES, ids=lambda f: str(f.relative_to(DATA)))
def test_a_sample_file_opens_as_the_full_parse_begins(file: Path):
    try:
        parse(file, cache=False)
    except ParseError as exc:
        with pytest.raises(ParseError) as caught:
            opening(file, 2000, cache=False)
        assert caught.value.why == exc.why
        return
    _agrees(file)


@pytest.mark.parametrize("name", FIXTURES)
def test_a_fixture_opens_as_the_full_parse_begins(fixtures: Path, name: str):
    _agrees(fixtures / name, in_part=name in READ_IN_PART)


def test_a_long_sheet_is_read_only_as_far_as_the_opening_needs(fixtures: Path):
    head = opening(fixtures / "long.xlsx", 300, cache=False)
    assert head.partial and "ACC-001" in head.text
    assert "| 1999 |" not in head.text
    assert len(head.text) < 20_000


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("empty.md", b""),
        ("blank.md", b"  \n\n"),
        ("binary.csv", b"\x00\x01\x02 not text"),
        ("binary.html", b"<html>\x00\x00\x00</html>"),
        ("empty.docx", b""),
        ("empty.txt", b""),
        ("nothing.html", b"<html><body><script>x()</script></body></html>"),
    ],
)
def test_the_errors_are_the_full_parse_errors(tmp_path: Path, name: str, data: bytes):
    file = tmp_path / name
    file.write_bytes(data)
    with pytest.raises(ParseError) as full:
        parse(file, cache=False)
    with pytest.raises(ParseError) as light:
        opening(file, 500, cache=False)
    assert light.value.why == full.value.why


def test_the_content_limit_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    file = tmp_path / "bomb.docx"
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"<w:document/>" + b" " * 3_000_000)
    monkeypatch.setenv("FSNB_MAX_PARSE_MB", "1")
    with pytest.raises(ParseError) as full:
        parse(file, cache=False)
    with pytest.raises(ParseError) as light:
        opening(file, 500, cache=False)
    assert light.value.why == full.value.why
    assert "too large to parse" in light.value.why


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        ("a.docx", b"not a zip at all", "corrupt or unreadable file"),
        ("b.pptx", b"PK\x03\x04 cut short", "corrupt or unreadable file"),
        ("c.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 an old .xls", "older binary Office file"),
        ("d.xlsx", b"\xd0\xcf\x11\xe0" + "EncryptedPackage".encode("utf-16-le"), "encrypted"),
    ],
)
def test_a_damaged_office_file_is_a_one_line_error(
    tmp_path: Path, name: str, data: bytes, why: str
):
    file = tmp_path / name
    file.write_bytes(data)
    with pytest.raises(ParseError) as caught:
        opening(file, 500, cache=False)
    assert why in caught.value.why and "\n" not in caught.value.why


def test_a_scan_never_imports_docling(fixtures: Path, tmp_path: Path):
    """A scan of mixed folders (every format a light reader opens, PDFs too) in a fresh
    process leaves Docling and docling-core unimported."""
    code = (
        "import json, sys\n"
        "from fsnb.tools import scan_folder\n"
        "for root in sys.argv[1:]:\n"
        "    scan_folder(root=root)\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('docling', 'docling_core'))))\n"
    )
    env = {**os.environ, "FSNB_CACHE_DIR": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    folders = [str(DATA / "mixed"), str(DATA / "test_acquisition"), str(fixtures)]
    done = subprocess.run(
        [sys.executable, "-c", code, *folders], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_openings_are_cached_and_the_full_parse_preferred(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    file = tmp_path / "memo.docx"
    file.write_bytes((fixtures / "rich.docx").read_bytes())
    store = ParseCache(tmp_path / "cache")
    first = opening(file, 100, cache=store)
    assert first.parser == "light-docx" and first.partial

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("read again")

    monkeypatch.setattr(sys.modules["fsnb.documents.opening"], "light_opening", unread)
    assert opening(file, 100, cache=store) == first
    monkeypatch.undo()
    longer = opening(file, 400, cache=store)  # more than the cached opening holds
    assert len(longer.text) >= 400
    parse(file, cache=store)
    assert opening(file, 100, cache=store).parser == "docling-docx"


def test_the_opening_reads_the_file_the_sandbox_checked(tmp_path: Path):
    root, outside = tmp_path / "root", tmp_path / "outside.md"
    root.mkdir()
    outside.write_text("# Secret\n\nNot under the root.\n")
    (root / "link.md").symlink_to(outside)
    with pytest.raises(ParseError) as full:
        parse(root / "link.md", cache=False, root=root)
    with pytest.raises(ParseError) as light:
        opening(root / "link.md", 100, cache=False, root=root)
    assert light.value.why == full.value.why


def test_pipe_tables_are_laid_out_as_tabulate_lays_them_out():
    from tabulate import _column_type, tabulate

    from fsnb.documents.light_blocks import pipe_table

    rng = random.Random(7)
    pool = ["", "1", "1,000", "2.5", "-3", "1e5", "inf", "nan", "True", "False", "abc", " pad ",
            "é", "日本", "1,0000", ".5", "+1,000.25", "x y", "0x10", "1_000", "a\tb", "1e400"]  # fmt: skip
    for _ in range(1500):
        cols = rng.randint(1, 4)
        header = [rng.choice([*pool, "Head"]) for _ in range(cols)]
        body = [[rng.choice(pool) for _ in range(cols)] for _ in range(rng.randint(0, 5))]
        align = [
            "right" if _column_type(c) in (int, float) else "left" for c in zip(*body, strict=True)
        ]
        want = tabulate(
            body,
            headers=header,
            tablefmt="github",
            disable_numparse=True,
            colalign=tuple(align) if body else None,
        )
        assert pipe_table(header, body) == want, (header, body)


def _markdown_document(rng: random.Random) -> str:
    words = "alpha beta gamma escrow price (note) 3.5% $12 & co. end, yes: no; why? ok! 'q'".split()

    def some(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n))

    def run() -> str:
        r = rng.random()
        if r < 0.15:
            return f"**{some(rng.randint(1, 3))}**"
        if r < 0.25:
            return f"*{some(2)}*"
        if r < 0.33:
            return f"`{rng.choice(['a_b', 'x*y', 'code'])}`"
        if r < 0.4:
            return f"[{some(2)}]({rng.choice(['docs/a.md', 'https://ex.com/p?q=1', '#sec'])})"
        if r < 0.45:
            return rng.choice(["# not a heading", "C#", "5 * 3", "a_b", "<b>", "www.x.com"])
        return some(rng.randint(1, 5))

    def lines(n: int) -> str:
        return "\n".join(" ".join(run() for _ in range(rng.randint(1, 3))) for _ in range(n))

    def items(depth: int) -> str:
        ordered, start = rng.random() < 0.4, rng.choice([1, 3])
        out = []
        for i in range(rng.randint(1, 4)):
            marker = f"{start + i}{rng.choice('.)')}" if ordered else rng.choice("-*+")
            item = f"{' ' * depth}{marker} {lines(1)}"
            if rng.random() < 0.2:
                item += f"\n{' ' * (depth + len(marker) + 1)}{some(3)}"
            if rng.random() < 0.2 and depth < 4:
                item += "\n" + items(depth + len(marker) + 1)
            out.append(item)
        return "\n".join(out)

    blocks = []
    for _ in range(rng.randint(1, 7)):
        r = rng.random()
        if r < 0.2:
            blocks.append("#" * rng.randint(1, 4) + " " + run() + rng.choice(["", " ##"]))
        elif r < 0.5:
            blocks.append(lines(rng.randint(1, 3)))
        elif r < 0.75:
            blocks.append(items(0))
        elif r < 0.85:
            blocks.append(f"```\n{some(3)}\n\n  {some(2)}\n```")
        else:
            cells = rng.randint(1, 3)
            rows = ["| " + " | ".join(run() for _ in range(cells)) + " |" for _ in range(2)]
            blocks.append("\n".join([rows[0], "|" + "---|" * cells, *rows[1:]]))
    return "\n\n".join(blocks) + "\n"


def test_plain_markdown_read_without_marko_is_read_as_marko_reads_it():
    """The fast path (`light_fastmd`) gives the blocks the marko path gives, or declines."""
    from marko import Markdown

    from fsnb.documents import light_markdown as markdown
    from fsnb.documents.light_blocks import Table
    from fsnb.documents.light_fastmd import fast_blocks

    parser = Markdown(extensions=[markdown._EXTENSION or markdown._gfm()])
    rng = random.Random(3)
    docs = [f.read_text() for f in DATA.glob("*/**/*.md")]
    docs += [_markdown_document(rng) for _ in range(400)]
    taken = 0
    for text in docs:
        fast = fast_blocks(text)
        if fast is None:
            continue
        taken += 1
        slow = markdown._Walk().blocks(parser.parse(text).children, 0)
        render = [b.markdown() if isinstance(b, Table) else b for b in fast]
        assert render == [b.markdown() if isinstance(b, Table) else b for b in slow], text
    assert taken > 100
    for declined in ("> quoted", "<div>x</div>", "Title\n=====", "a_b", "[a]: http://x"):
        assert fast_blocks(declined) is None
