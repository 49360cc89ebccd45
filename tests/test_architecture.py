"""The shape of the package: one-way imports, no cycles, lazy imports included.

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
    for lower in ("fsnb.documents", "fsnb.index", "fsnb.security", "fsnb.protocol"):
        below = {m for m in graph if m == lower or m.startswith(lower + ".")}
        for module in below:
            assert not {t for t in reachable(graph, module) if t.startswith(upper)}, module
