"""`ireelab-check-module`: run every test function of a module, as IREE's
`iree-check-module` does (`tools/iree-check-module-main.cc`).

    ireelab-check-module --module=m.ilvm [--device=local-sync|local-task]

Every exported function (not `__init` or another `__` name) is one test, named
`<module>.<function>` as gtest names it; it takes no arguments and returns nothing (an export
that does is an error, as in IREE). Each test runs in a fresh context (its own globals and
`check` module state). Output is gtest's:

    [ RUN      ] module.add
    [       OK ] module.add (3 ms)
    [ RUN      ] module.sub
    Failure
    Expected equality of these values. Contents does not match.
      lhs:
        2xi32=1 2
      rhs:
        2xi32=1 3
    [  FAILED  ] module.sub (2 ms)

A failed check does not stop its function (it is recorded, as gtest's `ADD_FAILURE`); an error
raised while the function runs fails the test with that error. The exit status is 1 when any
test failed, 0 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ireelab.tools.run_module import USER_ERRORS, load


@dataclass
class TestOutcome:
    name: str
    """`module.function`, gtest's test name."""
    failures: list[str] = field(default_factory=list)
    """Each failed expectation's message, then the error that stopped the function, if any."""
    milliseconds: int = 0

    @property
    def passed(self) -> bool:
        return not self.failures


def test_functions(module) -> list[str]:
    """The exported functions that are tests (a `LoadedModule`'s), in export order."""
    from ireelab.runtime.errors import VMError

    names = []
    for export in module.image.exports:
        name = export["name"]
        if name.startswith("__") or "$" in name:
            continue
        function = module.image.functions[int(export["function"])]
        if function.inputs or function.outputs:
            raise VMError(
                "INVALID_ARGUMENT; expected function with no inputs or outputs, but export "
                f"'{name}' has {len(function.inputs)} input(s) and "
                f"{len(function.outputs)} output(s)"
            )
        names.append(name)
    return names


def run_test(module, name: str, device: str = "local-sync") -> TestOutcome:
    """Run one test function in a fresh context and collect what failed."""
    from ireelab.runtime.hal.drivers import get_device
    from ireelab.runtime.vm.context import Context

    outcome = TestOutcome(f"{module.name}.{name}")
    start = time.perf_counter()
    context = None
    try:
        # the kernels the compile (or an earlier test) started in worker processes: waiting
        # for them loads them from numba's cache; a context made first would compile each
        # of them again here, beside the worker compiling it
        module.wait_for_kernels()
        context = Context(module.image, module.decoded, get_device(device))
        context.initialize()
        context.function(name)()
    except USER_ERRORS as err:
        error = f"{type(err).__name__}: {err}"
    else:
        error = None
    if context is not None:
        outcome.failures.extend(context.check.failures)
    if error is not None:
        outcome.failures.append(error)
    outcome.milliseconds = round((time.perf_counter() - start) * 1000)
    return outcome


def run_tests(module, device: str = "local-sync") -> Iterator[TestOutcome]:
    for name in test_functions(module):
        yield run_test(module, name, device)


def _print_outcome(outcome: TestOutcome) -> None:
    for failure in outcome.failures:
        print(f"Failure\n{failure}")
    mark = "[       OK ]" if outcome.passed else "[  FAILED  ]"
    print(f"{mark} {outcome.name} ({outcome.milliseconds} ms)", flush=True)


def run(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ireelab-check-module", description="Run the test functions of an ireelab module."
    )
    parser.add_argument("--module", required=True, help="module file (.ilvm)")
    parser.add_argument("--device", default="local-sync", choices=("local-sync", "local-task"))
    args = parser.parse_args(argv)
    module = load(args.module)
    names = test_functions(module)
    print(f"[==========] Running {len(names)} tests from 1 test suite.")
    print(f"[----------] {len(names)} tests from {module.name}")
    failed: list[str] = []
    start = time.perf_counter()
    for name in names:
        print(f"[ RUN      ] {module.name}.{name}", flush=True)
        outcome = run_test(module, name, args.device)
        _print_outcome(outcome)
        if not outcome.passed:
            failed.append(outcome.name)
    total = round((time.perf_counter() - start) * 1000)
    print(f"[----------] {len(names)} tests from {module.name} ({total} ms total)\n")
    print(f"[==========] {len(names)} tests from 1 test suite ran. ({total} ms total)")
    print(f"[  PASSED  ] {len(names) - len(failed)} tests.")
    if failed:
        print(f"[  FAILED  ] {len(failed)} tests, listed below:")
        for name in failed:
            print(f"[  FAILED  ] {name}")
        print(f"\n {len(failed)} FAILED TESTS")
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except USER_ERRORS as err:
        sys.stdout.flush()
        print(f"ireelab-check-module: error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
