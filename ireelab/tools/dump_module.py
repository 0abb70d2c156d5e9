"""`ireelab-dump-module FILE`: what a module file holds, laid out as IREE's `iree-dump-module`
prints a `.vmfb` (`tools/iree-dump-module-main.c`): required types, module dependencies,
imported and exported functions, sections with sizes, the bytecode table, and a disassembly
of every function. Registers print as `%i3` (i32), `%l3` (i64) and `%r3` (ref).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ireelab.runtime.errors import ModuleFileError
from ireelab.runtime.vm.decoder import Instruction, decode_function
from ireelab.runtime.vm.module_file import ModuleImage, read_module
from ireelab.schemas.vm_opcodes import BANK_SHIFT, IMPORT_BIT, INDEX_MASK

RULE = "//===" + "-" * 110 + "===//"


def _banner(title: str) -> list[str]:
    return [RULE, f"// {title}", RULE, ""]


def _short_type(text: str) -> str:
    return text if text in ("i32", "i64", "f32") else "!vm.ref<?>"


def _import_signature(entry: dict) -> str:
    args = []
    for _, type_text, variadic in entry["args"]:
        if type_text.startswith("tuple<"):
            inner = [_short_type(t.strip()) for t in type_text[6:-1].split(",")]
            args.append(f"tuple<{', '.join(inner)}>...")
        elif variadic:
            args.append(f"tuple<{_short_type(type_text)}>...")
        else:
            args.append(_short_type(type_text))
    results = ", ".join(_short_type(t) for t in entry["results"])
    return f"{entry['name']}({', '.join(args)}) -> ({results})"


def _register(reg: int) -> str:
    return f"%{'ilr'[reg >> BANK_SHIFT]}{reg & INDEX_MASK}"


def _callee(image: ModuleImage, callee: int) -> str:
    if callee & IMPORT_BIT:
        return "@" + image.imports[callee & ~IMPORT_BIT]["name"]
    return "@" + image.functions[callee].name


def _target(target: tuple) -> str:
    block, moves = target
    return f"^bb{block}(" + ", ".join(f"{_register(s)}->{_register(d)}" for s, d in moves) + ")"


def _disassemble(image: ModuleImage, ins: Instruction) -> str:
    name, ops = ins.name, ins.operands
    regs = ", ".join
    if name in ("call", "call.variadic"):
        callee, *rest = ops
        args, results = rest[-2], rest[-1]
        head = f"{regs(map(_register, results))} = " if results else ""
        segments = f" segments{[s for s, _ in rest[0]]}" if name == "call.variadic" else ""
        return f"{head}vm.{name} {_callee(image, callee)}{segments}({regs(map(_register, args))})"
    if name == "call.variadic.yieldable":
        callee, segments, args, block, results = ops
        return (
            f"vm.{name} {_callee(image, callee)}({regs(map(_register, args))}) -> "
            f"^bb{block}({regs(map(_register, results))})"
        )
    if name == "br":
        return f"vm.br {_target(ops[0])}"
    if name == "cond_br":
        return f"vm.cond_br {_register(ops[0])}, {_target(ops[1])}, {_target(ops[2])}"
    if name in ("return", "discard.refs"):
        return f"vm.{name} {regs(map(_register, ops[0]))}".rstrip()
    if name == "fail":
        return f'vm.fail {_register(ops[0])}, "{ops[1]}"'
    if name == "const.ref.rodata":
        size = len(image.rodata[ops[1]].data)
        return f"{_register(ops[0])} = vm.const.ref.rodata {ops[1]}  // {size}b"
    if name.startswith("global."):
        kind = name.rsplit(".", 1)[1]
        table = image.globals.get(kind, [])
        label = table[ops[1]]["name"] if ops[1] < len(table) else "?"
        if name.startswith("global.load"):
            return f"{_register(ops[0])} = vm.{name} .{kind}[{ops[1]}]  // @{label}"
        return f"vm.{name} {_register(ops[0])}, .{kind}[{ops[1]}]  // @{label}"
    if name in ("const.i32", "const.i64"):
        return f"{_register(ops[0])} = vm.{name} {ops[1]}"
    result, *operands = ops
    return f"{_register(result)} = vm.{name} {regs(map(_register, operands))}".rstrip()


def dump(image: ModuleImage) -> str:
    lines = _banner(f"@{image.name} : version {image.version}")
    lines += ["Required Types:"]
    lines += [f"  [{i:3}] {t}" for i, t in enumerate(image.types)] + [""]
    versions = [int(e.get("attributes", {}).get("minimum_version", 0)) for e in image.imports]
    if image.imports:
        lines += ["Module Dependencies:", f"  hal, version >= {max(versions)}, required", ""]
    lines += ["Imported Functions:"]
    lines += [f"  [{i:3}] {_import_signature(e)}" for i, e in enumerate(image.imports)] + [""]
    lines += ["Exported Functions:"]
    for i, export in enumerate(image.exports):
        function = image.functions[int(export["function"])]
        inputs = ", ".join(_short_type(t) for t in function.inputs)
        outputs = ", ".join(_short_type(t) for t in function.outputs)
        lines.append(f"  [{i:3}] {export['name']}({inputs}) -> ({outputs})")
        for key, value in image.reflection.get(export["name"], {}).items():
            lines.append(f"        {key}: {value}")
    lines += [""] + _banner("Sections")
    ints = 4 * len(image.globals.get("i32", [])) + 8 * len(image.globals.get("i64", []))
    refs = len(image.globals.get("ref", []))
    lines += ["Module State:", f"  {ints} bytes, {refs} refs, ~{ints + 16 * refs} bytes total", ""]
    lines += [f"Module File: {image.size} bytes"]
    code_bytes = sum(len(f.code) for f in image.functions)
    lines.append(f"  Bytecode: {code_bytes} bytes")
    executables = {e["rodata"]: e for e in image.executables}
    for i, segment in enumerate(image.rodata):
        kind = "executable" if i in executables else "embedded"
        preview = ""
        if i not in executables and segment.data.isascii() and segment.data.decode().isprintable():
            text = segment.data.decode("ascii", "replace")
            preview = f" `{text[:32]}`" + ("..." if len(text) > 32 else "")
        lines.append(f"  .rodata[{i:3}] {kind:10} {len(segment.data):8} bytes{preview}")
    for tag, (offset, length) in image.sections.items():
        lines.append(f"  section {tag}: {length} bytes at offset {offset}")
    lines.append("")
    if executables:
        lines += ["Executables:"]
        for index, info in executables.items():
            lines.append(f"  .rodata[{index:3}] @{info['name']} ({info['format']})")
            lines += [f"      [{o}] {name}" for o, name in enumerate(info["exports"])]
        lines.append("")
    lines += _banner("Bytecode : version 0")
    lines.append("  # |   Length | Blocks | i32 # | i64 # | ref # | Name")
    lines.append("----+----------+--------+-------+-------+-------+" + "-" * 40)
    for i, f in enumerate(image.functions):
        i32s, i64s, refs_ = f.registers
        lines.append(
            f"{i:3} | {len(f.code):8} | {f.block_count:6} | {i32s:5} | {i64s:5} | {refs_:5} | {f.name}"
        )
    lines.append("")
    for f in image.functions:
        decoded = decode_function(f.name, f.code, f.registers, f.block_count)
        args = ", ".join(
            f"{_register(r)}: {_short_type(t)}"
            for r, t in zip(decoded.arguments, f.inputs, strict=False)
        )
        results = ", ".join(_short_type(t) for t in f.outputs)
        lines.append(f"vm.func @{f.name}({args}) -> ({results}) {{")
        for b, block in enumerate(decoded.blocks):
            lines.append(f"^bb{b}:")
            lines += [f"  {_disassemble(image, ins)}" for ins in block]
        lines += ["}", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: ireelab-dump-module FILE", file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 1
    try:
        image = read_module(Path(args[0]).read_bytes())
        print(dump(image))
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader closed the pipe (`| head`): not an error, as for any Unix filter
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ModuleFileError, OSError) as err:
        print(f"ireelab-dump-module: error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
