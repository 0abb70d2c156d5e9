// RUN: ireelab-opt %s -p inline,symbol-dce | filecheck %s

// Calls of single-block private functions are inlined, then the unused callees removed.
util.func public @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = util.call @g(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
util.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = util.call @h(%x) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
util.func private @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
// CHECK:      util.func public @f(%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:   util.return %[[S]] : tensor<4xf32>
// CHECK-NOT:  util.func private
