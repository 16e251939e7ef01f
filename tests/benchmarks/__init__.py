"""Benchmarks (not collected by pytest): ``python -m tests.benchmarks.run`` (``make bench``) runs every
``bench_*.py`` here; each prints its figures next to their targets (the targets are in each file's docstring)."""
