// Splat constants of 64-bit elements kept from folding: no HAL fill pattern holds them, so
// the stream stage makes them constant resources.

func.func @i64_splat_behind_a_barrier() {
  %c = arith.constant dense<4294967298> : tensor<3xi64>
  %kept = util.optimization_barrier %c : tensor<3xi64>
  %sum = arith.addi %kept, %kept : tensor<3xi64>
  check.expect_eq_const(%sum, dense<8589934596> : tensor<3xi64>) : tensor<3xi64>
  return
}

func.func @f64_splats_updated_into_a_concat() {
  %a = arith.constant dense<0.1> : tensor<2xf64>
  %b = arith.constant dense<-2.5> : tensor<1xf64>
  %ka = util.optimization_barrier %a : tensor<2xf64>
  %kb = util.optimization_barrier %b : tensor<1xf64>
  %joined = tensor.concat dim(0) %ka, %kb : (tensor<2xf64>, tensor<1xf64>) -> tensor<3xf64>
  check.expect_eq_const(%joined, dense<[0.1, 0.1, -2.5]> : tensor<3xf64>) : tensor<3xf64>
  return
}
