// RUN: ireelab-opt %s -p iree-dispatch-creation-collapse-dimensions | filecheck %s

// A row slice read whole along its inner dim is one contiguous run: the slice, its consumer
// and the region's result collapse to 1-D; the source's collapse_shape is hoisted out.
util.func public @rows(%a: tensor<8x16xf32>) -> tensor<2x16xf32> {
  %r = flow.dispatch.region -> (tensor<2x16xf32>) {
    %e = tensor.empty() : tensor<2x16xf32>
    %s = tensor.extract_slice %a[2, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = math.exp %in : f32
      linalg.yield %y : f32
    } -> tensor<2x16xf32>
    flow.return %x : tensor<2x16xf32>
  }
  util.return %r : tensor<2x16xf32>
}
// CHECK-LABEL: util.func public @rows
// CHECK:       %[[FLAT:.*]] = tensor.collapse_shape %a {{\[\[}}0 : i64, 1 : i64]] : tensor<8x16xf32> into tensor<128xf32>
// The marker tells ConvertDispatchRegionsToWorkgroups which result sizes this pass computed
// anew (IREE's IR has no such attribute: its sizes are new SSA values there).
// CHECK-NEXT:  %[[R:.*]] = flow.dispatch.region -> (tensor<32xf32>) attributes {ireelab.collapsed_dims} {
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[FLAT]][32] [32] [1] : tensor<128xf32> to tensor<32xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[S]] : tensor<32xf32>)
// CHECK:       tensor.expand_shape %[[R]] {{\[\[}}0 : i64, 1 : i64]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>

// 3-D: the outer dim is read at rows 1..2 and the middle one at 2..4, so only the middle and
// the whole inner dim merge: a 2x48 slice at [1, 32] of 4x128.
util.func public @inner(%a: tensor<4x8x16xf32>) -> tensor<2x3x16xf32> {
  %r = flow.dispatch.region -> (tensor<2x3x16xf32>) {
    %e = tensor.empty() : tensor<2x3x16xf32>
    %s = tensor.extract_slice %a[1, 2, 0] [2, 3, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<2x3x16xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x3x16xf32>) outs(%e : tensor<2x3x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = arith.negf %in : f32
      linalg.yield %y : f32
    } -> tensor<2x3x16xf32>
    flow.return %x : tensor<2x3x16xf32>
  }
  util.return %r : tensor<2x3x16xf32>
}
// CHECK-LABEL: util.func public @inner
// CHECK:       %[[FLAT3:.*]] = tensor.collapse_shape %a {{\[\[}}0 : i64], [1 : i64, 2 : i64]] : tensor<4x8x16xf32> into tensor<4x128xf32>
// CHECK:         tensor.extract_slice %[[FLAT3]][1, 32] [2, 48] [1, 1] : tensor<4x128xf32> to tensor<2x48xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0 : i64], [1 : i64, 2 : i64]] output_shape [2, 3, 16] : tensor<2x48xf32> into tensor<2x3x16xf32>

// A column slice is not one run over its two dims, and strided rows are not either: nothing
// in these regions collapses.
util.func public @columns(%a: tensor<8x16xf32>) -> (tensor<4x8xf32>, tensor<4x16xf32>) {
  %r = flow.dispatch.region -> (tensor<4x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %s = tensor.extract_slice %a[2, 4] [4, 8] [1, 1] : tensor<8x16xf32> to tensor<4x8xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = math.exp %in : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
    flow.return %x : tensor<4x8xf32>
  }
  %q = flow.dispatch.region -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %s = tensor.extract_slice %a[0, 0] [4, 16] [2, 1] : tensor<8x16xf32> to tensor<4x16xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = math.exp %in : f32
      linalg.yield %y : f32
    } -> tensor<4x16xf32>
    flow.return %x : tensor<4x16xf32>
  }
  util.return %r, %q : tensor<4x8xf32>, tensor<4x16xf32>
}
// CHECK-LABEL: util.func public @columns
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       tensor.extract_slice %a[2, 4] [4, 8] [1, 1] : tensor<8x16xf32> to tensor<4x8xf32>
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       tensor.extract_slice %a[0, 0] [4, 16] [2, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// CHECK-NOT:   tensor.expand_shape
