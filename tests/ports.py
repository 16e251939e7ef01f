"""A free TCP port on 127.0.0.1 for a server a test starts, chosen outside the kernel's ephemeral range.

Binding port 0 hands out a port from the ephemeral range (``/proc/sys/net/ipv4/ip_local_port_range``, 32768-60999 on
Linux), the same range every Jupyter kernel's ZeroMQ sockets and every outgoing connection draw from. Between the
probe closing and the server binding, a kernel started by another test worker could take the port: a CI run's Voilà
then failed to start and its readiness check read a ZeroMQ greeting (``BadStatusLine: ÿ...``). Ports below the
ephemeral range are handed out only on request, so nothing else running in the tests takes them.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

#: Drawn from, below the ephemeral range; the pick is random (a system source: which port is used does not matter,
#: only that two workers rarely try the same one) and checked by binding.
LOW, HIGH = 20000, 32000
_PICK = random.SystemRandom()


def ephemeral_range(path: Path = Path("/proc/sys/net/ipv4/ip_local_port_range")) -> tuple[int, int]:
    """The kernel's ephemeral ports (32768-60999 where it cannot be read)."""
    try:
        low, high = (int(part) for part in path.read_text().split())
        return low, high
    except (OSError, ValueError):
        return 32768, 60999


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(attempts: int = 200) -> int:
    """A port on 127.0.0.1 nothing listens on right now, outside the ephemeral range when one is free there."""
    low, high = ephemeral_range()
    candidates = [port for port in range(LOW, HIGH) if not low <= port <= high]
    for port in _PICK.sample(candidates, min(attempts, len(candidates))):
        if _bindable(port):
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:  # all taken: the kernel's choice, as before
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
