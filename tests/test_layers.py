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


def _imported_modules(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
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
