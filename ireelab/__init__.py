"""ireelab: a Jupyter-native mini-IREE.

    import ireelab
    mod = ireelab.compile(source_or_path)     # CompiledModule
    mod.matmul(a, b)                           # numpy in, numpy out
    mod.trace                                  # IR after every pass
    mod.save("m.ilvm"); ireelab.load("m.ilvm")

Heavy imports (xDSL, numba) happen on first use, so `import ireelab` stays fast.
"""

from __future__ import annotations

import os

__version__ = "0.1.0"

__all__ = [
    "compile",
    "compile_jax",
    "compile_torch",
    "load",
    "CompileError",
    "load_ipython_extension",
]

from ireelab.diagnostics import CompileError  # noqa: E402  (light: no xDSL import)


def compile(
    source,
    compile_to: str = "end",
    target_backends: tuple[str, ...] = ("numba-cpu",),
    device: str = "local-task",
    filename: str | None = None,
    progress=None,
    input_type: str = "auto",
    input_flags: tuple[str, ...] = (),
    data_tiling: bool = False,
    reassociate_fp_reductions: bool = True,
):
    """Compile MLIR text (or a path to a .mlir file) through IREE's stages.

    `source` may also be an `onnx.ModelProto` or a path to a `.onnx` file (imported by IREE's
    ONNX importer). `input_type` is `--iree-input-type`: `auto` (the default) detects torch,
    StableHLO, TOSA and ONNX programs as IREE does and converts them with the real IREE's
    input phase (`pip install 'ireelab[frontends]'`); `input_flags` go to that phase.
    `data_tiling` is IREE's `--iree-opt-data-tiling` (matmuls as pack / mmt4d / unpack).
    `reassociate_fp_reductions` is `--iree-llvmcpu-reassociate-fp-reductions` (off: sums
    in loop order).
    """
    from ireelab.compiler.driver import CompileOptions
    from ireelab.frontends.compile_program import compile_program
    from ireelab.frontends.onnx_import import import_onnx_program, is_onnx_model
    from ireelab.module import CompiledModule

    signature = imported = None
    if is_onnx_model(source):
        if filename is None:
            filename = os.fspath(source) if isinstance(source, str | os.PathLike) else "<onnx>"
        imported = import_onnx_program(source)
        source, signature = imported.text, imported.signature
    elif filename is None and _looks_like_path(source):
        from ireelab.input_limit import check_file

        filename = source
        check_file(source)
        with open(source, encoding="utf-8") as f:
            source = f.read()
    options = CompileOptions(
        compile_to=compile_to,
        target_backends=tuple(target_backends),
        input_type=input_type,
        input_flags=tuple(input_flags),
        data_tiling=data_tiling,
        reassociate_fp_reductions=reassociate_fp_reductions,
    )
    kernels = _KernelStarter() if compile_to == "end" else None
    try:
        result = compile_program(source, filename or "<input>", options, progress, kernels)
    except CompileError as err:
        raise (imported.name_node(err, filename) if imported else err) from None
    module_bytes = result.module_bytes() if compile_to == "end" else None
    module = CompiledModule(result, module_bytes, device=device)
    if signature is not None:
        _name_results(module, source, signature)
    return module


def _name_results(module, text: str, signature) -> None:
    """The exported function takes and returns what the framework names (see
    `frontends/signature.py`); other functions stay flat."""
    from ireelab.frontends.signature import entry_function

    name = entry_function(text)
    if name is not None:
        module.set_signature(name, signature)


class _KernelStarter:
    """Starts compiling the kernels as soon as the executables are serialised, in worker
    processes (`runtime/hal/kernel_pool.py`), while the VM stage and the module file are
    still being made; the first call then waits for what is left."""

    def __call__(self, pass_name: str, module) -> None:
        if pass_name != "SerializeAllExecutablesPass":
            return
        from ireelab.dialects import hal
        from ireelab.runtime.hal import kernel_pool

        binaries = [op.bytes for op in module.walk() if isinstance(op, hal.ExecutableBinaryOp)]
        try:
            kernel_pool.start(binaries)
        except Exception:  # noqa: BLE001 - the load reports a bad executable, located
            pass


def compile_torch(module, *example_args, dynamic_shapes=None, **options):
    """Export a `torch.nn.Module` at `example_args` with iree-turbine (`aot.export`) and
    compile it; `dynamic_shapes` is torch.export's (`{0: Dim("batch")}` per argument: those
    sizes are `?`), `options` are `compile`'s."""
    from ireelab.frontends.torch_export import export_torch_program

    options.setdefault("filename", f"<torch {type(module).__name__}>")
    text, signature = export_torch_program(module, *example_args, dynamic_shapes=dynamic_shapes)
    compiled = compile(text, **options)
    _name_results(compiled, text, signature)
    return compiled


def compile_jax(fn, *example_args, **options):
    """Lower a JAX function at `example_args` to StableHLO (`jax.jit(fn).lower`, or
    `jax.export` where a `jax.ShapeDtypeStruct` has symbolic sizes) and compile it; `options`
    are `compile`'s."""
    from ireelab.frontends.jax_export import export_jax_program

    options.setdefault("filename", f"<jax {getattr(fn, '__name__', 'fn')}>")
    text, signature = export_jax_program(fn, *example_args)
    compiled = compile(text, **options)
    _name_results(compiled, text, signature)
    return compiled


def load(path: str, device: str = "local-task"):
    """Load a module file written by `ireelab-compile` or `CompiledModule.save`."""
    from ireelab.module import CompiledModule

    with open(path, "rb") as f:
        data = f.read()
    module = CompiledModule(None, data, device=device)
    module.loaded  # validate now: a bad file fails here, with a clear error  # noqa: B018
    module.restore_signatures()  # names and structures a framework gave, kept in the file
    return module


def _looks_like_path(source) -> bool:
    return (
        isinstance(source, str)
        and "\n" not in source
        and source.endswith(".mlir")
        and os.path.exists(source)
    )


def load_ipython_extension(ipython):
    from ireelab.notebook.magics import load_ipython_extension as load

    load(ipython)
