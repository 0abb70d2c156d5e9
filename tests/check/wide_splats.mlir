// Splat constants of 64-bit elements kept from folding: no HAL fill pattern holds them, so
// the stream stage makes them constant resources.

func.func @i64_splat_behind_a_barrier() {
  %c = arith.constant dense<4294967298> : tensor<3xi64>
  %kept = util.optimization_barrier %c : tensor<3xi64>
  %sum = arith.addi %kept, %kept : tensor<3xi64>
  check.expect_eq_const(%sum, dense<8589934596> : tensor<3xi64>) : tensor<3xi64>
  return
}

// (not f64: IREE demotes f64 to f32 but leaves the check's expected value f64, and refuses it)
func.func @i64_splats_updated_into_a_concat() {
  %a = arith.constant dense<-7> : tensor<2xi64>
  %b = arith.constant dense<1099511627776> : tensor<1xi64>
  %ka = util.optimization_barrier %a : tensor<2xi64>
  %kb = util.optimization_barrier %b : tensor<1xi64>
  %joined = tensor.concat dim(0) %ka, %kb : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  check.expect_eq_const(%joined, dense<[-7, -7, 1099511627776]> : tensor<3xi64>) : tensor<3xi64>
  return
}
