// CASE: iree_linalg_ext.attention with an f16 result (f16 accumulators), which numba-cpu does not lower (f16 inputs with f32 outs it does)
// EXPECT: 6:3: error: [codegen] 'iree_linalg_ext.attention' with f16 accumulators is not supported by numba-cpu (f32 outs only)
func.func @attention(%q: tensor<2x3x4xf16>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x2xf32>, %m: tensor<2x3x5xf32>) -> tensor<2x3x2xf16> {
  %scale = arith.constant 0.7 : f32
  %init = tensor.empty() : tensor<2x3x2xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}
      ins(%q, %k, %v, %scale, %m : tensor<2x3x4xf16>, tensor<2x5x4xf32>, tensor<2x5x2xf32>, f32, tensor<2x3x5xf32>)
      outs(%init : tensor<2x3x2xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x2xf16>
  return %o : tensor<2x3x2xf16>
}
