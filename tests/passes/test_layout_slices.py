"""LayoutSlicesPass (iree-stream-layout-slices): `stream.resource.pack` -> host arithmetic."""

from __future__ import annotations

import re

from _stream_ir import parse, print_ir, run

from ireelab.compiler.stream.layout_slices import LayoutSlicesPass

PACK = """
func.func @f(%n: index, %m: index) -> (index, index, index, index, index, index) {
  %c100 = arith.constant 100 : index
  %c4096 = arith.constant 4096 : index
  %t, %o0, %o1, %o2, %o3, %o4 = stream.resource.pack slices({
    [0, 1] = %c4096,
    [2, 3] = %c100,
    [0, 3] = %n,
    [1, 2] = %m,
    [3, 4] = %m
  }) : index
  func.return %t, %o0, %o1, %o2, %o3, %o4 : index, index, index, index, index, index
}
"""


def _laid_out() -> str:
    return print_ir(run(parse(PACK), LayoutSlicesPass()))


def test_static_slices_first_then_run_time_slices_after_them():
    # the two constant slices are never live together: both at 0, a 4096-byte static part;
    # the ?-sized slices follow it, each size aligned once
    text = _laid_out()
    assert "stream.resource.pack" not in text
    assert re.search(r"(%\w+) = util\.align %n, %c64 : index", text)
    assert re.search(r"(%\w+) = util\.align %m, %c64 : index", text)
    returned = re.search(r"func\.return (.*) :", text).group(1).split(", ")
    assert returned[1] == returned[2] == "%c0"
    assert returned[3] == "%c4096"


def test_run_time_slices_of_one_size_share_a_place_when_not_live_together():
    # %m's slices live over [1, 2] and [3, 4]: one place, right after %n's
    text = _laid_out()
    returned = re.search(r"func\.return (.*) :", text).group(1).split(", ")
    assert returned[4] == returned[5]
    n_aligned = re.search(r"(%\w+) = util\.align %n, %c64", text).group(1)
    m_aligned = re.search(r"(%\w+) = util\.align %m, %c64", text).group(1)
    after_n = re.search(rf"(%\w+) = arith\.addi %c4096, {n_aligned} : index", text).group(1)
    assert returned[4] == after_n
    # the total: the place of %m's slices plus %m aligned, not aligned again (it is a sum of
    # aligned values)
    total = re.search(rf"(%\w+) = arith\.addi {after_n}, {m_aligned} : index", text).group(1)
    assert returned[0] == total
    assert text.count("util.align") == 2


def test_a_pack_with_only_constant_sizes_folds_to_constants():
    text = print_ir(
        run(
            parse(
                """
func.func @g() -> (index, index, index) {
  %c100 = arith.constant 100 : index
  %t, %a, %b = stream.resource.pack slices({
    [0, 1] = %c100,
    [1, 2] = %c100
  }) : index
  func.return %t, %a, %b : index, index, index
}
"""
            ),
            LayoutSlicesPass(),
        )
    )
    assert "util.align" not in text and "arith.addi" not in text
    # two overlapping 100-byte slices at 0 and 128; the total rounded up to 64 bytes too
    assert "func.return %c256, %c0, %c128 : index, index, index" in text
