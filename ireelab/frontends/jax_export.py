"""JAX functions in: `jax.jit(fn).lower(*example_args)` as StableHLO text.

JAX lowers a jitted function at the example arguments' shapes and dtypes to a StableHLO module
(`func.func public @main`), the form IREE's JAX path compiles; `--iree-input-type=stablehlo`
(auto-detected) takes it from there. Example arguments may be arrays or
`jax.ShapeDtypeStruct`s. A struct with symbolic sizes (`jax.export.symbolic_shape("b, 8")`)
goes through `jax.export.export`, JAX's shape-polymorphic export: its public `@main` takes
`tensor<?x8xf32>` alone and reads the sizes with `stablehlo.get_dimension_size` (the
`jax.jit(...).lower` text would take each size as an extra `tensor<i32>` argument).
"""

from __future__ import annotations

from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require
from ireelab.frontends.signature import Signature, jax_signature


def export_jax(fn, *example_args) -> str:
    """The StableHLO MLIR text JAX lowers `fn` to at `example_args`."""
    return export_jax_program(fn, *example_args)[0]


def export_jax_program(fn, *example_args) -> tuple[str, Signature]:
    """The lowered text and `fn`'s argument / result pytrees (`in_tree`, `out_tree`)."""
    jax = require("jax", "compile_jax", "jax")
    try:
        if _has_symbolic_sizes(jax, example_args):
            exported = jax.export.export(jax.jit(fn))(*example_args)
            return exported.mlir_module(), jax_signature(exported)
        lowered = jax.jit(fn).lower(*example_args)
        return lowered.as_text(), jax_signature(lowered)
    except Exception as err:  # JAX's own message, one line
        text = str(err).strip()
        raise CompileError(
            f"jax.jit(...).lower: {text.splitlines()[0] if text else type(err).__name__}",
            stage="input",
        ) from None


def _has_symbolic_sizes(jax, example_args) -> bool:
    leaves = jax.tree_util.tree_leaves(example_args)
    return any(not isinstance(d, int) for a in leaves for d in getattr(a, "shape", ()))
