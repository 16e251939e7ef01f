"""Running a coroutine from a test, whatever else runs in the test process."""

from __future__ import annotations

import asyncio
import concurrent.futures


def run(coroutine):
    """``asyncio.run(coroutine)`` in a thread of its own, and its result. In a pytest worker that also ran browser
    tests, playwright's sync API keeps an event loop running in the main thread, where ``asyncio.run`` refuses to
    start ("cannot be called from a running event loop")."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-coroutine") as pool:
        return pool.submit(asyncio.run, coroutine).result()
