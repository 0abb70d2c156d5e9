// Host `scf.if` / `scf.while` whose regions read tensors computed outside them and compute
// tensors in the condition: `@shift` multiplies before the if and adds or subtracts in the
// branches (the product's dispatch stays before the if); `@halve_while_big` sums |x| in the
// `before` region (a reduction dispatch there) and halves %x while the sum exceeds %limit.
func.func @shift(%flag: tensor<i32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %m = arith.mulf %a, %b : tensor<4xf32>
  %f = tensor.extract %flag[] : tensor<i32>
  %c0_i32 = arith.constant 0 : i32
  %cond = arith.cmpi sgt, %f, %c0_i32 : i32
  %r = scf.if %cond -> (tensor<4xf32>) {
    %s = arith.addf %m, %a : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %d = arith.subf %m, %b : tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @halve_while_big(%x: tensor<4xf32>, %limit: tensor<f32>) -> tensor<4xf32> {
  %l = tensor.extract %limit[] : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %r = scf.while (%v = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %sum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                           iterator_types = ["reduction"]}
        ins(%v : tensor<4xf32>) outs(%init : tensor<f32>) {
    ^bb0(%in: f32, %acc: f32):
      %abs = math.absf %in : f32
      %add = arith.addf %abs, %acc : f32
      linalg.yield %add : f32
    } -> tensor<f32>
    %s = tensor.extract %sum[] : tensor<f32>
    %go = arith.cmpf ogt, %s, %l : f32
    scf.condition(%go) %v : tensor<4xf32>
  } do {
  ^bb0(%w: tensor<4xf32>):
    %half = arith.constant dense<0.5> : tensor<4xf32>
    %h = arith.mulf %w, %half : tensor<4xf32>
    scf.yield %h : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
