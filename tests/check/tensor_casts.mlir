// tensor.cast that MLIR's canonicalizer folds: to the type a value already has, and through a
// less static type and back; the computation around them still runs in dispatches.

func.func @cast_to_the_same_type_then_compute() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %same = tensor.cast %a : tensor<2x2xi32> to tensor<2x2xi32>
  %sum = arith.addi %same, %a : tensor<2x2xi32>
  check.expect_eq_const(%sum, dense<[[2, 4], [6, 8]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

func.func @cast_through_a_dynamic_shape_and_back() {
  %a = util.unfoldable_constant dense<[0.5, 1.5, 2.5]> : tensor<3xf32>
  %loose = tensor.cast %a : tensor<3xf32> to tensor<?xf32>
  %kept = util.optimization_barrier %loose : tensor<?xf32>
  %back = tensor.cast %loose : tensor<?xf32> to tensor<3xf32>
  %twice = arith.addf %back, %back : tensor<3xf32>
  check.expect_almost_eq_const(%twice, dense<[1.0, 3.0, 5.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
