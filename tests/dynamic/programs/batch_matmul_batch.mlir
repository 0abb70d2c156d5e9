func.func @bmm(%a: tensor<?x4x8xf32>, %b: tensor<?x8x5xf32>) -> tensor<?x4x5xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x4x8xf32>
  %e = tensor.empty(%n) : tensor<?x4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x4x8xf32>, tensor<?x8x5xf32>) outs(%f : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  return %r : tensor<?x4x5xf32>
}
