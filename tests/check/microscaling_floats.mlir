// f4E2M1FN (the OCP MX 4-bit float: 0.5 1 1.5 2 3 4 6 and their negatives, no infinity, no
// NaN), stored packed two to a byte, and f8E8M0FNU scales (2**(bits - 127)) with
// arith.scaling_extf / scaling_truncf, as MLIR's arith expansion defines them: extf(x) *
// scale and truncf(x / scale), rounding to nearest even, saturating at +-6. Expected values:
// ml_dtypes' float4_e2m1fn for the same f32 values (which agrees except for NaN).

func.func @truncf_to_f4_ties_to_even_and_saturates() {
  %x = util.unfoldable_constant dense<[0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf4E2M1FN>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf4E2M1FN>) {
  ^bb0(%in: f32, %o: f4E2M1FN):
    %t = arith.truncf %in : f32 to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<8xf4E2M1FN>
  // kept packed in memory between the two dispatches
  %kept = util.optimization_barrier %n : tensor<8xf4E2M1FN>
  %e32 = tensor.empty() : tensor<8xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%kept : tensor<8xf4E2M1FN>) outs(%e32 : tensor<8xf32>) {
  ^bb0(%in: f4E2M1FN, %o: f32):
    %x32 = arith.extf %in : f4E2M1FN to f32
    linalg.yield %x32 : f32
  } -> tensor<8xf32>
  check.expect_eq_const(%w, dense<[0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0]> : tensor<8xf32>) : tensor<8xf32>
  return
}

func.func @f4_bits_through_i4() {
  // every f4 pattern 0..15 as i8, narrowed to i4, bitcast to f4E2M1FN and widened
  %bits = util.unfoldable_constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
  %e = tensor.empty() : tensor<16xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%bits : tensor<16xi8>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: i8, %o: f32):
    %i4 = arith.trunci %in : i8 to i4
    %f4 = arith.bitcast %i4 : i4 to f4E2M1FN
    %f = arith.extf %f4 : f4E2M1FN to f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  check.expect_eq_const(%v, dense<[0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]> : tensor<16xf32>) : tensor<16xf32>
  return
}

func.func @scaling_extf_multiplies_by_the_scale() {
  %bits = util.unfoldable_constant dense<[3, 7, 9, 5]> : tensor<4xi8>
  %scale = util.unfoldable_constant dense<[0.25, 8.0, 1.0, 1024.0]> : tensor<4xf8E8M0FNU>
  %e = tensor.empty() : tensor<4xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%bits, %scale : tensor<4xi8>, tensor<4xf8E8M0FNU>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: i8, %s: f8E8M0FNU, %o: f32):
    %i4 = arith.trunci %in : i8 to i4
    %f4 = arith.bitcast %i4 : i4 to f4E2M1FN
    %f = arith.scaling_extf %f4, %s : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  // 1.5 * 0.25, 6 * 8, -0.5 * 1, 3 * 1024
  check.expect_eq_const(%v, dense<[0.375, 48.0, -0.5, 3072.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @scaling_truncf_divides_then_rounds() {
  %x = util.unfoldable_constant dense<[0.375, 40.0, -0.7, 100000.0]> : tensor<4xf32>
  %scale = util.unfoldable_constant dense<[0.25, 8.0, 1.0, 1024.0]> : tensor<4xf8E8M0FNU>
  %e = tensor.empty() : tensor<4xi8>
  %v = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%x, %scale : tensor<4xf32>, tensor<4xf8E8M0FNU>) outs(%e : tensor<4xi8>) {
  ^bb0(%in: f32, %s: f8E8M0FNU, %o: i8):
    %f4 = arith.scaling_truncf %in, %s : f32, f8E8M0FNU to f4E2M1FN
    %i4 = arith.bitcast %f4 : f4E2M1FN to i4
    %b = arith.extui %i4 : i4 to i8
    linalg.yield %b : i8
  } -> tensor<4xi8>
  // 1.5 -> 0x3; 5 -> 4 (tie to even, 0x6); -0.7 -> -0.5 (0x9); 97.7 -> saturates at 6 (0x7)
  check.expect_eq_const(%v, dense<[3, 6, 9, 7]> : tensor<4xi8>) : tensor<4xi8>
  return
}
