// linalg.softmax (kept whole through Flow, decomposed by DecomposeSoftmaxPass in codegen),
// against values worked out by hand and against softmax written out as generics.

// A constant row normalises to 1/N; a row of two values to the logistic pair.
func.func @softmax_known_values() {
  %input = util.unfoldable_constant dense<[[3.0, 3.0, 3.0, 3.0], [0.0, 0.0, 1.0, 1.0]]> : tensor<2x4xf32>
  %empty = tensor.empty() : tensor<2x4xf32>
  %result = linalg.softmax dimension(1) ins(%input : tensor<2x4xf32>) outs(%empty : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%result, dense<[[0.25, 0.25, 0.25, 0.25], [0.1344707, 0.1344707, 0.3655293, 0.3655293]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

// Large inputs do not overflow: the row maximum is subtracted first.
func.func @softmax_large_logits() {
  %input = util.unfoldable_constant dense<[[1000.0, 1000.0], [-1000.0, -1001.0]]> : tensor<2x2xf32>
  %empty = tensor.empty() : tensor<2x2xf32>
  %result = linalg.softmax dimension(1) ins(%input : tensor<2x2xf32>) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%result, dense<[[0.5, 0.5], [0.7310586, 0.2689414]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// Softmax over the middle dim of a 3-D tensor equals exp(x - max) / sum written as generics.
func.func @softmax_middle_dim_matches_generics() {
  %input = util.unfoldable_constant dense<[[[0.5, -1.0, 2.0], [1.5, 0.0, -2.0], [3.0, 1.0, 0.25], [0.0, 0.0, 0.0]], [[-0.5, 4.0, 1.0], [2.5, -3.0, 0.5], [1.0, 1.0, 1.0], [0.75, 2.0, -1.5]]]> : tensor<2x4x3xf32>
  %empty = tensor.empty() : tensor<2x4x3xf32>
  %softmax = linalg.softmax dimension(1) ins(%input : tensor<2x4x3xf32>) outs(%empty : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %red_empty = tensor.empty() : tensor<2x3xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%red_empty : tensor<2x3xf32>) -> tensor<2x3xf32>
  %max = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
      iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%input : tensor<2x4x3xf32>) outs(%max_init : tensor<2x3xf32>) {
    ^bb0(%x : f32, %acc : f32):
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
  } -> tensor<2x3xf32>
  %exp_empty = tensor.empty() : tensor<2x4x3xf32>
  %exp = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%input, %max : tensor<2x4x3xf32>, tensor<2x3xf32>) outs(%exp_empty : tensor<2x4x3xf32>) {
    ^bb0(%x : f32, %m : f32, %o : f32):
      %d = arith.subf %x, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
  } -> tensor<2x4x3xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%red_empty : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
      iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%exp : tensor<2x4x3xf32>) outs(%sum_init : tensor<2x3xf32>) {
    ^bb0(%e : f32, %acc : f32):
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %div_empty = tensor.empty() : tensor<2x4x3xf32>
  %expected = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4x3xf32>, tensor<2x3xf32>) outs(%div_empty : tensor<2x4x3xf32>) {
    ^bb0(%e : f32, %s : f32, %o : f32):
      %q = arith.divf %e, %s : f32
      linalg.yield %q : f32
  } -> tensor<2x4x3xf32>
  check.expect_almost_eq(%softmax, %expected) : tensor<2x4x3xf32>
  return
}
