"""Seeded simulations shared by the pages of one server process (off unless a server turns it on).

A simulation's rows depend only on its checked arguments (the chance contract, :mod:`aluette.simulation.contract`),
so a server that builds the same notebook for many students (the classroom app: notebook 09 runs about 650,000
seeded deals per page, five seconds of CPU) may compute each simulation once and give every later page a copy.
:func:`share_results` turns that on for the process; :func:`aluette.simulation.simulate` then looks here first.

What is shared: a finished :class:`pandas.DataFrame` per checked argument set (:class:`~aluette.simulation.runner.
SimulationSpec`, the engine included, so a comparison of the two engines still runs both), for simulations of named
players only (``"random"``, ``"heuristic"``: a factory may hold state of its own), run here (no executor) without a
progress bar. Each caller gets its own copy, so no page can change another's rows. The store keeps at most
``max_deals`` rows in all (about 90 bytes a row: 1,000,000 rows are about 90 MB), dropping the least recently used
first; a simulation larger than that is computed and not kept. Pages that ask for the same simulation at the same
time wait for the first one's result instead of computing it again.

Off by default: in a notebook, a script or a test each call computes its rows, so the same seed giving the same rows
is checked by computing them twice, not by reading them back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Hashable, Optional

import pandas as pd

from ..errors import AluetteError, quoted

__all__ = ["SharedResults", "share_results", "shared_results"]

#: The rows :func:`share_results` keeps by default (about 90 MB): notebook 09's simulations with room to spare.
DEFAULT_MAX_DEALS = 1_000_000


class SharedResults:
    """Finished simulations by their checked arguments, at most ``max_deals`` rows in all, least recently used out
    first. Thread-safe: a server's pages are built on several threads."""

    def __init__(self, max_deals: int = DEFAULT_MAX_DEALS):
        if isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1:
            raise AluetteError(f"max_deals must be a whole number of at least 1, got {quoted(max_deals)}")
        self.max_deals = max_deals
        self.hits = 0
        self.misses = 0
        self.waits = 0  # times a caller waited for another's computation
        self._lock = threading.Lock()
        self._frames: OrderedDict[Hashable, pd.DataFrame] = OrderedDict()
        self._computing: dict[Hashable, threading.Event] = {}

    @property
    def deals(self) -> int:
        """Rows kept now."""
        with self._lock:
            return sum(len(frame) for frame in self._frames.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._frames)

    def get(self, key: Hashable, n_deals: int, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        """A copy of the rows kept under ``key``, or ``compute()``'s rows, kept (when ``n_deals`` fits) and copied.
        While another thread computes ``key``, waits for it; if that computation raised, computes here."""
        while True:
            with self._lock:
                frame = self._frames.get(key)
                if frame is not None:
                    self._frames.move_to_end(key)
                    self.hits += 1
                    return frame.copy()
                waiting = self._computing.get(key)
                if waiting is None:
                    done = self._computing[key] = threading.Event()
                    self.misses += 1
                    break
                self.waits += 1
            waiting.wait()  # then read it (or compute it, if that thread failed)
        try:
            frame = compute()
            if n_deals <= self.max_deals:
                with self._lock:
                    self._frames[key] = frame
                    while sum(len(f) for f in self._frames.values()) > self.max_deals:
                        self._frames.popitem(last=False)
            return frame.copy()
        finally:
            with self._lock:
                del self._computing[key]
            done.set()


_shared: Optional[SharedResults] = None


def share_results(max_deals: Optional[int] = DEFAULT_MAX_DEALS) -> Optional[SharedResults]:
    """Share seeded simulations between the callers of this process, keeping at most ``max_deals`` rows
    (:class:`SharedResults`); ``None`` turns sharing off and forgets what was kept. Returns the new store (or
    ``None``). The classroom app turns it on in each of its worker processes."""
    global _shared
    _shared = None if max_deals is None else SharedResults(max_deals)
    return _shared


def shared_results() -> Optional[SharedResults]:
    """The process's store of shared simulations, or ``None`` while sharing is off (the default)."""
    return _shared
