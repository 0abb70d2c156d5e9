// flow.tensor.bitcast: the same bytes as another element type and shape. Sub-byte types are
// packed, the first element in the low bits of each byte, so an i8 of 0x5A is the two i4
// 0xA, 0x5 (-6, 5) in that order. Expected values are numpy's view of the same bytes.

func.func @i8_bytes_as_i4_nibbles_low_first() {
  %bytes = util.unfoldable_constant dense<[[90, -1], [16, 127]]> : tensor<2x2xi8>
  %nibbles = flow.tensor.bitcast %bytes : tensor<2x2xi8> -> tensor<8xi4>
  %e = tensor.empty() : tensor<8xi32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%nibbles : tensor<8xi4>) outs(%e : tensor<8xi32>) {
  ^bb0(%in: i4, %o: i32):
    %x = arith.extsi %in : i4 to i32
    linalg.yield %x : i32
  } -> tensor<8xi32>
  // 0x5A -> -6, 5; 0xFF -> -1, -1; 0x10 -> 0, 1; 0x7F -> -1, 7
  check.expect_eq_const(%w, dense<[-6, 5, -1, -1, 0, 1, -1, 7]> : tensor<8xi32>) : tensor<8xi32>
  return
}

func.func @i4_results_read_back_as_bytes() {
  %x = util.unfoldable_constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %e = tensor.empty() : tensor<8xi4>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%x : tensor<8xi32>) outs(%e : tensor<8xi4>) {
  ^bb0(%in: i32, %o: i4):
    %t = arith.trunci %in : i32 to i4
    linalg.yield %t : i4
  } -> tensor<8xi4>
  %bytes = flow.tensor.bitcast %n : tensor<8xi4> -> tensor<4xi8>
  // 0x21, 0x43, 0x65, 0x87 (-121)
  check.expect_eq_const(%bytes, dense<[33, 67, 101, -121]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @f16_bits_as_i16() {
  %h = util.unfoldable_constant dense<[1.0, -2.0, 0.5, 65504.0]> : tensor<4xf16>
  %bits = flow.tensor.bitcast %h : tensor<4xf16> -> tensor<2x2xi16>
  // 0x3C00, 0xC000 (-16384), 0x3800, 0x7BFF
  check.expect_eq_const(%bits, dense<[[15360, -16384], [14336, 31743]]> : tensor<2x2xi16>) : tensor<2x2xi16>
  return
}

func.func @f32_as_bytes_and_back() {
  %x = util.unfoldable_constant dense<[1.0, -0.0]> : tensor<2xf32>
  %bytes = flow.tensor.bitcast %x : tensor<2xf32> -> tensor<8xi8>
  %e = tensor.empty() : tensor<8xi8>
  %inc = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%bytes : tensor<8xi8>) outs(%e : tensor<8xi8>) {
  ^bb0(%in: i8, %o: i8):
    %one = arith.constant 1 : i8
    %y = arith.addi %in, %one : i8
    linalg.yield %y : i8
  } -> tensor<8xi8>
  %back = flow.tensor.bitcast %inc : tensor<8xi8> -> tensor<2xf32>
  // 0x3F800000 + 0x01010101 = 0x40810101; 0x80000000 + 0x01010101 = 0x81010101
  check.expect_eq_const(%back, dense<[0x40810101, 0x81010101]> : tensor<2xf32>) : tensor<2xf32>
  return
}
