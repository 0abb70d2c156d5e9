// iree_linalg_ext.topk: the first K along `dimension` in the comparator's order, with their
// indices (given, or the positions); an equal value keeps the earlier index.

// top-2 along dim 0 of a 2-D tensor, positions as indices, with a tie.
func.func @top2_dim0_with_tie() {
  %x = util.unfoldable_constant dense<[[1.0, 6.0], [4.0, 2.0], [4.0, 7.0], [0.0, 6.0]]> : tensor<4x2xf32>
  %ev = tensor.empty() : tensor<2x2xf32>
  %ei = tensor.empty() : tensor<2x2xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x2xf32>) -> tensor<2x2xf32>
  %i = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x2xi32>) -> tensor<2x2xi32>
  %r:2 = iree_linalg_ext.topk dimension(0) ins(%x : tensor<4x2xf32>)
      outs(%v, %i : tensor<2x2xf32>, tensor<2x2xi32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  check.expect_almost_eq_const(%r#0, dense<[[4.0, 7.0], [4.0, 6.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_eq_const(%r#1, dense<[[1, 2], [2, 0]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// bottom-1 of integers with given indices.
func.func @min1_with_given_indices() {
  %x = util.unfoldable_constant dense<[5, -3, 8, -3]> : tensor<4xi32>
  %idx = util.unfoldable_constant dense<[100, 101, 102, 103]> : tensor<4xi32>
  %ev = tensor.empty() : tensor<1xi32>
  %ei = tensor.empty() : tensor<1xi32>
  %max = arith.constant 2147483647 : i32
  %c0 = arith.constant 0 : i32
  %v = linalg.fill ins(%max : i32) outs(%ev : tensor<1xi32>) -> tensor<1xi32>
  %i = linalg.fill ins(%c0 : i32) outs(%ei : tensor<1xi32>) -> tensor<1xi32>
  %r:2 = iree_linalg_ext.topk dimension(0) ins(%x, %idx : tensor<4xi32>, tensor<4xi32>)
      outs(%v, %i : tensor<1xi32>, tensor<1xi32>) {
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<1xi32>, tensor<1xi32>
  check.expect_eq_const(%r#0, dense<[-3]> : tensor<1xi32>) : tensor<1xi32>
  check.expect_eq_const(%r#1, dense<[101]> : tensor<1xi32>) : tensor<1xi32>
  return
}

// topk_v2 (ordering comparator, sorted result) with i64 output indices.
func.func @topk_v2_top3_i64_indices() {
  %x = util.unfoldable_constant dense<[2.0, 9.0, -1.0, 5.0, 9.5, 0.0]> : tensor<6xf32>
  %ev = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<3xf32>) -> tensor<3xf32>
  %i = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %r:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%x : tensor<6xf32>)
      outs(%v, %i : tensor<3xf32>, tensor<3xi64>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<3xf32>, tensor<3xi64>
  check.expect_almost_eq_const(%r#0, dense<[9.5, 9.0, 5.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%r#1, dense<[4, 1, 3]> : tensor<3xi64>) : tensor<3xi64>
  return
}
