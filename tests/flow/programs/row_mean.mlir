func.func @row_mean(%x: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.reduce ins(%x : tensor<128x256xf32>) outs(%f : tensor<128xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %e2 = tensor.empty() : tensor<128x256xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<128x256xf32>, tensor<128xf32>) outs(%e2 : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.divf %b, %n : f32
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<128x256xf32>
  return %c : tensor<128x256xf32>
}
