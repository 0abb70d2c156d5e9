// CASE: packed i4 tensors cannot cross the ABI: buffer views hold whole-byte elements
// EXPECT: 3:1: error: [input] tensor<4xi4> in a public function's signature is not supported
func.func @f(%a: tensor<4xi4>) -> tensor<4xi4> {
  %e = tensor.empty() : tensor<4xi4>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi4>) outs(%e : tensor<4xi4>) {
  ^bb0(%x: i4, %o: i4):
    %r = arith.addi %x, %x : i4
    linalg.yield %r : i4
  } -> tensor<4xi4>
  return %0 : tensor<4xi4>
}
