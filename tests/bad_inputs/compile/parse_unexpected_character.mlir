// CASE: a character the MLIR lexer does not know
// EXPECT: 4:29: error: Unexpected character: $
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32> $
}
