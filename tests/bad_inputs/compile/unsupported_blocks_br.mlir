// CASE: a function body of two blocks joined by cf.br (IREE accepts it; ireelab compiles single-block bodies)
// EXPECT: 4:3: error: [input] 'cf.br': control flow between blocks is not supported ('@f' has 2 blocks; ireelab compiles single-block regions)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1(%a : tensor<4xf32>)
^bb1(%x: tensor<4xf32>):
  return %x : tensor<4xf32>
}
