"""The kernels nbval starts for the notebooks (``notebooks/conftest.py``): ipykernel, whose sockets queue what they
send without a bound, so that the kernel's publisher never drops a message.

A notebook cell that plays a whole match through a widget sends thousands of messages on the kernel's publisher
(IOPub) while it runs, and nbval reads them only once the cell is done. ZeroMQ bounds each queue at 1,000 messages
by default and a publisher drops what does not fit, silently: the cell's closing "idle" message among them, and
nbval then waits for it in vain ("Timeout of 120 seconds exceeded waiting for output", 08 on a busy machine). nbval's
clients already read without a bound (``notebooks/conftest.py``), but when a busy machine starves their reading
thread the kernel's own queue fills; so the kernel's queues are unbounded too. The option must be set before the
socket is bound (a bound socket gives its connections the options it had then), hence this launcher, which sets it
as a default of every ZeroMQ context before ipykernel makes its own, then starts ipykernel as
``python -m ipykernel_launcher`` does.

Run as ``python tests/nbval_kernel.py -f CONNECTION_FILE``; :func:`kernel_command` turns ipykernel's command into
that one.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: This file, run as the kernel instead of ``-m ipykernel_launcher``.
LAUNCHER = str(Path(__file__).resolve())


def kernel_command(command: list[str]) -> list[str]:
    """ipykernel's command (``[python, "-m", "ipykernel_launcher", ...]``) with this launcher in its place; an
    error for any other command (a kernel this launcher does not know would silently keep the bounded queues)."""
    for i in range(len(command) - 1):
        if command[i] == "-m" and command[i + 1] == "ipykernel_launcher":
            return [*command[:i], LAUNCHER, *command[i + 2:]]
    raise ValueError(f"not an ipykernel command: {' '.join(command)[:120]}")


def _unbounded_queues() -> None:
    """Every ZeroMQ context made from now on gives its sockets unbounded send and receive queues."""
    import zmq

    made = zmq.Context.__init__

    def __init__(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.sockopts[zmq.SNDHWM] = 0
        self.sockopts[zmq.RCVHWM] = 0

    zmq.Context.__init__ = __init__


if __name__ == "__main__":
    if sys.path and Path(sys.path[0] or ".").resolve() == Path(LAUNCHER).parent:
        del sys.path[0]  # this folder (not on the path under -P or -I): the kernel imports what a notebook would
    _unbounded_queues()
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()
