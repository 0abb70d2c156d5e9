// CASE: a splat constant too large to materialise
// EXPECT: 4:3: error: cannot build this operation (MemoryError)
func.func @f(%a: tensor<100000x100000x100000xf32>) -> tensor<100000x100000x100000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000x100000x100000xf32>
  return %c : tensor<100000x100000x100000xf32>
}
