// Slices whose offsets and sizes are arith.constant operands: the canonicalizer writes them
// into the ops (MLIR's OpWithOffsetSizesAndStridesConstantArgumentFolder), the extract's
// result gets its static type, and both are static slices from then on.
func.func @f(%a: tensor<8xf32>, %b: tensor<3xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = tensor.extract_slice %a[%c2] [%c4] [1] : tensor<8xf32> to tensor<?xf32>
  %s = tensor.cast %0 : tensor<?xf32> to tensor<4xf32>
  %x = math.exp %s : tensor<4xf32>
  %e = math.exp %b : tensor<3xf32>
  %1 = tensor.insert_slice %e into %a[%c4] [3] [1] : tensor<3xf32> into tensor<8xf32>
  return %x, %1 : tensor<4xf32>, tensor<8xf32>
}
