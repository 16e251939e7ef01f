"""One mischievous laptop against the class (issue 22): the attacks of the break test replayed for a bounded time
against the app as ``make app`` starts it, while another student opens 08 and clicks; that student's page time and
click round trips printed beside the class's targets.

Run ``python -m tests.benchmarks.run abuse [--quick] [--seconds N]`` (``make bench ARGS=abuse``). Not collected by
pytest. Everything is sent to the app on 127.0.0.1, from loopback addresses of the benchmark's own (127.0.X.Y);
every loop is bounded in count and in time.

The attacks, one at a time, then all four at once, each for ``--seconds`` (60; ``--quick``: 15):

1. **connections**: TCP connections from 20 addresses that never send a request's headers (and a few that send half
   of them), opened again as soon as they are closed, at most 20,000 in all;
2. **flood**: four websockets of one address, each sending small requests as fast as the socket takes them, opened
   again when the app closes them;
3. **tables**: pages of notebook 10 from one address that each open tables by typing a new name and pressing "Open
   the table" as fast as the page answers;
4. **builds**: pages built over websockets alone (a fresh kernel and Solara's ``run``, no page load).

Beside each attack, what it got (connections closed by the app, sockets closed for their rate, tables made,
builds done), and the other student's figures: an 08 page load every few seconds (p50 / p95, target p95 <= 3 s) and
a widget message every 0.25 s (p95, target < 100 ms), with a baseline taken in the same run before any attack.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import time
import uuid
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from aluette.store.db import DATABASE_FILE  # noqa: E402
from tests.benchmarks.bench_class import (CLICK_MS, PAGE_P95_S, clicking, loadavg, quantile,  # noqa: E402
                                          start_solara, verdict)
from tests.server.student import message, open_solara_page  # noqa: E402

HOME = Path(__file__).resolve().parents[2] / "test-artifacts" / "bench-class-home"
MAX_CONNECTIONS = 20_000


def _raise_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Victim:
    """The other student: a page of 08 loaded every ``every`` seconds, and a page of 01 clicked every 0.25 s."""

    def __init__(self, url: str):
        self.url = url

    async def measure(self, seconds: float, every: float = 5.0) -> tuple[list[float], int, list[float]]:
        """Page times (s), failed loads, click round trips (s) over ``seconds``."""
        other = await open_solara_page(self.url, "/01_ranking", "127.0.0.40", timeout=60)
        trips, done, clicker = clicking(other)
        times, failed = [], 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            page = await open_solara_page(self.url, "/08_play_a_match", "127.0.0.41", timeout=60)
            if page.failure is None:
                times.append(page.seconds)
            else:
                failed += 1
            await page.close()
            await asyncio.sleep(max(0.0, min(every - page.seconds, end - time.monotonic())))
        done.set()
        if clicker is not None:
            await clicker
        await other.close()
        return times, failed, trips


async def connections(port: int, seconds: float) -> str:
    """Attack 1: connections that never finish their headers, from 20 addresses, reopened when closed."""
    opened = closed_by_app = refused = 0
    end = time.monotonic() + seconds
    held: list = []

    async def hold(address: str, half: bool):
        nonlocal opened, closed_by_app, refused
        while time.monotonic() < end and opened < MAX_CONNECTIONS:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
            except OSError:
                refused += 1
                await asyncio.sleep(0.05)
                continue
            opened += 1
            if half:
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            try:
                got = await asyncio.wait_for(reader.read(1), max(0.1, end - time.monotonic()))
                closed_by_app += got == b""
            except (asyncio.TimeoutError, OSError):
                pass
            writer.close()

    for i in range(20):
        for k in range(50):  # 50 at once per address, 1,000 in all
            held.append(asyncio.create_task(hold(f"127.0.9.{i + 2}", half=k % 10 == 0)))
    await asyncio.gather(*held)
    return f"{opened} connections opened, {closed_by_app} closed by the app, {refused} refused"


async def flood(url: str, seconds: float) -> str:
    """Attack 2: four websockets of one address sending small requests as fast as they can."""
    sent = closed = 0
    end = time.monotonic() + seconds

    async def one(i: int):
        nonlocal sent, closed
        while time.monotonic() < end:
            page = await open_solara_page(url, "/00_start_here", "127.0.8.2", timeout=30)
            if page.failure is not None:
                await asyncio.sleep(1)
                continue
            try:
                while time.monotonic() < end:
                    await page.send("shell", message("comm_info_request", {}, page.session))
                    sent += 1
                    if sent % 50 == 0:
                        await asyncio.sleep(0)
            except ConnectionClosed:
                closed += 1
            await page.close(beacon=False)

    await asyncio.gather(*(one(i) for i in range(4)))
    return f"{sent} requests sent, {closed} sockets closed by the app for their rate"


def _comm_with_class(page, css: str) -> str | None:
    return next((c for c, s in page.states.items() if css in (s.get("_dom_classes") or ())), None)


async def tables(url: str, seconds: float) -> str:
    """Attack 3: pages of notebook 10 opening new tables as fast as the page answers."""
    clicks = pages = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        page = await open_solara_page(url, "/10_play_together", "127.0.7.2", timeout=30)
        pages += 1
        box, button = _comm_with_class(page, "aluette-together-table"), _comm_with_class(page, "aluette-together-open")
        if page.failure is not None or box is None or button is None:
            await page.close(beacon=False)
            await asyncio.sleep(1)
            continue
        try:
            for _ in range(100):
                if time.monotonic() > end:
                    break
                name = f"spam {uuid.uuid4().hex[:8]}"
                await page.request(message("comm_msg", {"comm_id": box, "data": {
                    "method": "update", "state": {"value": name}, "buffer_paths": []}}, page.session), timeout=10)
                await page.request(message("comm_msg", {"comm_id": button, "data": {
                    "method": "custom", "content": {"event": "click"}}}, page.session), timeout=10)
                clicks += 1
        except (ConnectionClosed, TimeoutError, asyncio.TimeoutError):
            pass
        await page.close(beacon=False)
    return f"{clicks} table openings asked from {pages} pages"


async def builds(url: str, seconds: float) -> str:
    """Attack 4: pages built over websockets alone (a fresh kernel id and Solara's run, no page load)."""
    built = refused = 0
    end = time.monotonic() + seconds
    base = url.replace("http://", "ws://", 1)
    while time.monotonic() < end:
        kernel, session = str(uuid.uuid4()), uuid.uuid4().hex
        try:
            ws = await asyncio.wait_for(connect(f"{base}/jupyter/api/kernels/{kernel}/channels?session_id={session}",
                                                local_addr=("127.0.6.2", 0), max_size=2**26), 10)
        except Exception:  # noqa: BLE001 - refused (HTTP 403) or reset: the door said no
            refused += 1
            await asyncio.sleep(0.2)
            continue
        comm = uuid.uuid4().hex
        try:
            for msg in (message("comm_open", {"comm_id": comm, "target_name": "solara.control", "data": {}}, session),
                        message("comm_msg", {"comm_id": comm, "data": {"method": "run", "args": {
                            "path": "/08_play_a_match", "appName": None, "themes": None, "dark": False}}}, session)):
                await ws.send(json.dumps({**msg, "channel": "shell"}))
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                got = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
                if got.get("content", {}).get("data", {}).get("method") == "finished":
                    built += 1
                    break
        except (ConnectionClosed, asyncio.TimeoutError, ValueError):
            refused += 1
        await ws.close()
    return f"{built} pages built over websockets alone, {refused} refused"


def tables_made() -> int:
    import sqlite3
    path = HOME / "data" / DATABASE_FILE
    if not path.exists():
        return 0
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("SELECT COUNT(*) FROM aluette_tables WHERE name LIKE 'spam %'").fetchone()[0]


def report(title: str, figures: tuple, extra: str = "") -> bool:
    times, failed, trips = figures
    p95, click = quantile(times, 0.95), quantile(trips, 0.95) * 1000
    ok = failed == 0 and p95 <= PAGE_P95_S and click < CLICK_MS
    print(f"  {title}: the other student's 08 p50 {quantile(times, 0.5):.1f} s, p95 {p95:.1f} s (target <= "
          f"{PAGE_P95_S:.0f} s), {failed} failed (target 0); clicks p95 {click:.0f} ms over {len(trips)} (target < "
          f"{CLICK_MS} ms) -> {verdict(ok)} ({loadavg()}){'; ' + extra if extra else ''}", flush=True)
    return ok


async def under(attack, victim: Victim, seconds: float):
    result, figures = await asyncio.gather(attack, victim.measure(seconds))
    return result, figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_abuse", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="15 s an attack (a smoke run)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds an attack (default 60)")
    args, _ = parser.parse_known_args(argv)
    seconds = args.seconds or (15.0 if args.quick else 60.0)
    _raise_files()
    server = start_solara()
    ok = True
    try:
        url = server.url
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        victim = Victim(url)
        before = tables_made()
        ok &= report("baseline, no attack", asyncio.run(victim.measure(seconds)))
        for name, attack in (("connections", lambda: connections(port, seconds)),
                             ("flood", lambda: flood(url, seconds)),
                             ("tables", lambda: tables(url, seconds)),
                             ("builds", lambda: builds(url, seconds))):
            result, figures = asyncio.run(under(attack(), victim, seconds))
            if name == "tables":
                result += f", {tables_made() - before} tables made"
            ok &= report(f"during '{name}'", figures, result)

        async def together():
            return await asyncio.gather(connections(port, seconds), flood(url, seconds), tables(url, seconds),
                                        builds(url, seconds), victim.measure(seconds))
        *results, figures = asyncio.run(together())
        ok &= report("during all four at once", figures, " | ".join(results))
    finally:
        server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
