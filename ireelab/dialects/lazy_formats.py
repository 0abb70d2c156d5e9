"""Declarative assembly formats compiled the first time an op is parsed or printed.

Not an IREE concept: MLIR generates each op's parser and printer from its `assemblyFormat`
when the compiler itself is built, so IREE pays nothing for them at run time. xDSL's
`irdl_op_definition` compiles an op's `assembly_format` string into a `FormatProgram` when
the class is created, so every process that imports a dialect pays for every op in it: about
340 formats and 0.15 s of each `ireelab-compile`, of which a compile uses a few dozen (the
ops of its input; the IR printed for the trace only when it is asked for).

`install()` makes `xdsl.irdl.irdl_op_definition` leave the format string on the definition
and give the class `parse` / `print` methods that compile it on first use, which is what
xDSL does eagerly, once. Only op classes of xDSL's and ireelab's own dialects (by module) are
deferred: an op a user defines keeps xDSL's behaviour, a format error raised where the class
is defined. ireelab's and xDSL's formats are checked by the test suite instead
(`tests/dialects/test_lazy_formats.py` compiles every one). Modules that took
`irdl_op_definition` before `install()` ran keep the eager one, which is only slower.
"""

from __future__ import annotations

import threading

from xdsl.irdl import operations as _operations

DEFERRED_PACKAGES = ("xdsl.", "ireelab.")
"""Modules whose op classes get their assembly format compiled on first use."""

_eager_definition = _operations.irdl_op_definition

DEFERRED: list[tuple[type, LazyFormat]] = []
"""Every op class defined with a deferred format, and its format (the tests compile them all)."""


class LazyFormat:
    """An op's `FormatProgram`, compiled from its format string when first needed."""

    __slots__ = ("op_def", "_program", "_lock")

    def __init__(self, op_def: _operations.OpDef):
        self.op_def = op_def
        self._program = None
        self._lock = threading.Lock()

    def program(self):
        if self._program is None:
            from xdsl.irdl.declarative_assembly_format import FormatProgram
            from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

            with self._lock:
                if self._program is None:
                    try:
                        program = FormatProgram.from_str(self.op_def.assembly_format, self.op_def)
                    except ParseError as e:  # what xDSL raises at class creation
                        raise PyRDLOpDefinitionError(
                            "Error during the parsing of the assembly format: ", e.args
                        ) from e
                    self._program = program
        return self._program


def lazy_op_definition(cls):
    """`irdl_op_definition` with the assembly format compiled on first parse or print."""
    if getattr(cls, "assembly_format", None) is None or not cls.__module__.startswith(
        DEFERRED_PACKAGES
    ):
        return _eager_definition(cls)
    assert issubclass(cls, _operations.IRDLOperation), (
        f"class {cls.__name__} should be a subclass of IRDLOperation"
    )
    op_def = _operations.OpDef.from_pyrdl(cls)
    text, op_def.assembly_format = op_def.assembly_format, None
    try:  # everything but the format, as xDSL makes it
        new_attrs = _operations.get_accessors_from_op_def(op_def, getattr(cls, "verify_", None))
    finally:
        op_def.assembly_format = text
    lazy = LazyFormat(op_def)

    @classmethod
    def parse_with_format(op_type, parser):
        return lazy.program().parse(parser, op_type)

    def print_with_format(self, printer):
        return lazy.program().print(printer, self)

    new_attrs["parse"] = parse_with_format
    new_attrs["print"] = print_with_format
    for name, value in new_attrs.items():
        setattr(cls, name, value)
    DEFERRED.append((cls, lazy))
    return cls


def install() -> None:
    """Make `irdl_op_definition`, for modules that import it from now on, the lazy one."""
    import xdsl.irdl

    xdsl.irdl.irdl_op_definition = lazy_op_definition
    _operations.irdl_op_definition = lazy_op_definition
