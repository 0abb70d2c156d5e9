"""Shared helpers for the Stream-stage pass tests: parse, print, run passes, reference IR."""

from __future__ import annotations

import io

from reference_paths import REFERENCE
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.compiler import pipeline
from ireelab.compiler.context import make_context
from ireelab.compiler.stream.index_constants import constant_value
from ireelab.dialects import stream

IR_DIR = REFERENCE / "iree-3.13-ir"
CTX = make_context()


def parse(text: str) -> ModuleOp:
    module = Parser(CTX, text).parse_module()
    module.verify()
    return module


def print_ir(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def run(module: ModuleOp, *passes) -> ModuleOp:
    for p in passes:
        p.apply(CTX, module)
        module.verify()
    return module


def stream_steps() -> list:
    return [s for s in pipeline.steps_until("stream") if s.stage == "stream"]


def flow_reference(program: str) -> ModuleOp:
    return parse((IR_DIR / f"{program}.flow.mlir").read_text())


def stream_reference(program: str) -> ModuleOp:
    return parse((IR_DIR / f"{program}.stream.mlir").read_text())


def run_stream_stage(module: ModuleOp, until: str | None = None) -> ModuleOp:
    """Run the Stream-stage passes in pipeline order, through the pass named `until`."""
    for step in stream_steps():
        p = step.make()
        run(module, p)
        if type(p).__name__ == until:
            break
    return module


def layout_facts(module: ModuleOp) -> list[tuple]:
    """What the final stream IR decides: allocations, bindings, subspan offsets, sync ops."""
    facts: list[tuple] = []
    for op in module.walk():
        match op:
            case stream.CmdDispatchOp():
                bindings = [
                    (str(a), constant_value(s), constant_value(o), constant_value(n))
                    for a, _r, s, o, n in op.bindings()
                ]
                facts.append(("dispatch", str(op.entry_point), len(op.uniform_operands), bindings))
            case stream.BindingSubspanOp():
                facts.append(("subspan", constant_value(op.byte_offset)))
            case stream.ResourceAllocaOp():
                facts.append(("alloca", str(op.result.type), constant_value(op.storage_size)))
            case stream.ResourceSubviewOp():
                facts.append(
                    ("subview", constant_value(op.source_offset), constant_value(op.result_size))
                )
            case (
                stream.ResourceDeallocaOp()
                | stream.TimepointJoinOp()
                | stream.TimepointAwaitOp()
                | stream.CmdConcurrentOp()
                | stream.CmdExecuteOp()
            ):
                facts.append((op.name,))
    return facts
