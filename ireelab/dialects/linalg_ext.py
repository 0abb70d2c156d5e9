"""The `linalg` dialect as ireelab parses it: xDSL's linalg plus the named ops xDSL lacks.

xDSL registers one `linalg` dialect; a second dialect of the same name cannot be loaded beside
it, so this module rebuilds `Linalg` from xDSL's ops and ireelab's additions.
"""

from xdsl.dialects import linalg as xlinalg
from xdsl.ir import Dialect

EXTRA_OPS: list = []
"""Named ops xDSL 0.75 lacks (batch_matmul, matvec, vecmat, pooling_*...), defined here."""

Linalg = Dialect(
    "linalg",
    [*xlinalg.Linalg.operations, *EXTRA_OPS],
    [*xlinalg.Linalg.attributes],
)
