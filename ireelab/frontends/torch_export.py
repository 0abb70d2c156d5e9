"""PyTorch models in: iree-turbine's `aot.export`, IREE's PyTorch front door.

`iree.turbine.aot.export(module, *example_args)` traces the module with `torch.export` at the
example arguments' shapes and dtypes and imports the graph with torch-mlir's FX importer:
a `func.func @main` on `!torch.vtensor`s, parameters as `torch.vtensor.literal` constants
(`dense_resource` blobs). `--iree-input-type=torch` (auto-detected) takes it from there.
With `dynamic_shapes` (torch.export's: `{"x": {0: Dim("batch")}}` or one entry per argument)
the marked sizes are `?` in the exported signature (`!torch.vtensor<[?,8],f32>`), as
`aot.export(..., dynamic_shapes=...)` gives them, and one compiled module serves every size.
"""

from __future__ import annotations

from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require
from ireelab.frontends.signature import Signature, torch_signature

_WHAT = "compile_torch"


def export_torch(module, *example_args, dynamic_shapes=None) -> str:
    """The torch-dialect MLIR text iree-turbine exports for `module` at `example_args`."""
    return export_torch_program(module, *example_args, dynamic_shapes=dynamic_shapes)[0]


def export_torch_program(module, *example_args, dynamic_shapes=None) -> tuple[str, Signature]:
    """The exported text and the module's argument / result structure (`torch.export`'s call
    spec). This is what `aot.export(module, args=...)` does (`torch.export.export`, strict, then
    iree-turbine's decompositions), with the exported program kept for its call spec."""
    torch = require("torch", _WHAT, "torch")
    aot = require("iree.turbine.aot", _WHAT, "iree-turbine")
    from iree.turbine.aot import decompositions

    args = tuple(torch.from_numpy(a) if type(a).__module__ == "numpy" else a for a in example_args)
    try:
        program = torch.export.export(module, args=args, dynamic_shapes=dynamic_shapes, strict=True)
        decomps = decompositions.current_aot_decompositions()
        if decomps:
            program = program.run_decompositions(decomps)
        exported = aot.export(program)
        return str(exported.mlir_module), torch_signature(program)
    except Exception as err:  # the exporter's own message, one line
        text = str(err).strip()
        raise CompileError(
            f"iree-turbine aot.export: {text.splitlines()[0] if text else type(err).__name__}",
            stage="input",
        ) from None
