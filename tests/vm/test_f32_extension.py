"""The VM's f32 extension (IREE's EXT_F32), as scalar f32 arguments and results need it:
`vm.bitcast.f32.i32` / `vm.bitcast.i32.f32` and f32 arithmetic convert from `arith`, parse and
print as IREE spells them, encode to bytecode, and run bit-exactly (every result rounded to
f32) in the translated function; f32 shows in signatures and required types."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from vm_programs import parse_ir, parse_vm

from ireelab.compiler.context import make_context
from ireelab.compiler.vm.conversion import ConversionPass
from ireelab.compiler.vm.module_file import write_module
from ireelab.runtime import load_module
from ireelab.runtime.vm import semantics
from ireelab.runtime.vm.module_file import read_module
from ireelab.tools import dump_module

HOST = """
util.func public @f(%arg0: f32, %arg1: f32) -> (f32, i32) attributes {iree.reflection = {iree.abi.declaration = "sync func @f(%input0: f32, %input1: f32) -> (%output0: f32, %output1: i32)"}} {
  %0 = arith.mulf %arg0, %arg1 : f32
  %1 = arith.addf %0, %arg1 : f32
  %2 = arith.subf %1, %arg0 : f32
  %3 = arith.divf %2, %arg1 : f32
  %4 = arith.bitcast %arg0 : f32 to i32
  util.return %3, %4 : f32, i32
}
"""


@pytest.fixture(scope="module")
def converted():
    module = parse_ir(HOST)
    ConversionPass().apply(make_context(), module)
    module.verify()
    return module


def test_arith_converts_to_f32_ops(converted) -> None:
    text = str(converted)
    assert "vm.func private @f(%arg0: f32, %arg1: f32) -> (f32, i32)" in text
    for op in ("vm.mul.f32", "vm.add.f32", "vm.sub.f32", "vm.div.f32"):
        assert op in text
    assert "vm.bitcast.f32.i32 %arg0 : f32 -> i32" in text


def test_iree_spelling_parses_and_prints_back() -> None:
    text = """
    vm.module public @m {
      vm.func private @g(%arg0: f32) -> i32 {
        %0 = vm.mul.f32 %arg0, %arg0 : f32
        %1 = vm.bitcast.f32.i32 %0 : f32 -> i32
        vm.return %1 : i32
      }
    }
    """
    module = parse_vm(text)
    printed = str(module)
    assert "vm.mul.f32 %arg0, %arg0 : f32" in printed
    assert "vm.bitcast.f32.i32 %0 : f32 -> i32" in printed


def test_runs_bit_exactly_and_rounds_to_f32(converted) -> None:
    loaded = load_module(write_module(converted))
    a, b = np.float32(0.1), np.float32(3.0)
    value, bits = loaded.invoke("f", a, b)
    want = (((a * b) + b) - a) / b  # numpy f32 arithmetic, rounded at every step
    assert isinstance(value, np.float32) and value == want
    assert bits == np.array(a).view(np.int32)
    assert np.isinf(loaded.invoke("f", np.float32(3e38), np.float32(10.0))[0])


def test_bitcasts_round_trip_every_special_value() -> None:
    to_bits, from_bits = semantics.CASTS["bitcast.f32.i32"], semantics.CASTS["bitcast.i32.f32"]
    for value in (0.0, -0.0, 1.5, float("inf"), float("-inf"), 1e-45):
        bits = to_bits(value)
        assert bits == struct.unpack("<i", struct.pack("<f", value))[0]
        assert struct.pack("<f", from_bits(bits)) == struct.pack("<f", value)
    assert np.isnan(from_bits(to_bits(float("nan"))))


def test_module_file_records_f32(converted) -> None:
    image = read_module(write_module(converted))
    assert image.types[0] == "f32"
    text = dump_module.dump(image)
    assert "f(f32, f32) -> (f32, i32)" in text


ROUNDING = """
util.func public @r(%arg0: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) attributes {iree.reflection = {iree.abi.declaration = "sync func @r(%input0: f32) -> (%output0: f32, %output1: f32, %output2: f32, %output3: f32, %output4: f32, %output5: f32, %output6: f32, %output7: f32)"}} {
  %c = arith.constant -2.5 : f32
  %inf = arith.constant 0x7F800000 : f32
  %0 = arith.mulf %arg0, %c : f32
  %1 = math.floor %0 : f32
  %2 = math.ceil %0 : f32
  %3 = math.round %0 : f32
  %4 = math.roundeven %0 : f32
  %5 = math.absf %0 : f32
  %6 = arith.negf %0 : f32
  %7 = math.sqrt %5 : f32
  util.return %1, %2, %3, %4, %5, %6, %7, %inf : f32, f32, f32, f32, f32, f32, f32, f32
}
"""


def test_host_constants_and_rounding_run_as_numpy() -> None:
    # f32 constants and math on the host (ONNX Resize computes its sizes from scales read
    # back from a tensor with math.floor), as vm.const.f32 and EXT_F32's unary ops
    module = parse_ir(ROUNDING)
    ConversionPass().apply(make_context(), module)
    module.verify()
    text = str(module)
    assert "vm.const.f32 -2.500000e+00" in text
    for op in ("floor", "ceil", "round", "round.f32.even", "abs", "neg", "sqrt"):
        assert f"vm.{op}" in text
    loaded = load_module(write_module(module))
    for x in (np.float32(1.0), np.float32(0.6), np.float32(-3.0)):
        v = np.float32(x * np.float32(-2.5))
        half_away = np.copysign(np.floor(np.abs(v) + np.float32(0.5)), v)
        want = [np.floor(v), np.ceil(v), half_away, np.rint(v), np.abs(v), -v, np.sqrt(abs(v))]
        got = loaded.invoke("r", x)
        assert [float(g) for g in got[:7]] == [float(w) for w in want]
        assert np.isinf(got[7])


INT_TO_FLOAT = """
util.func public @c(%arg0: i32, %arg1: i64) -> (f32, f32, f32, f32) attributes {iree.reflection = {iree.abi.declaration = "sync func @c(%input0: i32, %input1: i64) -> (%output0: f32, %output1: f32, %output2: f32, %output3: f32)"}} {
  %0 = arith.sitofp %arg0 : i32 to f32
  %1 = arith.uitofp %arg0 : i32 to f32
  %2 = arith.sitofp %arg1 : i64 to f32
  %3 = arith.uitofp %arg1 : i64 to f32
  util.return %0, %1, %2, %3 : f32, f32, f32, f32
}
"""


def test_integers_convert_to_f32_as_numpy() -> None:
    # host counts made floats (ONNX TfIdfVectorizer): vm.cast.{s,u}i{32,64}.f32, IREE's names
    module = parse_ir(INT_TO_FLOAT)
    ConversionPass().apply(make_context(), module)
    module.verify()
    text = str(module)
    for name in ("si32", "ui32", "si64", "ui64"):
        assert f"vm.cast.{name}.f32" in text
    loaded = load_module(write_module(module))
    for a, b in ((np.int32(-3), np.int64(-5)), (np.int32(16777217), np.int64(2**40 + 1))):
        got = loaded.invoke("c", a, b)
        want = [np.float32(a), np.float32(int(a) & 0xFFFFFFFF), np.float32(b)]
        want.append(np.float32(float(int(b) & 0xFFFFFFFFFFFFFFFF)))
        assert [float(g) for g in got] == [float(w) for w in want]


COMPARES = """
util.func public @k(%arg0: f32, %arg1: f32) -> (i32, i32, i32, i32, i32, i32) attributes {iree.reflection = {iree.abi.declaration = "sync func @k(%input0: f32, %input1: f32) -> (%output0: i32, %output1: i32, %output2: i32, %output3: i32, %output4: i32, %output5: i32)"}} {
  %0 = arith.cmpf olt, %arg0, %arg1 : f32
  %1 = arith.cmpf oge, %arg0, %arg1 : f32
  %2 = arith.cmpf une, %arg0, %arg1 : f32
  %3 = arith.cmpf ugt, %arg0, %arg1 : f32
  %4 = arith.cmpf oeq, %arg0, %arg1 : f32
  %5 = arith.cmpf ule, %arg0, %arg1 : f32
  %6 = arith.extui %0 : i1 to i32
  %7 = arith.extui %1 : i1 to i32
  %8 = arith.extui %2 : i1 to i32
  %9 = arith.extui %3 : i1 to i32
  %10 = arith.extui %4 : i1 to i32
  %11 = arith.extui %5 : i1 to i32
  util.return %6, %7, %8, %9, %10, %11 : i32, i32, i32, i32, i32, i32
}
"""


def test_float_compares_follow_ieee_ordering() -> None:
    # host loop conditions (ONNX Loop): ordered compares are false on NaN, unordered true;
    # gt / ge are lt / lte with the operands swapped, as IREE's ArithToVM emits them
    module = parse_ir(COMPARES)
    ConversionPass().apply(make_context(), module)
    module.verify()
    text = str(module)
    assert "vm.cmp.lt.f32.o" in text and "vm.cmp.lte.f32.u" in text
    loaded = load_module(write_module(module))
    nan = np.float32("nan")
    for a, b in ((1.0, 2.0), (2.0, 2.0), (3.0, -1.0), (nan, 1.0), (1.0, nan)):
        a, b = np.float32(a), np.float32(b)
        with np.errstate(invalid="ignore"):
            want = [a < b, a >= b, not (a == b), not (a <= b), a == b, not (a > b)]
        assert [int(g) for g in loaded.invoke("k", a, b)] == [int(w) for w in want], (a, b)
