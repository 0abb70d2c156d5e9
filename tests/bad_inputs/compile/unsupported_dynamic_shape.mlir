// CASE: a dynamically shaped argument
// EXPECT: 3:1: error: [input] dynamic shape tensor<?xf32> in the signature of '@f' is not supported yet
func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = math.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
