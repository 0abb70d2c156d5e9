// A `?` operand broadcast into a static result (ONNX NonZero's shape): three rows of a `?`
// vector, at an offset and count read from a tensor, each row times a weight row. The `?`
// loop is the static result's: the canonicalizer makes the slice static (MLIR's
// InferStaticShapeOfOperands and TensorCastExtractSlice), as iree-compile does.
func.func @f(%x: tensor<?xf32>, %pos: tensor<2xi64>, %w: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o64 = tensor.extract %pos[%c0] : tensor<2xi64>
  %n64 = tensor.extract %pos[%c1] : tensor<2xi64>
  %o = arith.index_cast %o64 : i64 to index
  %n = arith.index_cast %n64 : i64 to index
  %s = tensor.extract_slice %x[%o] [%n] [1] : tensor<?xf32> to tensor<?xf32>
  %e = tensor.expand_shape %s [[0, 1]] output_shape [%n, 1] : tensor<?xf32> into tensor<?x1xf32>
  %init = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %w : tensor<?x1xf32>, tensor<1x4xf32>) outs(%init : tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
