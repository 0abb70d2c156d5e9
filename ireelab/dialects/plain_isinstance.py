"""`isinstance` against xDSL's IR classes without `abc.ABCMeta`'s Python-level check.

Not an IREE concept: MLIR's `isa<DispatchRegionOp>(op)` compares a TypeID, which costs
nothing. xDSL's ops, attributes, SSA values, IRDL definitions and constraints derive from
`abc.ABC`, so every `isinstance(op, linalg.GenericOp)` that is not an exact type match runs
`ABCMeta.__instancecheck__`, a Python function that asks the ABC registry about virtual
subclasses. A warm 64-layer `ireelab-compile` makes about 600,000 such checks (the passes'
guards, xDSL's constructors and walks), about 0.5 us each: 6% of the compile.

An ABC's answer differs from plain subclassing only through virtual subclasses registered
on it or on a class below it, or a `__subclasshook__` in its MRO or below it. xDSL's and
ireelab's ABCs have neither, so for them `type.__instancecheck__` (C, no Python frame) gives
the same answers. `install()` gives each such class the metaclass `PlainABCMeta`, an
`ABCMeta` whose instance and subclass checks are `type`'s; abstract methods are still
enforced, and a class derived from one later (a dialect loaded lazily, a user's op) gets it
by inheritance. Where the registry could start to matter, the class and the ABCs above it
get `ABCMeta`'s checks back (`RegistryABCMeta`): when a class with a `__subclasshook__` in its
MRO is made, and when a class `register`s a virtual subclass.

One difference remains: a class that derives from an xDSL class and names its own
`ABCMeta` subclass as metaclass meets a metaclass conflict; such a metaclass derives from
`PlainABCMeta` instead (neither xDSL nor ireelab has one).
"""

from __future__ import annotations

import abc

PACKAGES = ("xdsl.", "ireelab.")
"""Modules whose ABCs get the plain checks when `install()` runs."""


INERT_HOOKS = ("collections.abc", "contextlib", "os")
"""Modules whose ABCs' `__subclasshook__`s answer only for the class that defines them
(`Iterable`'s: `if cls is Iterable: ...`, else `NotImplemented`), so subclassing one changes
nothing (xDSL's `ArrayAttr` is an `Iterable`, its op operands a `Sequence`)."""


def _has_subclass_hook(cls: type) -> bool:
    return any(
        "__subclasshook__" in vars(base) and base.__module__ not in INERT_HOOKS
        for base in cls.__mro__[:-1]
    )


class PlainABCMeta(abc.ABCMeta):
    """`ABCMeta` with `type`'s `isinstance` and `issubclass` (no virtual subclasses)."""

    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        if _has_subclass_hook(cls):
            _restore_registry_checks(cls)
        return cls

    def register(cls, subclass):
        _restore_registry_checks(cls)
        return abc.ABCMeta.register(cls, subclass)


class RegistryABCMeta(PlainABCMeta):
    """`ABCMeta`'s own checks again, for a class whose registry or hook can matter (a
    subclass of `PlainABCMeta`, so classes derived from both kinds stay compatible)."""

    __instancecheck__ = abc.ABCMeta.__instancecheck__
    __subclasscheck__ = abc.ABCMeta.__subclasscheck__
    register = abc.ABCMeta.register


def _restore_registry_checks(cls: type) -> None:
    """`ABCMeta`'s checks for `cls` and every plain ABC above it (ABCMeta asks a class's
    subclasses too, so a hook or a registration below changes the answers above)."""
    for base in cls.__mro__:
        if type(base) is PlainABCMeta:
            base.__class__ = RegistryABCMeta


def _registry_matters(cls: type) -> bool:
    if not isinstance(cls, abc.ABCMeta):
        return False
    return bool(abc._get_dump(cls)[0]) or _has_subclass_hook(cls)


def _all_subclasses(root: type) -> list[type]:
    found, todo, seen = [], [root], {root}
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in seen:
                seen.add(sub)
                found.append(sub)
                todo.append(sub)
    return found


def install() -> None:
    """Give every ABC of xDSL's and ireelab's modules loaded so far the plain checks."""
    import xdsl.ir.affine  # noqa: F401  (affine expressions and maps)
    import xdsl.ir.core  # noqa: F401  (ops, attributes, SSA values)

    classes = _all_subclasses(object)
    kept = {base for cls in classes if _registry_matters(cls) for base in cls.__mro__}
    for cls in classes:
        if type(cls) is abc.ABCMeta and cls.__module__.startswith(PACKAGES) and cls not in kept:
            cls.__class__ = PlainABCMeta
