// CASE: bf16 has no numpy/numba type
// EXPECT: 3:1: error: [input] element type bf16 is not supported by the numba-cpu backend
func.func @f(%a: tensor<4xbf16>) -> tensor<4xbf16> {
  %e = tensor.empty() : tensor<4xbf16>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xbf16>) outs(%e : tensor<4xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %r = arith.addf %x, %x : bf16
    linalg.yield %r : bf16
  } -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
