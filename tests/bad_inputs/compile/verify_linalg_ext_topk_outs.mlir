// CASE: iree_linalg_ext.topk with output values and indices of different shapes
// EXPECT: 4:3: error: [input] 'iree_linalg_ext.topk' outs must have one shape
func.func @f(%x: tensor<8xf32>, %v: tensor<3xf32>, %i: tensor<2xi32>) -> tensor<3xf32> {
  %0:2 = iree_linalg_ext.topk dimension(0) ins(%x : tensor<8xf32>) outs(%v, %i : tensor<3xf32>, tensor<2xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %c : i1
  } -> tensor<3xf32>, tensor<2xi32>
  return %0#0 : tensor<3xf32>
}
