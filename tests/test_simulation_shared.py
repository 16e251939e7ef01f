"""A server's pages sharing seeded simulations (aluette.simulation.shared): off by default; when on, the same
checked arguments give a copy of the rows computed once, never another engine's rows, never a page's edits, and a
bounded store. The rows themselves are the chance contract's (aluette.simulation.contract; tests/test_simulation.py),
so a shared result must equal a fresh computation."""

from __future__ import annotations

import threading

import pytest

from aluette import Options
from aluette.errors import AluetteError
from aluette.players.bots import HeuristicBot
from aluette.simulation import share_results, shared_results, simulate
from aluette.simulation.shared import SharedResults


@pytest.fixture
def sharing():
    store = share_results(10_000)
    yield store
    share_results(None)


def test_off_by_default():
    # a notebook, a script or a test computes every call (the same seed, the same rows, checked by computing twice)
    assert shared_results() is None


def test_the_same_arguments_give_a_copy_of_the_rows_computed_once(sharing):
    first = simulate(2_000, seed=5, engine="vectorized")
    second = simulate(2_000, seed=5, engine="vectorized")
    assert (sharing.misses, sharing.hits) == (1, 1)
    share_results(None)
    fresh = simulate(2_000, seed=5, engine="vectorized")  # computed, sharing off
    assert first.equals(fresh) and second.equals(fresh)
    assert second is not first


def test_a_page_that_edits_its_rows_changes_no_other_page(sharing):
    mine = simulate(1_000, seed=6)
    before = mine.copy()
    mine.loc[:, "points_ns"] = 99
    mine.iloc[:10, 0] = -1
    again = simulate(1_000, seed=6)
    assert sharing.hits == 1 and again.equals(before) and not again.equals(mine)


def test_other_arguments_are_other_results(sharing):
    step = simulate(1_000, seed=7, engine="step")
    vectorized = simulate(1_000, seed=7, engine="vectorized")  # the engines' comparison still runs both
    simulate(1_000, seed=8)
    simulate(1_000, seed=7, options=Options(chant=False))
    simulate(1_000, seed=7, players="heuristic")
    simulate(1_000, seed=7, dealer="E")
    assert (sharing.misses, sharing.hits) == (6, 0) and step.equals(vectorized)


def test_bad_arguments_are_refused_even_when_the_rows_are_kept(sharing):
    simulate(1_000, seed=9)
    with pytest.raises(AluetteError, match="chunk_size"):
        simulate(1_000, seed=9, chunk_size=0)
    assert sharing.hits == 0


def test_a_factorys_players_are_not_shared(sharing):
    # a factory's bots may hold state of their own: computed each time
    players = {seat: (lambda seat, rng: HeuristicBot()) for seat in "NESW"}
    simulate(50, seed=3, players=players)
    simulate(50, seed=3, players=players)
    assert (sharing.misses, sharing.hits, len(sharing)) == (0, 0, 0)


def test_the_store_keeps_at_most_its_rows_least_recently_used_out_first():
    store = share_results(3_000)
    try:
        simulate(1_000, seed=1)
        simulate(2_000, seed=2)
        simulate(1_000, seed=1)  # used again: now the newest
        simulate(1_000, seed=3)  # 4,000 rows: seed 2's 2,000 go
        assert (len(store), store.deals) == (2, 2_000)
        simulate(1_000, seed=1)
        assert store.hits == 2
        simulate(5_000, seed=4)  # larger than the store: computed, not kept
        assert (len(store), store.deals) == (2, 2_000)
    finally:
        share_results(None)


def test_pages_asking_at_once_wait_for_one_computation():
    store, started, release = SharedResults(100), threading.Event(), threading.Event()
    calls, got = [], []

    def compute():
        calls.append(1)
        started.set()
        release.wait(10)
        import pandas as pd
        return pd.DataFrame({"deal": range(10)})

    first = threading.Thread(target=lambda: got.append(store.get("k", 10, compute)))
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=lambda: got.append(store.get("k", 10, compute)))
    second.start()
    for _ in range(1000):  # until the second page waits for the first one's computation (at most 10 s)
        if store.waits:
            break
        threading.Event().wait(0.01)
    assert store.waits == 1 and len(calls) == 1  # it waits, it does not compute again
    release.set()
    first.join(10)
    second.join(10)
    assert len(calls) == 1 and (store.misses, store.hits) == (1, 1)
    assert len(got) == 2 and got[0].equals(got[1]) and got[0] is not got[1]


def test_a_computation_that_fails_is_not_kept_and_the_next_page_computes():
    store = SharedResults(100)

    def fails():
        raise RuntimeError("out of memory")
    with pytest.raises(RuntimeError):
        store.get("k", 10, fails)
    import pandas as pd
    assert store.get("k", 10, lambda: pd.DataFrame({"deal": [1]})).deal.tolist() == [1] and len(store) == 1


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "many"])
def test_a_bad_size_is_refused(bad):
    with pytest.raises(AluetteError, match="max_deals"):
        share_results(bad)
    assert shared_results() is None
