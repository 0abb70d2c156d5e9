// A pad by amounts read from an input, to a `?`-sized result (ONNX's CenterCropPad, as
// IREE's importer writes it): the host computes the padded sizes (source size + low + high),
// splats the padding value at that size, and a copy dispatch (slow_memcpy) writes the
// source into it at the low padding.
func.func @pad(%x: tensor<3x5xf32>, %pads: tensor<4xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = arith.constant -2.5 : f32
  %lo0_64 = tensor.extract %pads[%c0] : tensor<4xi64>
  %lo1_64 = tensor.extract %pads[%c1] : tensor<4xi64>
  %hi0_64 = tensor.extract %pads[%c2] : tensor<4xi64>
  %hi1_64 = tensor.extract %pads[%c3] : tensor<4xi64>
  %lo0 = arith.index_cast %lo0_64 : i64 to index
  %lo1 = arith.index_cast %lo1_64 : i64 to index
  %hi0 = arith.index_cast %hi0_64 : i64 to index
  %hi1 = arith.index_cast %hi1_64 : i64 to index
  %p = tensor.pad %x low[%lo0, %lo1] high[%hi0, %hi1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x5xf32> to tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
