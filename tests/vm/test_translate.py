"""The VM's translation of decoded functions into Python: loops with parallel block-argument
moves, calls to imports and internal functions, vm.fail with its message, and nothing from
the module file ever pasted into the generated source."""

from __future__ import annotations

import pytest

from ireelab.runtime import VMError, load_module
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction
from ireelab.runtime.vm.interpreter import link_functions
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
