"""Run every ``bench_*.py`` of this folder: ``python -m tests.benchmarks.run [--quick] [--only NAME]``.

Each benchmark module has ``main(argv) -> int``; the arguments are passed through (``--only speed`` runs
``bench_speed.py`` alone). The exit status is 1 if any benchmark returns non-zero.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def benchmarks() -> list[str]:
    """Module names of the benchmarks, in file name order."""
    return [f"{__package__}.{path.stem}" for path in sorted(Path(__file__).parent.glob("bench_*.py"))]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    only = None
    if "--only" in argv:
        at = argv.index("--only")
        only = argv[at + 1] if at + 1 < len(argv) else ""
        del argv[at:at + 2]
    status = 0
    for name in benchmarks():
        if only is not None and not name.endswith(f"bench_{only}"):
            continue
        print(f"== {name}", flush=True)
        status |= bool(importlib.import_module(name).main(argv))
    return status


if __name__ == "__main__":
    sys.exit(main())
