// math.fpowi: a float raised to an integer power (ONNX's Pow with an integer exponent, as in
// MeanVarianceNormalization's squares), negative and zero exponents included. Expected
// values are numpy's float64 power rounded to f32; almost_eq at IREE's default tolerance.

func.func @powers_of_f32() {
  %a = util.unfoldable_constant dense<[1.5, -2.0, 3.0, 0.5, 10.0]> : tensor<5xf32>
  %n = util.unfoldable_constant dense<[2, 3, -2, 0, 5]> : tensor<5xi32>
  %p = math.fpowi %a, %n : tensor<5xf32>, tensor<5xi32>
  check.expect_almost_eq_const(%p, dense<[2.25, -8.0, 0.11111111, 1.0, 100000.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @square_by_i64_in_a_kernel() {
  %a = util.unfoldable_constant dense<[[1.0, -3.0], [0.25, 7.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c2 = arith.constant 2 : i64
    %s = math.fpowi %in, %c2 : f32, i64
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[1.0, 9.0], [0.0625, 49.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}
