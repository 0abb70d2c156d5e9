// iree_linalg_ext.scan: prefix combination along `dimension`; the accumulator holds the
// initial value (exclusive scans) and receives the last value written.

// exclusive running product along dim 1, accumulator starting at 1.
func.func @scan_exclusive_product_dim1() {
  %x = util.unfoldable_constant dense<[[2, 3, 4], [1, -1, 5]]> : tensor<2x3xi32>
  %e = tensor.empty() : tensor<2x3xi32>
  %a = util.unfoldable_constant dense<1> : tensor<2xi32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(false) ins(%x : tensor<2x3xi32>)
      outs(%e, %a : tensor<2x3xi32>, tensor<2xi32>) {
    ^bb0(%p: i32, %q: i32):
      %m = arith.muli %p, %q : i32
      iree_linalg_ext.yield %m : i32
  } -> tensor<2x3xi32>, tensor<2xi32>
  check.expect_eq_const(%r#0, dense<[[1, 2, 6], [1, 1, -1]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  check.expect_eq_const(%r#1, dense<[6, -1]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// inclusive running max along dim 0 of f32.
func.func @scan_inclusive_max_dim0() {
  %x = util.unfoldable_constant dense<[[1.0, 5.0], [3.0, 2.0], [0.0, 7.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %a = util.unfoldable_constant dense<0.0> : tensor<2xf32>
  %r:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<3x2xf32>)
      outs(%e, %a : tensor<3x2xf32>, tensor<2xf32>) {
    ^bb0(%p: f32, %q: f32):
      %m = arith.maximumf %p, %q : f32
      iree_linalg_ext.yield %m : f32
  } -> tensor<3x2xf32>, tensor<2xf32>
  check.expect_almost_eq_const(%r#0, dense<[[1.0, 5.0], [3.0, 5.0], [3.0, 7.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  check.expect_almost_eq_const(%r#1, dense<[3.0, 7.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
