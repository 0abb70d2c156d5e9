"""IRDL op construction from a plan made once per op definition, before xDSL's general builder.

Not an IREE concept: MLIR's generated `build` methods know each op's operand, result, region
and successor groups when the compiler is built. xDSL's `irdl_op_init` (behind every
`IRDLOperation.__init__`) works them out again on every op it builds: an f-string error prefix,
four `irdl_build_arg_list` calls with `isinstance` checks against the definitions' classes and
`collections.abc.Sequence` per argument, a `match` over the definition's options, a new
`DenseArrayBase` for each segment-size attribute; then `IRDLOperation.__post_init__` scans the
definition's properties and attributes for defaults. A warm 64-layer `ireelab-compile` builds
about 7,800 ops that way (about 15% of its samples, with `Operation.__init__`).

`install()` replaces both with versions that read a plan made from the `OpDef` the first time
it builds one of its ops (each group's kind, single / optional / variadic; the segment-size
attributes and same-size checks its options ask for; the defaults to fill in) and do what
xDSL's do, in the same order, with the same results: the operands and regions are converted
by xDSL's rules, the groups are checked against the plan, and any argument the plan's check
does not accept goes to xDSL's `irdl_build_arg_list`, which builds it or raises xDSL's own
error. Segment-size attributes (immutable) are shared between ops with the same sizes. Options
xDSL's builder passes over, the plan passes over; a definition with segment or same-size
options of a kind xDSL's builder does not know is built by xDSL's `irdl_op_init` (it raises).
`Operation.__init__`'s unknown location is returned without an import each time.

`IREELAB_FAST_OP_INIT=0` keeps xDSL's functions. Mirrors xDSL 0.75's `irdl_op_init` and
`IRDLOperation.__post_init__`: `tests/dialects/test_op_init.py` compares the two builders and
fails when xDSL's sources change, so an upgrade re-reads this file.
"""

from __future__ import annotations

import abc
import os
from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue
from xdsl.ir import core as _core
from xdsl.irdl import operations as _operations
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    AttrSizedSuccessorSegments,
    IRDLOperation,
    OptionalDef,
    SameVariadicOperandSize,
    SameVariadicRegionSize,
    SameVariadicResultSize,
    SameVariadicSize,
    SameVariadicSuccessorSize,
    VariadicDef,
    VarIRConstruct,
    get_construct_name,
    irdl_build_arg_list,
    irdl_build_regions_arg,
)

XDSL_OP_INIT = _operations.irdl_op_init
XDSL_POST_INIT = IRDLOperation.__post_init__
XDSL_UNKNOWN_LOC = _core._unknown_loc
"""xDSL's own functions (the tests compare; `IREELAB_FAST_OP_INIT=0` keeps them)."""

SINGLE, OPTIONAL, VARIADIC = 0, 1, 2
CONSTRUCTS = (
    VarIRConstruct.OPERAND,
    VarIRConstruct.RESULT,
    VarIRConstruct.REGION,
    VarIRConstruct.SUCCESSOR,
)
"""The four groups, in the order of a plan's `kinds` and of xDSL's checks."""

SEGMENT_CACHE_LIMIT = 4096
"""Distinct segment-size lists kept (each an immutable `DenseArrayBase`)."""


class Plan:
    """What `irdl_op_init` needs of one `OpDef`, read from it once."""

    __slots__ = ("op_def", "kinds", "segments", "same_sizes", "defaults")

    def __init__(self, op_def, kinds, segments, same_sizes, defaults):
        self.op_def = op_def
        self.kinds = kinds
        """Per group (operands, results, regions, successors): each definition's kind."""
        self.segments = segments
        """(group, attribute name, as a property?) per `AttrSizedSegments` option."""
        self.same_sizes = same_sizes
        """(group, positions of the variadic definitions) per `SameVariadicSize` option."""
        self.defaults = defaults
        """((name, default) of properties, the same of attributes) to fill in when absent."""


def _kind(definition) -> int:
    if isinstance(definition, OptionalDef):
        return OPTIONAL
    return VARIADIC if isinstance(definition, VariadicDef) else SINGLE


_SEGMENT_OPTIONS = (
    (AttrSizedOperandSegments, 0),
    (AttrSizedResultSegments, 1),
    (AttrSizedRegionSegments, 2),
    (AttrSizedSuccessorSegments, 3),
)
_SAME_OPTIONS = (
    (SameVariadicOperandSize, 0),
    (SameVariadicResultSize, 1),
    (SameVariadicRegionSize, 2),
    (SameVariadicSuccessorSize, 3),
)


def _group_of(option, table) -> int | None:
    """The group an option names, matched in the order of xDSL's `match` cases."""
    for cls, group in table:
        if isinstance(option, cls):
            return group
    return None


def make_plan(op_def) -> Plan | None:
    """The plan of `op_def`, or None if one of its options is not one xDSL's builder knows
    (xDSL's `irdl_op_init` then builds, and raises, as it does)."""
    groups = (op_def.operands, op_def.results, op_def.regions, op_def.successors)
    kinds = tuple(tuple(_kind(d) for _, d in defs) for defs in groups)
    segments, same_sizes = [], []
    for option in op_def.options:
        if isinstance(option, AttrSizedSegments):
            group = _group_of(option, _SEGMENT_OPTIONS)
            if group is None:
                return None
            segments.append((group, option.attribute_name, option.as_property))
        elif isinstance(option, SameVariadicSize):
            group = _group_of(option, _SAME_OPTIONS)
            if group is None:
                return None
            variadic = tuple(
                i for i, (_, d) in enumerate(groups[group]) if isinstance(d, VariadicDef)
            )
            same_sizes.append((group, variadic))
    defaults = tuple(
        tuple(
            (name, d.default_value)
            for name, d in defs.items()
            if not isinstance(d, OptionalDef) and d.default_value is not None
        )
        for defs in (op_def.properties, op_def.attributes)
    )
    return Plan(op_def, kinds, tuple(segments), tuple(same_sizes), defaults)


_plans: dict[int, tuple] = {}
"""id(OpDef) -> (the OpDef, its plan or None): an id reused by another definition is not
taken for it."""


def plan_of(op_def) -> Plan | None:
    known = _plans.get(id(op_def))
    if known is None or known[0] is not op_def:
        known = _plans[id(op_def)] = (op_def, make_plan(op_def))
    return known[1]


_sequence_types: dict[type, bool] = {}
"""type -> `isinstance(x, Sequence)` of its instances, as of `_sequence_token`."""
_sequence_token = [abc.get_cache_token()]


def _check_sequence_token() -> None:
    """Forget the answers after an ABC `register` anywhere (it may change them)."""
    token = abc.get_cache_token()
    if token != _sequence_token[0]:
        _sequence_types.clear()
        _sequence_token[0] = token


def _build(kinds: tuple, args) -> tuple[list, list[int]] | None:
    """xDSL's `irdl_build_arg_list` for arguments its checks accept; None for any other
    (the caller then asks xDSL's, which builds or raises the same way)."""
    if len(args) != len(kinds):
        return None
    if not kinds:
        return [], []
    built, sizes = [], []
    known = _sequence_types
    for kind, arg in zip(kinds, args, strict=True):
        if arg is None:
            if kind != OPTIONAL:
                return None
            sizes.append(0)
            continue
        sequence = known.get(type(arg))
        if sequence is None:
            sequence = known[type(arg)] = isinstance(arg, Sequence)
        if sequence:
            n = len(arg)
            if (kind == SINGLE and n != 1) or (kind == OPTIONAL and n > 1):
                return None
            built.extend(arg)
            sizes.append(n)
        else:
            built.append(arg)
            sizes.append(1)
    return built, sizes


def _operand_arg(operand):
    """xDSL's `irdl_build_operations_arg`."""
    if operand is None:
        return []
    if isinstance(operand, SSAValue):
        return operand
    if isinstance(operand, Operation):
        return SSAValue.get(operand)
    return [SSAValue.get(op) for op in operand]


_segment_attrs: dict[tuple, object] = {}


def _segment_sizes(sizes: list[int]):
    """`DenseArrayBase.from_list(i32, sizes)`, one instance per distinct list."""
    key = tuple(sizes)
    found = _segment_attrs.get(key)
    if found is None:
        from xdsl.dialects.builtin import DenseArrayBase, i32

        found = DenseArrayBase.from_list(i32, sizes)
        if len(_segment_attrs) < SEGMENT_CACHE_LIMIT:
            _segment_attrs[key] = found
    return found


def irdl_op_init(
    self,
    op_def,
    *,
    operands,
    result_types,
    properties,
    attributes,
    successors,
    regions,
):
    plan = plan_of(op_def)
    if plan is None:
        return XDSL_OP_INIT(
            self,
            op_def,
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
            successors=successors,
            regions=regions,
        )
    # The same steps as xDSL's, in its order: operands, then regions converted...
    args = (
        [_operand_arg(operand) for operand in operands],
        result_types,
        [irdl_build_regions_arg(region) for region in regions] if regions else regions,
        successors,
    )
    _check_sequence_token()
    # ... then each group built and checked (xDSL's builds the ones the plan's check refuses).
    lists, sizes = [], []
    for group in range(4):
        done = _build(plan.kinds[group], args[group])
        if done is None:
            defs = (op_def.operands, op_def.results, op_def.regions, op_def.successors)[group]
            prefix = f"Error in {op_def.name} builder: "
            done = irdl_build_arg_list(CONSTRUCTS[group], args[group], defs, prefix)
        lists.append(done[0])
        sizes.append(done[1])
    built_properties = {name: a for name, a in properties.items() if a is not None}
    built_attributes = {name: a for name, a in attributes.items() if a is not None}
    for group, name, as_property in plan.segments:
        container = built_properties if as_property else built_attributes
        container[name] = _segment_sizes(sizes[group])
    for group, variadic in plan.same_sizes:
        variadic_sizes = [sizes[group][i] for i in variadic]
        if any(size != variadic_sizes[0] for size in variadic_sizes[1:]):
            raise ValueError(
                f"Variadic {get_construct_name(CONSTRUCTS[group])}s have different sizes: "
                f"{variadic_sizes}"
            )
    Operation.__init__(
        self,
        operands=lists[0],
        result_types=lists[1],
        properties=built_properties,
        attributes=built_attributes,
        successors=lists[3],
        regions=lists[2],
    )


def post_init(self) -> None:
    """`IRDLOperation.__post_init__`: the definition's defaults, then `Operation`'s checks."""
    plan = plan_of(self.get_irdl_definition())
    if plan is None:
        return XDSL_POST_INIT(self)
    property_defaults, attribute_defaults = plan.defaults
    if property_defaults:
        found = self.properties
        for name, default in property_defaults:
            if name not in found:
                found[name] = default
    if attribute_defaults:
        found = self.attributes
        for name, default in attribute_defaults:
            if name not in found:
                found[name] = default
    return super(IRDLOperation, self).__post_init__()


post_init.__doc__ = XDSL_POST_INIT.__doc__


def install() -> None:
    if os.environ.get("IREELAB_FAST_OP_INIT") == "0":
        return
    from xdsl.dialects.builtin import UNKNOWN_LOC

    _operations.irdl_op_init = irdl_op_init
    IRDLOperation.__post_init__ = post_init
    _core._unknown_loc = lambda: UNKNOWN_LOC


def uninstall() -> None:
    """xDSL's functions back (for the tests' side-by-side comparisons)."""
    _operations.irdl_op_init = XDSL_OP_INIT
    IRDLOperation.__post_init__ = XDSL_POST_INIT
    _core._unknown_loc = XDSL_UNKNOWN_LOC
