"""`%%ireecompile --backend=iree` and `--compare` (issue 8, wired into the magic)."""

from __future__ import annotations

import pytest
from nb_helpers import MATMUL

pytestmark = pytest.mark.iree


@pytest.fixture(autouse=True)
def _needs_iree():
    pytest.importorskip("iree.compiler")


def test_backend_iree_binds_the_real_iree_module(run, shell):
    cell = run("%%ireecompile mm --backend=iree --compile-to=flow --show=none\n" + MATMUL)
    assert cell.error is None
    module = shell.user_ns["mm"]
    assert type(module).__name__ == "IREEModule"
    assert "flow.dispatch" in module.ir()


def test_compare_shows_both_sides(run, shell):
    cell = run("%%ireecompile mm --compare --show=none\n" + MATMUL)
    assert cell.error is None
    (table,) = cell.outputs
    text = table["text/plain"]
    assert "IREE" in text and "ireelab" in text
    assert "dispatch" in text
