"""The shape of the package: one-way imports, no cycles, lazy imports included; the
review's "never" rules (no backend below the agent, no view opening DuckDB); a top level
that holds the public API and little else; and no module growing past 400 lines.

The graph is read from the source (ast), so a cycle that only a lazy import inside a
function keeps from failing at import time is still a cycle here, and so is one through
a module named in a string (a PEP 562 export table, a "module:attr" backend reference).
`from pkg import mod` counts as an import of `pkg.mod` alone (a package's `__init__` is
initialized first, but only names taken from it make an edge to it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"


def _modules() -> dict[str, Path]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _targets(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # "fsnb.x" or "fsnb.x:y"
        module = node.value.partition(":")[0]
        return [module] if "." in module and module in MODULES else []
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in MODULES]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        module = ".".join([*base, node.module] if node.module else base)
    else:
        module = node.module or ""
    out = []
    for alias in node.names:
        if f"{module}.{alias.name}" in MODULES:
            out.append(f"{module}.{alias.name}")
        elif module in MODULES and module not in out:
            out.append(module)
    return out


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def import_graph(*, lazy: bool) -> dict[str, set[str]]:
    """Module -> the fsnb modules it imports (at the top level, or anywhere with `lazy`),
    leaving out imports under `if TYPE_CHECKING:`."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skipped = {id(n) for top in ast.walk(tree) if _type_checking(top) for n in ast.walk(top)}
        nodes = ast.walk(tree) if lazy else iter(tree.body)  # strings only count as lazy
        graph[name] = {
            target
            for node in nodes
            if id(node) not in skipped
            for target in _targets(node, package)
            if target != name
        }
        if not lazy:  # top-level `if`/`try` blocks count as top level
            for top in tree.body:
                if isinstance(top, ast.If | ast.Try) and not _type_checking(top):
                    for node in ast.walk(top):
                        graph[name].update(t for t in _targets(node, package) if t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while (member := stack.pop()) != node:
                component.append(member)
            component.append(node)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@pytest.mark.parametrize("lazy", [False, True], ids=["top-level", "with-lazy-imports"])
def test_no_import_cycles(lazy):
    assert cycles(import_graph(lazy=lazy)) == []


def test_the_graph_sees_imports():
    graph = import_graph(lazy=True)
    assert "fsnb.protocol.action" in graph["fsnb.protocol.conversation"]
    assert "fsnb.agent.loop" in graph["fsnb.agent"]  # through the PEP 562 export table
    assert "fsnb.offline" in graph["fsnb.llm.registry"]  # through "fsnb.offline:OfflineLLM"
    assert "fsnb.cli.app" in graph["fsnb.cli"]  # the console script's `fsnb.cli:main`
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_protocol_is_a_leaf():
    graph = import_graph(lazy=True)
    outside = {
        target
        for module in graph
        if module.startswith("fsnb.protocol")
        for target in graph[module]
        if not target.startswith("fsnb.protocol")
    }
    assert outside <= {"fsnb.errors"}


def test_the_write_path_imports_no_reader():
    graph = import_graph(lazy=True)
    readers = {"fsnb.index.search", "fsnb.index.query", "fsnb.index.bm25", "fsnb.index.vectors"}
    assert not reachable(graph, "fsnb.index.pipeline") & readers


def test_layers_point_one_way():
    """documents and index never import the agent, the LLM backends, or the notebook kit."""
    graph = import_graph(lazy=True)
    upper = ("fsnb.agent", "fsnb.llm", "fsnb.offline", "fsnb.notebook", "fsnb.cli")
    for lower in (
        "fsnb.documents",
        "fsnb.db",
        "fsnb.fsindex",
        "fsnb.index",
        "fsnb.security",
        "fsnb.protocol",
        "fsnb.text",
    ):
        below = {m for m in graph if m == lower or m.startswith(lower + ".")}
        for module in below:
            assert not {t for t in reachable(graph, module) if t.startswith(upper)}, module


def _below(prefix: str, module: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_text_is_a_leaf():
    """`fsnb.text` (words, segments, ranges, redact) imports nothing else of fsnb, so every
    layer may use it."""
    graph = import_graph(lazy=True)
    for module in (m for m in graph if _below("fsnb.text", m)):
        assert {t for t in graph[module] if not _below("fsnb.text", t)} == set(), module


#: The modules that talk to a model service: what `fsnb.llm.registry` lends the agent.
BACKENDS = ("fsnb.llm.gemini", "fsnb.llm.openai_chat", "fsnb.llm.chat")
#: Everything the agent stands on. `fsnb.gemini_client` stays at the top level, not in
#: `fsnb.llm`, because the index's Gemini embedder builds its client with it too; it
#: imports no fsnb module, so it cannot pull a backend in.
BELOW_THE_AGENT = (
    "fsnb.documents",
    "fsnb.index",
    "fsnb.security",
    "fsnb.protocol",
    "fsnb.tools",
    "fsnb.text",
    "fsnb.extract",
    "fsnb.offline",
    "fsnb.db",
    "fsnb.fsindex",
    "fsnb.gemini_client",
)


def test_nothing_below_the_agent_reaches_a_backend():
    """Never: a layer below `fsnb.agent` importing a model backend, directly or through
    another module. Of `fsnb.llm` they may reach `fsnb.llm.masked` alone: the secret mask
    that wraps whatever backend the agent lends to tools (`ToolContext.llm`)."""
    graph = import_graph(lazy=True)
    assert set(BACKENDS) <= set(MODULES)  # the rule names modules that exist
    for module in (m for m in graph if any(_below(p, m) for p in BELOW_THE_AGENT)):
        reached = {t for t in reachable(graph, module) if _below("fsnb.llm", t)}
        assert reached <= {"fsnb.llm.masked"}, module


#: The DuckDB names a notebook module may use: types, errors and the SQL tokenizer.
_DUCKDB_NAMES = frozenset({"DuckDBPyConnection", "Error", "tokenize"})
#: The notebook modules that import duckdb today. Each should not (the review's rule is
#: "views never open DuckDB themselves"); none opens it, and none may be added:
#: - `magics`: `duckdb.Error` among the errors a user can act on;
#: - `sql_text`: `duckdb.tokenize`, to find `:name` parameters (no connection).
#: (`connection`, `fsnb.connect()`, left the list: it is a front for `Database.handout`,
#: whose logic is `fsnb.db.handouts`.)
_DUCKDB_IMPORTERS = frozenset({"fsnb.notebook.sql_text"})
#: What opens the DuckDB file from outside `fsnb.db`: the `Database` of a path and its
#: handout, and the openers of `fsnb.db`; only the handout's front (`connection`) calls one.
_STORE_OPENERS = frozenset({"database", "handout", "open_read_only", "attach_read_only"})


def duckdb_uses(tree: ast.AST) -> dict[str, set[str]]:
    """What `tree` does with DuckDB: "imports" (duckdb, by any form of import), "names"
    (the `duckdb.X` it uses, `from duckdb import X` included) and "store" (`Database` and
    the openers it names)."""
    found: dict[str, set[str]] = {"imports": set(), "names": set(), "store": set()}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found["imports"] |= {a.name for a in node.names if a.name.split(".")[0] == "duckdb"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "duckdb":
            found["imports"].add(node.module or "")
            found["names"] |= {a.name for a in node.names}
        elif isinstance(node, ast.Attribute) and ast.unparse(node.value) == "duckdb":
            found["names"].add(node.attr)
        names = []
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
        found["store"] |= {n for n in names if n == "Database" or n in _STORE_OPENERS}
    return found


def test_views_never_open_duckdb():
    """Never: a notebook view (`fsnb.notebook.*`) opening DuckDB itself. They read through
    `fsnb.index` (`Index(db).documents(...)`, `Index.sql`); no module there calls
    `duckdb.connect` or names `Database`, and only the handout's front (`connection`) calls
    an opener (`database(db).handout(...)`). The modules that import duckdb at all are a debt (`_DUCKDB_IMPORTERS`): the
    list may only shrink, and they use only DuckDB's types, errors and tokenizer."""
    importers = set()
    for name, path in MODULES.items():
        if not _below("fsnb.notebook", name):
            continue
        uses = duckdb_uses(ast.parse(path.read_text(encoding="utf-8")))
        if uses["imports"]:
            importers.add(name)
        assert uses["names"] <= _DUCKDB_NAMES, f"{name} uses duckdb.{uses['names']}"
        assert "Database" not in uses["store"], f"{name} builds a Database"
        if name != "fsnb.notebook.connection":
            assert not uses["store"], f"{name} opens DuckDB through {uses['store']}"
    assert not importers - _DUCKDB_IMPORTERS, "new notebook modules import duckdb"
    assert not _DUCKDB_IMPORTERS - importers, "paid: remove them from _DUCKDB_IMPORTERS"


def test_the_duckdb_rule_sees_them():
    code = (
        "import duckdb\n"
        "from fsnb.db.database import Database, open_read_only\n"
        "con = duckdb.connect(':memory:')\n"
        "db = Database(path)\n"
        "conn = database(path).handout('here')\n"
    )
    uses = duckdb_uses(ast.parse(code))
    assert uses == {
        "imports": {"duckdb"},
        "names": {"connect"},
        "store": {"Database", "open_read_only", "database", "handout"},
    }
    assert duckdb_connects(ast.parse(code)) == [3]
    assert duckdb_connects(ast.parse("from duckdb import connect as c\nc()\n")) == [2]


def duckdb_connects(tree: ast.AST) -> list[int]:
    """The lines of `tree` that open a DuckDB database: `duckdb.connect(...)`, or a
    `connect` imported from duckdb, under whatever name."""
    local = {
        a.asname or a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "duckdb"
        for a in node.names
        if a.name == "connect"
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            hit = func.attr == "connect" and ast.unparse(func.value) == "duckdb"
        else:
            hit = isinstance(func, ast.Name) and func.id in local
        if hit:
            found.append(node.lineno)
    return sorted(found)


def test_one_way_to_open_duckdb():
    """Only `fsnb.db` opens DuckDB: every other module reads and writes the file through a
    `Database` (`read()`, `write()`, `select()`, `handout()`), so that the lock, lending,
    migration and damage checks of `fsnb.db.database` hold for every connection."""
    opened = [
        f"{name}:{line}"
        for name, path in MODULES.items()
        if not _below("fsnb.db", name)
        for line in duckdb_connects(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not opened, "duckdb.connect outside fsnb.db:\n" + "\n".join(opened)


#: The modules longer than `MAX_LINES` today, each with its length then. This is a debt to
#: pay down, not an allowance: a listed module may only shrink, and one cut to `MAX_LINES`
#: or less leaves the list (the test says so); no other module may pass `MAX_LINES`.
MAX_LINES = 400
LONG_MODULES: dict[str, int] = {}


def test_no_module_grows_past_its_size():
    """No module over `MAX_LINES` lines, but those in `LONG_MODULES`, each no longer than it
    was when listed."""
    lines = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()
    }
    grown = [
        f"{name}: {n} lines (limit {LONG_MODULES.get(name, MAX_LINES)})"
        for name, n in sorted(lines.items())
        if n > LONG_MODULES.get(name, MAX_LINES)
    ]
    assert not grown, "modules past their size (split them rather than raise a limit):\n" + (
        "\n".join(grown)
    )
    paid = [name for name in LONG_MODULES if lines.get(name, 0) <= MAX_LINES]
    assert not paid, f"no longer over {MAX_LINES} lines (or gone): remove from LONG_MODULES: {paid}"


#: The loose modules of the top level, beside the packages: the public API (`__init__`), and
#: what every layer shares.
TOP_LEVEL = frozenset({"__init__", "_version", "config", "errors", "gemini_client"})


def test_the_top_level_holds_the_face_and_little_else():
    """The command line is in `fsnb.cli`, text functions in `fsnb.text`: a new module goes
    into the package it belongs to, not beside the public API."""
    loose = {path.stem for path in (SRC / "fsnb").glob("*.py")}
    assert loose <= TOP_LEVEL, f"new top-level modules: {sorted(loose - TOP_LEVEL)}"


def test_the_llm_backends_import_no_agent():
    graph = import_graph(lazy=True)
    for module in (m for m in graph if m == "fsnb.llm" or m.startswith("fsnb.llm.")):
        assert not {t for t in graph[module] if t.startswith("fsnb.agent")}, module


def test_one_policy_asks_for_structured_replies():
    """Re-asking for a valid reply is written once (`ChatPolicy`), not once per backend."""
    asking = {"ask_for_json", "ask_for_action"}
    callers = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called in asking:
                    callers.add(name)
    assert callers - {"fsnb.protocol.structured"} == {"fsnb.llm.chat"}


#: Calls that apply a regular expression (`re.*`, `regex.*`, or a compiled pattern's method).
_REGEX_CALLS = frozenset({"compile", "match", "search", "fullmatch", "findall", "finditer", "sub"})
#: The structure tools write into their text: `[page N]` marks, a scan's `=== path — ` lines.
_TOOL_MARKS = ("[page", "\\[page", "===", " — ")


def regexes_over_tool_text(tree: ast.AST) -> list[str]:
    """The regex calls in `tree` that hold a tool's marks in their pattern or are handed a
    turn's result or an outcome, each as "line: call"."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in _REGEX_CALLS:
            continue
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            source = ast.unparse(arg)
            strings = [c.value for c in ast.walk(arg) if isinstance(c, ast.Constant)]
            marked = any(m in p for m in _TOOL_MARKS for p in strings if isinstance(p, str))
            if marked or ".result" in source or "outcome" in source:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
                break
    return found


def test_no_regex_reads_what_a_tool_showed_from_its_text():
    """Receipts and the offline strategy learn what a tool did from its payload
    (`fsnb.tools.payloads`: `PageRead.pages`, `Scanned.listed`, `Hits.hits`, ...), never by
    parsing its text back: the text is for the model and may change, be cut or be masked.

    Two rules over the AST of `fsnb.protocol.receipts` and `fsnb.offline.*` catch both ways
    text gets parsed back: no regex pattern there holds the marks tools write (`[page N]`,
    `=== path — `), and no regex call there is handed a turn's result or an outcome
    (`turn.result`, `outcome.text`). Regexes over questions and documents' own text stay.
    """
    found = [
        f"{name}:{line}"
        for name, path in MODULES.items()
        if name == "fsnb.protocol.receipts" or name.startswith("fsnb.offline")
        for line in regexes_over_tool_text(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, "regexes over tool text:\n" + "\n".join(found)


def test_the_rule_against_regexes_over_tool_text_sees_them():
    """The rule catches the two regexes receipts once used, and lets a question's pass."""
    old = (
        '_PAGE = re.compile(r"^\\[page (\\d+)\\]$")\n'
        "listed = _LISTED.findall(turn.result)\n"
        'words = re.findall(r"\\w+", question)\n'
    )
    assert [f.partition(":")[0] for f in regexes_over_tool_text(ast.parse(old))] == ["1", "2"]
