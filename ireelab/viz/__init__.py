"""Pictures of a compile: the dispatch-region graph, the timepoint graph, the execution timeline.

IREE has `--iree-flow-dump-dispatch-graph` and `--dump-timepoint-graph`-style debugging aids
that write DOT; these views are the same idea kept as pure functions from IR (or a trace) to a
`graphviz.Digraph` with stable node ids, so their DOT text can be golden-tested and every view
renders inline in Jupyter. Graphviz is imported only under this package.
"""
