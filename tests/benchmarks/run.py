"""Run every benchmark of this folder: ``python -m tests.benchmarks.run`` (each ``bench_*.py`` module's ``main()``
with its default arguments). Name some to run only those: ``python -m tests.benchmarks.run bots``. The exit code is
non-zero when a benchmark misses a target."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv=None) -> int:
    names = sys.argv[1:] if argv is None else list(argv)
    found = sorted(p.stem for p in Path(__file__).parent.glob("bench_*.py"))
    chosen = [n for n in found if not names or n in names or n.removeprefix("bench_") in names]
    unknown = [n for n in names if n not in found and f"bench_{n}" not in found]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(found)}")
        return 2
    status = 0
    for name in chosen:
        module = importlib.import_module(f"{__package__}.{name}")
        status |= module.main([]) or 0
    return status


if __name__ == "__main__":
    sys.exit(main())
