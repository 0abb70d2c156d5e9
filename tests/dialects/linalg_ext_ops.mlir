func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>, %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3xf32>, %win: tensor<2x2xf32>, %x: tensor<3x4xi8>, %y: tensor<4x3xi8>) -> tensor<2x3x5xf32> {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x5xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %mv = linalg.matvec ins(%m, %v : tensor<3x4xf32>, tensor<4xf32>) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %vm = linalg.vecmat ins(%mv, %m : tensor<3xf32>, tensor<3x4xf32>) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %d = linalg.dot ins(%v, %vm : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<f32>) -> tensor<f32>
  %ec = tensor.empty() : tensor<1x6x6x3xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %k : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) outs(%ec : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  %ep = tensor.empty() : tensor<1x4x4x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%img, %win : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%ep : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %ps = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%img, %win : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%ep : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %dv = linalg.div ins(%p, %ps : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) outs(%ep : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %t = linalg.tanh ins(%dv : tensor<1x4x4x3xf32>) outs(%ep : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %mp = linalg.map { arith.addf } ins(%t, %dv : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) outs(%ep : tensor<1x4x4x3xf32>)
  %mp2 = linalg.map ins(%mp : tensor<1x4x4x3xf32>) outs(%ep : tensor<1x4x4x3xf32>)
    (%in: f32, %init: f32) {
      %z = math.exp %in : f32
      linalg.yield %z : f32
    }
  %ei = tensor.empty() : tensor<3x3xi32>
  %im = linalg.matmul ins(%x, %y : tensor<3x4xi8>, tensor<4x3xi8>) outs(%ei : tensor<3x3xi32>) -> tensor<3x3xi32>
  %em = tensor.empty() : tensor<3x3xf32>
  %tm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%m, %m : tensor<3x4xf32>, tensor<3x4xf32>) outs(%em : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<2x3x5xf32>
}
