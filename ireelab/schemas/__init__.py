"""Formats the compiler writes and the runtime reads, below both.

IREE keeps such shared definitions in `runtime/src/iree/schemas/` (the bytecode module's
flatbuffer schema and friends), which compiler and runtime both include; neither side owns them.
Here: the VM instruction set (`vm_opcodes`), HAL element type codes (`hal_element_types`) and
the micro-kernel names kernel modules may import (`ukernel_names`).
"""
