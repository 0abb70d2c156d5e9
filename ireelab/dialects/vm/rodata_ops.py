"""Read-only data: `vm.rodata` and `vm.rodata.inline`.

Mirrors IREE's rodata ops (`Dialect/VM/IR/VMOps.td`): the VM conversion turns each serialised
executable binary into a `vm.rodata`, each `util.buffer.constant` (packed constants, kept as
their `#util.composite` until the module is written) into one, and strings the host code
passes (executable formats) into inline rodata.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    VectorType,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface

from ireelab.dialects.util import CompositeAttr
from ireelab.dialects.vm.syntax import (
    parse_extra_attrs,
    parse_visibility,
    print_extra_attrs,
    print_visibility,
)
from ireelab.dialects.vm.types import BufferType


@irdl_op_definition
class RodataOp(IRDLOperation):
    """`vm.rodata private @name <alignment = 1> "text"` or `... dense<"0x..."> : vector<Nxi8>`."""

    name = "vm.rodata"
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    value = prop_def(StringAttr | DenseIntOrFPElementsAttr | CompositeAttr)
    alignment = opt_prop_def(IntegerAttr)
    mime_type = opt_prop_def(StringAttr)
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str,
        value: str | bytes | CompositeAttr,
        alignment: int | None = None,
        mime_type: str | None = None,
    ):
        if isinstance(value, CompositeAttr):
            data = value
        elif isinstance(value, bytes):
            data = DenseIntOrFPElementsAttr(
                VectorType(IntegerType(8), [len(value)]), BytesAttr(value)
            )
        else:
            data = StringAttr(value)
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "value": data,
                "alignment": IntegerAttr(alignment, 64) if alignment is not None else None,
                "mime_type": StringAttr(mime_type) if mime_type is not None else None,
            }
        )

    @property
    def data(self) -> bytes:
        if isinstance(self.value, StringAttr):
            return self.value.data.encode("utf-8")
        if isinstance(self.value, CompositeAttr):
            return self.value.to_bytes()
        return self.value.data.data

    @classmethod
    def parse(cls, parser: Parser) -> RodataOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name().data
        alignment = mime_type = None
        if parser.parse_optional_punctuation("<") is not None:

            def parse_entry() -> None:
                nonlocal alignment, mime_type
                key = parser.parse_identifier()
                parser.parse_punctuation("=")
                if key == "alignment":
                    alignment = parser.parse_integer()
                elif key == "mime_type":
                    mime_type = parser.parse_str_literal()
                else:
                    parser.raise_error(f"unknown vm.rodata property '{key}'")

            parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_entry)
            parser.parse_punctuation(">")
        text = parser.parse_optional_str_literal()
        value: str | bytes
        if text is not None:
            value = text
        else:
            attr = parser.parse_attribute()
            if isinstance(attr, CompositeAttr):
                value = attr
            elif isinstance(attr, DenseIntOrFPElementsAttr):
                value = bytes(v & 0xFF for v in attr.get_values())
            else:
                parser.raise_error("vm.rodata expects a string, dense<...> bytes or a composite")
        op = cls(name, value, alignment, mime_type)
        if visibility is not None:
            op.sym_visibility = visibility
        parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        entries = []
        if self.alignment is not None:
            entries.append(f"alignment = {self.alignment.value.data}")
        if self.mime_type is not None:
            entries.append(f"mime_type = {StringAttr(self.mime_type.data)}")
        if entries:
            printer.print_string(f" <{', '.join(entries)}>")
        printer.print_string(" ")
        if isinstance(self.value, StringAttr):
            printer.print_string_literal(self.value.data)
        elif isinstance(self.value, CompositeAttr):
            printer.print_attribute(self.value)
        else:
            data = self.data
            printer.print_string(f'dense<"0x{data.hex().upper()}"> : vector<{len(data)}xi8>')
        print_extra_attrs(printer, self)


@irdl_op_definition
class RodataInlineOp(IRDLOperation):
    """`%0 = vm.rodata.inline "name" : !vm.buffer = "text"`: rodata without a symbol."""

    name = "vm.rodata.inline"
    value = prop_def(StringAttr | DenseIntOrFPElementsAttr | CompositeAttr)
    sym_name = opt_prop_def(StringAttr)
    result = result_def(BufferType)
    assembly_format = "($sym_name^)? attr-dict `:` type($result) `=` $value"

    def __init__(self, value: str, name: str | None = None):
        super().__init__(
            properties={
                "value": StringAttr(value),
                "sym_name": StringAttr(name) if name else None,
            },
            result_types=[BufferType()],
        )
