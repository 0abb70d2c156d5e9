"""IREE's dialects written in xDSL's IRDL: util, hal, flow, stream, iree_tensor_ext, vm,
and the linalg named ops xDSL lacks. One dialect per module; see `ireelab.compiler.context`."""

from ireelab.dialects.dataclass_code_cache import install as _install_dataclass_code_cache

_install_dataclass_code_cache()  # before xDSL's modules make their dataclasses

from ireelab.dialects.lazy_formats import install as _install_lazy_formats  # noqa: E402
from ireelab.dialects.op_init import install as _install_op_init  # noqa: E402
from ireelab.dialects.plain_isinstance import install as _install_plain_isinstance  # noqa: E402
from ireelab.dialects.ssa_value_get import install as _install_ssa_value_get  # noqa: E402
from ireelab.dialects.trait_lookup import install as _install_trait_lookup  # noqa: E402

_install_lazy_formats()  # before any dialect module is imported: see lazy_formats
_install_plain_isinstance()  # xDSL's IR classes: see plain_isinstance
_install_ssa_value_get()  # op constructors' operands: see ssa_value_get
_install_trait_lookup()  # has_trait / get_trait: see trait_lookup
_install_op_init()  # IRDL op construction: see op_init
