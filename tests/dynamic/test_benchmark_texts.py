"""`benchmarks/dynamic_shapes.py` compares each `?` program with the same text at fixed sizes.
The static texts it writes must be that program at those sizes: no `?` left, accepted by the
compiler, with the signature the sizes give."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

import ireelab

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "dynamic_shapes.py"
_SPEC = importlib.util.spec_from_file_location("dynamic_shapes_benchmark", _PATH)
benchmark = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(benchmark)


@pytest.mark.parametrize("name", sorted(benchmark.CASES))
def test_static_text_is_the_program_at_the_sizes(name: str) -> None:
    function, shapes = benchmark.CASES[name]
    text = (benchmark.PROGRAMS / f"{name}.mlir").read_text()
    static = benchmark.specialise(text, shapes[0], name)
    assert "?" not in "".join(re.findall(r"tensor<[^>]*>", static))
    ireelab.compile(static, compile_to="input")  # raises, located, if the text is not valid
    arguments = benchmark.inputs(name, shapes[0], np.random.default_rng(0))
    signature = re.search(rf"func\.func @{function}\((.*?)\) ->", static).group(1)
    declared = [
        tuple(int(n) for n in t.split("x")[:-1]) for t in re.findall(r"tensor<([^>]*)>", signature)
    ]
    assert declared == [a.shape for a in arguments]


def test_a_left_over_question_mark_is_refused() -> None:
    with pytest.raises(ValueError, match="left in the static text"):
        benchmark.specialise("func.func @f(%a: tensor<?x?x?xf32>) -> tensor<?x?x?xf32>", (2, 3))
