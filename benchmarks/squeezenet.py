"""SqueezeNet with random weights, through both framework front doors, beside the real IREE.

    python benchmarks/squeezenet.py                 # 1.1 at 1x3x224x224, ONNX and torch routes
    python benchmarks/squeezenet.py --size 64 --route onnx --version 1.0

The model is written here as a small `torch.nn.Module` (torchvision's architecture of
SqueezeNet 1.1 - a stride-2 3x3 conv, three ceil-mode max pools, eight Fire modules of a 1x1
squeeze conv and concatenated 1x1 / 3x3 expand convs, a 1x1 classifier conv and a global
average pool - or 1.0, with a 7x7 first conv and the pools placed later), seeded, so nothing
is downloaded. Routes:

- onnx: `torch.onnx.export` (the TorchScript exporter, offline) to an ONNX file, compiled
  with `ireelab.compile(path)` (IREE's ONNX importer, then its input conversion);
- torch: `ireelab.compile_torch(model, x)` (iree-turbine's `aot.export`).

Each route prints its dispatch count and whether the dispatch names equal
`iree-compile --compile-to=flow`'s, compile and call times, and the largest difference from
torch's result and from the real IREE's. Nothing here is a pass/fail test; the small-input
test is `tests/frontends/test_squeezenet.py`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

FIRES = {
    "1.1": (
        (64, 16, 64, 64),
        (128, 16, 64, 64),
        "pool",
        (128, 32, 128, 128),
        (256, 32, 128, 128),
        "pool",
        (256, 48, 192, 192),
        (384, 48, 192, 192),
        (384, 64, 256, 256),
        (512, 64, 256, 256),
    ),
    "1.0": (
        (96, 16, 64, 64),
        (128, 16, 64, 64),
        (128, 32, 128, 128),
        "pool",
        (256, 32, 128, 128),
        (256, 48, 192, 192),
        (384, 48, 192, 192),
        (384, 64, 256, 256),
        "pool",
        (512, 64, 256, 256),
    ),
}
"""Each version's feature stack after its first conv and pool: Fire(in, squeeze, expand1x1,
expand3x3) modules and the max pools between them."""

FIRST_CONV = {"1.1": (64, 3), "1.0": (96, 7)}
"""Each version's first conv (stride 2): output channels and kernel size."""


def squeezenet(num_classes: int = 1000, seed: int = 0, version: str = "1.1"):
    """SqueezeNet in eval mode, weights drawn by torch's default initialisers at `seed`."""
    import torch
    from torch import nn

    class Fire(nn.Module):
        def __init__(self, cin: int, squeeze: int, expand1x1: int, expand3x3: int):
            super().__init__()
            self.squeeze = nn.Conv2d(cin, squeeze, 1)
            self.expand1x1 = nn.Conv2d(squeeze, expand1x1, 1)
            self.expand3x3 = nn.Conv2d(squeeze, expand3x3, 3, padding=1)

        def forward(self, x):
            x = torch.relu(self.squeeze(x))
            return torch.cat([torch.relu(self.expand1x1(x)), torch.relu(self.expand3x3(x))], 1)

    class SqueezeNet(nn.Module):
        def __init__(self):
            super().__init__()

            def pool():
                return nn.MaxPool2d(3, stride=2, ceil_mode=True)

            channels, kernel = FIRST_CONV[version]
            layers = [nn.Conv2d(3, channels, kernel, stride=2), nn.ReLU(), pool()]
            layers += [pool() if f == "pool" else Fire(*f) for f in FIRES[version]]
            self.features = nn.Sequential(*layers)
            self.classifier = nn.Sequential(
                nn.Dropout(0.5), nn.Conv2d(512, num_classes, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1)
            )

        def forward(self, x):
            return torch.flatten(self.classifier(self.features(x)), 1)

    torch.manual_seed(seed)
    return SqueezeNet().eval()


def example_input(size: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((1, 3, size, size)).astype(np.float32)


def reference(model, x: np.ndarray) -> np.ndarray:
    """torch's own result."""
    import torch

    with torch.no_grad():
        return model(torch.from_numpy(x)).numpy()


def export_onnx(model, x: np.ndarray, path: str | Path) -> Path:
    """The model as an ONNX file (opset 17), input `data`, output `logits`."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            model,
            (torch.from_numpy(x),),
            str(path),
            input_names=["data"],
            output_names=["logits"],
            opset_version=17,
            dynamo=False,
        )
    return Path(path)


def dispatch_names(text: str) -> tuple[list[str], list[str]]:
    """ireelab's dispatch exports and `iree-compile --compile-to=flow`'s, for the same text."""
    import ireelab
    import ireelab.iree
    from ireelab.notebook.summary import dispatches_in

    ours = [d.export for d in dispatches_in(ireelab.compile(text, compile_to="flow").ir())]
    real = ireelab.iree.compile(text, compile_to="flow", trace=False, keep=())
    return ours, [d.export for d in dispatches_in(real.ir())]


def _route(name: str, text: str, x: np.ndarray, expected: np.ndarray) -> None:
    import ireelab
    import ireelab.iree

    ours_names, real_names = dispatch_names(text)
    same = "same names" if ours_names == real_names else "names differ"
    print(f"{name}: {len(ours_names)} dispatches, iree-compile {len(real_names)} ({same})")
    start = time.perf_counter()
    module = ireelab.compile(text)
    compiled = time.perf_counter() - start
    function = "main" if "main" in module.functions else module.functions[-1]  # ONNX: main_graph
    entry = getattr(module, function)
    start = time.perf_counter()
    ours = np.asarray(entry(x))
    first = time.perf_counter() - start
    start = time.perf_counter()
    entry(x)
    second = time.perf_counter() - start
    real_module = ireelab.iree.compile(text, trace=False, keep=())
    real_entry = getattr(real_module, function)
    theirs = np.asarray(real_entry(x))
    print(
        f"  compile {compiled:.1f} s, first call {first:.1f} s, next call {second * 1e3:.0f} ms;"
        f" max |ireelab - torch| {np.abs(ours - expected).max():.2e},"
        f" max |ireelab - IREE| {np.abs(ours - theirs).max():.2e}"
        f" (results up to {np.abs(expected).max():.2e})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=224, help="input height and width")
    parser.add_argument("--route", choices=("onnx", "torch", "both"), default="both")
    parser.add_argument("--version", choices=sorted(FIRES), default="1.1")
    args = parser.parse_args(argv)
    from ireelab.frontends.onnx_import import import_onnx
    from ireelab.frontends.torch_export import export_torch

    model = squeezenet(version=args.version)
    x = example_input(args.size)
    expected = reference(model, x)
    if args.route in ("onnx", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            text = import_onnx(export_onnx(model, x, Path(tmp) / "squeezenet.onnx"))
        _route("onnx", text, x, expected)
    if args.route in ("torch", "both"):
        import torch

        _route("torch", export_torch(model, torch.from_numpy(x)), x, expected)
    return 0


if __name__ == "__main__":
    sys.exit(main())
