// complex<f32> built in a linalg body (complex.create), squared and added (complex.mul / add),
// its magnitude and parts read (complex.abs / re / im), transposed and read back as pairs of f32
// (iree_tensor_ext.bitcast, as IREE's importer writes ONNX's STFT result).
func.func @cplx(%re: tensor<4x8xf32>, %im: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4x2xf32>) {
  %e = tensor.empty() : tensor<4x8xcomplex<f32>>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%re, %im : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xcomplex<f32>>) {
  ^bb0(%a: f32, %b: f32, %o: complex<f32>):
    %c = complex.create %a, %b : complex<f32>
    %sq = complex.mul %c, %c : complex<f32>
    %s = complex.add %sq, %c : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<4x8xcomplex<f32>>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<4x8xcomplex<f32>>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%c: complex<f32>, %o: f32):
    %m = complex.abs %c : complex<f32>
    %r = complex.re %c : complex<f32>
    %i = complex.im %c : complex<f32>
    %d = arith.subf %r, %i : f32
    %x = arith.addf %m, %d : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<8x4xcomplex<f32>>
  %t = linalg.transpose ins(%z : tensor<4x8xcomplex<f32>>) outs(%e3 : tensor<8x4xcomplex<f32>>) permutation = [1, 0]
  %b = iree_tensor_ext.bitcast %t : tensor<8x4xcomplex<f32>> -> tensor<8x4x2xf32>
  return %mag, %b : tensor<4x8xf32>, tensor<8x4x2xf32>
}
