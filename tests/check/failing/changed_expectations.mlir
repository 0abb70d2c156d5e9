// Copies of tests/check/check_ops.mlir functions with one expected value changed: every
// function here must fail, with the message tests/check/test_failing_checks.py expects.

func.func @expect_true_of_zero() {
  %zero = util.unfoldable_constant 0 : i32
  check.expect_true(%zero) : i32
  return
}

func.func @expect_false_of_three() {
  %three = util.unfoldable_constant 3 : i32
  check.expect_false(%three) : i32
  return
}

func.func @expect_all_true_with_a_zero() {
  %a = util.unfoldable_constant dense<[1, -1, 3, 7]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[1, 1, 1, 1]> : tensor<4xi32>
  %sum = arith.addi %a, %b : tensor<4xi32>
  check.expect_all_true(%sum) : tensor<4xi32>
  return
}

func.func @expect_eq_const_one_value_changed() {
  %a = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %sum = arith.addi %a, %b : tensor<4xi32>
  check.expect_eq_const(%sum, dense<[11, 22, 34, 44]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @expect_eq_different_shapes() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %a2 = arith.addi %a, %a : tensor<2x2xi32>
  %b2 = arith.addi %b, %b : tensor<4xi32>
  %a_view = hal.tensor.export %a2 : tensor<2x2xi32> -> !hal.buffer_view
  %b_view = hal.tensor.export %b2 : tensor<4xi32> -> !hal.buffer_view
  check.expect_eq(%a_view, %b_view) : !hal.buffer_view
  return
}

func.func @expect_almost_eq_outside_default_atol() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %sum = arith.addf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%sum, dense<[2.0, 4.001]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @expect_almost_eq_rtol_too_small() {
  %a = util.unfoldable_constant dense<[1000.0, 2.0]> : tensor<2xf32>
  %sum = arith.addf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%sum, dense<[2001.0, 4.0]> : tensor<2xf32>, atol 1.0e-2, rtol 1.0e-4) : tensor<2xf32>
  return
}

func.func @a_failed_check_does_not_stop_the_function() {
  %a = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %sum = arith.addi %a, %a : tensor<2xi32>
  check.expect_eq_const(%sum, dense<[2, 5]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%sum, dense<[9, 4]> : tensor<2xi32>) : tensor<2xi32>
  return
}

func.func @rank_0_result_printed_without_dims() {
  %a = util.unfoldable_constant dense<2.5> : tensor<f32>
  %sum = arith.addf %a, %a : tensor<f32>
  check.expect_almost_eq_const(%sum, dense<5.5> : tensor<f32>) : tensor<f32>
  return
}

func.func @dynamic_constant_sum_changed() {
  %c = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?xi32>
  %init = tensor.empty(%n) : tensor<?xi32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<?xi32>) outs(%init : tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %a : i32
    linalg.yield %s : i32
  } -> tensor<?xi32>
  %static = tensor.cast %twice : tensor<?xi32> to tensor<3xi32>
  check.expect_eq_const(%static, dense<[2, 4, 7]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @dynamic_expect_eq_one_value_changed() {
  %x = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %y = flow.tensor.dynamic_constant dense<[2, 4, 7]> : tensor<3xi32> -> tensor<?xi32>
  %twice = arith.addi %x, %x : tensor<?xi32>
  check.expect_eq(%twice, %y) : tensor<?xi32>
  return
}

func.func @dynamic_expect_eq_run_time_shapes_differ() {
  %x = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %y = flow.tensor.dynamic_constant dense<[2, 4]> : tensor<2xi32> -> tensor<?xi32>
  %twice = arith.addi %x, %x : tensor<?xi32>
  check.expect_eq(%twice, %y) : tensor<?xi32>
  return
}
