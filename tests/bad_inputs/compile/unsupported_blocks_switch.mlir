// CASE: a cf.switch over three blocks
// EXPECT: 4:3: error: [input] 'cf.switch': control flow between blocks is not supported ('@f' has 3 blocks; ireelab compiles single-block regions)
func.func @f(%i: i32, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  cf.switch %i : i32, [
    default: ^bb1,
    0: ^bb2
  ]
^bb1:
  return %a : tensor<4xf32>
^bb2:
  return %b : tensor<4xf32>
}
