"""Framework programs in: PyTorch, JAX, ONNX and TOSA through the real IREE's importers.

IREE takes a model in through an importer (iree-turbine's `aot.export` for PyTorch,
`jax.jit(...).lower` for JAX, `iree-import-onnx` for ONNX; TOSA and StableHLO are written
directly) and its input conversion (`iree-compile --compile-to=input`), then runs the pipeline
ireelab mirrors. ireelab does the same with the real IREE for those first steps (the optional
extra `ireelab[frontends]`) and its own stages from there:

    ireelab.compile(torch_or_stablehlo_or_tosa_text)   # --iree-input-type=auto
    ireelab.compile("model.onnx") / ireelab.compile(model_proto)
    ireelab.compile_torch(module, *example_args)
    ireelab.compile_jax(fn, *example_args)

`input_type` detects the input dialect as IREE's `AutoInputConversionPipelinePass` does;
`input_conversion` runs IREE's input phase and keeps its passes for the trace;
`compile_program` joins the two; `onnx_import`, `torch_export` and `jax_export` are the
importers. Every framework package is imported on first use.
"""
