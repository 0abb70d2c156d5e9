// CASE: a cast left over from a partial conversion (IREE's input legality refuses it too)
// EXPECT: 4:3: error: [input] 'builtin.unrealized_conversion_cast' is left over from a partial conversion
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = builtin.unrealized_conversion_cast %a : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}
