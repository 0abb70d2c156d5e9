"""`linalg.generic` with MLIR's syntax for several results.

MLIR (and so IREE, at every phase that prints linalg) writes the results of a generic after its
body as an arrow type list: one type bare (`} -> tensor<4xf32>`), several in parentheses
(`} -> (tensor<4xf32>, tensor<4xf32>)`). xDSL 0.75 prints that form but parses only a bare
comma-separated list after `->`, so a multi-result generic - IREE's output for a program with a
fused two-output elementwise op, or ireelab's own dump of it - does not read back.

`GenericOp` here subclasses xDSL's, so every pass that asks `isinstance(op, linalg.GenericOp)`
or builds xDSL's class sees the same op; only `parse` differs. `linalg_ext.Linalg` registers it
in place of xDSL's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as _XGenericOp
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser

from ireelab.dialects.linalg_helpers import parse_optional_operand_group


class GenericOp(_XGenericOp):
    """`linalg.generic {indexing_maps = [...], iterator_types = [...]} ins(...) outs(...)
    [attrs = {...}] {body} [-> type | -> (type, ...)]`, as MLIR parses it."""

    # Not re-decorated with `irdl_op_definition`: the definition (operands, properties,
    # verifier) is xDSL's, inherited as is; the decorator would see xDSL's generated accessors
    # as undeclared fields.

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        # The format language cannot express a dictionary whose entries are split into
        # properties (the generic's trait attributes) and discardable attributes, nor MLIR's
        # optional arrow type list, so the op keeps a custom parser.
        start = parser.pos
        attrs = dict(parser.parse_optional_attr_dict())
        end = parser.pos
        maps = attrs.pop("indexing_maps", None)
        if not isinstance(maps, ArrayAttr):
            parser.raise_error("linalg.generic: expected 'indexing_maps = [...]'", start, end)
        iterators = _iterator_types(parser, attrs.pop("iterator_types", None), start, end)
        doc = _optional_string(parser, attrs.pop("doc", None), "doc", start, end)
        library_call = _optional_string(
            parser, attrs.pop("library_call", None), "library_call", start, end
        )
        ins = _parse_operand_group(parser, "ins")
        outs = _parse_operand_group(parser, "outs")
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            attrs |= parser.expect(parser.parse_optional_attr_dict, "expected attribute dict")
        body = parser.parse_region()
        generic = cls(
            ins,
            outs,
            body,
            cast(ArrayAttr, maps),
            iterators,
            _parse_arrow_type_list(parser),
            doc,
            library_call,
        )
        generic.attributes |= attrs
        return generic


def _iterator_types(
    parser: Parser, attr: Attribute | None, start: int, end: int
) -> list[IteratorTypeAttr]:
    """`["parallel", ...]` or `[#linalg.iterator_type<parallel>, ...]`."""
    if not isinstance(attr, ArrayAttr):
        parser.raise_error("linalg.generic: expected 'iterator_types = [...]'", start, end)
    iterators: list[IteratorTypeAttr] = []
    for item in attr.data:
        if isinstance(item, IteratorTypeAttr):
            iterators.append(item)
        elif isinstance(item, StringAttr) and item.data in set(IteratorType):
            iterators.append(IteratorTypeAttr(IteratorType(item.data)))
        else:
            parser.raise_error(f"linalg.generic: unknown iterator type {item}", start, end)
    return iterators


def _optional_string(
    parser: Parser, attr: Attribute | None, key: str, start: int, end: int
) -> StringAttr | None:
    if attr is None or isinstance(attr, StringAttr):
        return attr
    parser.raise_error(f"linalg.generic: '{key}' must be a string", start, end)


def _parse_operand_group(parser: Parser, keyword: str) -> Sequence[SSAValue]:
    """`keyword(%a, %b : t1, t2)`, or nothing when the keyword is absent."""
    return parse_optional_operand_group(parser, keyword) or ()


def _parse_arrow_type_list(parser: Parser) -> list[Attribute]:
    """MLIR's optional arrow type list: nothing, `-> t`, or `-> (t1, ..., tn)`."""
    if not parser.parse_optional_punctuation("->"):
        return []
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")"):
        return []
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return types
