// iree_linalg_ext.fft: one radix-2 Cooley-Tukey stage along the innermost dim, in place on
// (real, imag), with the twiddle factors exp(-2 pi i j / 2^stage) given as coefficients.

// a whole 8-point FFT: the input already in bit-reversed order, then stages 1, 2 and 3;
// expected: numpy.fft.fft([1, 2, 3, 4, 0, -1, 0.5, 2]).
func.func @fft_8_points_three_stages() {
  %re = util.unfoldable_constant dense<[[1.0, 0.0, 3.0, 0.5, 2.0, -1.0, 4.0, 2.0]]> : tensor<1x8xf32>
  %im = util.unfoldable_constant dense<0.0> : tensor<1x8xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %w1r = arith.constant dense<[1.0]> : tensor<1xf32>
  %w1i = arith.constant dense<[0.0]> : tensor<1xf32>
  %w2r = arith.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %w2i = arith.constant dense<[0.0, -1.0]> : tensor<2xf32>
  %w3r = arith.constant dense<[1.0, 0.707106769, 0.0, -0.707106769]> : tensor<4xf32>
  %w3i = arith.constant dense<[0.0, -0.707106769, -1.0, -0.707106769]> : tensor<4xf32>
  %a:2 = iree_linalg_ext.fft ins(%c1, %w1r, %w1i : index, tensor<1xf32>, tensor<1xf32>)
      outs(%re, %im : tensor<1x8xf32>, tensor<1x8xf32>) : tensor<1x8xf32>, tensor<1x8xf32>
  %b:2 = iree_linalg_ext.fft ins(%c2, %w2r, %w2i : index, tensor<2xf32>, tensor<2xf32>)
      outs(%a#0, %a#1 : tensor<1x8xf32>, tensor<1x8xf32>) : tensor<1x8xf32>, tensor<1x8xf32>
  %c:2 = iree_linalg_ext.fft ins(%c3, %w3r, %w3i : index, tensor<4xf32>, tensor<4xf32>)
      outs(%b#0, %b#1 : tensor<1x8xf32>, tensor<1x8xf32>) : tensor<1x8xf32>, tensor<1x8xf32>
  check.expect_almost_eq_const(%c#0, dense<[[11.5, 1.707107, -2.5, 0.292893, -2.5, 0.292893, -2.5, 1.707107]]> : tensor<1x8xf32>) : tensor<1x8xf32>
  check.expect_almost_eq_const(%c#1, dense<[[0.0, -6.035534, 5.0, -1.035534, 0.0, 1.035534, -5.0, 6.035534]]> : tensor<1x8xf32>) : tensor<1x8xf32>
  return
}

// one stage (2) on a batch of two complex rows: every row is its own transform.
func.func @fft_one_stage_batched_complex() {
  %re = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0]]> : tensor<2x4xf32>
  %im = util.unfoldable_constant dense<[[0.0, 1.0, 0.0, -1.0], [1.0, 1.0, -2.0, 0.5]]> : tensor<2x4xf32>
  %c2 = arith.constant 2 : index
  %wr = arith.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %wi = arith.constant dense<[0.0, -1.0]> : tensor<2xf32>
  %r:2 = iree_linalg_ext.fft ins(%c2, %wr, %wi : index, tensor<2xf32>, tensor<2xf32>)
      outs(%re, %im : tensor<2x4xf32>, tensor<2x4xf32>) : tensor<2x4xf32>, tensor<2x4xf32>
  check.expect_almost_eq_const(%r#0, dense<[[4.0, 1.0, -2.0, 3.0], [2.5, -0.5, -1.5, -1.5]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  check.expect_almost_eq_const(%r#1, dense<[[0.0, -3.0, 0.0, 5.0], [-1.0, 1.0, 3.0, 1.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}
