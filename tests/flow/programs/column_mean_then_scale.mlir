// Mean over dim 0 of a 12x20 matrix followed by an elementwise op on the means: the reduction
// is interchanged (reduction loop innermost) and the elementwise consumer fuses into its
// dispatch, one reduction_20x12_f32 as in IREE.
func.func @column_mean_then_scale(%x: tensor<12x20xf32>) -> tensor<20xf32> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 12.0 : f32
  %k = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<20xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<20xf32>) -> tensor<20xf32>
  %s = linalg.reduce ins(%x : tensor<12x20xf32>) outs(%f : tensor<20xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %e2 = tensor.empty() : tensor<20xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<20xf32>) outs(%e2 : tensor<20xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %n : f32
    %t = arith.mulf %d, %k : f32
    linalg.yield %t : f32
  } -> tensor<20xf32>
  return %m : tensor<20xf32>
}
