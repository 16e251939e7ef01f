"""nbval runs the notebooks on a database of its own: the "play together" pages (notebooks 10 and 11) open the
default store, so the kernels nbval starts get a fresh temporary data folder (``ALUETTE_DATA_DIR``), never the
user's, and no PostgreSQL URL from the environment. Set here, when pytest collects this folder, because nbval starts
each notebook's kernel (inheriting this process's environment) before any fixture runs.

The kernels talk to nbval over Unix sockets in that folder (ZeroMQ's ``ipc`` transport), not over TCP. Over TCP,
jupyter_client picks five free ports by binding and releasing them, and the kernel binds them a moment later: on a
busy machine another process (a test's server, a browser's connection) can take one of them in between, and the
kernel dies before it answers ("Kernel died before replying to kernel_info", one notebook's every cell failing).
A socket file of the kernel's own cannot be taken."""

import importlib.util
import itertools
import os
import shutil
import tempfile
from pathlib import Path

import nbval.kernel
import nbval.plugin
import zmq
from jupyter_client.manager import KernelManager

from aluette.store import DATA_DIR_ENV, DATABASE_URL_ENV

_FOLDER = tempfile.mkdtemp(prefix="aluette-nbval-")
os.environ[DATA_DIR_ENV] = _FOLDER
os.environ.pop(DATABASE_URL_ENV, None)

_SOCKETS = tempfile.mkdtemp(prefix="nbk-")  # short: a Unix socket's path holds at most 107 bytes
_KERNELS = itertools.count()


#: The context of nbval's kernel clients: their sockets queue whatever the kernel sends, without a bound. nbval reads
#: a cell's output only once the cell is done, and a cell that plays a whole match through a widget sends thousands
#: of messages meanwhile: with ZeroMQ's bound of 1000 the kernel's publisher would drop the rest, the cell's "idle"
#: among them, and nbval would fail the cell ("Timeout of 5 seconds exceeded waiting for output"). Over a Unix
#: socket the system's buffer holds fewer of them than over TCP, so it does happen.
_CLIENT_CONTEXT = zmq.Context()
_CLIENT_CONTEXT.setsockopt(zmq.RCVHWM, 0)

# The kernels' side of the same bound: tests/nbval_kernel.py starts ipykernel with unbounded queues (loaded from its
# file: this folder is no package and tests/ need not be on the path).
_spec = importlib.util.spec_from_file_location("aluette_nbval_kernel",
                                               Path(__file__).resolve().parents[1] / "tests" / "nbval_kernel.py")
_launcher = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_launcher)


class UnixSocketKernelManager(KernelManager):
    """nbval's kernel manager, over ZeroMQ's ``ipc`` transport: each kernel's sockets are files
    ``<_SOCKETS>/<n>-<channel number>``, unique to the kernel, so no other process can take them; its clients read
    through :data:`_CLIENT_CONTEXT`."""

    def __init__(self, **kwargs):
        kwargs.setdefault("transport", "ipc")
        kwargs.setdefault("ip", os.path.join(_SOCKETS, str(next(_KERNELS))))
        super().__init__(**kwargs)

    def client(self, **kwargs):
        kwargs.setdefault("context", _CLIENT_CONTEXT)
        return super().client(**kwargs)

    def format_kernel_cmd(self, extra_arguments=None):
        """ipykernel started by tests/nbval_kernel.py: its publisher never drops a message."""
        return _launcher.kernel_command(super().format_kernel_cmd(extra_arguments))


nbval.kernel.KernelManager = UnixSocketKernelManager

#: How long nbval waits for each of a cell's output messages once the cell has replied (seconds). nbval's own is
#: 5, fixed in ``IPyNbCell.__init__``: on a busy machine (``make test`` keeps both cores busy with four workers, a
#: browser and its servers) a kernel's next message can come later than that. (The failures of 08 and fr/08 with
#: "Timeout of ... seconds exceeded waiting for output", at 5 s and once at 120 s, were messages the kernel's
#: publisher dropped, not late ones: tests/nbval_kernel.py.) A cell that really hangs is still caught by
#: ``--nbval-cell-timeout``.
OUTPUT_TIMEOUT = 120
_cell_init = nbval.plugin.IPyNbCell.__init__


def _patient_cell_init(self, *args, **kwargs):
    _cell_init(self, *args, **kwargs)
    self.output_timeout = OUTPUT_TIMEOUT


nbval.plugin.IPyNbCell.__init__ = _patient_cell_init


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_FOLDER, ignore_errors=True)
    shutil.rmtree(_SOCKETS, ignore_errors=True)
