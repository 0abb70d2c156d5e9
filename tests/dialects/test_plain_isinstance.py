"""`isinstance` on xDSL's IR classes through `type`'s check (`ireelab.dialects.plain_isinstance`):
the classes the compiler uses get it, every answer is the one `abc.ABCMeta` gives, abstract
methods are still enforced, and a virtual subclass or a `__subclasshook__` brings ABCMeta's
checks back for the classes whose answers they change."""

from __future__ import annotations

import abc

import pytest
from xdsl.dialects import arith, builtin, tensor
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition

from ireelab.compiler.context import _IREELAB, _UPSTREAM, make_context
from ireelab.dialects import flow
from ireelab.dialects.plain_isinstance import PlainABCMeta, RegistryABCMeta


def _registered_classes():
    ctx = make_context()
    classes = []
    for name, _module, _attr in _UPSTREAM + _IREELAB:
        dialect = ctx.get_dialect(name)
        classes += [*dialect.operations, *dialect.attributes]
    return classes


def test_the_compilers_classes_are_plain():
    classes = _registered_classes()
    assert len(classes) > 500
    plain = [cls for cls in classes if type(cls) is PlainABCMeta]
    assert len(plain) == len(classes)
    for cls in (Operation, IRDLOperation, Attribute, SSAValue, builtin.TensorType):
        assert type(cls) is PlainABCMeta, cls


def test_answers_are_abcmetas():
    """Each registered class against IR objects of several kinds: the same answer as
    `ABCMeta.__instancecheck__` and `__subclasscheck__`."""
    f32 = builtin.f32
    t = builtin.TensorType(f32, [2])
    zero = arith.ConstantOp(builtin.FloatAttr(0.0, f32))
    empty = tensor.EmptyOp([], t)
    fill = FillOp((zero.result,), (empty.tensor,), (t,))
    objects = [f32, t, zero, empty, fill, zero.result, builtin.IntAttr(1), builtin.ModuleOp([])]
    classes = _registered_classes() + [Operation, Attribute, SSAValue, builtin.ShapedType]
    for cls in classes:
        for obj in objects:
            assert isinstance(obj, cls) == abc.ABCMeta.__instancecheck__(cls, obj), (cls, obj)
            kind = type(obj)
            assert issubclass(kind, cls) == abc.ABCMeta.__subclasscheck__(cls, kind), (cls, obj)


def test_a_later_subclass_is_plain_and_abstract_methods_hold():
    @irdl_op_definition
    class LaterOp(IRDLOperation):
        name = "test.later"

    assert type(LaterOp) is PlainABCMeta
    assert isinstance(LaterOp(), Operation)
    assert not isinstance(LaterOp(), flow.DispatchRegionOp)

    class Shape(abc.ABC, metaclass=PlainABCMeta):
        @abc.abstractmethod
        def area(self) -> float: ...

    with pytest.raises(TypeError, match="abstract"):
        Shape()


def test_register_brings_the_registry_back_above():
    class Root(metaclass=PlainABCMeta):
        pass

    class Middle(Root):
        pass

    class Sibling(Root):
        pass

    class Outside:
        pass

    assert not isinstance(Outside(), Root)
    Middle.register(Outside)
    assert type(Middle) is RegistryABCMeta and type(Root) is RegistryABCMeta
    assert type(Sibling) is PlainABCMeta  # its answers do not change
    assert isinstance(Outside(), Middle) and isinstance(Outside(), Root)
    assert issubclass(Outside, Root) and not isinstance(Outside(), Sibling)


def test_a_subclass_hook_brings_the_registry_back_above():
    class Root(metaclass=PlainABCMeta):
        pass

    class Sized(Root):
        @classmethod
        def __subclasshook__(cls, other):
            return hasattr(other, "size") or NotImplemented

    class HasSize:
        size = 3

    assert type(Sized) is RegistryABCMeta and type(Root) is RegistryABCMeta
    assert isinstance(HasSize(), Sized) and isinstance(HasSize(), Root)
