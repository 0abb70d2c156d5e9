"""The `vm` types: `!vm.ref<T>` and `!vm.buffer`.

Mirrors IREE's `Dialect/VM/IR/VMTypes`: VM registers hold i32, i64 or refs; a ref wraps a
runtime object (`!vm.ref<!hal.device>`), a buffer holds bytes (rodata, executable binaries).
"""

from __future__ import annotations

from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class RefType(ParametrizedAttribute, TypeAttribute):
    """`!vm.ref<T>`: a reference-counted handle to a runtime object (a `!hal.*` object)."""

    name = "vm.ref"
    object_type: Attribute


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!vm.buffer`: a byte buffer (rodata strings, executable binaries)."""

    name = "vm.buffer"


def is_ref(type_: Attribute) -> bool:
    return isinstance(type_, RefType | BufferType)
