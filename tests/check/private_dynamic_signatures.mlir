// Private functions with `?` in their signatures, as IREE's e2e tests write their input
// generators: the inliner puts each call's body in its caller and the canonicalizer makes
// static what the caller's constants size (`tensor.empty(%c3, %c5)` becomes a static empty,
// its casts fold into the linalg ops), so those dispatches are static. What the caller sizes
// only at run time (util.unfoldable_constant, flow.tensor.dynamic_constant) stays `?` and runs
// on the dynamic path: dims through tie_shape, workloads and push constants.

func.func private @ramp_2d(%rows : index, %cols : index) -> tensor<?x?xi32> {
  %empty = tensor.empty(%rows, %cols) : tensor<?x?xi32>
  %ramp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<?x?xi32>) {
  ^bb0(%unused : i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %tens = arith.muli %i, %c10 : index
    %v = arith.addi %tens, %j : index
    %r = arith.index_cast %v : index to i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  %fenced = util.optimization_barrier %ramp : tensor<?x?xi32>
  %tied = flow.tensor.tie_shape %fenced : tensor<?x?xi32>{%rows, %cols}
  return %tied : tensor<?x?xi32>
}

func.func private @scale_rows(%x : tensor<?x4xf32>, %by : f32) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %empty = tensor.empty(%n) : tensor<?x4xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%empty : tensor<?x4xf32>) {
  ^bb0(%a : f32, %unused : f32):
    %m = arith.mulf %a, %by : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  return %scaled : tensor<?x4xf32>
}

func.func @constant_sizes_make_the_generator_static() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %0 = call @ramp_2d(%c3, %c5) : (index, index) -> tensor<?x?xi32>
  %ramp = tensor.cast %0 : tensor<?x?xi32> to tensor<3x5xi32>
  check.expect_eq_const(%ramp, dense<[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

func.func @two_calls_of_one_generator_at_two_sizes() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = call @ramp_2d(%c2, %c4) : (index, index) -> tensor<?x?xi32>
  %1 = call @ramp_2d(%c4, %c1) : (index, index) -> tensor<?x?xi32>
  %wide = tensor.cast %0 : tensor<?x?xi32> to tensor<2x4xi32>
  %tall = tensor.cast %1 : tensor<?x?xi32> to tensor<4x1xi32>
  %init = tensor.empty() : tensor<2x1xi32>
  %zero = arith.constant 0 : i32
  %acc = linalg.fill ins(%zero : i32) outs(%init : tensor<2x1xi32>) -> tensor<2x1xi32>
  %product = linalg.matmul ins(%wide, %tall : tensor<2x4xi32>, tensor<4x1xi32>) outs(%acc : tensor<2x1xi32>) -> tensor<2x1xi32>
  // row i of %wide is 10i + j; %tall is 10j: sums over j < 4 of (10i + j) * 10j
  check.expect_eq_const(%product, dense<[[140], [740]]> : tensor<2x1xi32>) : tensor<2x1xi32>
  return
}

func.func @static_tensor_through_a_dynamic_signature() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, -2.0, 0.5, 0.25]]> : tensor<3x4xf32>
  %by = arith.constant 2.0 : f32
  %dynamic = tensor.cast %x : tensor<3x4xf32> to tensor<?x4xf32>
  %0 = call @scale_rows(%dynamic, %by) : (tensor<?x4xf32>, f32) -> tensor<?x4xf32>
  %scaled = tensor.cast %0 : tensor<?x4xf32> to tensor<3x4xf32>
  check.expect_almost_eq_const(%scaled, dense<[[2.0, 4.0, 6.0, 8.0], [10.0, 12.0, 14.0, 16.0], [-2.0, -4.0, 1.0, 0.5]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

func.func @run_time_sizes_stay_dynamic() {
  %rows = util.unfoldable_constant 2 : index
  %cols = util.unfoldable_constant 3 : index
  %0 = call @ramp_2d(%rows, %cols) : (index, index) -> tensor<?x?xi32>
  %ramp = tensor.cast %0 : tensor<?x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%ramp, dense<[[0, 1, 2], [10, 11, 12]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @dynamic_constant_through_a_dynamic_signature() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, 0.25, 0.0, -1.0]]> : tensor<2x4xf32> -> tensor<?x4xf32>
  %by = arith.constant -3.0 : f32
  %0 = call @scale_rows(%x, %by) : (tensor<?x4xf32>, f32) -> tensor<?x4xf32>
  %scaled = tensor.cast %0 : tensor<?x4xf32> to tensor<2x4xf32>
  check.expect_almost_eq_const(%scaled, dense<[[-3.0, -6.0, -9.0, -12.0], [-1.5, -0.75, 0.0, 3.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}
