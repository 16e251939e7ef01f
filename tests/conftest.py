"""Shared test settings: hypothesis runs derandomized so CI is reproducible, and the order in which test files are
handed to pytest-xdist's workers."""

from hypothesis import HealthCheck, settings

settings.register_profile("aluette", derandomize=True, deadline=None, max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("aluette")

#: The longest test files, longest first, as measured by a whole run (``--junitxml``, summed per file). ``make test``
#: hands whole files to its workers in this order (``--dist loadfile --no-loadscope-reorder``, each file a group but
#: those :func:`group_of` splits), so that no long file starts last while the other workers sit idle. A file not listed here keeps its place after the listed ones of its
#: group; the order changes how long the run takes, never what it tests.
LONGEST_FIRST = (  # seconds summed per file over a whole make test (--junitxml, ci1 at load 10-20, 02 Dec 2026)
    "tests/server/test_classroom.py",  # 297
    "tests/server/test_solara.py",  # 111
    "tests/test_vectorized_heuristic.py",  # 93
    "tests/widgets/test_match.py",  # 88
    "tests/server/test_lessons.py",  # 78
    "tests/widgets/test_seed_boxes.py",  # 77
    "tests/test_solver.py",  # 73
    "tests/server/test_long_texts.py",  # 58
    "tests/test_simulation.py",  # 52
    "tests/widgets/test_breaking_widgets.py",  # 50
    "tests/server/test_rate.py",  # 47
    "tests/widgets/test_ranking.py",  # 45
    "tests/widgets/test_teachers_guide.py",  # 43
    "tests/test_vectorized.py",  # 40
    "tests/widgets/test_together.py",  # 38
    "tests/test_nbgrader.py",  # 35 (estimated: new this stop)
    "notebooks/fr/09_edge_cases.ipynb",  # 35
    "tests/widgets/test_edge.py",  # 29
    "tests/store/test_watch.py",  # 28
    "notebooks/09_edge_cases.ipynb",  # 21
    "tests/test_properties.py",  # 21
    "notebooks/fr/08_play_a_match.ipynb",  # 21
    "notebooks/08_play_a_match.ipynb",  # 21
    "tests/server/test_policy.py",  # 20 (estimated: new this stop)
    "tests/widgets/test_long_inputs.py",  # 17
    "tests/widgets/test_together_face_down.py",  # 16
    "notebooks/13_puzzles.ipynb",  # 16 (estimated: new this stop)
    "notebooks/fr/13_puzzles.ipynb",  # 16 (estimated: new this stop)
    "tests/server/test_workers.py",  # 15
    "tests/test_expert.py",  # 14
    "tests/test_review.py",  # 13
    # the browser files, run after all the others (below)
    "tests/browser/test_match.py",  # 232
    "tests/browser/test_pages.py",  # 220
    "tests/browser/test_app.py",  # 188
    "tests/browser/test_harness.py",  # 126
    "tests/browser/test_notebooks.py",  # 118
    "tests/browser/test_edge_cases.py",  # 112
    "tests/browser/test_together.py",  # 101
    "tests/browser/test_bad_input.py",  # 99
    "tests/browser/test_class_day.py",  # 85
    "tests/browser/test_lab.py",  # 71
    "tests/browser/test_class_progress.py",  # 60 (estimated: new this stop)
    "tests/browser/test_puzzles.py",  # 50 (estimated: new this stop)
    "tests/browser/test_review.py",  # 47
    "tests/browser/test_accessibility.py",  # 44
    "tests/browser/test_phone.py",  # 34
    "tests/browser/test_french_routes.py",  # 12
)


#: Files handed out in smaller groups than the whole file: a group per parameter value (the test's id in brackets).
#: test_pages.py opens each notebook once for its checks (a module-scoped fixture parametrized by the notebook, whose
#: tests pytest runs together): one group per notebook, so that its ~280 s are shared by the workers.
SPLIT_BY_PARAMETER = ("tests/browser/test_pages.py",)


def _file_of(item) -> str:
    return item.nodeid.split("::", 1)[0]


def group_of(nodeid: str) -> str:
    """The tests a worker runs together: a file's tests (a notebook's cells share one kernel, a browser file its
    pages and servers), or one parameter value's tests of a file of :data:`SPLIT_BY_PARAMETER`."""
    name = nodeid.split("::", 1)[0]
    if name in SPLIT_BY_PARAMETER and nodeid.endswith("]") and "[" in nodeid:
        return f"{name}::{nodeid[nodeid.rindex('[') + 1:-1]}"
    return name


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``--dist loadfile`` with the groups of :func:`group_of` instead of whole files. (Its own
    ``loadgroup`` marks cannot do it: it renames tests through ``item._nodeid``, which pytest 9 no longer reads.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class GroupScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)
    return GroupScheduling(config, log)


def pytest_collection_modifyitems(session, config, items):
    """Run the real-browser tests last: playwright's sync API keeps an asyncio loop running in the main thread for
    the rest of the session, which tests of event-loop code (the match widget's bot pauses) must not see. Within
    each group, the longest files go first (``LONGEST_FIRST``). The sort is stable: a file's tests (a notebook's
    cells) keep their order."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}

    def key(item):
        name = _file_of(item)
        return ("tests/browser/" in item.nodeid, rank.get(name, len(rank)))

    items.sort(key=key)
