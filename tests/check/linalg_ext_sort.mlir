// iree_linalg_ext.sort: sorts its outs in place along `dimension`; the comparator reads a
// pair per operand (a0, b0, a1, b1, ...) and every operand is permuted as the keys are.

// descending f32 along dim 1 of a 2-D tensor.
func.func @sort_f32_descending_dim1() {
  %x = util.unfoldable_constant dense<[[0.5, -2.0, 7.0, 3.0, 3.0], [1.0, 0.0, -1.0, 9.0, 2.0]]> : tensor<2x5xf32>
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x5xf32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<2x5xf32>
  check.expect_almost_eq_const(%s, dense<[[7.0, 3.0, 3.0, 0.5, -2.0], [9.0, 2.0, 1.0, 0.0, -1.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  return
}

// keys and payload (an argsort): equal keys keep their order (the sort is stable).
func.func @sort_keys_with_payload_stable() {
  %keys = util.unfoldable_constant dense<[3, 1, 2, 1, 3, 0]> : tensor<6xi32>
  %pos = util.unfoldable_constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %pos : tensor<6xi32>, tensor<6xi64>) {
    ^bb0(%a: i32, %b: i32, %pa: i64, %pb: i64):
      %lt = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<6xi32>, tensor<6xi64>
  check.expect_eq_const(%s#0, dense<[0, 1, 1, 2, 3, 3]> : tensor<6xi32>) : tensor<6xi32>
  check.expect_eq_const(%s#1, dense<[5, 1, 3, 2, 0, 4]> : tensor<6xi64>) : tensor<6xi64>
  return
}

// along the outer dim of a 3-D tensor.
func.func @sort_dim0_of_3d() {
  %x = util.unfoldable_constant dense<[[[5, 1]], [[2, 8]], [[9, 0]]]> : tensor<3x1x2xi32>
  %s = iree_linalg_ext.sort dimension(0) outs(%x : tensor<3x1x2xi32>) {
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<3x1x2xi32>
  check.expect_eq_const(%s, dense<[[[2, 0]], [[5, 1]], [[9, 8]]]> : tensor<3x1x2xi32>) : tensor<3x1x2xi32>
  return
}
