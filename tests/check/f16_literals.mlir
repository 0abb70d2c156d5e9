// An f16 literal beyond the largest half (65504) is infinity, as MLIR rounds it; a result
// that overflows f16 compares equal to it.

func.func @overflowing_half_literal_is_infinity() {
  %a = util.unfoldable_constant dense<[60000.0, 1.0, -60000.0]> : tensor<3xf16>
  %twice = arith.addf %a, %a : tensor<3xf16>
  check.expect_eq_const(%twice, dense<[70000.0, 2.0, -1.0e9]> : tensor<3xf16>) : tensor<3xf16>
  return
}

func.func @largest_half_stays_finite() {
  %a = util.unfoldable_constant dense<[32752.0]> : tensor<1xf16>
  %twice = arith.addf %a, %a : tensor<1xf16>
  check.expect_eq_const(%twice, dense<[65504.0]> : tensor<1xf16>) : tensor<1xf16>
  return
}
