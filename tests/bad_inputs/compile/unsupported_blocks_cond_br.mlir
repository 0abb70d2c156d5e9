// CASE: a conditional branch between blocks choosing which tensor to return
// EXPECT: 4:3: error: [input] 'cf.cond_br': control flow between blocks is not supported ('@f' has 3 blocks; ireelab compiles single-block regions)
func.func @f(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : tensor<4xf32>
^bb2:
  %e = math.exp %b : tensor<4xf32>
  return %e : tensor<4xf32>
}
