// bf16 and the 8-bit floats, computed in f32 and rounded to nearest even, with each type's
// rules for what it cannot hold. Expected values and bit patterns are ml_dtypes' (numpy's
// types for them) for the same f32 inputs; bit patterns compare exactly through i8.

func.func @bf16_add() {
  %a = util.unfoldable_constant dense<[1.0, 2.5, -3.0, 100.0]> : tensor<4xbf16>
  %b = util.unfoldable_constant dense<[0.5, 0.25, 1.0, 0.5]> : tensor<4xbf16>
  %s = arith.addf %a, %b : tensor<4xbf16>
  check.expect_eq_const(%s, dense<[1.5, 2.75, -2.0, 100.5]> : tensor<4xbf16>) : tensor<4xbf16>
  return
}

func.func @truncf_to_f8E4M3FN_ties_to_even_and_overflows_to_nan() {
  %x = util.unfoldable_constant dense<[1.0625, 1.1875, 0.0029296875, 500.0]> : tensor<4xf32>
  %t = arith.truncf %x : tensor<4xf32> to tensor<4xf8E4M3FN>
  %bits = arith.bitcast %t : tensor<4xf8E4M3FN> to tensor<4xi8>
  // 1.0625 -> 1.0 (0x38), 1.1875 -> 1.25 (0x3A), 1.5/512 -> subnormal 2/512 (0x02), NaN 0x7F
  check.expect_eq_const(%bits, dense<[56, 58, 2, 127]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @truncf_to_f8E5M2_keeps_the_sign_of_an_underflow() {
  %x = util.unfoldable_constant dense<[3.0e4, -1.0e-7]> : tensor<2xf32>
  %t = arith.truncf %x : tensor<2xf32> to tensor<2xf8E5M2>
  %bits = arith.bitcast %t : tensor<2xf8E5M2> to tensor<2xi8>
  // 30000 -> 28672 (0x77); -1e-7 -> -0 (0x80)
  check.expect_eq_const(%bits, dense<[119, -128]> : tensor<2xi8>) : tensor<2xi8>
  return
}

func.func @extf_from_f8E5M2FNUZ_subnormal_largest_and_nan() {
  %x = util.unfoldable_constant dense<[0x01, 0x7F, 0x80]> : tensor<3xf8E5M2FNUZ>
  %w = arith.extf %x : tensor<3xf8E5M2FNUZ> to tensor<3xf32>
  check.expect_almost_eq_const(%w, dense<[7.62939453e-06, 57344.0, 0x7FC00000]> : tensor<3xf32>) : tensor<3xf32>
  return
}
