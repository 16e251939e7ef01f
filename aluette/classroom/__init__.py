"""Serving the tutorial to a class: ``make app`` serves the students' app on Solara's server (one process for the
class: :mod:`aluette.classroom.solara_app` with :mod:`aluette.classroom.lessons` builds the pages,
:mod:`aluette.classroom.admission` keeps the door, :mod:`aluette.classroom.solara_asgi` puts them together);
``make app SERVER=voila`` and ``make teacher`` serve with Voilà, configured here.

Everything a server loads is inside this package (an installed, non-editable ``aluette`` serves as a checkout does):
the Voilà configuration and templates are package data in ``aluette/classroom/voila/`` (:data:`VOILA_CONFIG`). The one
thing that stays outside is the tutorial itself, the folder of notebooks (:func:`notebooks_folder`: ``--notebooks``,
``make app NOTEBOOKS=...``, or ``ALUETTE_NOTEBOOKS``; by default ``notebooks/`` in the current folder, the
checkout's when ``make`` runs it).

Voilà stays the server there; this package only configures it, through classes that Voilà itself lets a
configuration file replace (``voila/voila.json`` names them):

- :class:`~aluette.classroom.server.ClassroomKernelManager` (``VoilaConfiguration.multi_kernel_manager_class``):
  Jupyter's kernel manager, which also raises the soft limit of open files at start.
- :class:`~aluette.classroom.server.ClassroomIdentityProvider` (``Voila.identity_provider_class``): Jupyter's token
  check, which also admits or refuses each notebook page: at most ``max_sessions_per_address`` open pages per client
  address and ``max_sessions`` in all; beyond that the student gets the "room is full" page with HTTP 503. Notebooks
  for the teacher (07) are not served by the students' app.
- :class:`~aluette.classroom.server.ClassroomConnection` (``Voila.kernel_websocket_connection_class``): Jupyter's
  kernel websocket, with at most ``max_websockets_per_kernel`` sockets per kernel and a bound on what a page may
  open in its kernel (number and size of ``comm_open`` messages). Tornado's own ``websocket_max_message_size``
  (``Voila.tornado_settings``) bounds every message.
- :mod:`aluette.classroom.landing`: the landing page (title, one entry per notebook in teaching order, from each
  notebook's first markdown cell) and the teacher's page with the printable rules summary.
- :mod:`aluette.classroom.command`: the command line ``make app`` and ``make teacher`` run; off the loopback
  address it never serves without a token.

Freed sessions: kernels without a connection are culled after ``cull_idle_timeout`` seconds of inactivity
(``voila.json``), so a closed tab, a reload or a page fetched and never opened is freed within about two minutes.
"""

import os
from pathlib import Path

from aluette.errors import InvalidInputError

__all__ = ["TEACHER_NOTEBOOKS", "TRANSLATIONS", "VOILA_CONFIG", "NOTEBOOKS_ENV", "ServeError", "lesson_names",
           "notebooks_folder", "split_language", "student_notebooks"]

#: Voilà's configuration for the classroom (package data): ``voila.json`` and ``voila.py`` (the landing page's
#: hook), read through ``JUPYTER_CONFIG_PATH``, and ``templates/`` (the ``aluette`` template), through ``JUPYTER_PATH``.
VOILA_CONFIG = Path(__file__).resolve().with_name("voila")
#: The environment variable naming the folder of notebooks a server serves (set by :mod:`aluette.classroom.command`).
NOTEBOOKS_ENV = "ALUETTE_NOTEBOOKS"


class ServeError(InvalidInputError):
    """A ``make app``/``make teacher`` setting that cannot be served (a bad token, host or port, no notebooks)."""


def notebooks_folder(given: str | os.PathLike | None = None) -> Path:
    """The folder of notebooks to serve, made absolute: ``given`` (``--notebooks``), else :data:`NOTEBOOKS_ENV`, else
    ``notebooks`` in the current folder (a checkout's, where ``make`` runs). The notebooks are the tutorial, not
    the package: an installed ``aluette`` is told where they are.

    Raises:
        ServeError: the folder holds no notebook (``*.ipynb``), naming it (cut to 80 characters).
    """
    folder = Path(given if given is not None else os.environ.get(NOTEBOOKS_ENV) or "notebooks").resolve()
    if not folder.is_dir() or next(folder.glob("*.ipynb"), None) is None:
        raise ServeError(f"no notebooks in {str(folder)[:80]!r}: give the tutorial's folder with --notebooks=PATH "
                         f"(make app NOTEBOOKS=PATH, or {NOTEBOOKS_ENV}); by default notebooks/ in the current "
                         "folder, as in a checkout of the tutorial")
    return folder

#: Notebooks for the teacher only: served by ``make teacher``, neither listed nor served by the students' app.
TEACHER_NOTEBOOKS = ("07_teachers_guide.ipynb", "11_teachers_tables.ipynb", "12_class_progress.ipynb")


def student_notebooks(folder: Path) -> list[Path]:
    """The notebooks of ``folder`` the students' app serves, in teaching order (file names start with the
    number): all but :data:`TEACHER_NOTEBOOKS`."""
    return [p for p in sorted(Path(folder).glob("*.ipynb")) if p.name not in TEACHER_NOTEBOOKS]


#: The languages the notebooks are translated into, besides English (issue 21): each in a folder of its own beside
#: the English notebooks (``notebooks/fr/``), its lessons served under the same prefix (``/fr/01_ranking``), so that
#: a French lesson's address says its language and its links to other lessons (``02_setup.ipynb``) keep it.
TRANSLATIONS = ("fr",)


def lesson_names(folder: Path) -> frozenset[str]:
    """The addresses (without their leading ``/``) of the students' lessons of ``folder``: ``01_ranking`` for the
    English, ``fr/01_ranking`` for a translation in ``folder/fr``."""
    names = {p.stem for p in student_notebooks(folder)}
    names |= {f"{code}/{p.stem}" for code in TRANSLATIONS for p in student_notebooks(Path(folder) / code)}
    return frozenset(names)


def split_language(path: str) -> tuple[str, str]:
    """An address's language prefix and the rest: ``/fr/01_ranking`` gives ``("fr", "/01_ranking")``, ``/fr`` gives
    ``("fr", "/")``; an address without one gives ``("", path)`` (English)."""
    first, _, rest = path.lstrip("/").partition("/")
    if first in TRANSLATIONS:
        return first, "/" + rest
    return "", path
