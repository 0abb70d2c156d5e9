// CASE: reading one element of a `?`-sized tensor in host code (a read at a run-time index of a static tensor is carried; Stream has no `flow.tensor.load` with dims yet)
// EXPECT: 5:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.extract' is not supported yet
func.func @f(%a: tensor<?xf32>, %n: i32) -> f32 {
  %i = arith.index_cast %n : i32 to index
  %0 = tensor.extract %a[%i] : tensor<?xf32>
  return %0 : f32
}
