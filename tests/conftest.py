"""Shared test settings: hypothesis runs derandomized so CI is reproducible."""

from hypothesis import HealthCheck, settings

settings.register_profile("aluette", derandomize=True, deadline=None, max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("aluette")


def pytest_collection_modifyitems(session, config, items):
    """Run the real-browser tests last: they are the slowest, and playwright's sync API keeps an asyncio loop
    running in the main thread for the rest of the session, which tests of event-loop code (the match widget's
    bot pauses) must not see."""
    items.sort(key=lambda item: "tests/browser/" in item.nodeid)
