"""The notebook side of ireelab: the `%%ireecompile` / `%ireerun` magics, their displays, and
the tutorials launcher.

IREE has no notebook front end; this package plays the part that `iree-compile` and
`iree-run-module` play on a command line, inside IPython. It is the only place (with
`stepper.py`, the viz engineer's) that imports IPython or ipywidgets; nothing in the compiler
or the runtime depends on it.
"""
