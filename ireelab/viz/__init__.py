"""Pictures of a compile: the dispatch-region graph, the timepoint graph, the execution timeline.

IREE writes DOT for debugging (`--iree-flow-dump-dispatch-graph`); these views are the same
idea kept as pure functions from IR (a `Trace`, a `PassRecord`, IR text, a `Path` or a
`ModuleOp`; ours or the real IREE's) or from a runtime trace to a `graphviz.Digraph` with stable
node ids, so their DOT text is golden-tested and every view renders inline in Jupyter:

- `dispatch_graph.dispatch_graph(source, collapse=..., highlight=..., at=..., overview=...,
  expand=..., find=...)`
- `timepoint_graph.timepoint_graph(source, costs=..., highlight=..., at=..., overview=...,
  expand=..., find=...)`
- above `overview.OVERVIEW_THRESHOLD` dispatches both draw an overview (`ireelab.viz.overview`)
- `timeline.timeline(trace_events, highlight=...)`
- `follow.follow(trace, op, trace_events=...)`
- `render.write_graph(view, path)`: DOT, or the picture when the suffix is a format (`.svg`, `.png`)
- `View(...)`: the class of them all, a `graphviz.Digraph` that displays, pipes and renders
  with or without Graphviz's `dot`; build a diagram of your own with it as with any Digraph

Graphviz is imported only under this package; nothing here is imported by `import ireelab`.
"""

from ireelab.viz.render import View

__all__ = ["View"]
