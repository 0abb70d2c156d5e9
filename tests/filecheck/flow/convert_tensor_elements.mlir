// RUN: ireelab-compile %s --compile-to=flow | filecheck %s

// A scalar read by a dispatch stays a tensor.extract of the loaded operand inside it.
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_dispatch(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = tensor.extract %a[%c1, %c2] : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m2 = arith.mulf %i, %s : f32
    linalg.yield %m2 : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// A host read is flow.tensor.load, a host write flow.tensor.store.
func.func @on_host(%a: tensor<4x6xf32>, %x: f32) -> (f32, tensor<4x6xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = tensor.extract %a[%c1, %c2] : tensor<4x6xf32>
  %r = tensor.insert %x into %a[%c2, %c1] : tensor<4x6xf32>
  return %s, %r : f32, tensor<4x6xf32>
}

// A splat of a runtime scalar stays a tensor.splat on the host (as in IREE 3.13); a splat of
// a constant folds into the dispatch as a scalar constant.
func.func @splats(%x: f32, %b: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %sp = tensor.splat %x : tensor<4x6xf32>
  %k = arith.constant 3.0 : f32
  %sk = tensor.splat %k : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#m, #m, #m, #m], iterator_types = ["parallel", "parallel"]} ins(%b, %sp, %sk : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%i: f32, %j: f32, %l: f32, %o: f32):
    %m2 = arith.mulf %i, %j : f32
    %m3 = arith.addf %m2, %l : f32
    linalg.yield %m3 : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// CHECK-LABEL: flow.executable private @in_dispatch_dispatch_0
// CHECK:         func.func @in_dispatch_dispatch_0_elementwise_24_f32(%[[A:.*]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x6xf32>>
// CHECK:           %[[T:.*]] = iree_tensor_ext.dispatch.tensor.load %[[A]], offsets = [0, 0], sizes = [4, 6]
// CHECK:           tensor.extract %[[T]][%{{.*}}, %{{.*}}] : tensor<4x6xf32>
// CHECK-LABEL: util.func public @in_dispatch(
// CHECK-NOT:     tensor.extract
// CHECK:         flow.dispatch @in_dispatch_dispatch_0::@in_dispatch_dispatch_0_elementwise_24_f32
// CHECK-LABEL: util.func public @on_host(
// CHECK:         %[[V:.*]] = flow.tensor.load %{{.*}}[%[[C1:.*]], %[[C2:.*]]] : tensor<4x6xf32>
// CHECK:         %[[R:.*]] = flow.tensor.store %arg1, %{{.*}}[%[[C2]], %[[C1]]] : tensor<4x6xf32>
// CHECK:         util.return %[[V]]
// CHECK-LABEL: flow.executable private @splats_dispatch_0
// CHECK:           %{{.*}} = arith.constant 3.000000e+00 : f32
// CHECK-LABEL: util.func public @splats(
// CHECK:         %[[SP:.*]] = tensor.splat %arg0 : tensor<4x6xf32>
// CHECK:         flow.tensor.reshape %[[SP]] : tensor<4x6xf32> -> tensor<24xf32>
// CHECK:         flow.dispatch @splats_dispatch_0::@splats_dispatch_0_elementwise_24_f32
