// CASE: a stream op written in the input
// EXPECT: 4:3: error: [input] 'stream.timepoint.immediate': the stream dialect is not input (stream ops are made by ireelab's Stream stage, not read from input)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = stream.timepoint.immediate => !stream.timepoint
  return %a : tensor<4xf32>
}
