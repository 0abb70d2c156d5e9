"""Shape-generic kernels (`runtime/hal/generic_kernels.py`): executables that differ only in
sizes share one generic kernel, the generic kernels compute what the specialised ones do, and
a first run uses them while the specialised kernels compile in the background, then swaps.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from test_kernel_pool import FIRST_RESULT, mlp, run_fresh  # tests/runtime is on sys.path

import ireelab
from ireelab.runtime.hal import executable
from ireelab.runtime.hal.generic_kernels import generic_form
from ireelab.runtime.hal.kernel_source_check import check_kernel_source
from ireelab.runtime.loaded_module import load_module
from ireelab.runtime.vm.module_file import read_module

ROOT = Path(__file__).resolve().parents[2]


def kernel_sources(module_bytes: bytes) -> list[tuple[str, list[tuple[int, int, int]]]]:
    """(source, export operands) of every executable in a module file."""
    image = read_module(module_bytes)
    found = []
    for e in image.executables:
        document = json.loads(bytes(image.rodata[e["rodata"]].data))
        operands = [
            (x["ordinal"], x["bindings"], x.get("constants", 0)) for x in document["exports"]
        ]
        found.append((document["source"], operands))
    return found


def test_layers_of_other_widths_share_one_generic_kernel() -> None:
    # Two one-layer MLPs of other widths: distinct kernels, one generic form, own sizes.
    a, b = (
        kernel_sources(ireelab.compile(mlp(widths)).module_bytes)[0] for widths in ([6, 7], [9, 11])
    )
    assert a[0] != b[0]
    form_a, form_b = generic_form(*a), generic_form(*b)
    assert form_a is not None and form_b is not None
    assert form_a.source == form_b.source
    check_kernel_source(form_a.source)  # what the runtime writes is what the loader accepts
    assert 7 in form_a.lifted[0] and 11 in form_b.lifted[0]
    # loop starts and steps stay literals; the four bindings' offsets (0 here) are lifted
    assert 1 not in form_a.lifted[0] and form_a.lifted[0].count(0) == 4
    assert "k0" in form_a.source and "k0" not in a[0]


def test_every_layer_of_a_distinct_width_mlp_shares_one_generic_kernel() -> None:
    # Six layers, six distinct kernels. The first and last layers read or write their own
    # buffers at offset 0, the middle ones the two halves of one transient buffer in turn
    # (one writes at offset 0 and reads at 256, the next the other way round), and the
    # emitter wrote one unread constant per distinct offset: all six are one generic kernel,
    # so one numba compile serves the whole model.
    sources = kernel_sources(ireelab.compile(mlp([16, 17, 18, 19, 20, 21, 22])).module_bytes)
    assert len({source for source, _ in sources}) == 6
    forms = [generic_form(*kernel) for kernel in sources]
    assert all(form is not None for form in forms)
    assert len({form.source for form in forms}) == 1
    assert {form.lifted[0][11] for form in forms} == {0, 256}  # the output's offset


def test_subscript_indices_and_other_functions_keep_their_literals() -> None:
    source = textwrap.dedent(
        """
        import numba
        import numpy as np

        _JIT_OPTIONS = dict(nogil=True, cache=True)


        @numba.njit(**_JIT_OPTIONS)
        def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0):
            v7 = 32
            v8 = b0[0:64].view(np.float32)
            v8[3] = v8[0:16][5] + 16
            v9 = b0[0:64].view(np.uint64).reshape((2, 4)).transpose((1, 0))
            v9[0, 0] = v9[0, 0] & np.uint64(18446744073709551615)
        """
    )
    form = generic_form(source, [(0, 1, 0)])
    # one value per literal, the binding's offsets (0) among them; the unread `v7 = 32`
    # is dropped and the locals numbered afresh
    assert form is not None and form.lifted == ((0, 64, 16, 16, 0, 64, 2, 4),)
    assert "v0 = b0[k0:k1]" in form.source and "v2" not in form.source
    assert "v0[3] = v0[0:k2][5] + k3" in form.source  # a subscript index stays
    # the argument block's words after the grid (3) and the binding (2)
    assert "k0 = block[5]" in form.source and "k7 = block[12]" in form.source
    # a transpose's axes stay, and a literal past int64 (numba types it as uint64)
    assert "reshape((k6, k7)).transpose((1, 0))" in form.source
    assert "np.uint64(18446744073709551615)" in form.source


PROGRAMS = ("b_mlp_layer", "e_softmax", "f_conv_bias_relu", "g_reduce_sum", "j_attention")
"""Reference programs with matmuls, reductions, a convolution and softmax's four kernels."""


@pytest.mark.parametrize("name", PROGRAMS)
def test_generic_kernels_compute_what_the_specialised_ones_do(
    name: str, reference_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = json.loads((reference_dir / "iree-3.13.json").read_text())["programs"][name]
    module_bytes = ireelab.compile(
        (reference_dir / "programs" / f"{name}.mlir").read_text()
    ).module_bytes
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(s, dtype=np.float32) for s in info["input_shapes"]]
    results = {}
    for mode in ("0", "always"):
        monkeypatch.setenv("IREELAB_GENERIC_KERNELS", mode)
        monkeypatch.setattr(executable, "_CACHE", {})  # made again under this mode
        module = load_module(module_bytes)
        results[mode] = module.invoke(info["function"], *args, device="local-task")
        if mode == "always":
            made = list(executable._CACHE.values())
            assert any(e.lifted for e in made), "no executable ran a generic kernel"
    for specialised, generic in zip(results["0"], results["always"], strict=True):
        # the same arithmetic; fast-math reassociation may round a reduction apart
        np.testing.assert_allclose(generic, specialised, rtol=1e-5, atol=1e-6)


TIERS = FIRST_RESULT + textwrap.dedent(
    """
    import time
    from ireelab.runtime.hal import executable

    made = list(executable._CACHE.values())
    generic_first = sum(1 for e in made if e._upgrade is not None)
    deadline = time.monotonic() + 600
    while any(e._upgrade is not None for e in made) and time.monotonic() < deadline:
        time.sleep(0.2)
        module.mlp(*args)  # a call swaps in what has compiled meanwhile
    later = module.mlp(*args)
    print(json.dumps({"executables": len(made), "generic_first": generic_first,
                      "tiered": len(kernel_pool._TIERED),
                      "generic": len(set(kernel_pool._TIERED.values())),
                      "left": sum(1 for e in made if e._upgrade is not None),
                      "same": bool((later == result).all())}))
    """
)


def test_a_first_run_uses_generic_kernels_then_swaps_to_the_specialised(tmp_path: Path) -> None:
    # three layers, three distinct kernels, one generic kernel (each layer more is one more
    # specialised compile in the background, and shows nothing three do not)
    widths = [16, 17, 18, 19]
    tiers = {"IREELAB_GENERIC_KERNELS": "1", "IREELAB_PARALLEL_KERNELS": "1"}
    report = run_fresh(tmp_path, "mlp", widths, tmp_path, TIERS, **tiers)
    # The first result came from generic kernels shared by the layers (a specialised one
    # the background worker finished before the first call may run at once instead) ...
    assert report["executables"] == 3 and report["tiered"] == 3 and report["generic"] == 1
    assert report["generic_first"] >= 1
    # ... then every executable swapped to its specialised kernel, with the same result.
    assert report["left"] == 0 and report["same"]
    # A later process finds the specialised kernels compiled: no generic kernel runs.
    assert run_fresh(tmp_path, "mlp", widths, tmp_path, TIERS, **tiers)["generic_first"] == 0
