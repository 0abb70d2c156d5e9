// Each check op, with values computed at run time (behind optimization barriers), as IREE's
// e2e tests use them. Run by tests/check/conftest.py: one pytest item per function.

func.func @expect_true_on_scalars() {
  %three = util.unfoldable_constant 3 : i32
  %six = arith.constant 6 : i32
  %sum = arith.addi %three, %three : i32
  %equal = arith.cmpi eq, %sum, %six : i32
  check.expect_true(%equal) : i1
  check.expect_true(%three) : i32
  return
}

func.func @expect_false_on_scalars() {
  %zero = util.unfoldable_constant 0 : i32
  %one = arith.constant 1 : i32
  %less = arith.cmpi sgt, %zero, %one : i32
  check.expect_false(%less) : i1
  check.expect_false(%zero) : i32
  return
}

func.func @expect_all_true_on_a_tensor() {
  %a = util.unfoldable_constant dense<[1, -2, 3, 7]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[1, 1, 1, 1]> : tensor<4xi32>
  %sum = arith.addi %a, %b : tensor<4xi32>
  check.expect_all_true(%sum) : tensor<4xi32>
  return
}

func.func @expect_eq_of_two_computed_tensors() {
  %a = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %doubled = arith.addi %a, %a : tensor<2x3xi32>
  %two = arith.constant dense<2> : tensor<2x3xi32>
  %times_two = arith.muli %a, %two : tensor<2x3xi32>
  check.expect_eq(%doubled, %times_two) : tensor<2x3xi32>
  return
}

func.func @expect_eq_const_of_a_sum() {
  %a = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %sum = arith.addi %a, %b : tensor<4xi32>
  check.expect_eq_const(%sum, dense<[11, 22, 33, 44]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @expect_eq_const_of_floats_is_exact() {
  %a = util.unfoldable_constant dense<[0.5, 0.25]> : tensor<2xf32>
  %sum = arith.addf %a, %a : tensor<2xf32>
  check.expect_eq_const(%sum, dense<[1.0, 0.5]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @expect_almost_eq_with_default_tolerance() {
  %a = util.unfoldable_constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[0.2, 0.3, 0.4]> : tensor<3xf32>
  %sum = arith.addf %a, %b : tensor<3xf32>
  // 0.3, 0.5 and 0.7 are not exact in f32; the default atol (1e-4) covers the rounding.
  %expected = arith.constant dense<[0.30001, 0.49995, 0.7]> : tensor<3xf32>
  check.expect_almost_eq(%sum, %expected) : tensor<3xf32>
  return
}

func.func @expect_almost_eq_const_with_atol_and_rtol() {
  %a = util.unfoldable_constant dense<[1000.0, 2.0]> : tensor<2xf32>
  %sum = arith.addf %a, %a : tensor<2xf32>
  // 2000 against 2001: |diff| = 1 <= 0.01 + 1e-3 * 2001.
  check.expect_almost_eq_const(%sum, dense<[2001.0, 4.0]> : tensor<2xf32>, atol 1.0e-2, rtol 1.0e-3) : tensor<2xf32>
  return
}

func.func @expect_almost_eq_nan_equals_nan() {
  // 0/0 is NaN, computed on both sides (xDSL reads a hex float literal as an integer value).
  %a = util.unfoldable_constant dense<[0.0, 1.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<[0.0, 2.0]> : tensor<2xf32>
  %a_over_a = arith.divf %a, %a : tensor<2xf32>
  %b_over_b = arith.divf %b, %b : tensor<2xf32>
  check.expect_almost_eq(%a_over_a, %b_over_b) : tensor<2xf32>
  return
}

func.func @several_checks_in_one_function() {
  %a = util.unfoldable_constant dense<[3.0, 4.0]> : tensor<2xf32>
  %square = arith.mulf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%square, dense<[9.0, 16.0]> : tensor<2xf32>) : tensor<2xf32>
  %neg = arith.negf %a : tensor<2xf32>
  check.expect_eq_const(%neg, dense<[-3.0, -4.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
