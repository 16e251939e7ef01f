"""Shared test settings: hypothesis runs derandomized so CI is reproducible, and the order in which test files are
handed to pytest-xdist's workers."""

from hypothesis import HealthCheck, settings

settings.register_profile("aluette", derandomize=True, deadline=None, max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("aluette")

#: The longest test files, longest first, as measured by a whole run (``--junitxml``, summed per file). ``make test``
#: hands whole files to its workers in this order (``--dist loadfile --no-loadscope-reorder``), so that no long file
#: starts last while the other workers sit idle. A file not listed here keeps its place after the listed ones of its
#: group; the order changes how long the run takes, never what it tests.
LONGEST_FIRST = (  # measured with --junitxml (seconds of a whole make test, load of its own)
    "tests/server/test_classroom.py",  # 139
    "tests/server/test_solara.py",  # 45
    "tests/test_vectorized_heuristic.py",  # 43
    "tests/widgets/test_breaking_widgets.py",
    "tests/server/test_long_texts.py",
    "tests/server/test_lessons.py",
    "tests/widgets/test_match.py",
    "tests/widgets/test_together.py",
    "tests/widgets/test_ranking.py",
    "notebooks/08_play_a_match.ipynb",
    "tests/browser/test_app.py",  # 178 + the phone checks
    "tests/browser/test_together.py",  # 185
    "tests/browser/test_notebooks.py",  # 180
    "tests/browser/test_harness.py",  # 161
    "tests/browser/test_accessibility.py",  # 150
    "tests/browser/test_match.py",  # 138
    "tests/browser/test_bad_input.py",  # 75
    "tests/browser/test_edge_cases.py",  # 62
    "tests/browser/test_lab.py",  # 33
    "tests/browser/test_phone.py",
)


def _file_of(item) -> str:
    return item.nodeid.split("::", 1)[0]


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
