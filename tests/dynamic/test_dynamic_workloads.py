"""The workload of each `?` dispatch in IREE's order (ConvertDispatchRegionsToWorkgroupsPass).

IREE passes a dispatch's `?` sizes as operands in the order the body last reads them through:
captures first, then each captured tensor's dims, then the results' dims, a size mentioned
twice sitting at its last mention (unless IREE had two values for it, merged later, keeping
the first). So a row reduction's workload is `[%cols, %rows]`: the rows also size its result.
A size the body reads through a `tensor.dim` of a captured tensor (a collapsed loop's extent,
a collapsed slice's `affine.linearize_index` basis) folds to that tensor's size, in its place
among the captured tensors' dims; the tensor itself goes when nothing else reads it.
Compared here with `iree-compile --compile-to=flow` on the programs, each size named by
where it comes from (`%arg0[1]`: dim 1 of argument 0, `%arg0[0]*4`: that dim times 4).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)

MATCHING = [
    "accumulate_into_argument",
    "add_dx4",
    "attention_seq",
    "batch_matmul_batch",
    "batch_matmul_shared_weight",
    "broadcast_slice_rows",
    "col_index_dxd",
    "collapse_dx4",
    "colsum_dxd",
    "concat_chain_rows",
    "concat_cols_4xd",
    "concat_rows_dx4",
    "crop_cast_insert",
    "dense_relu_batch",
    "expand_rows",
    "fill_dx4",
    "gather_rows",
    "host_loop_rows",
    "insert_at_read_offset",
    "layernorm_dxd",
    "matmul_dxd",
    "mixed_static_dynamic",
    "mlp_batch",
    "one_hot_depth",
    "pack_padded_dxd",
    "pad_and_crop_dxd",
    "pad_by_amounts",
    "pad_rows_dx4",
    "pad_to_read_sizes",
    "passthrough_dx4",
    "reduction_chain_dxd",
    "row_index_4xd",
    "row_index_dx4",
    "rows_at_value_offset",
    "rows_from_value",
    "rows_from_wide_value",
    "rowstats_side_by_side",
    "rowsum_dxd",
    "rowsum_into_argument",
    "scan_columns_exclusive_dxd",
    "scan_rows_dxd",
    "slice_at_other_shape",
    "slice_constant_operand",
    "slice_rows_exp",
    "slices_at_read_offsets_dx4",
    "slices_of_dx4",
    "softmax_dxdxd",
    "softmax_rows",
    "sort_dx",
    "sort_pairs_dx",
    "sort_rows_dxd",
    "split_by_counts",
    "topk_v2_rows",
    "topk_v2_ties_dxd",
    "transpose_dx4",
    "two_results_dx4",
    "unpack_dxd",
    "unpack_ssa_tiles",
]


def _origins(ir: str) -> dict[str, str]:
    """Host index values -> where they come from: `%arg0[1]`, `%arg0[0]*4`, a constant."""
    names: dict[str, str] = {}
    for line in ir.splitlines():
        if m := re.match(r"\s*(%\w+) = hal\.buffer_view\.dim<(%\w+) : [^>]*>\[(\d+)\]", line):
            names[m.group(1)] = f"{m.group(2)}[{m.group(3)}]"
        elif m := re.match(r"\s*(%\w+) = arith\.constant (\d+) : index", line):
            names[m.group(1)] = m.group(2)
        elif m := re.match(r"\s*(%\w+) = arith\.muli (%\w+), (%\w+)", line):
            parts = sorted(names.get(m.group(i), "?") for i in (2, 3))
            names[m.group(1)] = "*".join(parts)
        elif m := re.match(r"\s*(%\w+) = affine\.apply [^(]*\(s0 \* (\d+)\)>\(\)\[(%\w+)\]", line):
            names[m.group(1)] = "*".join(sorted([names.get(m.group(3), "?"), m.group(2)]))
    return names


def _sites(ir: str) -> list[tuple[str, list[str], list[str]]]:
    """Every `flow.dispatch`: export, workload and operands (`T` for a tensor), by origin."""
    names = _origins(ir)
    sites = []
    for m in re.finditer(r"flow\.dispatch @\w+::@(\w+)(?:\[([^\]]*)\])?\(([^)]*)\)", ir):
        workload = [names.get(v, "?") for v in re.findall(r"%\w+", m.group(2) or "")]
        operands = [names.get(v, "T") for v in re.findall(r"%\w+", m.group(3))]
        sites.append((m.group(1), workload, operands))
    return sites


def _ours(name: str) -> list:
    return _sites(ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="flow").ir())


def test_a_row_reduction_reads_the_columns_first():
    # rowsum of a ?x?: the rows size the result too, so they come last
    ((export, workload, operands),) = _ours("rowsum_dxd")
    assert export == "rowsum_dispatch_0_reduction_DxD_f32"
    assert workload == ["%arg0[1]", "%arg0[0]"]
    assert operands == ["T", "%arg0[1]", "%arg0[0]"]


def test_a_collapsed_elementwise_keeps_its_first_mention():
    # IREE's CollapseDimensionsPass computes the flattened sizes anew: the size of the
    # result, captured first (by the tensor.empty), stays first
    ((_, workload, operands),) = _ours("add_dx4")
    assert workload == ["%arg0[0]*4", "%arg1[0]*4"]
    assert operands == ["%arg0[0]*4", "T", "T", "%arg1[0]*4"]


def test_a_size_read_through_a_dim_of_the_uncollapsed_input_follows_the_tensor():
    # col_index_dxd's `index % cols`: cols is a tensor.dim of the ?x? input in the body,
    # the input goes (the body reads its collapsed view) and cols stays, after the tensor
    ((_, workload, operands),) = _ours("col_index_dxd")
    assert workload == ["%arg0[0]*%arg0[1]", "%arg0[1]"]
    assert operands == ["%arg0[0]*%arg0[1]", "T", "%arg0[1]"]


def test_a_collapsed_slice_offset_is_linearized_in_the_dispatch():
    # the rows after the first of a ?x4: `[1, 0] by (%rows, 4)` stays in the body, so the
    # rows are an operand too; an offset read from a tensor is passed as it is, not times 4
    ((_, workload, operands),) = _ours("slice_rows_exp")
    assert workload == ["4*?", "%arg0[0]", "%arg0[0]*4"]
    assert operands == ["T", "4*?", "%arg0[0]", "%arg0[0]*4"]
    ir = ireelab.compile(str(PROGRAMS / "slice_rows_exp.mlir"), compile_to="flow").ir()
    assert re.search(r"affine\.linearize_index disjoint \[%\w+, %\w+\] by \(%\w+, 4\)", ir)


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", MATCHING)
def test_workloads_and_operands_match_iree(name):
    assert _ours(name) == _sites(iree_flow(name))


def iree_flow(name: str) -> str:
    """`iree-compile --compile-to=flow` of a program here."""
    out = subprocess.run(
        ["iree-compile", str(PROGRAMS / f"{name}.mlir"), "--iree-hal-target-backends=llvm-cpu"]
        + ["--compile-to=flow"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout
