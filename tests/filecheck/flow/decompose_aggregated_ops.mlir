// RUN: ireelab-opt %s -p iree-linalg-ext-decompose-aggregated-ops | filecheck %s

// Unsigned u8 per tensor, an i64 zero point: the integers meet at i16 (twice the storage
// width); the zero point is truncated to it.
util.func public @dequant_u8(%x: tensor<4xi8>, %s: f32, %z: i64) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = iree_linalg_ext.dequantize_affine <indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], quant_min = 0, quant_max = 255, input_unsigned> ins(%x, %s, %z : tensor<4xi8>, f32, i64) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  util.return %r : tensor<4xf32>
}
// CHECK-LABEL: util.func public @dequant_u8
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK:       ^bb0(%[[IN:.+]]: i8, %[[S:.+]]: f32, %[[Z:.+]]: i64, %{{.+}}: f32):
// CHECK-NEXT:    %[[A:.+]] = arith.extui %[[IN]] : i8 to i16
// CHECK-NEXT:    %[[B:.+]] = arith.trunci %[[Z]] : i64 to i16
// CHECK-NEXT:    %[[D:.+]] = arith.subi %[[A]], %[[B]] : i16
// CHECK-NEXT:    %[[F:.+]] = arith.sitofp %[[D]] : i16 to f32
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[F]], %[[S]] : f32
// CHECK-NEXT:    linalg.yield %[[M]] : f32
// CHECK-NOT:   dequantize_affine

// Per channel, a u8 zero-point tensor: both integers zero-extended, the maps kept.
util.func public @dequant_axis(%x: tensor<3x2xi8>, %s: tensor<3xf32>, %z: tensor<3xi8>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = iree_linalg_ext.dequantize_affine <indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], quant_min = 0, quant_max = 255, input_unsigned, zp_unsigned> ins(%x, %s, %z : tensor<3x2xi8>, tensor<3xf32>, tensor<3xi8>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  util.return %r : tensor<3x2xf32>
}
// CHECK-LABEL: util.func public @dequant_axis
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK:       ^bb0(%[[IN:.+]]: i8, %[[S:.+]]: f32, %[[Z:.+]]: i8, %{{.+}}: f32):
// CHECK-NEXT:    %[[A:.+]] = arith.extui %[[IN]] : i8 to i16
// CHECK-NEXT:    %[[B:.+]] = arith.extui %[[Z]] : i8 to i16
// CHECK-NEXT:    arith.subi %[[A]], %[[B]] : i16

// Signed i16 quantize: divide, round half to even, add the zero point, clamp with float
// constants built in the body, convert.
util.func public @quant_i16(%x: tensor<16xf32>, %s: f32, %z: i64) -> tensor<16xi16> {
  %e = tensor.empty() : tensor<16xi16>
  %r = iree_linalg_ext.quantize_affine <indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], quant_min = -32768, quant_max = 32767> ins(%x, %s, %z : tensor<16xf32>, f32, i64) outs(%e : tensor<16xi16>) -> tensor<16xi16>
  util.return %r : tensor<16xi16>
}
// CHECK-LABEL: util.func public @quant_i16
// CHECK:       ^bb0(%[[IN:.+]]: f32, %[[S:.+]]: f32, %[[Z:.+]]: i64, %{{.+}}: i16):
// CHECK-NEXT:    %[[Q:.+]] = arith.divf %[[IN]], %[[S]] : f32
// CHECK-NEXT:    %[[R:.+]] = math.roundeven %[[Q]] : f32
// CHECK-NEXT:    %[[ZF:.+]] = arith.sitofp %[[Z]] : i64 to f32
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[R]], %[[ZF]] : f32
// CHECK-NEXT:    %[[LO:.+]] = arith.constant -3.276800e+04 : f32
// CHECK-NEXT:    %[[HI:.+]] = arith.constant 3.276700e+04 : f32
// CHECK-NEXT:    %[[MX:.+]] = arith.maxnumf %[[A]], %[[LO]] : f32
// CHECK-NEXT:    %[[MN:.+]] = arith.minnumf %[[MX]], %[[HI]] : f32
// CHECK-NEXT:    %[[I:.+]] = arith.fptosi %[[MN]] : f32 to i16
// CHECK-NEXT:    linalg.yield %[[I]] : i16

// Unsigned storage and zero point: uitofp in, fptoui out.
util.func public @quant_u8(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<3xi8>) -> tensor<2x3xi8> {
  %e = tensor.empty() : tensor<2x3xi8>
  %r = iree_linalg_ext.quantize_affine <indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], quant_min = 0, quant_max = 255, storage_unsigned, zp_unsigned> ins(%x, %s, %z : tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) outs(%e : tensor<2x3xi8>) -> tensor<2x3xi8>
  util.return %r : tensor<2x3xi8>
}
// CHECK-LABEL: util.func public @quant_u8
// CHECK:         arith.uitofp %{{.+}} : i8 to f32
// CHECK:         arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.constant 2.550000e+02 : f32
// CHECK:         arith.fptoui %{{.+}} : f32 to i8
