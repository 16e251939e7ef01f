"""The notebooks' kernels under nbval (``tests/nbval_kernel.py``): their publisher keeps every message, so a cell
that sends thousands of them (a whole match played through a widget) ends with its "idle" message, which nbval
waits for, even when the reader lags far behind (a busy machine). ZeroMQ's default bound of 1,000 messages per
queue made the kernel drop the rest, the "idle" among them, and 08's cells failed with "Timeout of 120 seconds
exceeded waiting for output" (seen in ``make test``)."""

from __future__ import annotations

import os
import queue
import sys
import tempfile

import pytest
import zmq
from jupyter_client.manager import KernelManager

from tests.nbval_kernel import LAUNCHER, kernel_command

MESSAGES = 5_000  # five times ZeroMQ's default bound, more than a system's socket buffer holds


class LaunchedKernel(KernelManager):
    """A kernel started as notebooks/conftest.py starts nbval's: ipykernel through the launcher, over Unix sockets."""

    def format_kernel_cmd(self, extra_arguments=None):
        return kernel_command(super().format_kernel_cmd(extra_arguments))


def test_a_lagging_reader_still_gets_every_message_and_the_idle():
    # a reader whose queue holds one message: everything else must wait in the kernel's queue, never be dropped
    context = zmq.Context()
    context.setsockopt(zmq.RCVHWM, 1)
    manager = LaunchedKernel(transport="ipc", ip=os.path.join(tempfile.mkdtemp(prefix="nbk-t"), "k"))
    manager.start_kernel()
    client = manager.client(context=context)
    try:
        client.start_channels()
        client.wait_for_ready(timeout=120)
        sent = client.execute(f"from IPython.display import display\nfor i in range({MESSAGES}): display(i)")
        while client.get_shell_msg(timeout=120)["parent_header"].get("msg_id") != sent:
            pass
        shown, idle = [], False
        while not idle:
            try:
                message = client.get_iopub_msg(timeout=30)
            except queue.Empty:
                break
            if message["parent_header"].get("msg_id") != sent:
                continue
            if message["msg_type"] == "display_data":
                shown.append(int(message["content"]["data"]["text/plain"]))
            idle = message["msg_type"] == "status" and message["content"]["execution_state"] == "idle"
        assert idle, f"the cell's idle message was lost ({len(shown)} of {MESSAGES} displays received)"
        assert shown == list(range(MESSAGES))
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
        context.term()


def test_only_an_ipykernel_command_is_rewritten():
    command = [sys.executable, "-m", "ipykernel_launcher", "-f", "/tmp/k.json"]
    assert kernel_command(command) == [sys.executable, LAUNCHER, "-f", "/tmp/k.json"]
    with pytest.raises(ValueError, match="not an ipykernel command"):
        kernel_command(["julia", "-i", "kernel.jl", "{connection_file}"])
