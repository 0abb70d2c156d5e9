// CASE: a complex element type an arith op's constraint refuses while parsing
// EXPECT: 7:5: error: Unexpected attribute complex<f32>
func.func @f(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %e = tensor.empty() : tensor<4xcomplex<f32>>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xcomplex<f32>>) outs(%e : tensor<4xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %o: complex<f32>):
    %r = arith.addf %x, %x : complex<f32>
    linalg.yield %r : complex<f32>
  } -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
