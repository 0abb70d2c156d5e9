// linalg.map in MLIR's current form: the body's last argument is the init's element.
func.func @map(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %m = linalg.map ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
    (%x: f32, %y: f32, %init: f32) {
      %s = arith.mulf %x, %y : f32
      %t = math.exp %s : f32
      linalg.yield %t : f32
    }
  return %m : tensor<4x8xf32>
}
