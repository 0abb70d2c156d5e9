// A hexadecimal element of a float dense literal is the value's bit pattern, as MLIR reads
// it: ONNX's importer writes -inf as dense<0xFF800000> (the initial value of a max), and a
// mask's -inf fill decides which scores a softmax keeps. Results compare exactly.

func.func @splat_minus_infinity_starts_a_max() {
  %a = util.unfoldable_constant dense<[[1.0, -3.0, 2.0], [-7.0, -8.0, -9.0]]> : tensor<2x3xf32>
  %init = arith.constant dense<0xFF800000> : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  check.expect_eq_const(%r, dense<[2.0, -7.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @hex_and_decimal_elements_mixed() {
  %c = util.unfoldable_constant dense<[0x3F800000, 2.5, 0xC0000000, 0x00000000]> : tensor<4xf32>
  %twice = arith.addf %c, %c : tensor<4xf32>
  check.expect_eq_const(%twice, dense<[2.0, 5.0, -4.0, 0.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @minus_infinity_mask_added_to_scores() {
  %s = util.unfoldable_constant dense<[0.5, 1.5, -2.0]> : tensor<3xf32>
  %mask = arith.constant dense<[0.0, 0xFF800000, 0.0]> : tensor<3xf32>
  %sum = arith.addf %s, %mask : tensor<3xf32>
  %e = math.exp %sum : tensor<3xf32>
  check.expect_almost_eq_const(%e, dense<[1.6487213, 0.0, 0.13533528]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @half_bit_patterns() {
  %h = util.unfoldable_constant dense<[0x3C00, 0xC500]> : tensor<2xf16>
  %h2 = arith.addf %h, %h : tensor<2xf16>
  check.expect_eq_const(%h2, dense<[2.0, -10.0]> : tensor<2xf16>) : tensor<2xf16>
  return
}
