// RUN: ireelab-opt %s -p inline,canonicalize,symbol-dce | filecheck %s

// A private function sized by index arguments: once inlined into a caller that passes
// constants, `tensor.empty` takes the constant sizes as static ones (a cast keeps the `?`
// type), the cast folds into the generic that writes into it, and only the cast back to `?`
// before the barrier stays; the caller's cast to the static type reads the tied shape.
util.func private @ramp(%rows: index, %cols: index) -> tensor<?x?xi32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %cols : index
    %l = arith.addi %j, %k : index
    %v = arith.index_cast %l : index to i32
    linalg.yield %v : i32
  } -> tensor<?x?xi32>
  %b = util.optimization_barrier %g : tensor<?x?xi32>
  util.return %b : tensor<?x?xi32>
}
util.func public @caller() -> tensor<3x5xi32> {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %0 = util.call @ramp(%c3, %c5) : (index, index) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<3x5xi32>
  util.return %1 : tensor<3x5xi32>
}
// CHECK-NOT:   util.func private @ramp
// CHECK-LABEL: util.func public @caller
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x5xi32>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<3x5xi32>)
// CHECK:         } -> tensor<3x5xi32>
// CHECK:         %[[D:.*]] = tensor.cast %[[G]] : tensor<3x5xi32> to tensor<?x?xi32>
// CHECK:         %[[B:.*]] = util.optimization_barrier %[[D]] : tensor<?x?xi32>
// CHECK:         tensor.cast %[[B]] : tensor<?x?xi32> to tensor<3x5xi32>

// A size that is not a constant stays dynamic; the constant one becomes static.
util.func public @half_static(%n: index) -> tensor<?x?xf32> {
  %c4 = arith.constant 4 : index
  %e = tensor.empty(%c4, %n) : tensor<?x?xf32>
  util.return %e : tensor<?x?xf32>
}
// CHECK-LABEL: util.func public @half_static
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<4x?xf32>
// CHECK:         tensor.cast %[[E]] : tensor<4x?xf32> to tensor<?x?xf32>

// A cast that forgets sizes folds into a named op's init as well: the fill gets the static
// type and a cast after it gives its user the `?` one.
util.func public @fill_through_cast(%s: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %z = arith.constant 0.0 : f32
  %d = tensor.cast %s : tensor<2x3xf32> to tensor<?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%d : tensor<?x?xf32>) -> tensor<?x?xf32>
  util.return %f : tensor<?x?xf32>
}
// CHECK-LABEL: util.func public @fill_through_cast
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         tensor.cast %[[F]] : tensor<2x3xf32> to tensor<?x?xf32>
