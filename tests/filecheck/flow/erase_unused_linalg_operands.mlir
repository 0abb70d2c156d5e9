// RUN: ireelab-opt %s -p iree-global-opt-erase-unused-linalg-operands | filecheck %s

// One generic with everything the patterns remove: an unused accumulation result (its
// addf, its mulf and its init %c go), a repeated input (%a twice, same map), and a result
// repeating another (same init %e, same map, same yielded %p). The consumer then reads one
// value twice and its own repeated input merges too. As `iree-opt` prints it.
util.func public @multi(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %er = tensor.empty() : tensor<8xf32>
  %fr = linalg.fill ins(%c0 : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %r:4 = "linalg.generic"(%a, %b, %a, %c, %e, %fr, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 3, 4>}> ({
  ^bb0(%x: f32, %y: f32, %x2: f32, %acc: f32, %o: f32, %mx: f32, %o2: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %x, %x2 : f32
    %s = arith.addf %q, %acc : f32
    %m = arith.addf %mx, %x2 : f32
    linalg.yield %s, %p, %m, %p : f32, f32, f32, f32
  }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>)
  %e2 = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r#1, %r#3 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%u: f32, %z: f32, %o3: f32):
    %v = arith.subf %u, %z : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  util.return %n, %r#2 : tensor<8x16xf32>, tensor<8xf32>
}
// CHECK-LABEL: util.func public @multi
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[P:.*]], %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e, %[[FILL]] : tensor<8x16xf32>, tensor<8xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32, %[[MX:.*]]: f32):
// CHECK-NEXT:      %[[PV:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[MV:.*]] = arith.addf %[[MX]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[PV]], %[[MV]] : f32, f32
// CHECK-NEXT:    } -> (tensor<8x16xf32>, tensor<8xf32>)
// CHECK:         %[[N:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<8x16xf32>)
// CHECK-NEXT:    ^bb0(%[[U:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.subf %[[U]], %[[U]] : f32
// CHECK:         util.return %[[N]], %[[M]]

// A generic none of whose results is used goes entirely, with the fill feeding it.
util.func public @dead(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %fr = linalg.fill ins(%c0 : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x16xf32>) outs(%fr : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  util.return %a : tensor<8x16xf32>
}
// CHECK-LABEL: util.func public @dead
// CHECK-NEXT:    util.return %a

// An unread input whose map alone gives a loop its range stays (canOpOperandsBeDropped);
// an unread input whose loops other operands give goes.
util.func public @keep_loop_range(%a: tensor<8x16xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %o, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  util.return %r : tensor<8xf32>
}
// CHECK-LABEL: util.func public @keep_loop_range
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8xf32>)
