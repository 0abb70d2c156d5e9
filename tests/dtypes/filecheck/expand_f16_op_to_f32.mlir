// RUN: ireelab-opt %s -p iree-llvmcpu-expand-f16-op-to-f32 | filecheck %s

// An f16 op in a linalg body is computed in f32 and rounded back (IREE's test case, maximumf).
func.func @maximumf(%arg0: tensor<4xf16>, %arg1: tensor<4xf16>, %arg2: tensor<4xf16>) -> tensor<4xf16> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<4xf16>, tensor<4xf16>) outs(%arg2 : tensor<4xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %1 = arith.maximumf %in, %in_0 : f16
    linalg.yield %1 : f16
  } -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
// CHECK-LABEL: func.func @maximumf
// CHECK:         ^bb0(%[[IN:.*]]: f16, %[[IN0:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[A:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[B:.*]] = arith.extf %[[IN0]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16

// Every f16 computation is widened (numba has no half type); flags and predicates are kept;
// a comparison needs no truncation; conversions, selects and constants stay f16.
func.func @scalars(%x: f16, %y: f16, %n: i32) -> (f16, i1, f16, f16) {
  %c = arith.constant 1.500000e+00 : f16
  %0 = arith.mulf %x, %c fastmath<fast> : f16
  %1 = arith.cmpf olt, %0, %y : f16
  %2 = arith.select %1, %x, %y : f16
  %3 = math.exp %2 : f16
  %4 = arith.sitofp %n : i32 to f16
  return %0, %1, %3, %4 : f16, i1, f16, f16
}
// CHECK-LABEL: func.func @scalars
// CHECK:         %[[C:.*]] = arith.constant 1.500000e+00 : f16
// CHECK-NEXT:    %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[CW:.*]] = arith.extf %[[C]] : f16 to f32
// CHECK-NEXT:    %[[MW:.*]] = arith.mulf %[[X]], %[[CW]] fastmath<fast> : f32
// CHECK-NEXT:    %[[M:.*]] = arith.truncf %[[MW]] : f32 to f16
// CHECK-NEXT:    %[[MX:.*]] = arith.extf %[[M]] : f16 to f32
// CHECK-NEXT:    %[[YX:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[CMP:.*]] = arith.cmpf olt, %[[MX]], %[[YX]] : f32
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %[[CMP]], %{{.*}}, %{{.*}} : f16
// CHECK-NEXT:    %[[SX:.*]] = arith.extf %[[SEL]] : f16 to f32
// CHECK-NEXT:    %[[EW:.*]] = math.exp %[[SX]] : f32
// CHECK-NEXT:    %[[E:.*]] = arith.truncf %[[EW]] : f32 to f16
// CHECK-NEXT:    %[[I:.*]] = arith.sitofp %{{.*}} : i32 to f16
// CHECK-NEXT:    func.return %[[M]], %[[CMP]], %[[E]], %[[I]] : f16, i1, f16, f16

// f32 and integer ops are left alone.
func.func @untouched(%x: f32, %i: i8) -> (f32, i8) {
  %0 = arith.addf %x, %x : f32
  %1 = arith.addi %i, %i : i8
  return %0, %1 : f32, i8
}
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    %{{.*}} = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %{{.*}} = arith.addi %{{.*}}, %{{.*}} : i8
