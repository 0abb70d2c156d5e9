"""SanitizeModuleNamesPass (iree-sanitize-module-names): the module's own name becomes a plain
identifier and names the VM module, as `iree-opt --iree-sanitize-module-names` and
`iree-compile --compile-to=vm` do; function names are left alone, as in IREE."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab
from ireelab.compiler.input.sanitize_module_names import sanitize_symbol_name

PROGRAM = """
module @{name} {{
  func.func @{func}(%a: tensor<4xf32>) -> tensor<4xf32> {{
    %0 = arith.addf %a, %a : tensor<4xf32>
    return %0 : tensor<4xf32>
  }}
}}
"""


@pytest.mark.parametrize(
    "name,want",
    [
        ("letters", "letters"),
        ("digits0123456789", "digits0123456789"),
        ("dollar$$signs", "dollar__signs"),
        ("periods.change.to.underscores", "periods_change_to_underscores"),
        ("0ab", "0ab"),  # a leading digit stays
        ("ñ x", "___x"),  # byte-wise: a two-byte UTF-8 letter gives two underscores
        ('a"b', "a_b"),
    ],
)
def test_sanitize_symbol_name_as_iree_opt(name, want):
    # each pair is what iree-opt 3.13 printed for `module @"<name>" {}`
    assert sanitize_symbol_name(name) == want


def test_module_name_is_sanitised_at_input_and_names_the_vm_module():
    source = PROGRAM.format(name='"my.model-1"', func="f")
    assert "builtin.module @my_model_1 {" in ireelab.compile(source, compile_to="input").ir()
    vm_text = ireelab.compile(source, compile_to="vm").ir()
    assert "builtin.module @my_model_1 attributes {vm.toplevel} {" in vm_text
    assert "vm.module public @my_model_1 {" in vm_text


def test_unnamed_module_is_called_module_and_function_names_stay():
    source = PROGRAM.format(name="", func='"a.b"').replace("module @ {", "module {")
    vm_text = ireelab.compile(source, compile_to="vm").ir()
    assert "vm.module public @module {" in vm_text
    assert "vm.export @a.b attributes" in vm_text


def test_named_module_runs():
    module = ireelab.compile(PROGRAM.format(name='"my.model"', func="f"), device="local-sync")
    assert module.f(np.array([1, 2, 3, 4], np.float32)).tolist() == [2.0, 4.0, 6.0, 8.0]
