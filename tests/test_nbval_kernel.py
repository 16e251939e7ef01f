"""The notebooks' kernels under nbval (``tests/nbval_kernel.py``): their publisher keeps every message, so a cell
that sends thousands of them (a whole match played through a widget) ends with its "idle" message, which nbval
waits for, even when the reader lags far behind (a busy machine). ZeroMQ's default bound of 1,000 messages per
queue made the kernel drop the rest, the "idle" among them, and 08's cells failed with "Timeout of 120 seconds
exceeded waiting for output" (seen in ``make test``)."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

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
    folder = tempfile.mkdtemp(prefix="nbk-t")  # short: a Unix socket's path holds at most 107 bytes
    manager = LaunchedKernel(transport="ipc", ip=os.path.join(folder, "k"))
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
        shutil.rmtree(folder, ignore_errors=True)


def test_the_notebooks_kernels_are_started_through_the_launcher():
    # notebooks/conftest.py's kernel manager, loaded in a process of its own (loading it sets the notebooks' data
    # folder in the environment and patches nbval): its command is the launcher's, not ipykernel_launcher
    code = (
        "import importlib.util, json, shutil\n"
        "spec = importlib.util.spec_from_file_location('nbconf', 'notebooks/conftest.py')\n"
        "conftest = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(conftest)\n"
        "print(json.dumps(conftest.UnixSocketKernelManager(kernel_name='python3').format_kernel_cmd()))\n"
        "shutil.rmtree(conftest._FOLDER)\n"
        "shutil.rmtree(conftest._SOCKETS)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    command = json.loads(done.stdout.strip().splitlines()[-1])
    assert LAUNCHER in command and "ipykernel_launcher" not in command, command


def test_only_an_ipykernel_command_is_rewritten():
    command = [sys.executable, "-m", "ipykernel_launcher", "-f", "/tmp/k.json"]
    assert kernel_command(command) == [sys.executable, LAUNCHER, "-f", "/tmp/k.json"]
    with pytest.raises(ValueError, match="not an ipykernel command"):
        kernel_command(["julia", "-i", "kernel.jl", "{connection_file}"])
