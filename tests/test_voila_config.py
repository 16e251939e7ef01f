"""voila.json (the classroom app's settings, read by `make app` from the repository root) names only options
that the installed Voilà has: traitlets ignores an unknown section silently, so a typo would quietly turn
pre-warming or culling off. Source: Voilà's configuration classes (voila/configuration.py,
voila/voila_kernel_manager.py) and jupyter_server's MappingKernelManager (culling)."""

import json
from pathlib import Path

import pytest

voila = pytest.importorskip("voila")  # the `lab` extra

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from voila.configuration import VoilaConfiguration  # noqa: E402
from voila.voila_kernel_manager import voila_kernel_manager_factory  # noqa: E402

CONFIG = json.loads((Path(__file__).resolve().parent.parent / "voila.json").read_text())
# The kernel manager class Voilà builds when preheat_kernel is on, named VoilaKernelManager; its parents'
# names (AsyncMappingKernelManager, MappingKernelManager, ...) are valid config sections too.
KERNEL_MANAGER = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
CLASSES = {VoilaConfiguration.__name__: VoilaConfiguration,
           **{cls.__name__: KERNEL_MANAGER for cls in KERNEL_MANAGER.__mro__}}


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
