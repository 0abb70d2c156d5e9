// CASE: a pad whose static result size is not the source size plus its static amounts
// EXPECT: 5:3: error: [input] specified type tensor<7xf32> does not match the inferred type
func.func @f(%a: tensor<4xf32>) -> tensor<7xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %cst : f32
  } : tensor<4xf32> to tensor<7xf32>
  return %0 : tensor<7xf32>
}
