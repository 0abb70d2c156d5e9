"""IREE's dialects written in xDSL's IRDL: util, hal, flow, stream, iree_tensor_ext, vm,
and the linalg named ops xDSL lacks. One dialect per module; see `ireelab.compiler.context`."""
