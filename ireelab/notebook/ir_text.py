"""IR text as a notebook output: `--show=ir`, what `iree-compile --compile-to=PHASE` prints.

Shown in a scrolling monospace box in Jupyter (a flow-phase module is hundreds of lines) and as
the plain text elsewhere, so copying it out gives exactly the IR.
"""

from __future__ import annotations

import html


class IRText:
    def __init__(self, text: str, title: str = ""):
        self.text = text
        self.title = title

    def __repr__(self) -> str:
        return f"// {self.title}\n{self.text}" if self.title else self.text

    def _repr_html_(self) -> str:
        title = f"<div><code>// {html.escape(self.title)}</code></div>" if self.title else ""
        box = (
            "<pre style='max-height:32em;overflow:auto;margin:0;font-size:85%'>"
            f"{html.escape(self.text)}</pre>"
        )
        return f"<div>{title}{box}</div>"
