// Columns of three inputs side by side, two of them ?-wide: DecomposeConcatPass makes an empty
// tensor and one insert_slice per input at the running sum of the widths; each is a copy
// dispatch (slow_memcpy) tied to the result, its offset and sizes in its workload.
func.func @cat(%a: tensor<4x?xf32>, %b: tensor<4x2xf32>, %c: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %r = tensor.concat dim(1) %a, %b, %c : (tensor<4x?xf32>, tensor<4x2xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
