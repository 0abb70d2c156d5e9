// CASE: writing one 64-bit element in host code (the fill pattern is at most 32 bits wide; reads of i64 are two 32-bit loads)
// EXPECT: 5:3: error: [stream] 'flow.tensor.store' of i64 elements is not supported (8, 16 or 32 bits)
func.func @f(%a: tensor<4xi64>, %x: i64) -> tensor<4xi64> {
  %c1 = arith.constant 1 : index
  %0 = tensor.insert %x into %a[%c1] : tensor<4xi64>
  return %0 : tensor<4xi64>
}
