// CASE: padding amounts computed at run time
// EXPECT: 5:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.pad' is not supported yet
func.func @f(%a: tensor<4xf32>, %lo: index) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[%lo] high[2] {
  ^bb0(%i: index):
    tensor.yield %cst : f32
  } : tensor<4xf32> to tensor<?xf32>
  %s = tensor.cast %0 : tensor<?xf32> to tensor<6xf32>
  return %s : tensor<6xf32>
}
