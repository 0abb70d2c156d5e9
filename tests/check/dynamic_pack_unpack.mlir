// linalg.pack / linalg.unpack on `?`-sized tensors (static tiles): sizes known only at run
// time (flow.tensor.dynamic_constant, util.unfoldable_constant), the outer sizes computed on
// the host with ceildivui, the padding placed by the source's run-time sizes, and an unpack
// into a destination smaller than its tiles cover.

func.func @dynamic_pack_with_padding_and_outer_perm() {
  %a = flow.tensor.dynamic_constant dense<[[-7, -4, -1, 2, 5], [8, 11, 14, 17, 20], [23, 26, 29, 32, 35]]> : tensor<3x5xi32> -> tensor<?x?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %nine = arith.constant 9 : i32
  %m = tensor.dim %a, %c0 : tensor<?x?xi32>
  %n = tensor.dim %a, %c1 : tensor<?x?xi32>
  %m_tiles = arith.ceildivui %m, %c2 : index
  %n_tiles = arith.ceildivui %n, %c4 : index
  %init = tensor.empty(%n_tiles, %m_tiles) : tensor<?x?x2x4xi32>
  %p = linalg.pack %a padding_value(%nine : i32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init
      : tensor<?x?xi32> -> tensor<?x?x2x4xi32>
  %static = tensor.cast %p : tensor<?x?x2x4xi32> to tensor<2x2x2x4xi32>
  check.expect_eq_const(%static, dense<[[[[-7, -4, -1, 2], [8, 11, 14, 17]], [[23, 26, 29, 32], [9, 9, 9, 9]]],
                                        [[[5, 9, 9, 9], [20, 9, 9, 9]], [[35, 9, 9, 9], [9, 9, 9, 9]]]]> : tensor<2x2x2x4xi32>) : tensor<2x2x2x4xi32>
  return
}

func.func @dynamic_unpack_drops_the_padding() {
  %src = flow.tensor.dynamic_constant dense<[[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]],
                                             [[[12, 13], [14, 15], [16, 17]], [[18, 19], [20, 21], [22, 23]]]]> : tensor<2x2x3x2xi32> -> tensor<?x?x3x2xi32>
  %rows = util.unfoldable_constant 3 : index
  %cols = util.unfoldable_constant 5 : index
  %init = tensor.empty(%rows, %cols) : tensor<?x?xi32>
  %u = linalg.unpack %src inner_dims_pos = [1, 0] inner_tiles = [3, 2] into %init
      : tensor<?x?x3x2xi32> -> tensor<?x?xi32>
  %static = tensor.cast %u : tensor<?x?xi32> to tensor<3x5xi32>
  check.expect_eq_const(%static, dense<[[0, 2, 4, 6, 8], [1, 3, 5, 7, 9], [12, 14, 16, 18, 20]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

func.func @dynamic_pack_then_unpack_round_trip() {
  %a = flow.tensor.dynamic_constant dense<[[1.5, -2.0, 3.25], [4.0, 0.5, -6.0], [7.0, 8.5, 9.0], [-1.0, 0.0, 2.0], [3.0, 3.5, -4.5]]> : tensor<5x3xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %m_tiles = arith.ceildivui %m, %c2 : index
  %n_tiles = arith.ceildivui %n, %c2 : index
  %packed_init = tensor.empty(%m_tiles, %n_tiles) : tensor<?x?x2x2xf32>
  %p = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %packed_init
      : tensor<?x?xf32> -> tensor<?x?x2x2xf32>
  %back_init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %back_init
      : tensor<?x?x2x2xf32> -> tensor<?x?xf32>
  %static = tensor.cast %u : tensor<?x?xf32> to tensor<5x3xf32>
  check.expect_eq_const(%static, dense<[[1.5, -2.0, 3.25], [4.0, 0.5, -6.0], [7.0, 8.5, 9.0], [-1.0, 0.0, 2.0], [3.0, 3.5, -4.5]]> : tensor<5x3xf32>) : tensor<5x3xf32>
  return
}

func.func @pack_and_unpack_with_tile_sizes_known_at_run_time() {
  // inner_tiles given as SSA values: dim 1 cut by %t2, dim 0 by %t3 (both kept from folding),
  // so the tile dims of the packed tensor are `?` and the kernel indexes with push constants.
  // (An unpack with SSA tiles is in tests/dynamic/test_dynamic_pack.py: iree-compile 3.13
  // refuses it, "expected no unbounded stack allocations".)
  %a = util.unfoldable_constant dense<[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18], [19, 20, 21, 22, 23, 24], [25, 26, 27, 28, 29, 30]]> : tensor<5x6xi32>
  %t2 = util.unfoldable_constant 2 : index
  %t3 = util.unfoldable_constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0 : i32
  %rows = arith.ceildivui %c5, %t3 : index
  %cols = arith.ceildivui %c6, %t2 : index
  %init = tensor.empty(%rows, %cols, %t2, %t3) : tensor<?x?x?x?xi32>
  %p = linalg.pack %a padding_value(%zero : i32) inner_dims_pos = [1, 0] inner_tiles = [%t2, %t3] into %init
      : tensor<5x6xi32> -> tensor<?x?x?x?xi32>
  %packed = tensor.cast %p : tensor<?x?x?x?xi32> to tensor<2x3x2x3xi32>
  check.expect_eq_const(%packed, dense<[[[[1, 7, 13], [2, 8, 14]], [[3, 9, 15], [4, 10, 16]], [[5, 11, 17], [6, 12, 18]]],
                                        [[[19, 25, 0], [20, 26, 0]], [[21, 27, 0], [22, 28, 0]], [[23, 29, 0], [24, 30, 0]]]]> : tensor<2x3x2x3xi32>) : tensor<2x3x2x3xi32>
  %back_init = tensor.empty() : tensor<5x6xi32>
  %u = linalg.unpack %packed inner_dims_pos = [1, 0] inner_tiles = [2, 3] into %back_init
      : tensor<2x3x2x3xi32> -> tensor<5x6xi32>
  check.expect_eq(%u, %a) : tensor<5x6xi32>
  return
}
