"""Reading a program: text -> verified `builtin.module`, with every op located in the source.

IREE's `iree-compile` reads MLIR with MLIR's parser and keeps `loc(...)` on every op. xDSL's
parser keeps a location only when the text spells one, so this wrapper gives each parsed op a
`FileLineColLoc` of where it starts; later stages quote that line in their errors.
"""

from __future__ import annotations

import bisect
import math
import re
import struct
from collections.abc import Callable

from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ireelab.compiler import float_literals
from ireelab.compiler.context import make_context
from ireelab.diagnostics import SOURCES, CompileError, location_of, make_location
from ireelab.dialects import builtin_resources
from ireelab.input_limit import check_text


class _LocatingParser(Parser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._first_use: dict[str, Span] = {}
        """SSA name -> where it is first used, to point at an undeclared value's use."""
        self.blobs: dict[str, builtin_resources.Blob] = {}
        """The file's `dialect_resources` blobs, by the key the file gives them."""
        self._spellings: dict[str, Attribute] = {}
        """A plain shaped type (`tensor<8x64xf32>`) or an affine map's body (`<(d0) -> (d0)>`)
        as written -> what was parsed there the first time."""
        self._line_starts: list[int] | None = None
        """Where each line of the input starts, made on the first op's location."""

    def _location_of(self, span: Span) -> FileLineColLoc:
        """`span.get_location()` as a `FileLineColLoc`, by a binary search in the line starts
        (xDSL's counts the newlines before the span each time: quadratic in the file)."""
        if self._line_starts is None:
            content = self.lexer.input.content
            newline = self.lexer.input.newline
            self._line_starts = [0] + [m.end() for m in re.finditer(re.escape(newline), content)]
        line = bisect.bisect_right(self._line_starts, span.start)
        column = span.start - self._line_starts[line - 1] + 1
        name = StringAttr(span.input.name)
        return FileLineColLoc(name, IntAttr(line + span.line_offset), IntAttr(column))

    def _remembered(self, pattern: re.Pattern, parse: Callable[[], Attribute | None]):
        """What `parse` reads at the current token, parsed once per spelling that `pattern`
        matches there: the parse that read it first must have ended where the match ends
        (only blanks between), so the text matched is the whole of what was parsed."""
        content = self.lexer.input.content
        match = pattern.match(content, self._current_token.span.start)
        if match is None:
            return parse()
        known = self._spellings.get(match.group())
        if known is not None:
            self._resume_from(match.end())
            return known
        known = parse()
        if not content[match.end() : self._current_token.span.start].strip():
            self._spellings[match.group()] = known
        return known

    def _parse_builtin_affine_map(self):
        # Every generic spells its indexing maps again; most are the same few maps.
        return self._remembered(_AFFINE_MAP_BODY, super()._parse_builtin_affine_map)

    def _parse_optional_builtin_parametrized_type(self):
        # A model repeats a handful of plain shaped types hundreds of times; xDSL's lexer
        # and shape parser took a third of reading a 64-layer MLP. A plain spelling
        # (dimensions and a scalar element type, nothing else) is parsed once per file.
        parse = super()._parse_optional_builtin_parametrized_type
        token = self._current_token
        if token.kind != MLIRTokenKind.BARE_IDENT or token.text not in _SHAPED:
            return parse()
        return self._remembered(_PLAIN_SHAPED_TYPE, parse)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError:
            # xDSL reports undeclared values at the end of the file; MLIR points at the use.
            undeclared = [n for n in self.forward_ssa_references if n in self._first_use]
            if not undeclared:
                raise
            name = min(undeclared, key=lambda n: self._first_use[n].start)
            raise ParseError(
                self._first_use[name], f"use of undeclared SSA value %{name}"
            ) from None

    def _parse_dialect_resource_handle(self, dialect_name: str, interface) -> str:
        # The handle as written; xDSL would declare it in its process-wide storage (see
        # `builtin_resources` for why ireelab keeps its own).
        return self.parse_identifier(context_msg=" for resource handle")

    def _parse_resource(self, dialect_name: str, interface) -> None:
        key = self.parse_identifier(context_msg=" for resource handle")
        self.parse_punctuation(":")
        try:
            self.blobs[key] = builtin_resources.decode_hex(self.parse_str_literal())
        except ValueError as err:
            self.raise_error(f"resource '{key}': {err}")

    def parse_optional_unresolved_operand(self) -> UnresolvedOperand | None:
        operand = super().parse_optional_unresolved_operand()
        if operand is not None:
            self._first_use.setdefault(operand.operand_name, operand.span)
        return operand

    def _parse_location(self):
        """MLIR's file range locations too (`"f.py":10:6 to :39`, `"f.py":10:6 to 12:3`, as
        JAX and IREE print them), kept as where they start."""
        start = self._current_token
        if start.kind != MLIRTokenKind.STRING_LIT:
            return super()._parse_location()
        filename = self.parse_str_literal()
        if self.parse_optional_punctuation(":") is None:  # a name, maybe around a location
            nested = NoneAttr()
            if self._current_token.kind == MLIRTokenKind.L_PAREN:
                with self.in_parens():
                    nested = self._parse_location()
            return NameLoc(StringAttr(filename), nested)
        line = self.parse_integer(False, False)
        col = self.parse_integer(False, False) if self.parse_optional_punctuation(":") else 0
        if self.parse_optional_keyword("to") is not None:
            if self.parse_optional_punctuation(":") is None:
                self.parse_integer(False, False)  # the end line, then maybe its column
                if self.parse_optional_punctuation(":") is not None:
                    self.parse_integer(False, False)
            else:
                self.parse_integer(False, False)  # the end column on the same line
        return FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(col))

    def _parse_block(self):
        # xDSL's message here is a bare " in block definition"; say what was expected.
        token = self._current_token
        if token.kind != MLIRTokenKind.CARET_IDENT:
            found = "the end of the input" if token.kind == MLIRTokenKind.EOF else f"'{token.text}'"
            self.raise_error(f"expected an operation or '}}' to close the region, found {found}")
        return super()._parse_block()

    def parse_dense_int_or_fp_elements_attr(self, type_):
        # Hex elements of a float literal are bit patterns and f16 literals round to
        # infinity in MLIR (`float_literals`); xDSL reads both otherwise. Parse the literal
        # once to see which case it is, and hand it back to xDSL when MLIR agrees.
        start = self._current_token.span.start
        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.kind in (MLIRTokenKind.STRING_LIT, MLIRTokenKind.GREATER):
            self._resume_from(start)
            return super().parse_dense_int_or_fp_elements_attr(type_)
        values, shape = self._parse_tensor_literal()
        self.parse_punctuation(">", " in dense attribute")
        literal_type = type_
        if literal_type is None:
            self.parse_punctuation(":", " in dense attribute")
            literal_type = self._parse_dense_literal_type()
        texts = [value.span.text for value in values]
        if not float_literals.handles(literal_type.element_type, texts):
            self._resume_from(start)
            return super().parse_dense_int_or_fp_elements_attr(type_)
        return self._float_literal(literal_type, values, shape, texts)

    def _float_literal(self, type_, values, shape, texts):
        count = math.prod(type_.get_shape())
        if shape and list(type_.get_shape()) != shape:
            self.raise_error(f"dense literal has shape {shape}, expected {type_.get_shape()}")
        numbers = [value.to_type(self, type_.element_type) for value in values]
        bits: list[int | None] = []
        for value, text in zip(values, texts, strict=True):
            if not float_literals.is_hex(text):
                bits.append(None)
                continue
            try:
                bits.append(float_literals.hex_bits(text, type_.element_type))
            except ValueError as err:
                self.raise_error(str(err), at_position=value.span)
        data = float_literals.element_bytes(type_.element_type, bits, numbers)
        if not shape:
            data *= count
        return DenseIntOrFPElementsAttr(type_, BytesAttr(data))

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except ParseError as err:
            unknown = self._unknown_op(err, start)
            if unknown is not None:
                raise unknown from None
            raise ParseError(err.span, err.msg) from None
        except Exception as err:
            # An op's builder or attribute constructor rejected what was parsed (a bad enum
            # value, a type its constraint refuses): report it at the op, not as a crash.
            message = _first_line(str(err)) or f"cannot build this operation ({type(err).__name__})"
            if isinstance(err, IndexError | KeyError | TypeError | AttributeError | struct.error):
                # xDSL's parser tripped over a form it does not know: name the op and that.
                name, start = _op_name_at(start)
                message = (
                    f"'{name}' in this form cannot be parsed ({type(err).__name__}: {message})"
                )
                raise ParseError(start, message) from None
            raise ParseError(start, message) from None
        if isinstance(op.location, UnknownLoc):
            op.location = self._location_of(start)
        return op

    def _unknown_op(self, err: ParseError, start: Span) -> ParseError | None:
        """xDSL says "Operation x.y is not registered" with the caret after the name; point at
        the name and say whether the dialect or only the op is unknown."""
        match = _UNREGISTERED_OP.fullmatch(err.msg)
        if match is None:
            return None
        name = match.group(1)
        at = start.input.content.find(name, start.start, err.span.end)
        span = Span(at, at + len(name), start.input) if at >= 0 else err.span
        if "." not in name:
            return ParseError(span, f"expected an operation (dialect.op), found '{name}'")
        dialect = name.split(".", 1)[0]
        if dialect in self.ctx.registered_dialect_names:
            return ParseError(
                span, f"unknown operation '{name}': dialect '{dialect}' has no such op"
            )
        return ParseError(span, f"unknown operation '{name}': dialect '{dialect}' is not supported")


_SHAPED = frozenset(("tensor", "memref", "vector"))
_PLAIN_SHAPED_TYPE = re.compile(
    r"(?:tensor|memref|vector)<(?:(?:\d+|\?)x)*(?:f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)>"
)
_AFFINE_MAP_BODY = re.compile(r"<(?:->|[^<>])*>")
_UNREGISTERED_OP = re.compile(r"Operation (\S+) is not registered")
_OP_NAME = re.compile(r'\s*(?:%[^=]*=\s*)?"?([A-Za-z_][\w$]*\.[\w$.]+)')


def _op_name_at(start: Span) -> tuple[str, Span]:
    """The op name written at `start` (`%x = linalg.matmul ...` -> `linalg.matmul`) and where."""
    match = _OP_NAME.match(start.input.content, start.start)
    if match is None:
        return "operation", start
    return match.group(1), Span(match.start(1), match.end(1), start.input)


def parse_source(text: str, filename: str = "<input>") -> ModuleOp:
    """Parse and verify `text`; raise a located `CompileError` on any problem."""
    check_text(text)
    SOURCES[filename] = text.splitlines()
    parser = _LocatingParser(make_context(), text, filename)
    try:
        module = parser.parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        raise CompileError(err.msg, make_location(filename, loc.line, loc.col)) from None
    bind_resources(module, parser.blobs)
    verify(module, stage="input")
    return module


def bind_resources(module: ModuleOp, blobs: dict[str, builtin_resources.Blob]) -> None:
    """Keep the file's blobs (renaming a key another blob holds, as MLIR's context does) and
    check that every `dense_resource` the program reads has a blob in the file, of its type's
    size (a blob an earlier compile read does not count: each file carries its own)."""
    renamed = {key: builtin_resources.declare(key, blob) for key, blob in blobs.items()}
    for op in module.walk():
        for table in (op.properties, op.attributes):
            for name, value in table.items():
                if not isinstance(value, DenseResourceAttr):
                    continue
                if value.resource_handle.data not in renamed:
                    message = f"dense_resource<{value.resource_handle.data}> has no blob in the file's dialect_resources section"
                    raise CompileError(message, location_of(op), "input")
                key = renamed[value.resource_handle.data]
                if key != value.resource_handle.data:
                    value = table[name] = DenseResourceAttr.from_params(key, value.type)
                problem = builtin_resources.check_fits(value)
                if problem is not None:
                    raise CompileError(problem, location_of(op), "input")


def verify(module: ModuleOp, stage: str | None = None) -> None:
    """`module.verify()`, with a verifier failure turned into a located one-line error."""
    try:
        module.verify()
    except DiagnosticException as err:
        op = _failing_op(module)
        message = _first_line(str(err))
        raise CompileError(message, location_of(op) if op else None, stage) from None


def _failing_op(module: ModuleOp) -> Operation | None:
    """The innermost op whose own verifier fails (xDSL's exception does not carry it)."""
    for op in module.walk(reverse=True):
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException:
            return op
    return None


def _first_line(text: str) -> str:
    """The message's first meaningful line; a line ending in ':' ("operand 'input' at
    position 0 does not verify:") is joined with the reason on the next."""
    lines = [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.startswith(("Error while", "^"))
    ]
    if not lines:
        return text.strip()
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]
