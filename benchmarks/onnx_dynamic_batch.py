"""ONNX's node tests with a dynamic batch: `onnx_node_tests.py --dynamic-batch`'s rewrite and tally.

Each single-node test of an op whose first dim is a batch (elementwise, reductions, matmuls,
convs, pools, softmax, normalizations, gathers, concat, slice, attention: `BATCH_OPS`) is
rewritten before import: the first dim of every data input, and of every output, whose size
is the first input's first dim (an elementwise op's: its result's, and only of operands of
the result's rank, so no operand broadcasts along `N`) becomes the `dim_param` `N` (one name, so the importer knows
the operands agree, as an exported model with a dynamic batch says). Operands that hold
axes, pads, starts, sizes or counts (`PARAMETERS_FROM`) keep their static shapes. The data
is ONNX's own, so the expected outputs still hold: only the types are relaxed. The rest of
the machinery (IREE's importer and input phase, the real IREE, ireelab, the comparison) is
`onnx_node_tests.py`'s.

ireelab's outcome on each is put in one of: `pass`; `refused` (a located `CompileError`,
bucketed by its message without the names and numbers in it); `unlocated` (a `CompileError`
without a location: a bug); `wrong` (compiled and ran, results differ from ONNX's); `crash`
(any other exception, or an internal error: a bug); `timeout`.
"""

from __future__ import annotations

import re
from collections import Counter

BATCH = "N"
"""The `dim_param` the first dims become."""

_ELEMENTWISE = (
    "Abs Acos Acosh Add And Asin Asinh Atan Atanh BitShift BitwiseAnd BitwiseNot BitwiseOr "
    "BitwiseXor Cast CastLike Ceil Celu Clip Cos Cosh Div Dropout Elu Equal Erf Exp Floor Gelu "
    "Greater GreaterOrEqual HardSigmoid HardSwish Identity IsInf IsNaN LeakyRelu Less "
    "LessOrEqual Log Max Mean Min Mish Mod Mul Neg Not Or PRelu Pow Reciprocal Relu Round "
    "Selu Shrink Sigmoid Sign Sin Sinh Softplus Softsign Sqrt Sub Sum Swish Tan Tanh "
    "ThresholdedRelu Where Xor QuantizeLinear DequantizeLinear"
)
_REDUCTIONS = (
    "ArgMax ArgMin ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean "
    "ReduceMin ReduceProd ReduceSum ReduceSumSquare CumSum CumProd"
)
_STRUCTURED = (
    "MatMul MatMulInteger Gemm Conv ConvInteger ConvTranspose AveragePool MaxPool LpPool "
    "GlobalAveragePool GlobalMaxPool Softmax LogSoftmax Hardmax BatchNormalization "
    "InstanceNormalization LayerNormalization GroupNormalization LpNormalization "
    "MeanVarianceNormalization RMSNormalization LRN Gather GatherElements GatherND Concat Slice "
    "Split Flatten Pad DepthToSpace SpaceToDepth Attention"
)
BATCH_OPS = frozenset(f"{_ELEMENTWISE} {_REDUCTIONS} {_STRUCTURED}".split())
"""Ops whose first dim can be a dynamic batch."""

PARAMETERS_FROM = {
    "Slice": 1,
    "Pad": 1,
    "Split": 1,
    "CumSum": 1,
    "CumProd": 1,
    **{op: 1 for op in _REDUCTIONS.split() if op.startswith("Reduce")},
}
"""For these ops, inputs from this position on are parameters (axes, pads, starts, sizes)."""

_FIRST_ONLY = (
    "Gemm Conv ConvInteger ConvTranspose AveragePool MaxPool LpPool GlobalAveragePool "
    "GlobalMaxPool BatchNormalization InstanceNormalization LayerNormalization "
    "GroupNormalization RMSNormalization LRN"
)
BATCH_INPUTS = {op: (0,) for op in _FIRST_ONLY.split()} | {"Attention": (0, 1, 2)}
"""Ops with a batch in some inputs only (a conv's weights lead with their output channels, a
Gemm's B with its K); the others' inputs all may carry it (a matmul's B when it has a batch
of its own: rank 3 and up)."""


def dynamic_batch(model):
    """`model` with its batch dims made `N`, or None when its op has no batch or no operand
    carries the batch (a multi-node model, an op outside `BATCH_OPS`, scalar inputs)."""
    import onnx

    graph = model.graph
    if len(graph.node) != 1 or graph.node[0].op_type not in BATCH_OPS:
        return None
    weights = {w.name for w in graph.initializer}
    inputs = [v for v in graph.input if v.name not in weights]
    op = graph.node[0].op_type
    data = inputs[: PARAMETERS_FROM.get(op, len(inputs))]
    if op in BATCH_INPUTS:
        data = [v for i, v in enumerate(data) if i in BATCH_INPUTS[op]]
    if op in ("MatMul", "MatMulInteger"):
        data = [v for i, v in enumerate(data) if i == 0 or len(_dims(v)) > 2]
    if op == "Gemm" and any(a.name == "transA" and a.i for a in graph.node[0].attribute):
        return None  # its A leads with K
    if op in _ELEMENTWISE.split():
        # the batch is the result's: an operand of its rank leading with 1 broadcasts along
        # it (the importer reads it at the result's size), one of lower rank does not reach it
        rank = len(_dims(graph.output[0]))
        data = [graph.output[0], *(v for v in data if len(_dims(v)) == rank)]
    first = _dims(data[0]) if data else []
    if not first or not first[0].HasField("dim_value"):
        return None
    batch = first[0].dim_value
    changed = onnx.ModelProto()
    changed.CopyFrom(model)
    values = {v.name: v for v in [*changed.graph.input, *changed.graph.output]}
    touched = 0
    for value in {v.name: v for v in [*data, *graph.output]}.values():
        dims = _dims(values[value.name])
        if dims and dims[0].HasField("dim_value") and dims[0].dim_value == batch:
            dims[0].dim_param = BATCH  # clears dim_value: the two are a oneof
            touched += 1
    return changed if touched else None


def _dims(value) -> list:
    kind = value.type.WhichOneof("value")
    if kind != "tensor_type" or not value.type.tensor_type.HasField("shape"):
        return []
    return list(value.type.tensor_type.shape.dim)


def classify(result: str) -> str:
    """The bucket of one `onnx_node_tests.attempt` result (see the module docstring)."""
    if result == "pass":
        return "pass"
    if result.startswith("timeout"):
        return "timeout"
    if result.startswith("CompileError: "):
        text = result.removeprefix("CompileError: ")
        if "internal error in" in text:
            return "crash"
        return "refused" if re.match(r"\S+:\d+:\d+: error:", text) else "unlocated"
    if re.match(r"\w+(Error|Exception|Interrupt|Exit)\b", result):
        return "crash"
    return "wrong"


def bucket(result: str) -> str:
    """A refusal's or a crash's message with its location, SSA and symbol names, types and
    numbers dropped (op names kept), so one cause is one bucket."""
    text = re.sub(r"^CompileError: (\S+:\d+:\d+: )?error: ", "", result)
    text = re.sub(r"%[\w#.$-]+|@[\w$.-]+", "_", text)
    text = re.sub(r"(tensor|vector|memref)<[^>]*>", "T", text)
    text = re.sub(r"\d+", "#", text)
    return text[:120]


def tally(outcomes) -> dict:
    """Counts over the rewritten tests both front ends took: ireelab's buckets, IREE's pass
    count within each, and the commonest refusal and crash messages."""
    tried = [o for o in outcomes if o.stage == "imported"]
    kinds = Counter(classify(o.ireelab) for o in tried)
    iree_pass = Counter(classify(o.ireelab) for o in tried if o.iree == "pass")
    causes = {
        kind: Counter(bucket(o.ireelab) for o in tried if classify(o.ireelab) == kind)
        for kind in ("refused", "crash", "unlocated", "wrong")
    }
    return {
        "tests": len(outcomes),
        "front_end_failed": len(outcomes) - len(tried),
        "tried": len(tried),
        "iree_pass": sum(o.iree == "pass" for o in tried),
        "ireelab": dict(kinds),
        "ireelab_where_iree_passes": dict(iree_pass),
        "causes": {k: c.most_common(12) for k, c in causes.items() if c},
    }


def markdown(outcomes, figures: dict, command: str) -> str:
    """The dynamic-batch table: ireelab's buckets against IREE, then the causes."""
    lines = [
        "# ONNX node tests with a dynamic batch: ireelab against the real IREE 3.13",
        "",
        f"Command: `{command}` (see benchmarks/onnx_dynamic_batch.py for the rewrite).",
        "",
        f"{figures['tests']} rewritten tests, {figures['front_end_failed']} stopped in IREE's "
        f"importer or input phase, {figures['tried']} tried; IREE passes {figures['iree_pass']}.",
        "",
        "| ireelab | tests | of which IREE passes |",
        "|---|---|---|",
    ]
    for kind in ("pass", "refused", "wrong", "crash", "unlocated", "timeout"):
        count = figures["ireelab"].get(kind, 0)
        lines.append(f"| {kind} | {count} | {figures['ireelab_where_iree_passes'].get(kind, 0)} |")
    tried = [o for o in outcomes if o.stage == "imported"]
    for kind, causes in figures["causes"].items():
        lines += ["", f"ireelab {kind}, by cause:", "", "| count | cause | IREE passes | tests |"]
        lines.append("|---|---|---|---|")
        for cause, count in causes:
            hits = [o for o in tried if classify(o.ireelab) == kind and bucket(o.ireelab) == cause]
            shown = ", ".join(o.name for o in hits[:3]) + (", ..." if len(hits) > 3 else "")
            passes = sum(o.iree == "pass" for o in hits)
            lines.append(f"| {count} | `{cause.replace('|', '/')}` | {passes} | {shown} |")
    return "\n".join(lines) + "\n"
