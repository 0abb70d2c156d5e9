// A pad of a pad with the same padding value: TensorPadToTensorInsertSlice makes two
// fill + insert_slice pairs, FusionPreprocessing folds them into one insert at the summed
// offsets, so the source is copied once into the outer fill.
func.func @pad_twice(%x: tensor<3x4xf32>) -> tensor<7x9xf32> {
  %c0 = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 2] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0 : f32
  } : tensor<3x4xf32> to tensor<4x7xf32>
  %q = tensor.pad %p low[2, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0 : f32
  } : tensor<4x7xf32> to tensor<7x9xf32>
  return %q : tensor<7x9xf32>
}
