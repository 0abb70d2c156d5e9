// tensor.cast that MLIR's canonicalizer folds: to the type a value already has; the computation
// around it still runs in dispatches. (Casts between static and `?` sizes are in
// dynamic_constants.mlir.)

func.func @cast_to_the_same_type_then_compute() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %same = tensor.cast %a : tensor<2x2xi32> to tensor<2x2xi32>
  %sum = arith.addi %same, %a : tensor<2x2xi32>
  check.expect_eq_const(%sum, dense<[[2, 4], [6, 8]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}
