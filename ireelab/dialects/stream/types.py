"""The `stream` types: `!stream.resource<lifetime>`, `!stream.timepoint`, `!stream.binding`.

Mirrors IREE's `Dialect/Stream/IR/StreamTypes.td`: resources carry a lifetime (`*` until
`RefineUsagePass` decides, then `external`, `transient`, `constant`, ...), timepoints order
asynchronous work, bindings are what a dispatch function receives; plus the access modes
(`ro`/`wo`/`rw`) of dispatch bindings.
"""

from __future__ import annotations

from enum import StrEnum

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


class Lifetime(StrEnum):
    """What a resource is for; decides where and how long it is allocated."""

    UNKNOWN = "*"
    """not yet decided (right after ConvertToStreamPass; RefineUsagePass picks one)."""
    EXTERNAL = "external"
    """crosses the program boundary (imported arguments, exported results)."""
    TRANSIENT = "transient"
    """lives only inside one invocation; packed into a slab by ScheduleAllocationPass."""
    CONSTANT = "constant"
    """immutable after initialization (weights)."""
    VARIABLE = "variable"
    """a mutable global."""
    STAGING = "staging"
    """host-visible upload/download memory."""


@irdl_attr_definition
class ResourceType(ParametrizedAttribute, TypeAttribute):
    """`!stream.resource<external>`: a byte buffer with a lifetime; `*` means undecided."""

    name = "stream.resource"

    lifetime: StringAttr

    def __init__(self, lifetime: Lifetime | str = Lifetime.UNKNOWN):
        super().__init__(StringAttr(str(Lifetime(lifetime))))

    @property
    def kind(self) -> Lifetime:
        return Lifetime(self.lifetime.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("*"):
                return (StringAttr("*"),)
            word = parser.parse_identifier()
            if word not in Lifetime.__members__.values():
                parser.raise_error(f"unknown resource lifetime '{word}'")
        return (StringAttr(word),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.lifetime.data}>")

    def verify(self) -> None:
        if self.lifetime.data not in Lifetime.__members__.values():
            raise VerifyException(f"unknown resource lifetime '{self.lifetime.data}'")


@irdl_attr_definition
class TimepointType(ParametrizedAttribute, TypeAttribute):
    """`!stream.timepoint`: a point on the device timeline (a future; a fence in HAL)."""

    name = "stream.timepoint"


@irdl_attr_definition
class BindingType(ParametrizedAttribute, TypeAttribute):
    """`!stream.binding`: a dispatch function's view of one bound resource range."""

    name = "stream.binding"


class Access(StrEnum):
    """How a `stream.cmd.dispatch` uses a bound resource range."""

    READ = "ro"
    WRITE = "wo"
    READ_WRITE = "rw"
