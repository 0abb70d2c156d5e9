"""Finding what codegen works on: variants, their exports, and the export functions.

IREE's codegen passes run nested on `hal.executable.variant` (through
`TranslateTargetExecutableVariantsPass`) and read the export ops beside the inner module. These
helpers give ireelab's module passes the same view: each variant for the numba-cpu backend, its
`hal.executable.export` ops, and the `func.func` each export names in the inner
`builtin.module`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from ireelab.dialects import hal


@dataclass(frozen=True)
class ExportSite:
    """One export of a variant with the function that implements it."""

    variant: hal.ExecutableVariantOp
    export: hal.ExecutableExportOp
    function: func.FuncOp


def variants(module: ModuleOp) -> Iterator[hal.ExecutableVariantOp]:
    for op in module.walk():
        if isinstance(op, hal.ExecutableVariantOp):
            yield op


def export_sites(module: ModuleOp) -> Iterator[ExportSite]:
    """Every (variant, export, function) triple, in IR order."""
    for variant in variants(module):
        inner = variant.inner_module
        if inner is None:
            continue
        functions = {f.sym_name.data: f for f in inner.ops if isinstance(f, func.FuncOp)}
        for export in variant.exports:
            function = functions.get(export.sym_name.data)
            if function is not None:
                yield ExportSite(variant, export, function)
