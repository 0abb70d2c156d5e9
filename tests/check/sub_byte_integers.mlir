// i2 and i4 tensors, stored packed (two i4 or four i2 per byte, first element in the low
// bits) in bindings, constants and allocations; kernels read each element with a shift and a
// mask and write it back into its bits of the byte. Expected values are numpy's reading of the
// same bits (signed: sign-extended; unsigned: masked).

func.func @i4_constant_read_signed_and_unsigned() {
  // 8..15 are the negative i4 values -8..-1
  %x = util.unfoldable_constant dense<[0, 7, 8, 15, -1, -8, 3, 12]> : tensor<8xi4>
  %e = tensor.empty() : tensor<8xi32>
  %s, %u = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                          iterator_types = ["parallel"]}
      ins(%x : tensor<8xi4>) outs(%e, %e : tensor<8xi32>, tensor<8xi32>) {
  ^bb0(%in: i4, %o0: i32, %o1: i32):
    %a = arith.extsi %in : i4 to i32
    %b = arith.extui %in : i4 to i32
    linalg.yield %a, %b : i32, i32
  } -> (tensor<8xi32>, tensor<8xi32>)
  check.expect_eq_const(%s, dense<[0, 7, -8, -1, -1, -8, 3, -4]> : tensor<8xi32>) : tensor<8xi32>
  check.expect_eq_const(%u, dense<[0, 7, 8, 15, 15, 8, 3, 12]> : tensor<8xi32>) : tensor<8xi32>
  return
}

func.func @i4_arithmetic_wraps_at_four_bits() {
  %a = util.unfoldable_constant dense<[7, 5, -8, 3, 6, -3, 1, 0]> : tensor<8xi4>
  %b = util.unfoldable_constant dense<[1, 5, -1, -4, 3, 2, 2, 0]> : tensor<8xi4>
  %e = tensor.empty() : tensor<8xi4>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xi4>, tensor<8xi4>) outs(%e : tensor<8xi4>) {
  ^bb0(%x: i4, %y: i4, %o: i4):
    %p = arith.muli %x, %y : i4
    %q = arith.addi %p, %y : i4
    linalg.yield %q : i4
  } -> tensor<8xi4>
  %kept = util.optimization_barrier %sum : tensor<8xi4>
  %e8 = tensor.empty() : tensor<8xi8>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
      ins(%kept : tensor<8xi4>) outs(%e8 : tensor<8xi8>) {
  ^bb0(%x: i4, %o: i8):
    %w = arith.extsi %x : i4 to i8
    linalg.yield %w : i8
  } -> tensor<8xi8>
  // 7*1+1 = 8 -> -8; 5*5+5 = 30 -> -2; -8*-1-1 = 7; 3*-4-4 = -16 -> 0; 6*3+3 = 21 -> 5;
  // -3*2+2 = -4; 1*2+2 = 4; 0
  check.expect_eq_const(%wide, dense<[-8, -2, 7, 0, 5, -4, 4, 0]> : tensor<8xi8>) : tensor<8xi8>
  return
}

func.func @f32_to_i2_rows_of_a_2d_tensor() {
  // 3 rows of 4 i2: one byte per row; the store rewrites each element's two bits
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [3.0, 2.0, 1.0, 0.0], [1.0, 1.0, 3.0, 2.0]]> : tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xi2>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xi2>) {
  ^bb0(%in: f32, %o: i2):
    %i = arith.fptoui %in : f32 to i32
    %t = arith.trunci %i : i32 to i2
    linalg.yield %t : i2
  } -> tensor<3x4xi2>
  %kept = util.optimization_barrier %n : tensor<3x4xi2>
  %e32 = tensor.empty() : tensor<4x3xi32>
  // read back transposed: the loads index the packed rows column by column
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                      iterator_types = ["parallel", "parallel"]}
      ins(%kept : tensor<3x4xi2>) outs(%e32 : tensor<4x3xi32>) {
  ^bb0(%in: i2, %o: i32):
    %w = arith.extui %in : i2 to i32
    linalg.yield %w : i32
  } -> tensor<4x3xi32>
  check.expect_eq_const(%t, dense<[[0, 3, 1], [1, 2, 1], [2, 1, 3], [3, 0, 2]]> : tensor<4x3xi32>) : tensor<4x3xi32>
  return
}

func.func @i4_splat_and_fill() {
  %splat = util.unfoldable_constant dense<-3> : tensor<4xi4>
  %c5 = arith.constant 5 : i4
  %e = tensor.empty() : tensor<4xi4>
  %fill = linalg.fill ins(%c5 : i4) outs(%e : tensor<4xi4>) -> tensor<4xi4>
  %f = util.optimization_barrier %fill : tensor<4xi4>
  %e32 = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%splat, %f : tensor<4xi4>, tensor<4xi4>) outs(%e32 : tensor<4xi32>) {
  ^bb0(%a: i4, %b: i4, %o: i32):
    %x = arith.extsi %a : i4 to i32
    %y = arith.extsi %b : i4 to i32
    %z = arith.muli %x, %y : i32
    linalg.yield %z : i32
  } -> tensor<4xi32>
  check.expect_eq_const(%r, dense<-15> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @i4_tensors_compared_directly() {
  // the check module reads the packed bytes: 8 elements in 4 bytes
  %a = util.unfoldable_constant dense<[1, 2, 3, -4, 7, -8, 0, 5]> : tensor<8xi4>
  %b = arith.addi %a, %a : tensor<8xi4>
  check.expect_eq_const(%b, dense<[2, 4, 6, -8, -2, 0, 0, -6]> : tensor<8xi4>) : tensor<8xi4>
  return
}
