// A `?`-sized input padded by amounts read from an input, then cropped at offsets and sizes
// read from another (ONNX's CenterCropPad pads, then slices the padded tensor): a `?` source
// and a `?` result for both the pad's copy dispatch and the crop's.
func.func @pad_crop(%x: tensor<?x?xf32>, %pads: tensor<4xi64>, %crop: tensor<4xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = arith.constant 0.5 : f32
  %lo0_64 = tensor.extract %pads[%c0] : tensor<4xi64>
  %lo1_64 = tensor.extract %pads[%c1] : tensor<4xi64>
  %hi0_64 = tensor.extract %pads[%c2] : tensor<4xi64>
  %hi1_64 = tensor.extract %pads[%c3] : tensor<4xi64>
  %lo0 = arith.index_cast %lo0_64 : i64 to index
  %lo1 = arith.index_cast %lo1_64 : i64 to index
  %hi0 = arith.index_cast %hi0_64 : i64 to index
  %hi1 = arith.index_cast %hi1_64 : i64 to index
  %p = tensor.pad %x low[%lo0, %lo1] high[%hi0, %hi1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %o0_64 = tensor.extract %crop[%c0] : tensor<4xi64>
  %o1_64 = tensor.extract %crop[%c1] : tensor<4xi64>
  %n0_64 = tensor.extract %crop[%c2] : tensor<4xi64>
  %n1_64 = tensor.extract %crop[%c3] : tensor<4xi64>
  %o0 = arith.index_cast %o0_64 : i64 to index
  %o1 = arith.index_cast %o1_64 : i64 to index
  %n0 = arith.index_cast %n0_64 : i64 to index
  %n1 = arith.index_cast %n1_64 : i64 to index
  %r = tensor.extract_slice %p[%o0, %o1] [%n0, %n1] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
