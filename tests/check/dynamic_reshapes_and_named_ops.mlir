// `?` sizes through reshapes and named ops: dynamic tensor.collapse_shape / expand_shape
// become flow.tensor.reshape with their sizes on the host; linalg.softmax,
// iree_linalg_ext.attention / gather / topk_v2 on `?` tensors read their extents in the
// kernel from the dims pushed as constants; check ops compare `?`-sized tensors.

func.func @collapse_of_a_dynamic_constant_then_elementwise() {
  %c = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> -> tensor<?x3xf32>
  %flat = tensor.collapse_shape %c [[0, 1]] : tensor<?x3xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %flat, %c0 : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%flat : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %static = tensor.cast %sq : tensor<?xf32> to tensor<6xf32>
  check.expect_almost_eq_const(%static, dense<[1.0, 4.0, 9.0, 16.0, 25.0, 36.0]> : tensor<6xf32>) : tensor<6xf32>
  return
}

func.func @expand_by_an_output_shape_computed_from_the_size() {
  %c = flow.tensor.dynamic_constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %n = tensor.dim %c, %c0 : tensor<?xi32>
  %rows = arith.divui %n, %c2 : index
  %m = tensor.expand_shape %c [[0, 1]] output_shape [%rows, 2] : tensor<?xi32> into tensor<?x2xi32>
  %empty = tensor.empty(%rows) : tensor<?xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<?xi32>) -> tensor<?xi32>
  %sums = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<?x2xi32>) outs(%init : tensor<?xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %a, %acc : i32
    linalg.yield %s : i32
  } -> tensor<?xi32>
  %expected = flow.tensor.dynamic_constant dense<[3, 7, 11]> : tensor<3xi32> -> tensor<?xi32>
  check.expect_eq(%sums, %expected) : tensor<?xi32>
  return
}

func.func @softmax_over_a_dynamic_row() {
  %x = flow.tensor.dynamic_constant dense<[[0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<2x4xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %static = tensor.cast %s : tensor<?x?xf32> to tensor<2x4xf32>
  check.expect_almost_eq_const(%static, dense<[[0.25, 0.25, 0.25, 0.25], [0.0320586, 0.0871443, 0.2368828, 0.6439143]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

func.func @attention_with_a_dynamic_sequence() {
  // one query row against two keys: the scores 0.5 * q.k are 0.5 and 0, so the weights are
  // softmax([0.5, 0]) = [0.6224593, 0.3775407] applied to the value rows
  %q = flow.tensor.dynamic_constant dense<[[[1.0, 0.0]]]> : tensor<1x1x2xf32> -> tensor<?x?x?xf32>
  %k = flow.tensor.dynamic_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32> -> tensor<?x?x?xf32>
  %v = flow.tensor.dynamic_constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32> -> tensor<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?xf32>
  %m = tensor.dim %q, %c1 : tensor<?x?x?xf32>
  %n = tensor.dim %v, %c2 : tensor<?x?x?xf32>
  %init = tensor.empty(%b, %m, %n) : tensor<?x?x?xf32>
  %scale = arith.constant 0.5 : f32
  %r = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %init) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}> ({
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  }) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, f32, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %static = tensor.cast %r : tensor<?x?x?xf32> to tensor<1x1x2xf32>
  check.expect_almost_eq_const(%static, dense<[[[1.7550814, 2.7550814]]]> : tensor<1x1x2xf32>) : tensor<1x1x2xf32>
  return
}

func.func @gather_a_dynamic_number_of_rows() {
  %source = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %indices = flow.tensor.dynamic_constant dense<[[2], [0], [2], [1]]> : tensor<4x1xi64> -> tensor<?x1xi64>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %indices, %c0 : tensor<?x1xi64>
  %init = tensor.empty(%n) : tensor<?x2xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%source, %indices : tensor<3x2xf32>, tensor<?x1xi64>) outs(%init : tensor<?x2xf32>) -> tensor<?x2xf32>
  %static = tensor.cast %g : tensor<?x2xf32> to tensor<4x2xf32>
  check.expect_almost_eq_const(%static, dense<[[5.0, 6.0], [1.0, 2.0], [5.0, 6.0], [3.0, 4.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  return
}

func.func @topk_v2_of_a_dynamic_length() {
  %values = flow.tensor.dynamic_constant dense<[[3.0, 9.0, 1.0, 7.0, 5.0], [2.0, 4.0, 8.0, 6.0, 0.0]]> : tensor<2x5xf32> -> tensor<2x?xf32>
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ve = tensor.empty() : tensor<2x2xf32>
  %ie = tensor.empty() : tensor<2x2xi32>
  %vi = linalg.fill ins(%neg_inf : f32) outs(%ve : tensor<2x2xf32>) -> tensor<2x2xf32>
  %ii = linalg.fill ins(%zero : i32) outs(%ie : tensor<2x2xi32>) -> tensor<2x2xi32>
  %r:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%values : tensor<2x?xf32>) outs(%vi, %ii : tensor<2x2xf32>, tensor<2x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  check.expect_almost_eq_const(%r#0, dense<[[9.0, 7.0], [8.0, 6.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_eq_const(%r#1, dense<[[1, 3], [2, 3]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}
