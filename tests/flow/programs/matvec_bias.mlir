func.func @matvec_bias(%m: tensor<64x128xf32>, %v: tensor<128xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %mv = linalg.matvec ins(%m, %v : tensor<64x128xf32>, tensor<128xf32>) outs(%f : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.map { arith.addf } ins(%mv, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>)
  return %r : tensor<64xf32>
}
