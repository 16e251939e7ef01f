"""nbval runs the notebooks on a database of its own: the "play together" pages (notebooks 10 and 11) open the
default store, so the kernels nbval starts get a fresh temporary data folder (``ALUETTE_DATA_DIR``), never the
user's, and no PostgreSQL URL from the environment. Set here, when pytest collects this folder, because nbval starts
each notebook's kernel (inheriting this process's environment) before any fixture runs."""

import os
import shutil
import tempfile

from aluette.store import DATA_DIR_ENV, DATABASE_URL_ENV

_FOLDER = tempfile.mkdtemp(prefix="aluette-nbval-")
os.environ[DATA_DIR_ENV] = _FOLDER
os.environ.pop(DATABASE_URL_ENV, None)


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_FOLDER, ignore_errors=True)
