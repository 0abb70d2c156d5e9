// Strided tensor.extract_slice: inside a dispatch it becomes a generic reading the source
// through `d * stride + offset` (ConvertStridedSliceToGenericPass).

func.func @every_other_element() {
  %a = util.unfoldable_constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
  %odd = tensor.extract_slice %a[1] [4] [2] : tensor<8xi32> to tensor<4xi32>
  check.expect_eq_const(%odd, dense<[1, 3, 5, 7]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @two_dimensional_strides_after_compute() {
  %a = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
                                       [10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
                                       [20.0, 21.0, 22.0, 23.0, 24.0, 25.0],
                                       [30.0, 31.0, 32.0, 33.0, 34.0, 35.0]]> : tensor<4x6xf32>
  %twice = arith.addf %a, %a : tensor<4x6xf32>
  %corners = tensor.extract_slice %twice[1, 0] [2, 2] [2, 5] : tensor<4x6xf32> to tensor<2x2xf32>
  check.expect_almost_eq_const(%corners, dense<[[20.0, 30.0], [60.0, 70.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func @rank_reducing_strided_row() {
  %a = util.unfoldable_constant dense<[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]> : tensor<2x6xi32>
  %row = tensor.extract_slice %a[1, 1] [1, 3] [1, 2] : tensor<2x6xi32> to tensor<3xi32>
  check.expect_eq_const(%row, dense<[8, 10, 12]> : tensor<3xi32>) : tensor<3xi32>
  return
}
