// CASE: a memref crossing the ABI
// EXPECT: 3:1: error: [vm] type memref<4xf32> has no VM equivalent
func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
