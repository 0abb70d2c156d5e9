// RUN: ireelab-opt %s -p iree-hal-assign-legacy-target-devices,iree-hal-materialize-target-devices,iree-hal-verify-devices | filecheck %s

// The default backend becomes a `local` device global and the module's default affinity.
util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  util.return %arg0 : !hal.buffer_view
}
// CHECK:      builtin.module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>}
// CHECK-NEXT:   util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"numba-cpu", "numba-python", {native_vector_size = 64 : i64, target_triple = "x86_64-unknown-linux"}>]> : !hal.device
// CHECK:        util.func public @f
