"""voila.json (the classroom app's settings, package data in aluette/classroom/voila/, read by `make app SERVER=voila`
and `make teacher` through JUPYTER_CONFIG_PATH) names only options
that the installed Voilà (and the classroom classes it names, aluette/classroom/server.py) has: traitlets ignores an unknown section silently, so a typo would quietly turn
pre-warming or culling off. Source: Voilà's configuration classes (voila/configuration.py,
voila/voila_kernel_manager.py) and jupyter_server's MappingKernelManager (culling)."""

import json

import pytest

voila = pytest.importorskip("voila")  # the `lab` extra

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from voila.configuration import VoilaConfiguration  # noqa: E402
from voila.app import Voila  # noqa: E402
from voila.execute import VoilaExecutor  # noqa: E402
from voila.voila_kernel_manager import voila_kernel_manager_factory  # noqa: E402
from nbconvert.preprocessors import TagRemovePreprocessor  # noqa: E402
from traitlets.utils.importstring import import_item  # noqa: E402

from aluette.classroom import TEACHER_NOTEBOOKS, VOILA_CONFIG  # noqa: E402
from aluette.classroom.server import (ClassroomConnection, ClassroomIdentityProvider,  # noqa: E402
                                      ClassroomKernelManager)

CONFIG = json.loads((VOILA_CONFIG / "voila.json").read_text())
# The kernel manager class Voilà builds when preheat_kernel is on, named VoilaKernelManager; its parents'
# names (AsyncMappingKernelManager, MappingKernelManager, ...) are valid config sections too.
KERNEL_MANAGER = voila_kernel_manager_factory(ClassroomKernelManager, True, 1)
# and the manager of each kernel it starts (jupyter_client's: KernelManager holds the transport)
KERNEL = import_item(KERNEL_MANAGER.class_traits()["kernel_manager_class"].default_value)
CLASSES = {**{cls.__name__: KERNEL for cls in KERNEL.__mro__},
           **{cls.__name__: KERNEL_MANAGER for cls in KERNEL_MANAGER.__mro__},
           **{cls.__name__: cls for cls in (VoilaConfiguration, Voila, ClassroomIdentityProvider, ClassroomConnection,
                                            TagRemovePreprocessor, VoilaExecutor)}}


@pytest.mark.parametrize("section", sorted(CONFIG))
def test_every_option_exists_in_this_voila(section):
    assert section in CLASSES, f"{section} is not a class Voilà configures"
    unknown = set(CONFIG[section]) - set(CLASSES[section].class_trait_names(config=True))
    assert not unknown


def test_code_hidden_kernels_prewarmed_and_culled_landing_page_of_links():
    """Decisions of this project: no code cells shown, a warm kernel waits for each notebook, the landing
    page is a list of links, and a kernel whose page closed is shut down after a while (Voilà's own shutdown on page close fails with 403:
    voila-dashboards/voila#1458)."""
    app = CONFIG["VoilaConfiguration"]
    assert app["strip_sources"] is True and app["show_tracebacks"] is False
    assert app["preheat_kernel"] is True and app["default_pool_size"] >= 1
    assert "progressive_rendering" not in app  # Voilà refuses it together with preheat_kernel
    assert app["classic_tree"] is True  # the landing page is plain links, one per notebook
    culling = CONFIG["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0 and culling["cull_connected"] is False


def test_classroom_classes_limits_and_author_cells():
    """A kernel without connection is culled within 150 s of its last activity (timeout plus one
    interval; its shutdown takes a second or two), the classroom's classes are the ones Voilà uses, every websocket
    message is bounded, the teacher's guide gets no pre-heated kernel in the students' app, and cells tagged
    remove-cell are dropped by nbconvert's TagRemovePreprocessor."""
    culling = CONFIG["MappingKernelManager"]
    assert culling["cull_idle_timeout"] + culling["cull_interval"] <= 140
    voila_app = CONFIG["Voila"]
    assert voila_app["identity_provider_class"] == "aluette.classroom.server.ClassroomIdentityProvider"
    assert voila_app["kernel_websocket_connection_class"] == "aluette.classroom.server.ClassroomConnection"
    assert CONFIG["VoilaConfiguration"]["multi_kernel_manager_class"] == "aluette.classroom.server.ClassroomKernelManager"
    assert 0 < voila_app["tornado_settings"]["websocket_max_message_size"] <= 2**20
    assert all(name.removesuffix(".ipynb") in CONFIG["VoilaKernelManager"]["preheat_denylist"]
               for name in TEACHER_NOTEBOOKS)
    assert CONFIG["TagRemovePreprocessor"]["remove_cell_tags"] == ["remove-cell"]


def test_a_cells_late_outputs_are_waited_for_and_never_dropped_silently():
    """Voilà runs a page's cells with nbclient, which waits only ``iopub_timeout`` (4 s by default) for a cell's
    outputs after the cell's reply, then logs "Timeout waiting for IOPub output" and goes on without them: on a busy
    machine 01's comparer was missing from the page, with no error shown (CI, 3 Dec 2026). The classroom's Voilà waits
    a minute, and a longer wait is an error on the page, not a widget quietly missing. The executor Voilà builds
    (voila/notebook_renderer.py: ``VoilaExecutor(nb, km=km, config=...)``) reads these options from the config."""
    from traitlets.config import Config
    import nbformat

    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=Config(CONFIG))
    assert executor.iopub_timeout >= 30 and executor.raise_on_iopub_timeout is True
    assert VoilaExecutor(nbformat.v4.new_notebook()).iopub_timeout < 30  # nbclient's default: what this changes


def test_kernels_talk_over_unix_sockets():
    """A kernel over TCP binds ports jupyter_client picked as free, which another connection may take first: the kernel
    then dies at its start and its page waits (seen in the tests' Voilà, "Address already in use"). Over ZeroMQ's ipc
    transport its sockets are files in Voilà's own folder."""
    assert CONFIG["KernelManager"]["transport"] == "ipc"
    assert "transport" in KERNEL.class_trait_names(config=True)
