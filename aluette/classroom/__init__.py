"""Serving the tutorial to a class: ``make app`` serves the students' app on Solara's server (one process for the
class: ``classroom/solara_app.py`` with :mod:`aluette.classroom.lessons` builds the pages, :mod:`aluette.classroom.
admission` keeps the door); ``make app SERVER=voila`` and ``make teacher`` serve with Voilà, configured here.

Voilà stays the server there; this package only configures it, through classes that Voilà itself lets a
configuration file replace (``voila.json`` at the repository root names them):

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

from pathlib import Path

__all__ = ["TEACHER_NOTEBOOKS", "student_notebooks"]

#: Notebooks for the teacher only: served by ``make teacher``, neither listed nor served by the students' app.
TEACHER_NOTEBOOKS = ("07_teachers_guide.ipynb", "11_teachers_tables.ipynb")


def student_notebooks(folder: Path) -> list[Path]:
    """The notebooks of ``folder`` the students' app serves, in teaching order (file names start with the
    number): all but :data:`TEACHER_NOTEBOOKS`."""
    return [p for p in sorted(Path(folder).glob("*.ipynb")) if p.name not in TEACHER_NOTEBOOKS]
