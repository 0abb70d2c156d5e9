// CASE: an op of an unknown dialect in generic form, with no operands
// EXPECT: 4:4: error: unknown operation 'foo.bar': dialect 'foo' is not supported
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  "foo.bar"() : () -> ()
  return %a : tensor<4xf32>
}
