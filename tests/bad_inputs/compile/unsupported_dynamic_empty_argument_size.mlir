// CASE: tensor.empty sized by a float argument converted on the host (integer and index arguments are carried: tests/dynamic/test_scalar_argument_sizes.py)
// EXPECT: 6:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.empty' is not supported yet
func.func @f(%s: f32, %x: f32) -> tensor<?xf32> {
  %j = arith.fptosi %s : f32 to i64
  %n = arith.index_cast %j : i64 to index
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
