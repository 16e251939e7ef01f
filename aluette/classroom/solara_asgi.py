"""The students' app on Solara's server, as ``make app`` serves it (its default) with uvicorn (``python -m uvicorn
aluette.classroom.solara_asgi:app``): Solara's own Starlette app for :mod:`aluette.classroom.solara_app`
(``SOLARA_APP``, set by :mod:`aluette.classroom.command`), behind :class:`aluette.classroom.admission.Admission` (token, caps, "the room is
full"), :class:`~aluette.classroom.rate.MessageRate` (a page's messages at a person's pace at most) and
:class:`~aluette.classroom.admission.PageHtml` (``<html lang="en">``, zoom allowed), and saying when it serves
(:class:`~aluette.classroom.workers.SaysReady`), with the soft limit of open
files raised, configured by the ``ALUETTE_*`` variables the command sets. Each uvicorn worker (``make app`` starts one per core)
imports this module: they share the door's ledger (:func:`aluette.classroom.ledger.door_ledger`)."""

import logging
import os
import threading
import time
import warnings

os.environ.setdefault("SOLARA_APP", "aluette.classroom.solara_app")
# A class is served over plain http on its own network, where Solara falls back from SameSite=None to Lax for its
# session cookie, as it should, and warns in six lines for every page a student opens: the teacher's terminal would
# hide anything that matters. That one warning, and only it, is left out.
warnings.filterwarnings("ignore", message="Cookies with samesite=none require https", category=UserWarning)

from aluette.simulation import share_results  # noqa: E402

# Every page and both editions of a lesson run the same seeded simulations (09: about 650,000 deals): this worker
# computes each once and gives each page a copy (aluette.simulation.shared), from its first notebook's run on. Here,
# in the server's module, not in solara_app, which tests import without serving anything.
share_results()

from solara.server import kernel_context  # noqa: E402 (Solara reads SOLARA_APP)
from solara.server.starlette import app as solara_app  # noqa: E402

from aluette.classroom import lesson_names, notebooks_folder  # noqa: E402
from aluette.classroom.admission import KERNELS, PAGE_STARTS, Admission, PageHtml, room_caps  # noqa: E402
from aluette.classroom.ledger import WORKERS_ENV, door_ledger  # noqa: E402
from aluette.classroom.pages import raise_open_files_limit  # noqa: E402
from aluette.classroom.guard import ShortTracebacks  # noqa: E402
from aluette.classroom.rate import MessageRate  # noqa: E402

# a crafted frame that breaks a page's connection is logged whole once per cause, then one short line a minute
logging.getLogger("uvicorn.error").addFilter(ShortTracebacks())
from aluette.classroom.workers import SaysReady  # noqa: E402

#: Each websocket holds a file (and a thread) of this one process: the soft limit is raised at start, as for Voilà.
OPEN_FILES = raise_open_files_limit(65536)
FOLDER = notebooks_folder()  # ALUETTE_NOTEBOOKS, set by the command (aluette.classroom.notebooks_folder)
LESSONS = lesson_names(FOLDER)  # 01_ranking..., and the French fr/01_ranking...

def _close_page(kernel_id: str, page_id: str) -> None:
    """Solara's own close of a page (its ``/_solara/api/close`` route), for a close request that reached another
    worker."""
    context = kernel_context.contexts.get(kernel_id)
    if context is not None:
        context.page_close(page_id)


WORKERS = int(os.environ.get(WORKERS_ENV, "1"))
# inside the door (token, caps), each page's messages at a person's pace at most (aluette.classroom.rate)
app = Admission(MessageRate(PageHtml(SaysReady(solara_app)), KERNELS), lessons=lambda: LESSONS,
                live=lambda: set(kernel_context.contexts),
                token=os.environ.get("ALUETTE_TOKEN") or None,
                # the caps (the computer that runs the app, and the teacher's: four seats of play together and more)
                **room_caps(os.environ),
                # the workers of one server count one room, in one ledger file
                ledger=door_ledger(WORKERS), close_page=_close_page,
                # new pages start two at a time, in turn (each says when it is drawn: aluette.classroom.solara_app)
                starts=PAGE_STARTS)


def _keep_pruned(every: float = 1.0):
    """Every second, this worker closes the pages whose close request reached another worker, and forgets its
    closed and culled pages even when no request reaches it, so that the other workers do not count their places
    as taken. One worker alone needs none of it: each of its checks forgets what has gone."""
    while True:
        time.sleep(every)
        try:
            app.prune()
        except Exception:  # noqa: BLE001 - a busy or closed ledger: the next request prunes it anyway
            logging.getLogger("aluette.classroom").exception("could not prune the door's ledger")


if WORKERS > 1:
    threading.Thread(target=_keep_pruned, name="aluette-door-prune", daemon=True).start()
