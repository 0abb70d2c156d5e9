// A row sum accumulating into its ?-sized argument: the init is the accumulator (a reduction
// keeps it), so the dispatch reads the argument and writes a fresh result; codegen copies the
// init into a buffer sized at run time (memref.alloc(%d) + memref.copy) and accumulates there.
func.func @dyn(%a: tensor<?x4xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<?x4xf32>) outs(%b : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
