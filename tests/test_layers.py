"""Imports point one way (shared/STYLE.md, "Layers"): the compiler never imports the runtime,
the runtime never imports the compiler, and what both need (the VM opcode table, HAL element
type codes) lives below both in `ireelab.schemas`."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "ireelab"

FORBIDDEN = {
    "compiler": ("ireelab.runtime",),
    "dialects": ("ireelab.runtime", "ireelab.compiler"),
    "runtime": ("ireelab.compiler",),
    "schemas": ("ireelab.runtime", "ireelab.compiler", "ireelab.dialects"),
}


CANONICALIZATION_HOOK = "get_canonicalization_patterns"
"""xDSL's way for an op to name its canonicalization patterns: a trait method that imports
them lazily from the transforms (STYLE.md, "Dialects"); that import is the one a dialect may
make of the compiler, and it is no cycle (the dialect module never runs it at import)."""


def _nodes(tree: ast.AST):
    """Every node of `tree`, but not the bodies of canonicalization hooks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef) and node.name == CANONICALIZATION_HOOK:
            continue
        stack.extend(ast.iter_child_nodes(node))


def _imported_modules(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in _nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_point_one_way(layer):
    offences = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for line, module in _imported_modules(path):
            if module.startswith(FORBIDDEN[layer]):
                offences.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {module}")
    assert offences == []


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the ireelab modules it imports, lazy imports inside functions included (a
    lazy import hides a cycle from Python, not from the reader). The package itself
    (`ireelab`, the public API) is left out: tools and notebooks reach the compiler through it."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        if name == "ireelab":
            continue
        targets = set()
        for node in _nodes(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets.add(node.module)
                targets.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in paths and t not in (name, "ireelab")}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles():
    assert _cycles(_import_graph()) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
