# Two commands do all the set-up on a fresh machine with python3 and make:
#   make lab    create .venv if missing, install aluette with its extras, open JupyterLab on "Start here"
#   make test   the same set-up, then every test (engine, widgets, notebooks through nbval, real browser)
# Both are idempotent: the install step re-runs only when pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.aluette-installed
HOST ?= 127.0.0.1
PORT ?= 8888
TEACHER_PORT ?= 8889
TOKEN ?=
VOILA_ARGS ?=
LESSON ?=
CLASS_SIZE ?= 30
SERVER ?=
WORKERS ?=

.PHONY: lab test app teacher bench clean-venv

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || { \
	  echo "Could not create a virtual environment. On Debian/Ubuntu: sudo apt-get install python3-venv"; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[lab,test]'
	@touch $(STAMP)

# Jupyter refuses to run as root without --allow-root (containers, CI machines): add it only then.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.ip=$(HOST) --ServerApp.port=$(PORT) $(ROOT_FLAG) notebooks/00_start_here.ipynb

# pytest-xdist workers, a test file each at a time (--dist loadfile: a notebook's cells share one kernel, a browser
# file its servers). Three on this project's 2-core machine: much of a test's time is waiting on a server, a kernel
# or the browser, and the third worker fills those waits. Files are handed out longest first (tests/conftest.py,
# LONGEST_FIRST), not by their number of tests, so that no long file starts last.
TEST_WORKERS ?= 3

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The classroom app (aluette/classroom): the students' app on Solara's server (classroom/solara_app.py, a worker
# process per core, WORKERS=N to choose: README, "Serving the tutorial to a class"). Off 127.0.0.1 it never serves without a token: give one
# with TOKEN=... or one is made and printed with the address. SERVER=voila serves it with Voilà instead (voila.json
# and classroom/, a kernel per page), where LESSON=08 (CLASS_SIZE=30) warms a kernel for every student on that
# notebook before the class and VOILA_ARGS passes Voilà options. The teacher's page is Voilà.
app: $(STAMP)
	$(PY) -m aluette.classroom app --host=$(HOST) --port=$(PORT)$(if $(SERVER), --server=$(SERVER)) $(if $(TOKEN),--token=$(TOKEN)) $(if $(WORKERS),--workers=$(WORKERS)) $(if $(LESSON),--lesson=$(LESSON) --class-size=$(CLASS_SIZE)) $(VOILA_ARGS)

# The teacher's page: the teacher's guide and the printable one-page rules summary (not in the students' app).
teacher: $(STAMP)
	$(PY) -m aluette.classroom teacher --host=$(HOST) --port=$(TEACHER_PORT) $(if $(TOKEN),--token=$(TOKEN))

bench: $(STAMP)
	$(PY) -m tests.benchmarks.run $(ARGS)

clean-venv:
	rm -rf $(VENV)
