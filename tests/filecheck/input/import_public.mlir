// RUN: ireelab-opt %s -p iree-import-public | filecheck %s

// func.func / func.call / func.return become util.func / util.call / util.return.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK:      util.func public @main(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %[[C:.*]] = util.call @twice(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   util.return %[[C]] : tensor<4xf32>
// CHECK:      util.func private @twice
// CHECK-NOT:  func.func
