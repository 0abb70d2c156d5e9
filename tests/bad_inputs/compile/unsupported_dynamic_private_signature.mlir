// CASE: a dynamically shaped private function called with a static tensor: once inlined, its math on a `?` tensor is refused
// EXPECT: 4:3: error: [input] dynamic shape tensor<?xf32> of 'math.exp' is not supported yet
func.func private @g(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = math.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %d = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %0 = func.call @g(%d) : (tensor<?xf32>) -> tensor<?xf32>
  %s = tensor.cast %0 : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
