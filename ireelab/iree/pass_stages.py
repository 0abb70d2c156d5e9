"""Which of the seven stages each pass of an IREE dump belongs to.

IREE's `buildIREEVMTransformPassPipeline` runs its pipelines in a fixed order (input conversion
and ABI, device assignment, global optimisation + dispatch creation + Flow, Stream, HAL with
executable translation inside it, VM), so the stages follow each other and never interleave.
A pass's flag says which pipeline it comes from (`iree-stream-*`, `iree-codegen-*`); generic
passes (`canonicalize`, `cse`, `iree-util-*`, `symbol-dce`) run everywhere and belong to the
stage around them. The classification walks the dump in order with a stage cursor that only
moves forward, advanced by the first pass of each stage, with three facts about IREE's pipeline:

- the HAL pipeline starts by checking initialisation order, attributing the call graph and
  re-running device assignment (no-ops by then); ireelab's stages put everything of the HAL
  pipeline before `ConvertToHALPass` into codegen (that is where executables are translated),
  so those passes open codegen rather than going back to device;
- `iree-hal-*` passes before `ConvertToHALPass` configure and translate executables: codegen;
- the VM pipeline starts with an inliner; a pass that runs nested pipelines prints its own dump
  after the dumps of the passes it ran (the inliner's canonicalizations on each function come
  first), so those dumps open the VM stage together with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ireelab.compiler.pipeline import STAGES

_ORDER = {stage: k for k, stage in enumerate(STAGES)}

_FAMILIES: tuple[tuple[str, str], ...] = (
    ("iree-auto-input-conversion", "input"),
    ("iree-import-", "input"),
    ("iree-input-", "input"),
    ("iree-abi-", "input"),
    ("iree-sanitize-module-names", "input"),
    ("iree-hal-assign-", "device"),
    ("iree-hal-materialize-target-devices", "device"),
    ("iree-hal-resolve-device-", "device"),
    ("iree-hal-verify-devices", "device"),
    ("iree-preprocessing-", "flow"),
    ("iree-global-opt-", "flow"),
    ("iree-dispatch-creation-", "flow"),
    ("iree-flow-", "flow"),
    ("iree-stream-", "stream"),
    ("iree-hal-conversion", "hal"),
    ("iree-hal-", "codegen"),
    ("iree-codegen-", "codegen"),
    ("iree-llvmcpu-", "codegen"),
    ("iree-llvmgpu-", "codegen"),
    ("iree-spirv-", "codegen"),
    ("iree-convert-to-llvm", "codegen"),
    ("iree-vm-", "vm"),
)
"""Flag prefix -> the stage whose pipeline the pass belongs to (first match wins)."""

_HAL_PIPELINE_HEAD = frozenset(
    {"iree-util-verify-initialization-order", "iree-util-attribute-call-graph"}
)
"""Generic passes the HAL pipeline opens with, right before device assignment."""

_INLINER = "inline"
_NESTED_CANONICALIZE = "canonicalize"


def flag_stage(flag: str) -> str | None:
    """The stage a pass flag names by its prefix; None for generic passes."""
    bare = flag.split("{", 1)[0]
    for prefix, stage in _FAMILIES:
        if bare.startswith(prefix):
            return stage
    return None


def classify(flags: Sequence[str]) -> list[str]:
    """The stage of each pass execution, given their flags in dump order."""
    bare = [flag.split("{", 1)[0] for flag in flags]
    stages: list[str] = []
    cursor = "input"
    for k, flag in enumerate(bare):
        stage = _stage_here(flag, cursor)
        if stage != cursor and _ORDER[stage] > _ORDER[cursor]:
            _reopen(stages, bare, k, stage)
            cursor = stage
        stages.append(cursor)
    return stages


def _stage_here(flag: str, cursor: str) -> str:
    family = flag_stage(flag)
    if family == "device" and _ORDER[cursor] >= _ORDER["stream"]:
        return "codegen"  # the HAL pipeline's own device assignment
    if flag == _INLINER and cursor == "hal":
        return "vm"
    if family is None or _ORDER[family] < _ORDER[cursor]:
        return cursor
    return family


def _reopen(stages: list[str], flags: list[str], k: int, stage: str) -> None:
    """Move the dumps just before a stage's first pass that belong to that stage."""
    if stage == "codegen":
        head = _HAL_PIPELINE_HEAD
    elif stage == "vm" and flags[k] == _INLINER:
        head = frozenset({_NESTED_CANONICALIZE})
    else:
        return
    j = k - 1
    while j >= 0 and flags[j] in head and stages[j] != "input":
        stages[j] = stage
        j -= 1
