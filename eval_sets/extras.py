"""What `stepgrade bench` and `stepgrade study` need beyond the service: the `bench` extra."""

from __future__ import annotations

import importlib.util

# The `bench` extra's modules (progress bar, figures): a service install leaves them out.
BENCH_EXTRA_MODULES = ("tqdm", "matplotlib")


def require_bench_extra() -> None:
    """Refuse to register a command of the benchmark runner without the `bench` extra.

    Raises:
        ModuleNotFoundError: a module of the extra is missing; the CLI then says to install it.
    """
    for module in BENCH_EXTRA_MODULES:
        if importlib.util.find_spec(module) is None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)
