// Max over the middle dim of a 4x8x6 tensor: the reduction loop d1 moves innermost (loops
// 4x6x8), so the dispatch is reduction_4x6x8_f32 as in IREE.
func.func @column_max_3d(%x: tensor<4x8x6xf32>) -> tensor<4x6xf32> {
  %c0 = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = linalg.reduce ins(%x : tensor<4x8x6xf32>) outs(%f : tensor<4x6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.maximumf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s : tensor<4x6xf32>
}
