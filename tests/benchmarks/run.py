"""Run the benchmarks of this folder: ``python -m tests.benchmarks.run [NAME ...] [--quick]`` (``make bench``).

Each ``bench_*.py`` module has ``main(argv) -> int`` and prints its figures beside their targets. Names choose some
benchmarks (``bots``, ``speed`` or ``bench_speed``); options such as ``--quick`` are passed to every chosen one.
The exit status is 1 if a benchmark misses a target, 2 for an unknown name.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def benchmarks() -> list[str]:
    """Stems of the benchmark modules, in file name order."""
    return sorted(path.stem for path in Path(__file__).parent.glob("bench_*.py"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    names = [a for a in argv if not a.startswith("-")]
    options = [a for a in argv if a.startswith("-")]
    found = benchmarks()
    unknown = [n for n in names if n not in found and f"bench_{n}" not in found]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(found)}")
        return 2
    status = 0
    for stem in found:
        if names and stem not in names and stem.removeprefix("bench_") not in names:
            continue
        print(f"== {stem}", flush=True)
        status |= bool(importlib.import_module(f"{__package__}.{stem}").main(options))
    return status


if __name__ == "__main__":
    sys.exit(main())
