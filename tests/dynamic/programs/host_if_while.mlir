// Host control flow that carries tensors, as ONNX's If and Loop (with a condition) import:
// `scf.if` picks one of two computed tensors by a flag read back from the input, and
// `scf.while` doubles %x until its first element is at least %limit (the test of the
// `before` region reads the carried tensor on the host).
func.func @pick(%flag: tensor<i32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %f = tensor.extract %flag[] : tensor<i32>
  %c0_i32 = arith.constant 0 : i32
  %cond = arith.cmpi ne, %f, %c0_i32 : i32
  %r = scf.if %cond -> (tensor<4xf32>) {
    %s = arith.addf %a, %b : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %d = arith.subf %a, %b : tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @double_until(%x: tensor<4xf32>, %limit: tensor<f32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %l = tensor.extract %limit[] : tensor<f32>
  %r = scf.while (%v = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %first = tensor.extract %v[%c0] : tensor<4xf32>
    %go = arith.cmpf olt, %first, %l : f32
    scf.condition(%go) %v : tensor<4xf32>
  } do {
  ^bb0(%w: tensor<4xf32>):
    %twice = arith.addf %w, %w : tensor<4xf32>
    scf.yield %twice : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
