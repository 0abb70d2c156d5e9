// A linalg.transpose (4x6 -> 6x4), then a sum over dim 0 of the result: the transpose is folded
// into the reduction, which reads x through (d1, d0) with its reduction loop outermost;
// TransposeGenericOps moves it innermost, so the dispatch is reduction_4x6_f32 as in IREE.
func.func @reduce_of_transpose_op(%x: tensor<4x6xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x6xf32>) outs(%et : tensor<6x4xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%t : tensor<6x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s : tensor<4xf32>
}
