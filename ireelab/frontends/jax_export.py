"""JAX functions in: `jax.jit(fn).lower(*example_args)` as StableHLO text.

JAX lowers a jitted function at the example arguments' shapes and dtypes to a StableHLO module
(`func.func public @main`), the form IREE's JAX path compiles; `--iree-input-type=stablehlo`
(auto-detected) takes it from there. Example arguments may be arrays or
`jax.ShapeDtypeStruct`s.
"""

from __future__ import annotations

from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require


def export_jax(fn, *example_args) -> str:
    """The StableHLO MLIR text JAX lowers `fn` to at `example_args`."""
    jax = require("jax", "compile_jax", "jax")
    try:
        return jax.jit(fn).lower(*example_args).as_text()
    except Exception as err:  # JAX's own message, one line
        text = str(err).strip()
        raise CompileError(
            f"jax.jit(...).lower: {text.splitlines()[0] if text else type(err).__name__}",
            stage="input",
        ) from None
