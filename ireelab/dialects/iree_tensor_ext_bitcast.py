"""`iree_tensor_ext.bitcast`: the same bytes as another element type and shape, as importers
write it.

    %f = iree_tensor_ext.bitcast %c : tensor<15x9xcomplex<f32>> -> tensor<15x9x2xf32>

IREE's op (TensorExtOps.td `IREETensorExt_BitCastOp`): ONNX's STFT result is its
`complex<f32>` tensor read as pairs of f32. Outside dispatches ConvertTensorToFlowPass makes
it `flow.tensor.bitcast` (IREE's `ConvertTensorBitcastPattern`); operands, text and checks are
that op's (`flow_bitcast.BitCastBase`).
"""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition

from ireelab.dialects.flow_bitcast import BitCastBase


@irdl_op_definition
class BitCastOp(BitCastBase):
    name = "iree_tensor_ext.bitcast"
