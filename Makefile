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
TEACHER_ADDRESS ?=
# the tutorial's notebooks that `make app` and `make teacher` serve (the one thing not in the package)
NOTEBOOKS ?= notebooks

.PHONY: lab test app teacher bench nbgrader clean-venv messages

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || { \
	  echo "Could not create a virtual environment. On Debian/Ubuntu: sudo apt-get install python3-venv"; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[lab,test]'
	@# the languages' catalogues, .po to .mo (Babel, pure Python; aluette.i18n also compiles a missing or stale one)
	$(VENV)/bin/pybabel compile --domain=aluette --directory=aluette/locale --statistics
	@# the solver's search is compiled by numba once per checkout (a minute or two), then loaded from its cache
	@$(PY) -c "from aluette.analysis._kernel import warm_up; print(f'compiled the solver (numba) in {warm_up():.0f} s')"
	@touch $(STAMP)

# Jupyter refuses to run as root without --allow-root (containers, CI machines): add it only then.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# `make lab LANG=fr` opens the French edition (notebooks/fr/, « Commencer ici »). LANG is also the locale's variable
# (C.UTF-8, fr_FR.UTF-8...): only LANG=fr picks the edition, and JupyterLab then gets the C.UTF-8 locale.
LAB_START := $(if $(filter fr,$(LANG)),notebooks/fr/00_start_here.ipynb,notebooks/00_start_here.ipynb)

lab: $(STAMP)
	$(if $(filter fr,$(LANG)),LANG=C.UTF-8 )$(VENV)/bin/jupyter lab --ServerApp.ip=$(HOST) --ServerApp.port=$(PORT) $(ROOT_FLAG) $(LAB_START)

# pytest-xdist workers, a test file each at a time (--dist loadfile: a notebook's cells share one kernel, a browser
# file its servers; tests/conftest.py's scheduler splits test_pages.py by notebook). Three on this project's 2-core
# machine: each worker brings its own browser, servers and kernels, and the processor time of a run grows with them
# (whole make test runs of one commit, idle machine, 2026-12-07: four workers 544 s of pytest and 1,082 s of
# processor time; three 486 s and 909 s; two 514 s and 877 s, the cores idle at times; five, earlier, 571-629 s;
# on 2026-12-08, three 524 s and four 477 s, the cores 97% and 99% busy by vmstat in both, and four failed a test of
# a log's size on a race that the load brought out: three kept, the figures are within the runs' spread).
# Files are handed out longest first (tests/conftest.py, LONGEST_FIRST), not by their number of tests, so that no
# long file starts last.
TEST_WORKERS ?= 3

# Python's bytecode cache (__pycache__/, ignored by git) is written even where PYTHONDONTWRITEBYTECODE is set: every
# kernel, server and worker of the tests imports the package again (about 150 processes a run), and each would
# compile it anew.
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The classroom app (aluette/classroom): the students' app on Solara's server (aluette/classroom/solara_app.py, a
# worker process per core, WORKERS=N to choose: docs/classroom.md). Off 127.0.0.1 it never serves without a token: give one
# with TOKEN=... or one is made and printed with the address. NOTEBOOKS=PATH serves another folder of notebooks (by
# default this checkout's). SERVER=voila serves it with Voilà instead (aluette/classroom/voila/, a kernel per page), where LESSON=08 (CLASS_SIZE=30) warms a kernel for every student on that
# notebook before the class and VOILA_ARGS passes Voilà options. The teacher's page is Voilà.
app: $(STAMP)
	$(if $(CLASS),ALUETTE_CLASS=$(CLASS) )$(PY) -m aluette.classroom app --host=$(HOST) --port=$(PORT) --notebooks=$(NOTEBOOKS)$(if $(SERVER), --server=$(SERVER)) $(if $(TOKEN),--token=$(TOKEN)) $(if $(WORKERS),--workers=$(WORKERS)) $(if $(TEACHER_ADDRESS),--teacher-address=$(TEACHER_ADDRESS)) $(if $(LESSON),--lesson=$(LESSON) --class-size=$(CLASS_SIZE)) $(VOILA_ARGS)

# The teacher's page: the teacher's guide and the printable one-page rules summary (not in the students' app).
# CLASS=code: the class its page of the class's practice (notebook 12) opens on, the app's CLASS.
teacher: $(STAMP)
	$(if $(CLASS),ALUETTE_CLASS=$(CLASS) )$(PY) -m aluette.classroom teacher --host=$(HOST) --port=$(TEACHER_PORT) --notebooks=$(NOTEBOOKS) $(if $(TOKEN),--token=$(TOKEN))

# A lesson's practice as an nbgrader assignment (aluette/practice/nbgrader.py): `make nbgrader COURSE=~/course SEED=2026`
# writes source/practice-LL/practice-LL.ipynb for every lesson with practice (LESSON=01 for one) into the nbgrader
# course directory COURSE; then, there, `nbgrader generate_assignment practice-01`, and `nbgrader autograde` as usual.
COURSE ?=
SEED ?=
nbgrader: $(STAMP)
	$(PY) -m aluette.practice.nbgrader --course=$(or $(COURSE),$(error give COURSE=the nbgrader course directory)) --seed=$(or $(SEED),$(error give SEED=a whole number the tasks are drawn from)) $(if $(LESSON),--lesson=$(LESSON))

bench: $(STAMP)
	$(PY) -m tests.benchmarks.run $(ARGS)

# After changing a string students see: extract the messages of the package and of the notebooks' code
# (aluette/locale/aluette.pot; tools/messages.py reads the notebooks) and merge them into each language's .po file,
# whose new entries a translator then writes (tests/test_i18n.py fails until they are).
messages: $(STAMP)
	$(PY) -m tools.messages

clean-venv:
	rm -rf $(VENV)
