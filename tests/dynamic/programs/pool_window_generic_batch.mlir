// A 3-D 2x2x2 max pool over a `?` batch written as a windowed linalg.generic (the window
// loops summed into the image's indices), the way IREE's ONNX importer writes a 3-D MaxPool.
func.func @pool(%x: tensor<?x3x5x5x5xf32>) -> tensor<?x3x4x4x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x5x5x5xf32>
  %low = arith.constant 0xFF800000 : f32
  %e = tensor.empty(%n) : tensor<?x3x4x4x4xf32>
  %o = linalg.fill ins(%low : f32) outs(%e : tensor<?x3x4x4x4xf32>) -> tensor<?x3x4x4x4xf32>
  %win = tensor.empty() : tensor<2x2x2xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 + d5, d3 + d6, d4 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %win : tensor<?x3x5x5x5xf32>, tensor<2x2x2xf32>) outs(%o : tensor<?x3x4x4x4xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<?x3x4x4x4xf32>
  return %0 : tensor<?x3x4x4x4xf32>
}
