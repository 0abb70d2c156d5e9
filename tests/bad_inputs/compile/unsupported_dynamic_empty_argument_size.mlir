// CASE: tensor.empty sized by a scalar function argument (not carried yet: sizes come from shapes and tensor elements)
// EXPECT: 4:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.empty' is not supported yet
func.func @f(%n: index, %x: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
