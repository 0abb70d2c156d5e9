"""The input size limit: one figure for every way a program comes in, checked before any work.

ireelab reads a whole program into memory and keeps its text for quoting errors, so it takes
programs up to `MAX_INPUT_BYTES` (64 MiB; a notebook cell is kilobytes, SqueezeNet's ONNX file
5 MB). A larger input - an MLIR file or text, an ONNX file or `onnx.ModelProto`, the text an
importer or exporter produced - is refused with one line naming its size, before it is read,
imported or converted, so nothing is half done and no output file is written. Light: no xDSL
import.
"""

from __future__ import annotations

import os

from ireelab.diagnostics import CompileError

MAX_INPUT_BYTES = 64 * 1024 * 1024


def check_size(size: int, what: str) -> None:
    """Refuse an input of `size` bytes over the limit; `what` names it ("input file 'a.onnx'")."""
    if size > MAX_INPUT_BYTES:
        raise CompileError(
            f"{what} is {size} bytes, over ireelab's input limit of {MAX_INPUT_BYTES} bytes "
            f"({MAX_INPUT_BYTES // (1024 * 1024)} MiB)",
            stage="input",
        )


def check_file(path: str | os.PathLike) -> None:
    """A file over the limit, by its size on disk (not read); a missing file passes (its
    reader reports it)."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return
    check_size(size, f"input file '{os.fspath(path)}'")


def check_text(text: str, what: str = "input") -> None:
    if len(text) > MAX_INPUT_BYTES // 4:  # a character is at most 4 bytes: count only then
        check_size(len(text.encode("utf-8", "surrogatepass")), what)
