"""numpy eager (the reference semantics) against numpy written by hand and the real IREE.

Tolerances: rtol 1e-5 / atol 1e-4 for f32 programs whose reductions run in different orders.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from ireelab.eager import evaluate

RTOL, ATOL = 1e-5, 1e-4


def program(reference_dir, name: str) -> str:
    return (reference_dir / "programs" / f"{name}.mlir").read_text()


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)


def test_mlp_layer(reference_dir):
    x, w, b = rand(256, 512), rand(512, 512, seed=1), rand(512, seed=2)
    (out,) = evaluate(program(reference_dir, "b_mlp_layer"), "mlp_layer", x, w, b)
    np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=RTOL, atol=ATOL)


def test_softmax(reference_dir):
    x = rand(512, 1024)
    (out,) = evaluate(program(reference_dir, "e_softmax"), "softmax", x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=RTOL, atol=1e-6)


def test_conv_bias_relu_against_loops(reference_dir):
    x, w, b = rand(1, 56, 56, 64), rand(3, 3, 64, 64, seed=1), rand(64, seed=2)
    (out,) = evaluate(program(reference_dir, "f_conv_bias_relu"), "conv", x, w, b)
    expected = np.zeros((1, 54, 54, 64), np.float32)
    for kh in range(3):
        for kw in range(3):
            expected += np.einsum("nhwc,cf->nhwf", x[:, kh : kh + 54, kw : kw + 54, :], w[kh, kw])
    np.testing.assert_allclose(out, np.maximum(expected + b, 0), rtol=RTOL, atol=1e-3)


def test_reduce_transpose_chain(reference_dir):
    a, b = rand(1024, 1024), rand(1024, 1024, seed=1)
    (s,) = evaluate(program(reference_dir, "g_reduce_sum"), "reduce_sum", rand(2048, 2048))
    np.testing.assert_allclose(s, rand(2048, 2048).sum(axis=1), rtol=RTOL, atol=1e-3)
    (t,) = evaluate(program(reference_dir, "h_transpose_add"), "transpose_add", a, b)
    np.testing.assert_array_equal(t, a.T + b)
    (c,) = evaluate(program(reference_dir, "i_elementwise_chain"), "ew_chain", a, b)
    np.testing.assert_allclose(c, np.tanh((a + b) * a - b), rtol=RTOL, atol=1e-6)


def test_batch_matmul(reference_dir):
    a, b = rand(8, 256, 128), rand(8, 128, 256, seed=1)
    text = program(reference_dir, "k_batch_matmul")
    shapes = json.loads((reference_dir / "iree-3.13.json").read_text())["programs"][
        "k_batch_matmul"
    ]["input_shapes"]
    a, b = rand(*shapes[0]), rand(*shapes[1], seed=1)
    (out,) = evaluate(text, "batch_matmul", a, b)
    np.testing.assert_allclose(out, a @ b, rtol=RTOL, atol=ATOL)


GENERAL = """
func.func @f(%x: tensor<6x5xf32>, %i: tensor<6xi32>) -> (tensor<6xf32>, tensor<5x6xf32>, tensor<6xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  // a reduction whose body is not out = combine(out, x): sum of squares kept as out*0.5 + x^2
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x5xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %h = arith.constant 0.5 : f32
    %s = arith.mulf %acc, %h : f32
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %s, %q : f32
    linalg.yield %t : f32
  } -> tensor<6xf32>
  // linalg.index and a transposed output
  %e2 = tensor.empty() : tensor<5x6xf32>
  %ix = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x5xf32>) outs(%e2 : tensor<5x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %m = arith.addf %a, %jf : f32
    linalg.yield %m : f32
  } -> tensor<5x6xf32>
  %two = arith.constant dense<2> : tensor<6xi32>
  %d = arith.divsi %i, %two : tensor<6xi32>
  return %r, %ix, %d : tensor<6xf32>, tensor<5x6xf32>, tensor<6xi32>
}
"""


def test_general_bodies():
    x = rand(6, 5)
    i = np.array([-5, -4, -1, 0, 3, 7], np.int32)
    r, ix, d = evaluate(GENERAL, "f", x, i)
    acc = np.zeros(6, np.float32)
    for k in range(5):
        acc = acc * 0.5 + x[:, k] ** 2
    np.testing.assert_allclose(r, acc, rtol=1e-6)
    np.testing.assert_array_equal(ix, (x + np.arange(5, dtype=np.float32)).T)
    np.testing.assert_array_equal(d, np.array([-2, -2, 0, 0, 1, 3], np.int32))


@pytest.mark.iree
def test_all_reference_programs_match_iree(reference_dir):
    compiler = pytest.importorskip("iree.compiler")
    runtime = pytest.importorskip("iree.runtime")
    info = json.loads((reference_dir / "iree-3.13.json").read_text())["programs"]
    for name, entry in info.items():
        text = program(reference_dir, name)
        args = [rand(*s, seed=i) for i, s in enumerate(entry["input_shapes"])]
        ours = evaluate(text, entry["function"], *args)
        vmfb = compiler.compile_str(text, target_backends=["llvm-cpu"])
        config = runtime.Config("local-sync")
        ctx = runtime.SystemContext(config=config)
        ctx.add_vm_module(runtime.VmModule.copy_buffer(ctx.instance, vmfb))
        theirs = getattr(ctx.modules.module, entry["function"])(*args)
        theirs = theirs if isinstance(theirs, tuple | list) else (theirs,)
        for o, t in zip(ours, theirs, strict=True):
            t = np.asarray(t)
            # f32 sums in different orders: error grows with the result's magnitude.
            scale = max(1.0, float(np.abs(t).max()))
            np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-5 * scale, err_msg=name)


def test_linalg_map_in_both_forms():
    # linalg.map (MLIR's current form and the short form) is evaluated like its generic.
    from pathlib import Path

    programs = Path(__file__).parent / "e2e" / "readme_programs"
    a, b = rand(4, 8), rand(4, 8, seed=1)
    (long_form,) = evaluate((programs / "map.mlir").read_text(), "map", a, b)
    np.testing.assert_allclose(long_form, np.exp(a * b), rtol=1e-6)
    (short_form,) = evaluate((programs / "map_short_form.mlir").read_text(), "map", a, b)
    np.testing.assert_array_equal(short_form, a - b)
