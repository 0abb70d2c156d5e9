"""Putting per-op fragments of a dump back into the whole module."""

from __future__ import annotations

import lzma
import re

from iree_support import DATA

from ireelab.iree.dump_reader import read_dump
from ireelab.iree.module_rebuilder import ModuleRebuilder

TWO_EXECUTABLES = """#map = affine_map<(d0) -> (d0)>
module {
  hal.executable private @a {
    hal.executable.variant public @cpu target(<"llvm-cpu", "x">) {
      hal.executable.export public @a_export ordinal(0) layout(#hal.pipeline.layout<bindings = []>)
      builtin.module {
        func.func @a_export() {
          return
        }
      }
    }
  }
  hal.executable private @b {
    hal.executable.variant public @cpu target(<"llvm-cpu", "x">) {
      hal.executable.export public @b_export ordinal(0) layout(#hal.pipeline.layout<bindings = []>)
      builtin.module {
        func.func @b_export() {
          %0 = "test.use"() {m = #map} : () -> i32
          return
        }
      }
    }
  }
  util.func public @main() {
    util.return
  }
}"""


def rebuilt(*printed: str) -> str:
    rebuilder = ModuleRebuilder()
    for text in printed:
        assert rebuilder.update(text)
    return rebuilder.text()


def test_function_fragment_replaces_its_function() -> None:
    # A function pass prints only the function; the rest of the module stays.
    fragment = "util.func public @main() {\n  %c1 = arith.constant 1 : i32\n  util.return\n}"
    text = rebuilt(TWO_EXECUTABLES, fragment)
    assert "    %c1 = arith.constant 1 : i32\n    util.return" in text
    assert "hal.executable private @a" in text and "hal.executable private @b" in text


def test_same_named_variants_are_told_apart_by_their_exports() -> None:
    # Both executables have a variant @cpu; the fragment's export names pick executable @b.
    fragment = (
        'hal.executable.variant public @cpu target(<"llvm-cpu", "x">) {\n'
        "  hal.executable.export public @b_export ordinal(0) layout(#hal.pipeline.layout<bindings = []>)\n"
        "  builtin.module {\n    llvm.func @b_export() {\n      llvm.return\n    }\n  }\n}"
    )
    text = rebuilt(TWO_EXECUTABLES, fragment)
    b_part = text[text.index("hal.executable private @b") :]
    a_part = text[: text.index("hal.executable private @b")]
    assert "llvm.func @b_export" in b_part and "func.func @b_export" not in text
    assert "func.func @a_export" in a_part


def test_inner_module_keeps_its_nested_spelling() -> None:
    # Printed alone a nested builtin.module is `module`; in place it stays `builtin.module`.
    fragment = (
        "module {\n  func.func @a_export() {\n    %0 = arith.constant 0 : i32\n    return\n  }\n}"
    )
    text = rebuilt(TWO_EXECUTABLES, fragment)
    assert text.count("builtin.module {") == 2
    assert "        func.func @a_export() {\n          %0 = arith.constant 0 : i32" in text


def test_a_clashing_alias_is_renamed_and_unused_aliases_dropped() -> None:
    # The fragment's #map means something else than the module's #map (used by @b_export).
    fragment = (
        "#map = affine_map<(d0, d1) -> (d1, d0)>\n"
        'func.func @a_export() {\n  %0 = "test.use"() {m = #map} : () -> i32\n  return\n}'
    )
    text = rebuilt(TWO_EXECUTABLES, fragment)
    assert "#map = affine_map<(d0) -> (d0)>" in text
    assert "#map1 = affine_map<(d0, d1) -> (d1, d0)>" in text
    assert re.search(r"func\.func @a_export\(\) \{\n\s+%0 = \"test.use\"\(\) \{m = #map1\}", text)
    # Once @b_export no longer uses #map, its definition goes.
    fragment_b = "func.func @b_export() {\n  return\n}"
    assert "#map = " not in rebuilt(TWO_EXECUTABLES, fragment, fragment_b)


def test_a_whole_module_replaces_everything() -> None:
    replacement = "module {\n  util.func public @other() {\n    util.return\n  }\n}"
    assert rebuilt(TWO_EXECUTABLES, replacement) == replacement


def test_a_fragment_before_any_module_cannot_be_placed() -> None:
    assert not ModuleRebuilder().update("util.func public @main() {\n  util.return\n}")


def test_threaded_two_executable_dump_places_every_fragment() -> None:
    # With threading, the two executables' codegen dumps interleave; each lands in its own.
    text = lzma.decompress((DATA / "l_two_results.after-all.threaded.txt.xz").read_bytes()).decode()
    rebuilder = ModuleRebuilder()
    sections = read_dump(text).sections
    assert all(rebuilder.update(s.ir) for s in sections)
    last_codegen = next(
        k
        for k in range(len(sections) - 1, -1, -1)
        if sections[k].name == "TranslateAllExecutablesPass"
    )
    rebuilder = ModuleRebuilder()
    for section in sections[: last_codegen + 1]:
        rebuilder.update(section.ir)
    module = rebuilder.text()
    for k in (0, 1):
        start = module.index(f"hal.executable private @two_results_dispatch_{k} ")
        end = module.index("\n  }\n", start)
        body = module[start:end]
        assert f"llvm.func @two_results_dispatch_{k}_" in body
        assert f"llvm.func @two_results_dispatch_{1 - k}_" not in body
