func.func @map_chain(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %s = linalg.map { arith.addf } ins(%a, %b : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>)
  %x = linalg.map { math.exp } ins(%s : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>)
  %m = linalg.map { arith.mulf } ins(%x, %a : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>)
  return %m : tensor<32x64xf32>
}
