// Reshapes and slices of a constant kept from folding: the stream stage sees through the
// reshape, so the checked value is the constant's own resource, viewed in place.

func.func @collapse_a_constant() {
  %c = arith.constant dense<[[5, 6, 7], [8, 9, 10]]> : tensor<2x3xi32>
  %kept = util.optimization_barrier %c : tensor<2x3xi32>
  %flat = tensor.collapse_shape %kept [[0, 1]] : tensor<2x3xi32> into tensor<6xi32>
  check.expect_eq_const(%flat, dense<[5, 6, 7, 8, 9, 10]> : tensor<6xi32>) : tensor<6xi32>
  return
}

func.func @expand_a_constant() {
  %c = arith.constant dense<[1.5, 2.5, 3.5, 4.5]> : tensor<4xf32>
  %kept = util.optimization_barrier %c : tensor<4xf32>
  %square = tensor.expand_shape %kept [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  check.expect_almost_eq_const(%square, dense<[[1.5, 2.5], [3.5, 4.5]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func @contiguous_slice_of_a_constant() {
  %c = arith.constant dense<[10, 20, 30, 40, 50]> : tensor<5xi32>
  %kept = util.optimization_barrier %c : tensor<5xi32>
  %middle = tensor.extract_slice %kept[1] [3] [1] : tensor<5xi32> to tensor<3xi32>
  check.expect_eq_const(%middle, dense<[20, 30, 40]> : tensor<3xi32>) : tensor<3xi32>
  return
}
