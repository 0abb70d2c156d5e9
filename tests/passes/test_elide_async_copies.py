"""ElideAsyncCopiesPass (iree-stream-elide-async-copies)."""

from __future__ import annotations

from _stream_ir import parse, print_ir, run

from ireelab.compiler.stream.elide_async_copies import ElideAsyncCopiesPass

IR = """
builtin.module {
  func.func @f(%r: !stream.resource<*>, %u: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %a = stream.async.clone %r : !stream.resource<*>{%c64} -> !stream.resource<*>{%c64}
    %b = stream.async.clone %u : !stream.resource<*>{%c64} -> !stream.resource<*>{%c64}
    %w = stream.async.update %r, %b[%c0 to %c64] : !stream.resource<*>{%c64} -> %b as !stream.resource<*>{%c64}
    func.return %a, %w : !stream.resource<*>, !stream.resource<*>
  }
}
"""


def test_clone_without_in_place_writers_is_elided():
    # %a is only read: it is %r; %b is updated in place, so its clone must stay
    text = print_ir(run(parse(IR), ElideAsyncCopiesPass()))
    assert text.count("stream.async.clone") == 1
    assert "stream.async.clone %u" in text
    assert "func.return %r, %w" in text
