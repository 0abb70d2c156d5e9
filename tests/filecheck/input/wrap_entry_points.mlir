// RUN: ireelab-opt %s -p iree-abi-wrap-entry-points | filecheck %s

// A public function gets a buffer-view wrapper; the original becomes private `_matmul`.
util.func public @matmul(%lhs: tensor<2x4xf32>, %rhs: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %0 = tensor.empty() : tensor<2x2xf32>
  util.return %0 : tensor<2x2xf32>
}
// CHECK:      util.func private @_matmul(%{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<4x2xf32>) -> tensor<2x2xf32>
// CHECK:      util.func public @matmul(%[[A:.*]]: !hal.buffer_view, %[[B:.*]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK-SAME:   iree.abi.stub
// CHECK-SAME:   iree.abi.declaration = "sync func @matmul(%input0: tensor<2x4xf32>, %input1: tensor<4x2xf32>) -> (%output0: tensor<2x2xf32>)"
// CHECK:        %[[IA:.*]] = hal.tensor.import %[[A]] "input0" : !hal.buffer_view -> tensor<2x4xf32>
// CHECK:        %[[IB:.*]] = hal.tensor.import %[[B]] "input1" : !hal.buffer_view -> tensor<4x2xf32>
// CHECK:        %[[R:.*]] = util.call @_matmul(%[[IA]], %[[IB]]) : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
// CHECK:        %[[E:.*]] = hal.tensor.export %[[R]] "output0" : tensor<2x2xf32> -> !hal.buffer_view
// CHECK:        util.return %[[E]] : !hal.buffer_view

// Scalars pass through the ABI unchanged; private functions are not wrapped.
util.func public @scale(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  util.return %x : tensor<4xf32>
}
util.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  util.return %x : tensor<4xf32>
}
// CHECK:      util.func public @scale(%[[X:.*]]: !hal.buffer_view, %[[S:.*]]: f32) -> !hal.buffer_view
// CHECK:        hal.tensor.import %[[X]] "input0"
// CHECK:        util.call @_scale(%{{.*}}, %[[S]])
// CHECK:      util.func private @helper
// CHECK-NOT:  util.func public @helper
