// iree_linalg_ext.arg_compare (ONNX ArgMax / ArgMin / Hardmax lower to it): the comparator
// (candidate, best) -> i1 picks the value and its index along `dimension`; ties keep the first.

// argmax over the middle dim of a 3-D tensor, with a tie (index 0 stays).
func.func @argmax_dim1_of_3d_with_ties() {
  %x = util.unfoldable_constant dense<[[[1.0, 9.0], [1.0, 2.0], [0.5, 9.0]],
                                       [[-3.0, 4.0], [-1.0, 8.0], [-2.0, 8.0]]]> : tensor<2x3x2xf32>
  %ev = tensor.empty() : tensor<2x2xf32>
  %ei = tensor.empty() : tensor<2x2xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x2xf32>) -> tensor<2x2xf32>
  %i = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x2xi64>) -> tensor<2x2xi64>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<2x3x2xf32>)
      outs(%v, %i : tensor<2x2xf32>, tensor<2x2xi64>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi64>
  check.expect_almost_eq_const(%r#0, dense<[[1.0, 9.0], [-1.0, 8.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_eq_const(%r#1, dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>) : tensor<2x2xi64>
  return
}

// argmin of integers over dim 0, with index_base added to the index.
func.func @argmin_i32_dim0_with_index_base() {
  %x = util.unfoldable_constant dense<[[4, -7, 2], [3, 5, 2], [-1, 6, 0]]> : tensor<3x3xi32>
  %ev = tensor.empty() : tensor<3xi32>
  %ei = tensor.empty() : tensor<3xi32>
  %max = arith.constant 2147483647 : i32
  %c0 = arith.constant 0 : i32
  %base = arith.constant 10 : index
  %v = linalg.fill ins(%max : i32) outs(%ev : tensor<3xi32>) -> tensor<3xi32>
  %i = linalg.fill ins(%c0 : i32) outs(%ei : tensor<3xi32>) -> tensor<3xi32>
  %r:2 = iree_linalg_ext.arg_compare dimension(0) ins(%x : tensor<3x3xi32>)
      outs(%v, %i : tensor<3xi32>, tensor<3xi32>) index_base(%base : index) {
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<3xi32>, tensor<3xi32>
  check.expect_eq_const(%r#0, dense<[-1, -7, 0]> : tensor<3xi32>) : tensor<3xi32>
  check.expect_eq_const(%r#1, dense<[12, 10, 12]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// explicit indices (the merge of partial results): the index comes from the second input.
func.func @arg_compare_explicit_indices() {
  %x = util.unfoldable_constant dense<[[0.5, 3.0, 2.0, 3.0]]> : tensor<1x4xf32>
  %idx = util.unfoldable_constant dense<[[40, 41, 42, 43]]> : tensor<1x4xi32>
  %ev = tensor.empty() : tensor<1xf32>
  %ei = tensor.empty() : tensor<1xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<1xf32>) -> tensor<1xf32>
  %i = linalg.fill ins(%c0 : i32) outs(%ei : tensor<1xi32>) -> tensor<1xi32>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x, %idx : tensor<1x4xf32>, tensor<1x4xi32>)
      outs(%v, %i : tensor<1xf32>, tensor<1xi32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<1xf32>, tensor<1xi32>
  check.expect_almost_eq_const(%r#0, dense<[3.0]> : tensor<1xf32>) : tensor<1xf32>
  check.expect_eq_const(%r#1, dense<[41]> : tensor<1xi32>) : tensor<1xi32>
  return
}
