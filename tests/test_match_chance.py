"""A match's chance (issue 17, §4): the match holds no generator (the rule of aluette/chance.py, OpenSpiel's: "the
state never owns a hidden random generator"); deal k comes from the seed and k alone
(``chance.match_deal_seed(seed, k)``: ``SeedSequence(seed, spawn_key=(1, k))``, the first deal from the match's
stream ``SeedSequence(seed, spawn_key=(1,))`` as before), and the save format's version says
so (``MATCH_VERSION`` 2). Decision: saves of version 1 (every deal drawn in turn from one generator) still load and go
on dealing as they began, as do shared tables opened before (their settings carry no ``match_version``); a version
this aluette does not know is refused with a message naming it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from aluette import Deal, Match, Options
from aluette.chance import match_deal_seed, match_generator
from aluette.errors import AluetteError, MalformedSaveError
from aluette.match import MATCH_VERSION
from aluette.players.drivers import play_out, simple_move
from aluette.store import TableService
from aluette.store.db import SQLiteStore

SAVES = Path(__file__).resolve().parent / "saves"


def _finish_deal(match: Match, rule: str = "highest") -> None:
    deal = match.current
    while not deal.is_over:
        deal.apply(simple_move(deal, rule))


def _generators(value) -> list:
    """Every numpy Generator reachable from ``value``'s attributes (one level of containers)."""
    found = []
    for item in vars(value).values():
        items = item if isinstance(item, (list, tuple)) else [item]
        found += [x for x in items if isinstance(x, np.random.Generator)]
    return found


def test_a_match_holds_no_generator():
    match = Match(7)
    _finish_deal(match)
    match.next_deal()
    assert _generators(match) == []
    assert all(_generators(deal) == [] for deal in match.deals)


@pytest.mark.parametrize("seed", [0, 7, 2 ** 64 - 1])
def test_deal_k_comes_from_the_seed_and_k_alone(seed):
    match = Match(seed, options=Options(match_deals=3))
    for number in (1, 2, 3):
        alone = Deal.from_seed(match_deal_seed(seed, number), dealer=match.dealer_of(number))
        assert match.current.deck == alone.deck
        if number < 3:
            _finish_deal(match, "highest" if number == 1 else "lowest")
            match.next_deal()
    decks = {deal.deck for deal in match.deals}
    assert len(decks) == 3  # each deal its own stream
    assert Deal.from_seed(seed).deck not in decks  # and none is the single-deal demo's of the same seed


@pytest.mark.parametrize("seed", [1, 16])
def test_the_first_deal_is_the_one_version_1_dealt_and_the_next_ones_are_not(seed):
    # decision: deal 1 keeps the match's stream (the deal the lessons show), deal k >= 2 gets a child stream of its own
    new, old = Match(seed), Match(seed, version=1)
    assert new.current.deck == old.current.deck
    for match in (new, old):
        _finish_deal(match)
        match.next_deal()
    assert new.current.deck != old.current.deck


def test_the_moves_played_do_not_change_the_next_deals():
    first, second = Match(11), Match(11)
    _finish_deal(first, "highest")
    _finish_deal(second, "lowest")
    assert first.current.moves != second.current.moves
    assert first.next_deal().deck == second.next_deal().deck


def test_a_seed_sequence_deals_as_its_integer_seed():
    assert Match(np.random.SeedSequence(5, spawn_key=(1,))).current.deck == Match(5).current.deck


def test_a_generator_is_asked_once_at_the_start():
    rng = np.random.default_rng(3)
    match = Match(rng)
    state = rng.bit_generator.state
    _finish_deal(match)
    match.next_deal()
    assert rng.bit_generator.state == state  # the next deal drew nothing from the caller's generator
    assert Match(np.random.default_rng(3)).current.deck == match.deals[0].deck


def test_a_save_is_of_the_new_version_and_loads_as_it_was():
    match = Match(21, names={"N": "Ann"})
    _finish_deal(match)
    match.next_deal()
    data = match.to_dict()
    assert data["version"] == MATCH_VERSION == 2
    loaded = Match.from_dict(json.loads(json.dumps(data)))
    assert loaded.version == MATCH_VERSION and loaded.to_dict() == data


def test_a_save_of_version_1_still_loads_and_goes_on_as_it_began():
    # a file written by the aluette before this change (tests/playthroughs/match.txt's record of that commit)
    text = (SAVES / "match_version_1.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["version"] == 1
    match = Match.from_json(text)
    assert match.version == 1
    assert [deal.deck for deal in match.deals] == [Deal.from_dict(d).deck for d in data["deals"]]
    assert match.to_dict() == data  # saved again as version 1, unchanged
    # version 1 drew every deal in turn from one generator: the deal after the save is that stream's next shuffle
    again = Match(data["seed"], version=1, options=Options(match_deals=7))
    rng = match_generator(data["seed"])
    for number in (1, 2):
        assert again.current.deck == Deal.from_seed(rng).deck
        if number == 1:
            play_out(again.current)
            again.next_deal()


@pytest.mark.parametrize("version", [0, 3, "2", True, None])
def test_an_unknown_version_is_refused_naming_it(version):
    data = Match(1).to_dict()
    data["version"] = version
    with pytest.raises(MalformedSaveError, match=r"unsupported version .* of a saved match"):
        Match.from_dict(data)
    with pytest.raises(AluetteError, match="a match's version is one of 1, 2"):
        Match(1, version=version)


def test_version_1_deals_from_an_integer_seed_only():
    with pytest.raises(AluetteError, match="integer seed only"):
        Match(np.random.default_rng(1), version=1)


def test_a_shared_table_opened_before_goes_on_dealing_as_it_began(tmp_path):
    service = TableService(SQLiteStore(tmp_path / "tables.sqlite3"))
    try:
        service.create_table("New", seed=9)
        service.create_table("Old", seed=9)
        assert service.replay("New").current.deck == Match(9).current.deck
        with service.store.write() as tx:  # as a table written before settings had a match version
            settings = json.loads(tx.one("SELECT settings FROM aluette_tables WHERE name = 'Old'")[0])
            assert settings.pop("match_version") == MATCH_VERSION
            tx.run("UPDATE aluette_tables SET settings = ? WHERE name = 'Old'", (json.dumps(settings),))
    finally:
        service.close()
    service = TableService(SQLiteStore(tmp_path / "tables.sqlite3"))
    try:
        old = service.replay("Old")
        assert old.version == 1 and old.current.deck == Match(9, version=1).current.deck
        assert service.replay("New").version == MATCH_VERSION
    finally:
        service.close()


@pytest.mark.parametrize("name", ["x" * 61, "Ann\nB", "=cmd\t", "a" * 1_000_000])
def test_a_match_refuses_a_name_too_long_or_on_two_lines(name):
    # a tester's review: a saved match loaded a 1 MB name, or one with a line break (every other name of the
    # project is bounded: the shared tables' at 30 characters)
    from aluette.errors import AluetteError
    with pytest.raises(AluetteError, match="at most 60 characters on one line") as raised:
        Match(1, names={"N": name})
    assert len(str(raised.value)) < 300  # quoted short
    data = Match(1, names={"N": "Ann"}).to_dict()
    data["names"] = {"N": name}
    with pytest.raises(AluetteError):
        Match.from_dict(data)
    assert Match(1, names={"N": "x" * 60, "S": "Élodie B."}).to_dict()["names"]["N"] == "x" * 60
