"""The compiler: `pipeline` lists the passes; importing any part of it first makes xDSL's and
ireelab's assembly formats compile on first use (`ireelab.dialects.lazy_formats`)."""

import ireelab.dialects  # noqa: F401
