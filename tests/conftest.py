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
LONGEST_FIRST = (  # seconds summed per file over a whole make test (--junitxml, a fresh checkout, 2 Dec 2026)
    "tests/server/test_classroom.py",  # 176
    "tests/widgets/test_breaking_widgets.py",  # 86
    "tests/test_vectorized_heuristic.py",  # 86
    "tests/server/test_lessons.py",  # 79
    "tests/widgets/test_match.py",  # 71
    "tests/server/test_solara.py",  # 61
    "tests/widgets/test_seed_boxes.py",  # 46
    "tests/test_solver.py",  # 45
    "tests/widgets/test_ranking.py",  # 44
    "tests/widgets/test_together.py",  # 43
    "tests/server/test_long_texts.py",  # 36
    "tests/store/test_watch.py",  # 35
    "tests/server/test_rate.py",  # 34
    "tests/test_simulation.py",  # 33
    "tests/test_nbgrader.py",  # 25
    "tests/widgets/test_edge.py",  # 24
    "notebooks/fr/09_edge_cases.ipynb",  # 23
    "tests/test_properties.py",  # 21
    "tests/widgets/test_teachers_guide.py",  # 20
    "tests/test_vectorized.py",  # 20
    "tests/store/test_tables.py",  # 19
    "tests/test_i18n.py",  # 19
    "notebooks/09_edge_cases.ipynb",  # 19
    "tests/test_playthroughs.py",  # 16
    "tests/server/test_workers.py",  # 15
    "notebooks/fr/08_play_a_match.ipynb",  # 14
    "notebooks/08_play_a_match.ipynb",  # 13
    "tests/test_breaking.py",  # 13
    "tests/store/test_bounds.py",  # 12
    # the browser files, run after all the others (below)
    "tests/browser/test_pages.py",  # 643
    "tests/browser/test_match.py",  # 444
    "tests/browser/test_app.py",  # 308
    "tests/browser/test_notebooks.py",  # 247
    "tests/browser/test_harness.py",  # 232
    "tests/browser/test_bad_input.py",  # 231
    "tests/browser/test_together.py",  # 225
    "tests/browser/test_edge_cases.py",  # 211
    "tests/browser/test_class_day.py",  # 166
    "tests/browser/test_lab.py",  # 146
    "tests/browser/test_class_progress.py",  # 102
    "tests/browser/test_review.py",  # 102
    "tests/browser/test_phone.py",  # 57
    "tests/browser/test_accessibility.py",  # 57
    "tests/browser/test_practice.py",  # 38
    "tests/browser/test_french_routes.py",  # 35
    "tests/browser/test_puzzles.py",  # 34
    "tests/browser/test_french.py",  # 34
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
