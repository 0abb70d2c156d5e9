"""OutlineMemoizeRegionsPass (iree-hal-outline-memoize-regions) after ConvertToHALPass.

Checks: the memoized command buffer of IREE's `a0_matmul_tiny` becomes an apply function, a
result global stored by an initializer, and a lookup function the call site calls (IREE's
names); a region using a per-call value is recorded in place by calling the apply function.
"""

from __future__ import annotations

import re

from test_convert_to_hal import _prepare

from ireelab.compiler.context import make_context
from ireelab.compiler.hal.convert_to_hal import ConvertToHALPass
from ireelab.compiler.hal.outline_memoize_regions import OutlineMemoizeRegionsPass
from ireelab.compiler.source import parse_source


def _outlined(name: str) -> str:
    module = _prepare(name)
    ConvertToHALPass().apply(make_context(), module)
    OutlineMemoizeRegionsPass().apply(make_context(), module)
    module.verify()
    return str(module)


def test_matmul_command_buffer_is_recorded_by_an_initializer():
    text = _outlined("a0_matmul_tiny.stream.mlir")
    assert "hal.device.memoize" not in text
    # the region's body, with the device, affinity and executable as arguments
    apply = text[text.index("util.func private @__matmul_memoize_apply(") :]
    apply = apply[: apply.index("\n  }\n")]
    assert re.match(
        r"util\.func private @__matmul_memoize_apply\(%\w+: !hal\.device, %[\w-]+: i64, %\w+: "
        r"!hal\.executable\) -> !hal\.command_buffer attributes \{inlining_policy = "
        r"#util\.inline\.never\}",
        apply,
    )
    assert "cf.br ^bb1" in apply and 'mode("None")' in apply and "util.return %cmd" in apply
    # one global per result, stored by an initializer calling the apply function
    assert "util.global private @__matmul_memoize_result_0_device_0 : !hal.command_buffer" in text
    init = text[text.index("util.initializer {\n    %__device = util.global.load immutable") :]
    init = init[: init.index("util.return")]
    assert "util.call @__matmul_memoize_apply(" in init
    assert "util.global.store %0, @__matmul_memoize_result_0_device_0" in init
    # the lookup returns it for the device it was recorded on
    lookup = text[text.index("util.func private @__matmul_memoize_lookup(") :]
    lookup = lookup[: lookup.index("\n  }\n")]
    assert "util.cmp.eq" in lookup and "util.global.load @__device_0" in lookup
    assert "util.global.load @__matmul_memoize_result_0_device_0" in lookup
    # the call site replays what the lookup returns
    host = text[text.index("util.func public @matmul(") :]
    call = re.search(r"%(\w+) = util\.call @__matmul_memoize_lookup\(%__device, %c-1_i64\)", host)
    assert call
    assert re.search(rf"hal\.device\.queue\.execute\.indirect<.*commands\(%{call[1]}\)", host)


def test_region_using_a_per_call_value_is_applied_in_place():
    # %n is only known at the call: no initializer can record it
    text = """
builtin.module {
  util.global private @__device_0 : !hal.device
  util.func public @f(%n: index) {
    %device = util.global.load immutable @__device_0 : !hal.device
    %affinity = arith.constant -1 : i64
    %0 = hal.device.memoize<%device : !hal.device> affinity(%affinity) -> !hal.command_buffer {
      %cmd = hal.command_buffer.create device(%device : !hal.device) mode("None") categories("Transfer|Dispatch") affinity(%affinity) bindings(%n) : !hal.command_buffer
      hal.command_buffer.finalize<%cmd : !hal.command_buffer>
      hal.return %cmd : !hal.command_buffer
    }
    util.return
  }
}
"""
    module = parse_source(text)
    OutlineMemoizeRegionsPass().apply(make_context(), module)
    module.verify()
    out = str(module)
    assert "util.initializer" not in out and "_memoize_lookup" not in out
    assert re.search(
        r"util\.func private @__f_memoize_apply\(%device: !hal\.device, %affinity: i64, "
        r"%n: index\)",
        out,
    )
    assert "util.call @__f_memoize_apply(%device, %affinity, %n)" in out
