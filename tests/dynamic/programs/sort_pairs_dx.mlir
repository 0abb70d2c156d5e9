// Keys and their positions sorted together by key (descending): an argsort of a ?-sized
// vector, the comparator reading only the keys.
func.func @argsort(%keys: tensor<?xf32>, %ids: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %ids : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xf32>, tensor<?xi32>
  return %s#0, %s#1 : tensor<?xf32>, tensor<?xi32>
}
