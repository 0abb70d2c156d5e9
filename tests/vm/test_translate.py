"""The VM's translation of decoded functions into Python: loops with parallel block-argument
moves, calls to imports and internal functions, vm.fail with its message, and nothing from
the module file ever pasted into the generated source."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ireelab.runtime import VMError, load_module
from ireelab.runtime.vm import semantics
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction
from ireelab.runtime.vm.interpreter import link_functions
from ireelab.runtime.vm.translate import _truncated
from ireelab.schemas.vm_opcodes import BANK_SHIFT, IMPORT_BIT


def i32(n: int) -> int:
    return n


def i64(n: int) -> int:
    return (1 << BANK_SHIFT) | n


def ref(n: int) -> int:
    return (2 << BANK_SHIFT) | n


def _link(functions: list[DecodedFunction], imports=(), rodata=()):
    names = [f"test.import{i}" for i in range(len(imports))]
    globals_ = {"i32": [0], "i64": [0], "ref": [None]}
    return link_functions(functions, list(imports), names, globals_, list(rodata))


# sum(n): i = 0; acc = 0; while i < n: acc, i = acc + i, i + 1 (moves swap registers)
SUM = DecodedFunction(
    "sum",
    (5, 0, 0),
    (i32(0),),
    [
        [
            Instruction("const.i32.zero", (i32(1),)),
            Instruction("const.i32.zero", (i32(2),)),
            Instruction("br", ((1, ((i32(1), i32(3)), (i32(2), i32(4)))),)),
        ],
        [
            Instruction("cmp.lt.i32.s", (i32(1), i32(3), i32(0))),
            Instruction("cond_br", (i32(1), (2, ()), (3, ()))),
        ],
        [
            Instruction("add.i32", (i32(2), i32(4), i32(3))),
            Instruction("const.i32", (i32(1), 1)),
            Instruction("add.i32", (i32(1), i32(3), i32(1))),
            # parallel move: (i, acc) <- (i + 1, acc + i)
            Instruction("br", ((1, ((i32(1), i32(3)), (i32(2), i32(4)))),)),
        ],
        [Instruction("return", ((i32(4),),))],
    ],
)


def test_loop_with_block_arguments():
    (function,) = _link([SUM])
    assert function(10) == (45,)
    assert function(0) == (0,)
    assert "while True:" in function.source


def test_i32_arithmetic_wraps():
    (function,) = _link([SUM])
    # 0 + 1 + ... + 99999 = 4999950000 wraps to a signed 32-bit value.
    assert function(100000) == (4999950000 - (1 << 32),)


def test_calls_imports_and_internal_functions():
    # main(x) = sum(import0(x)); import0 doubles its argument.
    main = DecodedFunction(
        "main",
        (2, 0, 0),
        (i32(0),),
        [
            [
                Instruction("call", (IMPORT_BIT | 0, (i32(0),), (i32(1),))),
                Instruction("call", (1, (i32(1),), (i32(0),))),
                Instruction("return", ((i32(0),),)),
            ]
        ],
    )
    calls = []
    functions = _link([main, SUM], imports=[lambda x: calls.append(x) or 2 * x])
    assert functions[0](5) == (45,)
    assert calls == [5]


def test_fail_message_is_data_not_code():
    # A message that would be code if pasted into the source: raised verbatim, never executed.
    message = "'); raise SystemExit('pwned'); ('"
    fail = DecodedFunction(
        "fail",
        (1, 0, 1),
        (),
        [
            [
                Instruction("const.i32", (i32(0), 9)),
                Instruction("const.ref.rodata", (ref(0), 0)),
                Instruction("fail", (i32(0), message)),
            ]
        ],
    )
    (function,) = _link([fail], rodata=[b"__import__('os')"])
    with pytest.raises(VMError) as info:
        function()
    assert str(info.value) == f"FAILED_PRECONDITION; {message}"
    assert message not in function.source and "__import__" not in function.source


def test_wrong_argument_count_is_a_vm_error():
    (function,) = _link([SUM])
    with pytest.raises(VMError, match="takes 1 argument"):
        function(1, 2)


def test_out_of_range_ordinals_are_refused_at_link_time():
    bad = DecodedFunction(
        "bad", (1, 0, 0), (), [[Instruction("call", (7, (), ())), Instruction("return", ((),))]]
    )
    with pytest.raises(VMError, match="function ordinal 7 out of range"):
        _link([bad])


def test_iree_program_translates_to_straight_line_calls(converted_bytes):
    # IREE's matmul program: every hal call is a direct call in the generated source, and the
    # only names in it are generated ones.
    module = load_module(converted_bytes)
    context = module.context("local-sync")
    source = context.function("matmul").source
    assert source.startswith("def f")
    assert "hal." not in source and "input0" not in source


def _function(name, registers, arguments, blocks, rodata=()):
    (function,) = _link([DecodedFunction(name, registers, arguments, blocks)], rodata=rodata)
    return function


def test_constants_fold_into_their_uses():
    # f(x) = (3 + 4) * x - (-1 >> 1): the constant arithmetic is folded, x's is not
    function = _function(
        "f",
        (6, 0, 0),
        (i32(0),),
        [
            [
                Instruction("const.i32", (i32(1), 3)),
                Instruction("const.i32", (i32(2), 4)),
                Instruction("add.i32", (i32(3), i32(1), i32(2))),
                Instruction("mul.i32", (i32(4), i32(3), i32(0))),
                Instruction("const.i32", (i32(1), -1)),
                Instruction("const.i32", (i32(2), 1)),
                Instruction("shr.i32.s", (i32(5), i32(1), i32(2))),
                Instruction("sub.i32", (i32(4), i32(4), i32(5))),
                Instruction("return", ((i32(4),),)),
            ]
        ],
    )
    assert function(5) == (36,)
    assert function(1 << 30) == (((7 << 30) + 1 + (1 << 31)) % (1 << 32) - (1 << 31),)
    for dead in ("v1 =", "v2 =", "v3 =", "v5 ="):  # folded constants: no store left
        assert dead not in function.source
    assert "7 * v0" in function.source


def test_a_constant_a_later_block_reads_is_stored():
    # f(c) = 7 if c else 9, the 7 set before the branch and read after it
    function = _function(
        "f",
        (3, 0, 0),
        (i32(0),),
        [
            [
                Instruction("const.i32", (i32(1), 7)),
                Instruction("cond_br", (i32(0), (1, ()), (2, ()))),
            ],
            [Instruction("return", ((i32(1),),))],
            [Instruction("const.i32", (i32(2), 9)), Instruction("return", ((i32(2),),))],
        ],
    )
    assert function(1) == (7,)
    assert function(0) == (9,)
    assert "v1 = 7" in function.source


def test_a_register_read_before_any_write_starts_at_zero():
    # f(c): block 2 reads v1, which only block 1 writes; c == 0 skips block 1
    function = _function(
        "f",
        (3, 0, 1),
        (i32(0),),
        [
            [Instruction("cond_br", (i32(0), (1, ()), (2, ())))],
            [
                Instruction("const.i32", (i32(1), 7)),
                Instruction("const.ref.rodata", (ref(0), 0)),
                Instruction("br", ((2, ()),)),
            ],
            [
                Instruction("cmp.nz.ref", (i32(2), ref(0))),
                Instruction("return", ((i32(1), i32(2)),)),
            ],
        ],
        rodata=[b"x"],
    )
    assert function(1) == (7, 1)
    assert function(0) == (0, 0)
    assert "v1 = 0" in function.source.splitlines()[1]  # zeroed: some path reads it unset


def test_constant_division_by_zero_raises_when_run_not_when_linked():
    # f(c) = c ? 1 / 0 : 2: the division is left to run (and raise) on the path that takes it
    function = _function(
        "f",
        (4, 0, 0),
        (i32(0),),
        [
            [Instruction("cond_br", (i32(0), (1, ()), (2, ())))],
            [
                Instruction("const.i32", (i32(1), 1)),
                Instruction("const.i32.zero", (i32(2),)),
                Instruction("div.i32.s", (i32(3), i32(1), i32(2))),
                Instruction("return", ((i32(3),),)),
            ],
            [Instruction("const.i32", (i32(3), 2)), Instruction("return", ((i32(3),),))],
        ],
    )
    assert function(0) == (2,)
    with pytest.raises(VMError, match="division by zero"):
        function(1)


def test_a_branch_on_a_constant_takes_only_its_target():
    function = _function(
        "f",
        (2, 0, 0),
        (i32(0),),
        [
            [
                Instruction("const.i32", (i32(1), 1)),
                Instruction("cond_br", (i32(1), (1, ((i32(0), i32(1)),)), (2, ()))),
            ],
            [Instruction("return", ((i32(1),),))],
            [Instruction("return", ((i32(0),),))],
        ],
    )
    assert function(5) == (5,)
    assert "if 1:" not in function.source


def test_division_by_a_positive_constant_is_inline_and_truncates():
    # f(x) = x / 4 (vm.div.i32.s truncates toward zero, also for negative x)
    function = _function(
        "f",
        (3, 0, 0),
        (i32(0),),
        [
            [
                Instruction("const.i32", (i32(1), 4)),
                Instruction("div.i32.s", (i32(2), i32(0), i32(1))),
                Instruction("return", ((i32(2),),)),
            ]
        ],
    )
    assert [function(x) for x in (9, 8, 0, -1, -9)] == [(2,), (2,), (0,), (0,), (-2,)]
    assert "v0 // 4 if v0 >= 0" in function.source


# ---- value ranges (`vm.value_ranges`): a wrap left out only where it cannot change a value ----

DIM = "test.dim"
"""An import whose i64 result the test declares in [0, 2**56 - 1], as `hal.buffer_view.dim`."""


def _sizes(limit: int | None):
    """f(d) of an i64 `d` (an import's result when `limit` is given, else the argument):
    `(d * 16, (d * 4) >> 32 truncated to i32, (d * 4) truncated, ceildiv(d, 4096) + 1)`."""
    source = (
        [Instruction("call", (IMPORT_BIT | 0, (i64(0),), (i64(0),)))] if limit is not None else []
    )
    function = DecodedFunction(
        "f",
        (4, 8, 0),
        (i64(0),),
        [
            [
                *source,
                Instruction("const.i64", (i64(1), 16)),
                Instruction("mul.i64", (i64(2), i64(0), i64(1))),
                Instruction("const.i64", (i64(1), 4)),
                Instruction("mul.i64", (i64(3), i64(0), i64(1))),
                Instruction("const.i64", (i64(1), 32)),
                Instruction("shr.i64.u", (i64(4), i64(3), i64(1))),
                Instruction("trunc.i64.i32", (i32(0), i64(4))),
                Instruction("trunc.i64.i32", (i32(1), i64(3))),
                Instruction("const.i64", (i64(1), 4095)),
                Instruction("add.i64", (i64(5), i64(0), i64(1))),
                Instruction("const.i64", (i64(1), 4096)),
                Instruction("div.i64.s", (i64(6), i64(5), i64(1))),
                Instruction("const.i64", (i64(1), 1)),
                Instruction("add.i64", (i64(7), i64(6), i64(1))),
                Instruction("return", ((i64(2), i32(0), i32(1), i64(7)),)),
            ]
        ],
    )
    names = [DIM]
    ranges = {DIM: (0, limit)} if limit is not None else {}
    globals_ = {"i32": [], "i64": [], "ref": []}
    identity = [lambda d: d]
    (linked,) = link_functions([function], identity, names, globals_, [], ranges)
    return linked


def _reference(d: int) -> tuple[int, ...]:
    def wrap(x, bits):
        half = 1 << (bits - 1)
        return ((x + half) % (1 << bits)) - half

    quarter = wrap(d * 4, 64)
    total = wrap(d + 4095, 64)
    quotient = abs(total) // 4096 * (1 if total >= 0 else -1)
    return (
        wrap(d * 16, 64),
        wrap((quarter % (1 << 64)) >> 32, 32),
        wrap(quarter, 32),
        wrap(quotient + 1, 64),
    )


def test_bounded_dims_need_no_wraps_and_agree():
    function = _sizes((1 << 56) - 1)
    for d in (0, 1, 7, 4096, 4097, (1 << 31) + 5, (1 << 40) + 3, (1 << 56) - 1):
        assert function(d) == _reference(d), d
    source = function.source  # v4 is d (i64 registers follow the four i32 ones)
    assert "v6 = v4 * 16\n" in source and "v7 = v4 * 4\n" in source  # d * 16, d * 4: plain
    assert "v8 = v7 >> 32\n" in source and "v0 = v8\n" in source  # the high half: plain
    assert "v1 = (v7 if v7 <= 2147483647 else" in source  # the low half may not fit: wrapped
    assert "v9 = v4 + 4095\n" in source and "v10 = v9 // 4096\n" in source
    assert "v11 = v10 + 1\n" in source


def test_unbounded_values_keep_their_wraps():
    function = _sizes(None)
    for d in (0, 5, (1 << 62) + 1, (1 << 63) - 1, -(1 << 63), -4097, -1):
        assert function(d) == _reference(d), d
    source = function.source
    assert "(w := v4 * 16) <= 9223372036854775807" in source
    assert "(w := v4 + 4095)" in source
    # the shift's result has 32 leading zeros whatever its operand: plain (not its truncation)
    assert "v8 = (v7 & 18446744073709551615) >> 32\n" in source
    assert "v0 = (v8 if v8 <= 2147483647 else" in source  # never negative: one side tested
    # the quotient of a division by 4096 is bounded, so adding one needs no wrap
    assert "v11 = v10 + 1\n" in source


def test_views_the_runtime_makes_keep_dims_in_the_limit():
    import numpy as np

    from ireelab.runtime.errors import HALError
    from ireelab.runtime.hal.allocator import Allocator
    from ireelab.runtime.hal.buffer_view import DIM_LIMIT, from_numpy
    from ireelab.runtime.hal.drivers import create_device
    from ireelab.runtime.hal.module import RESULT_RANGES, HALModule

    assert RESULT_RANGES["hal.buffer_view.dim"] == (0, DIM_LIMIT)
    hal = HALModule(create_device("local-sync"))
    buffer = Allocator("test").allocate(0, 0, 16)
    assert hal.buffer_view_create(buffer, 0, 16, 553648160, 1, [4, 1]).shape == (4, 1)
    for shape in ([-1, 4], [DIM_LIMIT + 1, 0]):
        with pytest.raises(HALError, match="INVALID_ARGUMENT.*buffer view dim"):
            hal.buffer_view_create(buffer, 0, 16, 553648160, 1, shape)
    with pytest.raises(HALError, match="buffer view dim"):
        from_numpy(np.empty((0, DIM_LIMIT + 1), np.int8), Allocator("test"))


# ---- a `ceildiv` by a positive constant: IREE's expansion folded into one expression ----------


def _ceildiv(width: int, k: int, dim: bool, ending: str):
    """f(a) = IREE's signed `ceildiv(a, k)` expansion (`c = a <= 0; n = 0 - a; d = a - 1;
    s = c ? n : d; q = s / k; r = c ? 0 - q : q + 1`, reusing registers as IREE does), `a` the
    argument or (`dim`) a `test.dim` import's result in [0, 2**56 - 1]. `ending`: "result"
    returns r; "reads" also returns q and c (read in the block); "later" returns r and q from a
    second block."""
    r = i64 if width == 64 else i32
    kind = f"i{width}"
    source = [Instruction("call", (IMPORT_BIT | 0, (r(0),), (r(0),)))] if dim else []
    blocks = [
        [
            *source,
            Instruction(f"const.{kind}.zero", (r(1),)),
            Instruction(f"const.{kind}", (r(2), 1)),
            Instruction(f"cmp.lte.{kind}.s", (i32(5), r(0), r(1))),
            Instruction(f"sub.{kind}", (r(3), r(1), r(0))),
            Instruction(f"sub.{kind}", (r(0), r(0), r(2))),
            Instruction(f"select.{kind}", (r(3), i32(5), r(3), r(0))),
            Instruction(f"const.{kind}", (r(0), k)),
            Instruction(f"div.{kind}.s", (r(3), r(3), r(0))),
            Instruction(f"sub.{kind}", (r(1), r(1), r(3))),
            Instruction(f"add.{kind}", (r(2), r(3), r(2))),
            Instruction(f"select.{kind}", (r(1), i32(5), r(1), r(2))),
        ]
    ]
    if ending == "later":
        blocks[0].append(Instruction("br", ((1, ()),)))
        blocks.append([Instruction("return", ((r(1), r(3)),))])
    elif ending == "trunc":  # r and r truncated to i32 (r's range is the fold's)
        blocks[0].append(Instruction("trunc.i64.i32", (i32(4), r(1))))
        blocks[0].append(Instruction("return", ((r(1), i32(4)),)))
    else:
        values = (r(1),) if ending == "result" else (r(1), r(3), i32(5))
        blocks[0].append(Instruction("return", (values,)))
    counts = (6, 4, 0) if width == 64 else (6, 0, 0)
    function = DecodedFunction("f", counts, (r(0),), blocks)
    ranges = {DIM: (0, (1 << 56) - 1)} if dim else {}
    globals_ = {"i32": [], "i64": [], "ref": []}
    (linked,) = link_functions([function], [lambda d: d], [DIM], globals_, [], ranges)
    return linked


def _ceildiv_reference(a: int, k: int, width: int) -> tuple[int, int, int]:
    """(r, q, c) of the expansion, every step wrapped to `width` bits."""

    def wrap(x):
        half = 1 << (width - 1)
        return ((x + half) % (1 << width)) - half

    c = int(a <= 0)
    s = wrap(0 - a) if c else wrap(a - 1)
    q = abs(s) // k * (1 if s >= 0 else -1)
    return (wrap(0 - q) if c else wrap(q + 1)), q, c


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from([32, 64]), st.integers(1, 5000))
def test_unbounded_ceildiv_folds_and_agrees_with_the_expansion(data, width, k):
    half = 1 << (width - 1)
    a = data.draw(st.integers(-half, half - 1) | st.sampled_from([-half, -half + 1, half - 1, 0]))
    function = _ceildiv(width, k, dim=False, ending="result")
    assert function(a) == _ceildiv_reference(a, k, width)[:1]
    body = function.source
    assert f"-(-v{0 if width == 32 else 6} // {k}) if" in body and "0 - " not in body


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 56) - 1), st.sampled_from([1, 2, 64, 4096, 4095]))
def test_a_dims_ceildiv_is_one_floor_division(d, k):
    function = _ceildiv(64, k, dim=True, ending="result")
    assert function(d) == _ceildiv_reference(d, k, 64)[:1]
    expected = "v7 = v6\n" if k == 1 else f"v7 = (v6 + {k - 1}) // {k}\n"
    assert expected in function.source and "0 - " not in function.source


@pytest.mark.parametrize("ending", ["reads", "later"])
@pytest.mark.parametrize("a", [0, 1, 4096, 4097, -1, -4097, -(1 << 63), (1 << 63) - 1])
def test_a_ceildiv_whose_steps_are_read_keeps_its_expansion(ending, a):
    function = _ceildiv(64, 4096, dim=False, ending=ending)
    r, q, c = _ceildiv_reference(a, 4096, 64)
    assert function(a) == ((r, q, c) if ending == "reads" else (r, q))
    assert "0 - " in function.source and "-(-" not in function.source


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 56) - 1), st.sampled_from([1, 7, 4096]))
def test_a_folded_ceildiv_of_a_dim_truncates_as_the_expansion(d, k):
    function = _ceildiv(64, k, dim=True, ending="trunc")
    (r, _, _) = _ceildiv_reference(d, k, 64)
    assert function(d) == (r, semantics.CASTS["trunc.i64.i32"](r))
    assert "v4 = (v7 if v7 <= 2147483647 else" in function.source  # r >= 0: one side tested


@settings(max_examples=300, deadline=None)
@given(st.integers(-(1 << 63), (1 << 63) - 1), st.integers(-(1 << 63), (1 << 63) - 1))
def test_a_truncation_tests_only_the_side_its_range_can_leave(x, y):
    bounds = (min(x, y), max(x, y))
    text = _truncated("v0", bounds)
    for value in (bounds[0], bounds[1], (bounds[0] + bounds[1]) // 2):
        assert eval(text, {"v0": value}) == semantics.CASTS["trunc.i64.i32"](value)  # noqa: S307
