// CASE: vector values in a function
// EXPECT: 3:1: error: [input] type vector<4xf32> is not supported (ireelab compiles ops on ranked tensors and scalars)
func.func @f(%a: vector<4xf32>) -> vector<4xf32> {
  %0 = arith.addf %a, %a : vector<4xf32>
  return %0 : vector<4xf32>
}
