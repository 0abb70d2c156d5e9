"""PyTorch models in: iree-turbine's `aot.export`, IREE's PyTorch front door.

`iree.turbine.aot.export(module, *example_args)` traces the module with `torch.export` at the
example arguments' shapes and dtypes and imports the graph with torch-mlir's FX importer:
a `func.func @main` on `!torch.vtensor`s, parameters as `torch.vtensor.literal` constants
(`dense_resource` blobs). `--iree-input-type=torch` (auto-detected) takes it from there.
"""

from __future__ import annotations

from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require

_WHAT = "compile_torch"


def export_torch(module, *example_args) -> str:
    """The torch-dialect MLIR text iree-turbine exports for `module` at `example_args`."""
    require("torch", _WHAT, "torch")
    aot = require("iree.turbine.aot", _WHAT, "iree-turbine")
    try:
        exported = aot.export(module, args=tuple(example_args))
        return str(exported.mlir_module)
    except Exception as err:  # the exporter's own message, one line
        text = str(err).strip()
        raise CompileError(
            f"iree-turbine aot.export: {text.splitlines()[0] if text else type(err).__name__}",
            stage="input",
        ) from None
