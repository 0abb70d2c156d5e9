"""A copy of a check file with one expected value changed in every function must fail in
every function: the checks of the sub-byte and bitcast files compare real results, not
values that pass whatever the kernels compute."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FILES = [
    "sub_byte_integers.mlir",
    "microscaling_floats.mlir",
    "tensor_bitcasts.mlir",
    "packed_i1_storage.mlir",
]
"""Check files whose every function ends in an `expect_eq_const` / `expect_almost_eq_const`."""

_FUNCTION = re.compile(r"^func\.func @(\w+)\(\)", re.M)
_CONSTANT = re.compile(
    r"(check\.expect_(?:almost_)?eq_const\(%\w+, dense<\[*)(0x[0-9A-Fa-f]+|-?\d+)"
)


def _change_last_expectation(body: str) -> str:
    """`body` with the first number of its last `expect_*_const` literal increased by one."""
    last = list(_CONSTANT.finditer(body))[-1]
    number = last.group(2)
    changed = hex(int(number, 16) + 1) if number.startswith("0x") else str(int(number) + 1)
    return body[: last.start(2)] + changed + body[last.end(2) :]


def _changed_copy(text: str) -> tuple[str, list[str]]:
    starts = [m.start() for m in _FUNCTION.finditer(text)] + [len(text)]
    parts = [text[: starts[0]]]
    for begin, end in zip(starts, starts[1:], strict=False):
        parts.append(_change_last_expectation(text[begin:end]))
    return "".join(parts), _FUNCTION.findall(text)


@pytest.mark.parametrize("name", FILES)
def test_every_function_fails_with_one_expected_value_changed(name, tmp_path):
    import ireelab
    from ireelab.tools.check_module import run_test

    text, functions = _changed_copy((HERE / name).read_text())
    assert text != (HERE / name).read_text() and functions
    copy = tmp_path / name
    copy.write_text(text)
    loaded = ireelab.compile(str(copy)).loaded
    outcomes = {f: run_test(loaded, f) for f in functions}
    assert [f for f, outcome in outcomes.items() if outcome.passed] == []
    if name == "sub_byte_integers.mlir":  # packed i4 printed as IREE prints the view
        failure = "\n".join(outcomes["i4_tensors_compared_directly"].failures)
        assert "lhs:\n    8xi4=2 4 6 -8 -2 0 0 -6\n  rhs:\n    8xi4=3 4 6 -8" in failure
