// CASE: a dynamically shaped argument reaching an op that does not carry `?` sizes yet
// EXPECT: 4:3: error: [input] dynamic shape tensor<?xf32> of 'math.exp' is not supported yet
func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = math.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
