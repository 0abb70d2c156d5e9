// CASE: a string attribute that runs to the end of the file
// EXPECT: 3:69: error: End of file reached before closing string literal.
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {note = "abc
} {
  return %a : tensor<2xf32>
}
