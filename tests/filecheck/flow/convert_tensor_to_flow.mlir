// RUN: ireelab-compile %s --compile-to=flow | filecheck %s

// A constant pad is a splat plus a copy dispatch tied to it (IREE's slow_memcpy).
func.func @pad(%a: tensor<4x6xf32>) -> tensor<6x10xf32> {
  %c = arith.constant 0.0 : f32
  %p = tensor.pad %a low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x6xf32> to tensor<6x10xf32>
  return %p : tensor<6x10xf32>
}

// An inner-dim concat is an empty tensor and one tied copy dispatch per operand.
func.func @concat(%a: tensor<4x6xf32>, %b: tensor<4x3xf32>) -> tensor<4x9xf32> {
  %r = tensor.concat dim(1) %a, %b : (tensor<4x6xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}

// Contiguous slices stay on the host as flow.tensor.slice / flow.tensor.update.
func.func @contig(%a: tensor<8x16xf32>, %b: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %s = tensor.extract_slice %a[2, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
  %u = tensor.insert_slice %b into %a[5, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %s, %u : tensor<2x16xf32>, tensor<8x16xf32>
}

// A constant of zero elements has no contents: an empty tensor (ONNX's ConstantOfShape of []).
func.func @zero() -> tensor<0xi32> {
  %c = arith.constant dense<0> : tensor<0xi32>
  return %c : tensor<0xi32>
}

// A non-contiguous slice that drops a unit dim: the copy dispatch slices with the unit dim
// kept (the slice folds into its load), a host reshape drops it.
func.func @column(%a: tensor<3x2x2xf32>) -> tensor<3x2xf32> {
  %s = tensor.extract_slice %a[0, 0, 1] [3, 2, 1] [1, 1, 1] : tensor<3x2x2xf32> to tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// CHECK-LABEL: flow.executable private @pad_dispatch_0
// CHECK:         flow.executable.export public @pad_dispatch_0_slow_memcpy
// CHECK:         func.func @pad_dispatch_0_slow_memcpy(%{{.*}}: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x6xf32>>, %[[OUT:.*]]: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6x10xf32>>)
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.*}}, %[[OUT]], offsets = [1, 2], sizes = [4, 6], strides = [1, 1]
// CHECK-LABEL: util.func public @pad(
// CHECK:         %[[SPLAT:.*]] = flow.tensor.splat %{{.*}} : tensor<6x10xf32>
// CHECK:         flow.dispatch @pad_dispatch_0::@pad_dispatch_0_slow_memcpy(%{{.*}}, %[[SPLAT]]) : (tensor<4x6xf32>, tensor<6x10xf32>) -> %[[SPLAT]]
// CHECK-LABEL: flow.executable private @concat_dispatch_1
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.*}}, %{{.*}}, offsets = [0, 6], sizes = [4, 3], strides = [1, 1]
// CHECK-LABEL: util.func public @concat(
// CHECK:         %[[E:.*]] = flow.tensor.empty : tensor<4x9xf32>
// CHECK:         %[[R0:.*]] = flow.dispatch @concat_dispatch_0::@concat_dispatch_0_slow_memcpy(%{{.*}}, %[[E]]) : (tensor<4x6xf32>, tensor<4x9xf32>) -> %[[E]]
// CHECK:         flow.dispatch @concat_dispatch_1::@concat_dispatch_1_slow_memcpy(%{{.*}}, %[[R0]]) : (tensor<4x3xf32>, tensor<4x9xf32>) -> %[[R0]]
// CHECK-LABEL: util.func public @contig(
// CHECK:         %[[A:.*]] = hal.tensor.import
// CHECK:         flow.tensor.slice %[[A]][%{{.*}}, %{{.*}} for %{{.*}}, %{{.*}}] : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK:         flow.tensor.update %{{.*}}, %[[A]][%{{.*}}, %{{.*}}] : tensor<2x16xf32> -> %[[A]] as tensor<8x16xf32>
// CHECK-LABEL: util.func public @zero(
// CHECK:         %[[Z:.*]] = flow.tensor.empty : tensor<0xi32>
// CHECK:         hal.tensor.export %[[Z]]
// CHECK-LABEL: flow.executable private @column_dispatch_0
// CHECK:           iree_tensor_ext.dispatch.tensor.load %{{.*}}, offsets = [0, 0, 1], sizes = [3, 2, 1], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x2x2xf32>> -> tensor<3x2x1xf32>
// CHECK-LABEL: util.func public @column(
// CHECK:         %[[C:.*]] = flow.dispatch @column_dispatch_0::@column_dispatch_0{{.*}}(%{{.*}}) : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
// CHECK:         flow.tensor.reshape %[[C]] : tensor<3x2x1xf32> -> tensor<3x2xf32>
