// CASE: a bitcast must keep the bytes: 4 i8 are 32 bits, 9 packed i4 would be 36
// EXPECT: 4:3: error: [input] flow.tensor.bitcast changes the storage size: tensor<4xi8> holds 32 bits, tensor<9xi4> 36
func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> {
  %a = flow.tensor.bitcast %x : tensor<4xi8> -> tensor<9xi4>
  %e = tensor.empty() : tensor<4xi8>
  return %e : tensor<4xi8>
}
