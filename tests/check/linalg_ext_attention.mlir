// iree_linalg_ext.attention: softmax(Q @ K^T * scale + mask) @ V over the iteration space its
// indexing_maps give (d0 batch, d1 m, d2 k1, d3 k2, d4 n here); expected values from numpy.
// Written in the generic form: IREE 3.13 reads the maps as properties (`<{...}>`), the newer
// IREE (and ireelab's custom form) as attributes; both read the generic form.

// batch 2, a float (additive) mask, K with k2 before k1.
func.func @attention_batched_float_mask() {
  %q = util.unfoldable_constant dense<[[[-0.83, -0.53, 0.60, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.30, 0.39, -0.41], [-1.00, 0.95, -0.40, -0.37]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[0.78, 0.17, -0.06, 0.55], [-0.94, 0.41, -0.25, -0.82], [0.32, 0.86, -0.59, 0.26], [-0.40, 0.48, 0.44, -0.56], [0.66, 0.32, 0.37, 0.64]], [[-0.14, 0.52, 0.76, -0.80], [0.70, -0.21, -0.04, -0.71], [0.40, -0.42, 0.74, -0.45], [0.12, -0.20, 0.23, -0.61], [-0.64, 0.49, 0.50, 0.13]]]> : tensor<2x5x4xf32>
  %v = util.unfoldable_constant dense<[[[0.84, -0.59], [0.70, -0.66], [0.93, 0.25], [0.21, 0.94], [0.57, 0.58]], [[-0.89, -0.26], [-0.83, -0.61], [-0.57, 0.72], [-0.75, -0.41], [-0.01, 0.70]]]> : tensor<2x5x2xf32>
  %m = util.unfoldable_constant dense<[[[-0.07, -0.58, -1.57, -0.91, -0.59], [-1.90, -0.64, -1.26, -0.82, -0.66], [-0.66, -0.95, -0.89, -1.60, -1.01]], [[-1.75, -1.04, -0.93, -0.45, -1.21], [-1.96, -0.94, -1.59, -0.52, -1.22], [-1.24, -0.18, -1.21, -1.30, -1.30]]]> : tensor<2x3x5xf32>
  %scale = arith.constant 0.7 : f32
  %init = tensor.empty() : tensor<2x3x2xf32>
  %o = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %m, %init) <{indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}> ({
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }) : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x2xf32>, f32, tensor<2x3x5xf32>, tensor<2x3x2xf32>) -> (tensor<2x3x2xf32>)
  check.expect_almost_eq_const(%o, dense<[[[0.617726, -0.030852], [0.574950, -0.022724], [0.730435, -0.067105]], [[-0.530694, 0.131214], [-0.598612, -0.051964], [-0.596228, -0.045444]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  return
}

// the same data with K stored as (batch, k1, k2) and V as (batch, n, k2), read through
// transposed maps: the same result.
func.func @attention_transposed_key_and_value_maps() {
  %q = util.unfoldable_constant dense<[[[-0.83, -0.53, 0.60, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.30, 0.39, -0.41], [-1.00, 0.95, -0.40, -0.37]]]> : tensor<2x3x4xf32>
  %kt = util.unfoldable_constant dense<[[[0.78, -0.94, 0.32, -0.40, 0.66], [0.17, 0.41, 0.86, 0.48, 0.32], [-0.06, -0.25, -0.59, 0.44, 0.37], [0.55, -0.82, 0.26, -0.56, 0.64]], [[-0.14, 0.70, 0.40, 0.12, -0.64], [0.52, -0.21, -0.42, -0.20, 0.49], [0.76, -0.04, 0.74, 0.23, 0.50], [-0.80, -0.71, -0.45, -0.61, 0.13]]]> : tensor<2x4x5xf32>
  %vt = util.unfoldable_constant dense<[[[0.84, 0.70, 0.93, 0.21, 0.57], [-0.59, -0.66, 0.25, 0.94, 0.58]], [[-0.89, -0.83, -0.57, -0.75, -0.01], [-0.26, -0.61, 0.72, -0.41, 0.70]]]> : tensor<2x2x5xf32>
  %m = util.unfoldable_constant dense<[[[-0.07, -0.58, -1.57, -0.91, -0.59], [-1.90, -0.64, -1.26, -0.82, -0.66], [-0.66, -0.95, -0.89, -1.60, -1.01]], [[-1.75, -1.04, -0.93, -0.45, -1.21], [-1.96, -0.94, -1.59, -0.52, -1.22], [-1.24, -0.18, -1.21, -1.30, -1.30]]]> : tensor<2x3x5xf32>
  %scale = arith.constant 0.7 : f32
  %init = tensor.empty() : tensor<2x3x2xf32>
  %o = "iree_linalg_ext.attention"(%q, %kt, %vt, %scale, %m, %init) <{indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}> ({
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<2x2x5xf32>, f32, tensor<2x3x5xf32>, tensor<2x3x2xf32>) -> (tensor<2x3x2xf32>)
  check.expect_almost_eq_const(%o, dense<[[[0.617726, -0.030852], [0.574950, -0.022724], [0.730435, -0.067105]], [[-0.530694, 0.131214], [-0.598612, -0.051964], [-0.596228, -0.045444]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  return
}

// a boolean mask that hides a row's first keys: the row is the softmax over the rest
// (the max starts finite, so masked first scores give no NaN). Row 0 keeps only key 2.
func.func @attention_bool_mask_hides_first_keys() {
  %q = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %k = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]> : tensor<1x3x2xf32>
  %v = util.unfoldable_constant dense<[[[1.0], [2.0], [4.0]]]> : tensor<1x3x1xf32>
  %m = util.unfoldable_constant dense<[[[false, false, true], [false, true, true]]]> : tensor<1x2x3xi1>
  %scale = arith.constant 1.0 : f32
  %init = tensor.empty() : tensor<1x2x1xf32>
  %o = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %m, %init) <{indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}> ({
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }) : (tensor<1x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x1xf32>, f32, tensor<1x2x3xi1>, tensor<1x2x1xf32>) -> (tensor<1x2x1xf32>)
  // row 1: scores 1 (key 1) and 1 (key 2): equal weights, (2 + 4) / 2 = 3
  check.expect_almost_eq_const(%o, dense<[[[4.0], [3.0]]]> : tensor<1x2x1xf32>) : tensor<1x2x1xf32>
  return
}

// online_attention over two blocks of keys (keys 0-1, then key 2), the outs of the first step
// feeding the second, then acc / sum: the same as attention over all three keys.
func.func @online_attention_in_two_key_blocks() {
  %q = util.unfoldable_constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %k01 = util.unfoldable_constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %v01 = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %k2 = util.unfoldable_constant dense<[[1.0, 1.0]]> : tensor<1x2xf32>
  %v2 = util.unfoldable_constant dense<[[4.0]]> : tensor<1x1xf32>
  %scale = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ea = tensor.empty() : tensor<2x1xf32>
  %er = tensor.empty() : tensor<2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<2x1xf32>) -> tensor<2x1xf32>
  %max = linalg.fill ins(%ninf : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %a:3 = "iree_linalg_ext.online_attention"(%q, %k01, %v01, %scale, %acc, %max, %sum) <{indexing_maps = [
      affine_map<(d1, d2, d3, d4) -> (d1, d2)>,
      affine_map<(d1, d2, d3, d4) -> (d3, d2)>,
      affine_map<(d1, d2, d3, d4) -> (d3, d4)>,
      affine_map<(d1, d2, d3, d4) -> ()>,
      affine_map<(d1, d2, d3, d4) -> (d1, d4)>,
      affine_map<(d1, d2, d3, d4) -> (d1)>,
      affine_map<(d1, d2, d3, d4) -> (d1)>]}> ({
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x1xf32>, f32, tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>)
  %b:3 = "iree_linalg_ext.online_attention"(%q, %k2, %v2, %scale, %a#0, %a#1, %a#2) <{indexing_maps = [
      affine_map<(d1, d2, d3, d4) -> (d1, d2)>,
      affine_map<(d1, d2, d3, d4) -> (d3, d2)>,
      affine_map<(d1, d2, d3, d4) -> (d3, d4)>,
      affine_map<(d1, d2, d3, d4) -> ()>,
      affine_map<(d1, d2, d3, d4) -> (d1, d4)>,
      affine_map<(d1, d2, d3, d4) -> (d1)>,
      affine_map<(d1, d2, d3, d4) -> (d1)>]}> ({
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }) : (tensor<2x2xf32>, tensor<1x2xf32>, tensor<1x1xf32>, f32, tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>)
  %eo = tensor.empty() : tensor<2x1xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b#0, %b#2 : tensor<2x1xf32>, tensor<2xf32>) outs(%eo : tensor<2x1xf32>) {
  ^bb0(%x: f32, %s: f32, %_: f32):
    %d = arith.divf %x, %s : f32
    linalg.yield %d : f32
  } -> tensor<2x1xf32>
  // (5e + 2) / (2e + 1) and (6e + 1) / (2e + 1)
  check.expect_almost_eq_const(%o, dense<[[2.422319], [2.689275]]> : tensor<2x1xf32>) : tensor<2x1xf32>
  return
}
