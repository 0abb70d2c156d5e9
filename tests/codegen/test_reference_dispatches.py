"""Every dispatch the real IREE 3.13 formed for the reference programs compiles and computes
right: each `flow.executable` body of shared/reference/iree-3.13-ir/*.flow.mlir goes through
ireelab's codegen, and its kernel's result is compared with the real IREE running the same
body as a plain tensor function (loads become arguments, the store the result).

Inputs are drawn from [0.25, 1): positive, as the softmax dispatches see them (a row sum of
values around zero would make the division dispatch ill-conditioned). Tolerance: rtol=1e-4,
atol=1e-4 in float32 (the two compilers sum in different orders). Needs the real IREE.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from codegen_harness import bindings_of, compile_executable, executable_text
from reference_paths import REFERENCE

REFERENCE = REFERENCE / "iree-3.13-ir"
_FUNC = re.compile(r"func\.func @(\w+)\(([^)]*)\) \{\n(.*?)\n\s*return\n", re.S)


def _dispatches() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(REFERENCE.glob("*.flow.mlir")):
        for name, signature, body in _FUNC.findall(path.read_text()):
            found.append((name, signature, body))
    unique = {name: (name, signature, body) for name, signature, body in found}
    return list(unique.values())


DISPATCHES = _dispatches()


def _shape(tensor: str) -> tuple[int, ...]:
    return tuple(int(s) for s in tensor[len("tensor<") : -1].split("x")[:-1])


def _as_tensor_function(name: str, signature: str, body: str) -> str:
    """The dispatch as a function on tensors, for the real IREE."""
    bindings = bindings_of(signature)
    inputs = [(i, b) for i, b in enumerate(bindings) if b.access == "readonly"]
    arguments = ", ".join(f"%in{i}: {b.tensor}" for i, b in inputs)
    (output,) = [b for b in bindings if b.access == "writeonly"]
    lines = []
    result = None
    for line in body.splitlines():
        load = re.match(r"\s*(%\w+) = iree_tensor_ext\.dispatch\.tensor\.load %arg(\d+),", line)
        store = re.match(r"\s*iree_tensor_ext\.dispatch\.tensor\.store (%\w+),", line)
        if load:
            binding = bindings[int(load.group(2))]
            lines.append(
                f"{load.group(1)} = tensor.cast %in{load.group(2)} : {binding.tensor} to {binding.tensor}"
            )
        elif store:
            result = store.group(1)
        else:
            lines.append(line)
    text = "\n".join(lines)
    return f"func.func @{name}({arguments}) -> {output.tensor} {{\n{text}\n  return {result} : {output.tensor}\n}}\n"


def _run_iree(function_text: str, name: str, inputs: list[np.ndarray]) -> np.ndarray:
    compiler = pytest.importorskip("iree.compiler")
    runtime = pytest.importorskip("iree.runtime")
    binary = compiler.compile_str(function_text, target_backends=["llvm-cpu"])
    module = runtime.load_vm_flatbuffer(binary, driver="local-task")
    return np.asarray(module[name](*inputs))


@pytest.mark.iree
@pytest.mark.slow
@pytest.mark.parametrize("name, signature, body", DISPATCHES, ids=[d[0] for d in DISPATCHES])
def test_reference_dispatch_matches_iree(name: str, signature: str, body: str) -> None:
    bindings = bindings_of(signature)
    executable = compile_executable(executable_text(name, bindings, body))
    rng = np.random.default_rng(0)
    inputs = [
        rng.uniform(0.25, 1.0, _shape(b.tensor)).astype(np.float32)
        for b in bindings
        if b.access == "readonly"
    ]
    (output_binding,) = [b for b in bindings if b.access == "writeonly"]
    output = np.full(_shape(output_binding.tensor), np.nan, np.float32)
    executable.run(inputs, [output])
    expected = _run_iree(_as_tensor_function(name, signature, body), name, inputs)
    np.testing.assert_allclose(output, expected, rtol=1e-4, atol=1e-4)


def test_every_reference_dispatch_is_collected() -> None:
    assert len(DISPATCHES) >= 16
