// CASE: an index tensor crossing the ABI
// EXPECT: 3:1: error: [stream] cannot size elements of type index
func.func @f(%a: tensor<4xindex>) -> tensor<4xindex> {
  return %a : tensor<4xindex>
}
