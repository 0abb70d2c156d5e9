// ONNX's QuantizeLinear / DequantizeLinear as IREE's importer gives them: per tensor (scalar
// scale and zero point read out of 0-d tensors), per channel (1-D tensors along an axis, with
// a unit dimension FoldUnitExtentDimsPass folds), signed and unsigned, 8 and 16 bits.
func.func @dequant_u8(%x: tensor<8xi8>, %scale: tensor<f32>, %zp: tensor<i8>) -> tensor<8xf32> {
  %s = tensor.extract %scale[] : tensor<f32>
  %z8 = tensor.extract %zp[] : tensor<i8>
  %z = arith.extui %z8 : i8 to i64
  %e = tensor.empty() : tensor<8xf32>
  %r = iree_linalg_ext.dequantize_affine <indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], quant_min = 0, quant_max = 255, input_unsigned> ins(%x, %s, %z : tensor<8xi8>, f32, i64) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @dequant_axis(%x: tensor<1x3x4xi8>, %scale: tensor<3xf32>, %zp: tensor<3xi8>) -> tensor<1x3x4xf32> {
  %e = tensor.empty() : tensor<1x3x4xf32>
  %r = iree_linalg_ext.dequantize_affine <indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], quant_min = 0, quant_max = 255, input_unsigned, zp_unsigned> ins(%x, %scale, %zp : tensor<1x3x4xi8>, tensor<3xf32>, tensor<3xi8>) outs(%e : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %r : tensor<1x3x4xf32>
}

func.func @dequant_i16(%x: tensor<8xi16>, %scale: tensor<f32>, %zp: tensor<i16>) -> tensor<8xf32> {
  %s = tensor.extract %scale[] : tensor<f32>
  %z16 = tensor.extract %zp[] : tensor<i16>
  %z = arith.extsi %z16 : i16 to i64
  %e = tensor.empty() : tensor<8xf32>
  %r = iree_linalg_ext.dequantize_affine <indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], quant_min = -32768, quant_max = 32767> ins(%x, %s, %z : tensor<8xi16>, f32, i64) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @quant_i16(%x: tensor<8xf32>, %scale: tensor<f32>, %zp: tensor<i16>) -> tensor<8xi16> {
  %s = tensor.extract %scale[] : tensor<f32>
  %z16 = tensor.extract %zp[] : tensor<i16>
  %z = arith.extsi %z16 : i16 to i64
  %e = tensor.empty() : tensor<8xi16>
  %r = iree_linalg_ext.quantize_affine <indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], quant_min = -32768, quant_max = 32767> ins(%x, %s, %z : tensor<8xf32>, f32, i64) outs(%e : tensor<8xi16>) -> tensor<8xi16>
  return %r : tensor<8xi16>
}

func.func @quant_u8_axis(%x: tensor<2x3xf32>, %scale: tensor<3xf32>, %zp: tensor<3xi8>) -> tensor<2x3xi8> {
  %e = tensor.empty() : tensor<2x3xi8>
  %r = iree_linalg_ext.quantize_affine <indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], quant_min = 0, quant_max = 255, storage_unsigned, zp_unsigned> ins(%x, %scale, %zp : tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) outs(%e : tensor<2x3xi8>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}
