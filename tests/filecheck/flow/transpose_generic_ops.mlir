// RUN: ireelab-opt %s -p iree-dispatch-creation-transpose-generic-ops | filecheck %s

// A column sum (reduction loop outermost) is interchanged: parallel loop first, reduction loop
// innermost; the input map carries the transposition.
util.func public @column_sum(%x: tensor<8x16xf32>, %acc: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  util.return %r : tensor<16xf32>
}
// CHECK-LABEL: util.func public @column_sum
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<16xf32>)

// Reducing the middle dim of a 3-D tensor: parallel loops d0, d2 keep their order, d1 goes last;
// linalg.index follows its loop.
util.func public @middle_max(%x: tensor<4x8x6xf32>, %acc: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<4x8x6xf32>) outs(%acc : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 2 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %v = arith.addf %in, %f : f32
    %m = arith.maximumf %v, %out : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  util.return %r : tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @middle_max
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:         linalg.index 1 : index
// CHECK-NOT:     linalg.index 2

// The reduction loop is already innermost: left alone.
util.func public @row_sum(%x: tensor<8x16xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  util.return %r : tensor<8xf32>
}
// CHECK-LABEL: util.func public @row_sum
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}

// An elementwise consumer reads a single-use reduction result through a transposition: its loops
// are interchanged so it reads in order, and its output map carries the transposition.
util.func public @transposed_consumer(%x: tensor<4x6x8xf32>, %acc: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x6x8xf32>) outs(%acc : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6x4xf32>
  util.return %t : tensor<6x4xf32>
}
// CHECK-LABEL: util.func public @transposed_consumer
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}

// The reduction result has a second user: the consumer keeps its loop order.
util.func public @multi_use_producer(%x: tensor<4x6x8xf32>, %acc: tensor<4x6xf32>) -> (tensor<6x4xf32>, tensor<4x6xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x6x8xf32>) outs(%acc : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6x4xf32>
  util.return %t, %r : tensor<6x4xf32>, tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @multi_use_producer
// CHECK:       linalg.generic
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}

// A transposed read of an elementwise producer (here a fill) does not count: left alone.
util.func public @elementwise_producer(%v: f32) -> tensor<6x4xf32> {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%v : f32) outs(%e0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6x4xf32>
  util.return %t : tensor<6x4xf32>
}
// CHECK-LABEL: util.func public @elementwise_producer
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}

// A matmul result read in order by the consumer: "already normalized", so the transposed read
// of the second reduction result is not used either.
util.func public @identity_read_first(%a: tensor<4x5xf32>, %b: tensor<5x4xf32>, %c: tensor<4x4xf32>, %x: tensor<4x4x3xf32>, %acc: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x3xf32>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %r : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  util.return %t : tensor<4x4xf32>
}
// CHECK-LABEL: util.func public @identity_read_first
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}

// Two reduction loops listed by the input in the order (d2, d1): they are swapped so the maps
// name them in ascending order.
util.func public @reduction_dims_order(%x: tensor<4x6x5xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<4x6x5xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %r : tensor<4xf32>
}
// CHECK-LABEL: util.func public @reduction_dims_order
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}

// Two inputs disagree on the order of the reduction loops: no pair is swapped.
util.func public @reduction_dims_conflict(%x: tensor<4x6x5xf32>, %y: tensor<4x5x6xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x, %y : tensor<4x6x5xf32>, tensor<4x5x6xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %r : tensor<4xf32>
}
// CHECK-LABEL: util.func public @reduction_dims_conflict
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
