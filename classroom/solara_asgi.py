"""The students' app on Solara's server, as ``make app`` serves it (its default) with uvicorn (``python -m uvicorn
--app-dir classroom solara_asgi:app``): Solara's own Starlette app for ``solara_app.py`` (``SOLARA_APP``, set by
``aluette.classroom.command``), behind :class:`aluette.classroom.admission.Admission` (token, caps, "the room is
full") and :class:`~aluette.classroom.admission.PageHtml` (``<html lang="en">``, zoom allowed), with the soft limit of open
files raised, configured by the ``ALUETTE_*`` variables the command sets. Each uvicorn worker (``make app`` starts one per core)
imports this module: they share the door's ledger (:func:`aluette.classroom.ledger.door_ledger`)."""

import logging
import os
import threading
import time
import warnings
from pathlib import Path

os.environ.setdefault("SOLARA_APP", str(Path(__file__).with_name("solara_app.py")))
# A class is served over plain http on its own network, where Solara falls back from SameSite=None to Lax for its
# session cookie, as it should, and warns in six lines for every page a student opens: the teacher's terminal would
# hide anything that matters. That one warning, and only it, is left out.
warnings.filterwarnings("ignore", message="Cookies with samesite=none require https", category=UserWarning)

from solara.server import kernel_context  # noqa: E402 (Solara reads SOLARA_APP)
from solara.server.starlette import app as solara_app  # noqa: E402

from aluette.classroom import student_notebooks  # noqa: E402
from aluette.classroom.admission import PAGE_STARTS, Admission, PageHtml  # noqa: E402
from aluette.classroom.ledger import WORKERS_ENV, door_ledger  # noqa: E402
from aluette.classroom.pages import raise_open_files_limit  # noqa: E402

#: Each websocket holds a file (and a thread) of this one process: the soft limit is raised at start, as for Voilà.
OPEN_FILES = raise_open_files_limit(65536)
FOLDER = Path(os.environ.get("ALUETTE_NOTEBOOKS") or Path(__file__).resolve().parents[1] / "notebooks")
LESSONS = frozenset(p.stem for p in student_notebooks(FOLDER))

def _close_page(kernel_id: str, page_id: str) -> None:
    """Solara's own close of a page (its ``/_solara/api/close`` route), for a close request that reached another
    worker."""
    context = kernel_context.contexts.get(kernel_id)
    if context is not None:
        context.page_close(page_id)


WORKERS = int(os.environ.get(WORKERS_ENV, "1"))
app = Admission(PageHtml(solara_app), lessons=lambda: LESSONS, live=lambda: set(kernel_context.contexts),
                token=os.environ.get("ALUETTE_TOKEN") or None,
                max_sessions=int(os.environ.get("ALUETTE_MAX_SESSIONS", "40")),
                per_address=int(os.environ.get("ALUETTE_MAX_SESSIONS_PER_ADDRESS", "4")),
                per_minute=int(os.environ.get("ALUETTE_MAX_PAGES_PER_MINUTE", "12")),
                # the workers of one server count one room, in one ledger file
                ledger=door_ledger(WORKERS), close_page=_close_page,
                # new pages start two at a time, in turn (each says when it is drawn: solara_app.py)
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
