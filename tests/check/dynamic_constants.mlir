// flow.tensor.dynamic_constant, flow.tensor.tie_shape and tensor.cast between static and `?`
// sizes: the canonicalizer turns a dynamic constant into its static constant reshaped to the
// `?` type with each size behind util.optimization_barrier, so the dispatches below run with
// sizes known only at run time (one `?`-sized kernel), and casts become flow.tensor.reshape.

func.func @dynamic_constant_through_elementwise_and_back_to_static() {
  %c = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %c, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %c, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %static = tensor.cast %twice : tensor<?x?xf32> to tensor<2x3xf32>
  check.expect_almost_eq_const(%static, dense<[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @dynamic_constant_row_sums() {
  %c = flow.tensor.dynamic_constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32> -> tensor<?x4xi32>
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %c, %c0 : tensor<?x4xi32>
  %empty = tensor.empty(%rows) : tensor<?xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<?xi32>) -> tensor<?xi32>
  %sums = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<?x4xi32>) outs(%init : tensor<?xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %a, %acc : i32
    linalg.yield %s : i32
  } -> tensor<?xi32>
  %static = tensor.cast %sums : tensor<?xi32> to tensor<3xi32>
  check.expect_eq_const(%static, dense<[10, 26, 42]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @dynamic_constant_matmul() {
  %lhs = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32> -> tensor<?x?xf32>
  %rhs = flow.tensor.dynamic_constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]]> : tensor<2x3xf32> -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %n = tensor.dim %rhs, %c1 : tensor<?x?xf32>
  %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  %product = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %static = tensor.cast %product : tensor<?x?xf32> to tensor<3x3xf32>
  check.expect_almost_eq_const(%static, dense<[[1.0, 2.0, 8.0], [3.0, 4.0, 18.0], [5.0, 6.0, 28.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

func.func @tie_shape_names_the_dims_behind_a_barrier() {
  %c = flow.tensor.dynamic_constant dense<[1.0, -2.0, 3.0, -4.0, 5.0]> : tensor<5xf32> -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?xf32>
  %hidden = util.optimization_barrier %c : tensor<?xf32>
  %tied = flow.tensor.tie_shape %hidden : tensor<?xf32>{%n}
  %init = tensor.empty(%n) : tensor<?xf32>
  %abs = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tied : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.absf %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %static = tensor.cast %abs : tensor<?xf32> to tensor<5xf32>
  check.expect_almost_eq_const(%static, dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @cast_to_dynamic_behind_a_barrier_and_back() {
  %a = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %dynamic = tensor.cast %a : tensor<2x3xi32> to tensor<2x?xi32>
  %hidden = util.optimization_barrier %dynamic : tensor<2x?xi32>
  %static = tensor.cast %hidden : tensor<2x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%static, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @unit_dim_elementwise_keeps_its_dynamic_shape() {
  %one = arith.constant 1.0 : f32
  %c = flow.tensor.dynamic_constant dense<[[4.0], [2.0], [8.0]]> : tensor<3x1xf32> -> tensor<?x1xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?x1xf32>
  %init = tensor.empty(%n) : tensor<?x1xf32>
  %inverse = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x1xf32>) outs(%init : tensor<?x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x1xf32>
  %static = tensor.cast %inverse : tensor<?x1xf32> to tensor<3x1xf32>
  check.expect_almost_eq_const(%static, dense<[[0.25], [0.5], [0.125]]> : tensor<3x1xf32>) : tensor<3x1xf32>
  return
}
