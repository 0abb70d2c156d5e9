// RUN: ireelab-compile %s --compile-to=flow | filecheck %s

// A strided extract_slice on the host folds into a strided load of the argument's binding:
// the dispatch only copies, and is IREE's slow_memcpy (as iree-compile --compile-to=flow).
func.func @strided(%a: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %r = tensor.extract_slice %a[1, 4] [4, 8] [2, 1] : tensor<8x16xf32> to tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A strided insert_slice folds into a strided store into the tied readwrite binding.
func.func @strided_insert(%a: tensor<8x16xf32>, %b: tensor<4x8xf32>) -> tensor<8x16xf32> {
  %r = tensor.insert_slice %b into %a[1, 0] [4, 8] [2, 2] : tensor<4x8xf32> into tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// CHECK-LABEL: flow.executable private @strided_dispatch_0
// CHECK:         flow.executable.export public @strided_dispatch_0_slow_memcpy
// CHECK:           iree_tensor_ext.dispatch.tensor.load %{{.*}}, offsets = [1, 4], sizes = [4, 8], strides = [2, 1]
// CHECK-NOT:       tensor.extract_slice
// CHECK-LABEL: flow.executable private @strided_insert_dispatch_0
// CHECK:         flow.executable.export public @strided_insert_dispatch_0_slow_memcpy
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.*}}, %{{.*}}, offsets = [1, 0], sizes = [4, 8], strides = [2, 2]
// CHECK-SAME:        -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8x16xf32>>
