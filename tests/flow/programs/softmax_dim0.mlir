// Softmax over dim 0 of an 8x16 matrix written as generics: the two column reductions (max,
// sum of exp) get their reduction loop innermost; the normalising elementwise op reads the
// column results through (d0, d1) -> (d1).
func.func @softmax_dim0(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%fm : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.maximumf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %fs = linalg.fill ins(%c0 : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x, %mx : tensor<8x16xf32>, tensor<16xf32>) outs(%fs : tensor<16xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %ex = math.exp %d : f32
    %a = arith.addf %ex, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mx, %sm : tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %ex = math.exp %d : f32
    %q = arith.divf %ex, %s : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
