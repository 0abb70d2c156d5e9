// linalg.pack and linalg.unpack (IREE's data-layout ops): tiling, padding, outer and inner
// permutations, against values worked out by hand, and pack -> unpack round trips large
// enough to be split over workgroups.

func.func private @iota_2d_i32(%n: index) -> tensor<67x45xi32> {
  %empty = tensor.empty() : tensor<67x45xi32>
  %source = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%empty : tensor<67x45xi32>) {
    ^bb0(%b0 : i32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %row = arith.muli %i, %n : index
      %linear = arith.addi %row, %j : index
      %value = arith.index_cast %linear : index to i32
      linalg.yield %value : i32
  } -> tensor<67x45xi32>
  return %source : tensor<67x45xi32>
}

// Tiles that divide the source: a pure relayout, no padding value needed.
func.func @pack_exact_tiles() {
  %source = util.unfoldable_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32>
  %empty = tensor.empty() : tensor<2x2x2x2xi32>
  %packed = linalg.pack %source inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %empty
      : tensor<4x4xi32> -> tensor<2x2x2x2xi32>
  check.expect_eq_const(%packed, dense<[[[[0, 1], [4, 5]], [[2, 3], [6, 7]]], [[[8, 9], [12, 13]], [[10, 11], [14, 15]]]]> : tensor<2x2x2x2xi32>) : tensor<2x2x2x2xi32>
  return
}

// Padding in both dims, inner dims swapped and outer dims transposed.
func.func @pack_pad_transpose_inner_and_outer() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0]]> : tensor<3x5xf32>
  %pad = arith.constant -1.0 : f32
  %empty = tensor.empty() : tensor<3x2x2x2xf32>
  %packed = linalg.pack %source padding_value(%pad : f32) outer_dims_perm = [1, 0]
      inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %empty : tensor<3x5xf32> -> tensor<3x2x2x2xf32>
  check.expect_eq_const(%packed, dense<[[[[0.0, 5.0], [1.0, 6.0]], [[10.0, -1.0], [11.0, -1.0]]], [[[2.0, 7.0], [3.0, 8.0]], [[12.0, -1.0], [13.0, -1.0]]], [[[4.0, 9.0], [-1.0, -1.0]], [[14.0, -1.0], [-1.0, -1.0]]]]> : tensor<3x2x2x2xf32>) : tensor<3x2x2x2xf32>
  return
}

// One tiled dim of three, padded, with a rotated outer order.
func.func @pack_3d_one_tiled_dim() {
  %source = util.unfoldable_constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>
  %pad = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<2x2x3x3xi32>
  %packed = linalg.pack %source padding_value(%pad : i32) outer_dims_perm = [2, 0, 1]
      inner_dims_pos = [2] inner_tiles = [3] into %empty : tensor<2x3x4xi32> -> tensor<2x2x3x3xi32>
  check.expect_eq_const(%packed, dense<[[[[0, 1, 2], [4, 5, 6], [8, 9, 10]], [[12, 13, 14], [16, 17, 18], [20, 21, 22]]], [[[3, 0, 0], [7, 0, 0], [11, 0, 0]], [[15, 0, 0], [19, 0, 0], [23, 0, 0]]]]> : tensor<2x2x3x3xi32>) : tensor<2x2x3x3xi32>
  return
}

// The inverse of the case above: the padding is dropped.
func.func @unpack_3d_one_tiled_dim() {
  %packed = util.unfoldable_constant dense<[[[[0, 1, 2], [4, 5, 6], [8, 9, 10]], [[12, 13, 14], [16, 17, 18], [20, 21, 22]]], [[[3, 0, 0], [7, 0, 0], [11, 0, 0]], [[15, 0, 0], [19, 0, 0], [23, 0, 0]]]]> : tensor<2x2x3x3xi32>
  %empty = tensor.empty() : tensor<2x3x4xi32>
  %unpacked = linalg.unpack %packed outer_dims_perm = [2, 0, 1] inner_dims_pos = [2] inner_tiles = [3]
      into %empty : tensor<2x2x3x3xi32> -> tensor<2x3x4xi32>
  check.expect_eq_const(%unpacked, dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>) : tensor<2x3x4xi32>
  return
}

// A large padded pack (the VNNI-style 16x2 tiles of an i8 matmul operand) read back by unpack.
func.func @pack_unpack_round_trip_i8() {
  %n = arith.constant 45 : index
  %wide = call @iota_2d_i32(%n) : (index) -> tensor<67x45xi32>
  %empty8 = tensor.empty() : tensor<67x45xi8>
  %source = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%wide : tensor<67x45xi32>) outs(%empty8 : tensor<67x45xi8>) {
    ^bb0(%in : i32, %out : i8):
      %narrow = arith.trunci %in : i32 to i8
      linalg.yield %narrow : i8
  } -> tensor<67x45xi8>
  %pad = arith.constant 0 : i8
  %empty = tensor.empty() : tensor<5x23x16x2xi8>
  %packed = linalg.pack %source padding_value(%pad : i8) inner_dims_pos = [0, 1] inner_tiles = [16, 2]
      into %empty : tensor<67x45xi8> -> tensor<5x23x16x2xi8>
  %back_empty = tensor.empty() : tensor<67x45xi8>
  %back = linalg.unpack %packed inner_dims_pos = [0, 1] inner_tiles = [16, 2] into %back_empty
      : tensor<5x23x16x2xi8> -> tensor<67x45xi8>
  check.expect_eq(%back, %source) : tensor<67x45xi8>
  return
}

// A large transposed pack of f32 (an rhs of mmt4d: n x k tiles) and its unpack.
func.func @pack_unpack_round_trip_transposed_f32() {
  %n = arith.constant 45 : index
  %ints = call @iota_2d_i32(%n) : (index) -> tensor<67x45xi32>
  %emptyf = tensor.empty() : tensor<67x45xf32>
  %source = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%ints : tensor<67x45xi32>) outs(%emptyf : tensor<67x45xf32>) {
    ^bb0(%in : i32, %out : f32):
      %f = arith.sitofp %in : i32 to f32
      linalg.yield %f : f32
  } -> tensor<67x45xf32>
  %pad = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x9x8x8xf32>
  %packed = linalg.pack %source padding_value(%pad : f32) outer_dims_perm = [1, 0]
      inner_dims_pos = [1, 0] inner_tiles = [8, 8] into %empty : tensor<67x45xf32> -> tensor<6x9x8x8xf32>
  %back_empty = tensor.empty() : tensor<67x45xf32>
  %back = linalg.unpack %packed outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 8]
      into %back_empty : tensor<6x9x8x8xf32> -> tensor<67x45xf32>
  check.expect_eq(%back, %source) : tensor<67x45xf32>
  return
}

// An elementwise producer fused into the pack's dispatch (IREE: `..._elementwise_3x5_f32_pack`).
func.func @pack_of_fused_elementwise() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0]]> : tensor<3x5xf32>
  %empty = tensor.empty() : tensor<3x5xf32>
  %doubled = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%source : tensor<3x5xf32>) outs(%empty : tensor<3x5xf32>) {
    ^bb0(%in : f32, %out : f32):
      %d = arith.addf %in, %in : f32
      linalg.yield %d : f32
  } -> tensor<3x5xf32>
  %pad = arith.constant -1.0 : f32
  %packed_empty = tensor.empty() : tensor<3x2x2x2xf32>
  %packed = linalg.pack %doubled padding_value(%pad : f32) outer_dims_perm = [1, 0]
      inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %packed_empty : tensor<3x5xf32> -> tensor<3x2x2x2xf32>
  check.expect_eq_const(%packed, dense<[[[[0.0, 10.0], [2.0, 12.0]], [[20.0, -1.0], [22.0, -1.0]]], [[[4.0, 14.0], [6.0, 16.0]], [[24.0, -1.0], [26.0, -1.0]]], [[[8.0, 18.0], [-1.0, -1.0]], [[28.0, -1.0], [-1.0, -1.0]]]]> : tensor<3x2x2x2xf32>) : tensor<3x2x2x2xf32>
  return
}

// An unpack feeding an elementwise consumer in the same dispatch.
func.func @unpack_into_fused_elementwise() {
  %packed = util.unfoldable_constant dense<[[[[0, 1, 2], [4, 5, 6], [8, 9, 10]], [[12, 13, 14], [16, 17, 18], [20, 21, 22]]], [[[3, 0, 0], [7, 0, 0], [11, 0, 0]], [[15, 0, 0], [19, 0, 0], [23, 0, 0]]]]> : tensor<2x2x3x3xi32>
  %empty = tensor.empty() : tensor<2x3x4xi32>
  %unpacked = linalg.unpack %packed outer_dims_perm = [2, 0, 1] inner_dims_pos = [2] inner_tiles = [3]
      into %empty : tensor<2x2x3x3xi32> -> tensor<2x3x4xi32>
  %out_empty = tensor.empty() : tensor<2x3x4xi32>
  %plus_one = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%unpacked : tensor<2x3x4xi32>) outs(%out_empty : tensor<2x3x4xi32>) {
    ^bb0(%in : i32, %out : i32):
      %one = arith.constant 1 : i32
      %s = arith.addi %in, %one : i32
      linalg.yield %s : i32
  } -> tensor<2x3x4xi32>
  check.expect_eq_const(%plus_one, dense<[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]> : tensor<2x3x4xi32>) : tensor<2x3x4xi32>
  return
}
