"""IREE's GlobalOptimization passes that shape partitioning, one module per pass.

This module re-exports them under the name `compiler/pipeline.py` first used; each pass lives
in the file named after IREE's implementation file.
"""

from ireelab.compiler.flow.convert_batch_matmul_to_matmul import ConvertBatchMatmulToMatmulPass
from ireelab.compiler.flow.detach_elementwise_from_named_ops import (
    DetachElementwiseFromNamedOpsPass,
)
from ireelab.compiler.flow.generalize_linalg_named_ops import GeneralizeLinalgNamedOpsPass
from ireelab.compiler.flow.propagate_linalg_transpose import PropagateLinalgTransposePass

__all__ = [
    "ConvertBatchMatmulToMatmulPass",
    "DetachElementwiseFromNamedOpsPass",
    "GeneralizeLinalgNamedOpsPass",
    "PropagateLinalgTransposePass",
]
