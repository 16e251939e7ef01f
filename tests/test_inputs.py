"""Each kind of input checked in one place, with one error family per mistake (the quality bar).

Quality bar: bad input gets a clear error of the project's family (``aluette.errors``) that names the problem and
quotes at most a short prefix of the input; the state is left exactly as it was; every check over user input is
linear. Rules used: the rules sheet, "setup" (four seats, partners opposite; a hand is nine cards; one of each card in
the deck); the rules sheet's signal table (decision of this project: signals are honest and made once per deal).
"""

import json
import tracemalloc

import numpy as np
import pytest

from aluette import (DECK, AluetteError, BadSeedError, BadSignalError, Deal, Decision, DuplicateCardError,
                     DuplicateSeatError, Hand, HeuristicBot, MalformedSaveError, Match, Options, RandomBot, Seat,
                     Signal, UnknownSeatError, parse_outcomes, trick_winner)
from aluette.players.drivers import play_deal, play_match, signal_round
from aluette.chance import MAX_SEED, check_seed, deck_from_hands
from aluette.errors import quoted
from aluette.savefile import check_header
from aluette.scenario import complete_hands, parse_partial_hands, scenario_from_json, scenario_to_json
from aluette.simulation import simulate, simulate_chunks

from .test_breaking import HANDS

MEGABYTE = "x" * 1_000_000
SHORT = 600  # an error message about any input stays shorter than this (the input quoted: 40 characters)


def bots(seed=0) -> dict:
    return {seat: RandomBot(seed + i) for i, seat in enumerate(Seat)}


class TestSeatMappings:
    """Seat.parse_mapping: a seat given twice ("N" and "north") is refused everywhere."""

    def test_the_one_reader(self):
        assert Seat.parse_mapping({"n": 1, "East": 2}) == {Seat.N: 1, Seat.E: 2}
        with pytest.raises(DuplicateSeatError, match=r"N is given twice \(as 'N' and 'north'"):
            Seat.parse_mapping({"N": 1, "north": 2}, "card")
        with pytest.raises(UnknownSeatError, match="missing: S, W"):
            Seat.parse_mapping({"N": 1, "E": 2}, "hand", all_four=True)
        with pytest.raises(UnknownSeatError, match="mapping"):
            Seat.parse_mapping([("N", 1)])

    @pytest.mark.parametrize("call", [
        lambda: Deal.from_hands({**HANDS, "north": HANDS["N"]}),
        lambda: Match(1, names={"N": "Anne", "north": "Bruno"}),
        lambda: parse_partial_hands({"N": "1O", "north": "1C"}),
        lambda: simulate(10, seed=1, players={"N": "random", "north": "heuristic", "E": "random", "S": "random",
                                              "W": "random"}),
        lambda: play_deal(Deal.from_seed(1), {**bots(), "north": RandomBot(9)}),
        lambda: play_match(Match(1), {**bots(), "north": RandomBot(9)}),
        lambda: signal_round(Deal.from_seed(1), {"S": RandomBot(1), "south": RandomBot(2)}),
    ], ids=["from_hands", "match names", "scenario", "simulate players", "play_deal bots", "play_match bots",
            "signal_round bots"])
    def test_a_seat_given_twice_is_refused_everywhere(self, call):
        # was: simulate(players=...) and play_deal/play_match(bots=...) silently kept the last of "N"/"north"
        with pytest.raises(DuplicateSeatError, match="given twice"):
            call()


class TestSeeds:
    """chance.check_seed: one check, one error (BadSeedError) for every seed."""

    BAD = [-1, True, 12.7, 12.0, "12", 2 ** 64, 10 ** 5000, None, [1]]

    @pytest.mark.parametrize("seed", BAD, ids=lambda s: quoted(s, 12))
    @pytest.mark.parametrize("call", [
        lambda s: Deal.from_seed(s), lambda s: Match(s), lambda s: RandomBot(s), lambda s: simulate(10, seed=s),
        lambda s: next(iter(simulate_chunks(10, seed=s))), lambda s: complete_hands({}, seed=s),
        lambda s: scenario_to_json({}, s), lambda s: check_seed(s),
    ], ids=["Deal.from_seed", "Match", "RandomBot", "simulate", "simulate_chunks", "complete_hands", "scenario",
            "check_seed"])
    def test_a_bad_seed_is_one_error_everywhere(self, call, seed):
        # was: simulate(seed=-1) TypeError, Deal.from_seed(-1) AluetteError, Match(None) TypeError
        with pytest.raises(BadSeedError, match="seed") as caught:
            call(seed)
        assert len(str(caught.value)) < SHORT

    def test_good_seeds(self):
        assert check_seed(np.int64(7)) == 7 and check_seed(MAX_SEED) == MAX_SEED == 2 ** 64 - 1
        assert Deal.from_seed(np.int64(7)).seed == 7 and Match(np.uint32(3)).seed == 3
        assert Deal.from_seed(MAX_SEED).seed == MAX_SEED
        assert Deal.from_seed(np.random.default_rng(1)).seed is None  # a generator is chance too, not a seed

    @pytest.mark.parametrize("field,value", [("seed", -1), ("seed", 12.5), ("seed", "1"), ("seed", 2 ** 70)])
    def test_saved_seeds_use_the_same_check(self, field, value):
        deal = json.loads(Deal.from_seed(3).to_json())
        deal[field] = value
        with pytest.raises(MalformedSaveError, match="seed"):
            Deal.from_json(json.dumps(deal))
        match = json.loads(Match(3).to_json())
        match[field] = value
        with pytest.raises(MalformedSaveError, match="seed"):
            Match.from_json(json.dumps(match))


class TestOptionsCoerce:
    def test_none_and_options(self):
        assert Options.coerce(None) == Options() and Options.coerce(Options(chant=False)) == Options(chant=False)

    @pytest.mark.parametrize("call", [lambda o: Deal.from_seed(1, options=o), lambda o: Match(1, options=o),
                                      lambda o: simulate(10, seed=1, options=o), lambda o: Options.coerce(o),
                                      lambda o: scenario_to_json({}, 1, options=o)])
    def test_a_dict_is_refused_with_one_message(self, call):
        with pytest.raises(AluetteError, match="options must be an aluette.Options"):
            call({"chant": False})


class TestSaveHeaders:
    @pytest.mark.parametrize("load,fmt", [(Deal.from_json, "aluette-deal"), (Match.from_json, "aluette-match"),
                                          (scenario_from_json, "aluette-scenario")])
    def test_one_header_check(self, load, fmt):
        for text, problem in [("[]", "JSON object"), (json.dumps({"format": "chess"}), "format is 'chess'"),
                              (json.dumps({"format": MEGABYTE}), "characters"),
                              (json.dumps({"format": fmt, "version": 1, MEGABYTE: 1}), "unknown field")]:
            with pytest.raises(MalformedSaveError, match=problem) as caught:
                load(text)
            assert len(str(caught.value)) < SHORT

    def test_check_header_directly(self):
        data = {"format": "f", "version": 1, "a": 1}
        assert check_header(data, format="f", version=1, what="a thing", fields=("format", "version", "a")) is data
        with pytest.raises(MalformedSaveError, match="version True"):
            check_header({**data, "version": True}, format="f", version=1, what="a thing", fields=tuple(data))
        with pytest.raises(MalformedSaveError, match="lacks the field 'b'"):
            check_header(data, format="f", what="a thing", fields=(*data, "b"), required=("b",))


class TestShortQuotes:
    """Error messages quote at most a short prefix of the input (they echoed up to 1 MB)."""

    @pytest.mark.parametrize("call", [
        lambda: Seat.parse(MEGABYTE),
        lambda: Deal.from_seed(1, options=Options(chant=False)).apply(Signal("N", MEGABYTE)),
        lambda: Deal.from_seed(1).discard("E", MEGABYTE),
        lambda: parse_outcomes(MEGABYTE),
        lambda: parse_outcomes("N" * 1_000_000),
        lambda: Options(chant=MEGABYTE),
        lambda: Options(chant_recipients=MEGABYTE),
        lambda: Options.from_dict({MEGABYTE: True}),
        lambda: Match(1, names={"N": 5 * [MEGABYTE]}),
        lambda: Deal.from_json(json.dumps({"format": "aluette-deal", "version": MEGABYTE})),
        lambda: Deal.from_json(json.dumps({**json.loads(Deal.from_seed(1).to_json()), "cut": MEGABYTE})),
        lambda: Deal.from_json(json.dumps({**json.loads(Deal.from_seed(1).to_json()), "moves": [[MEGABYTE]]})),
        lambda: Deal.from_json(json.dumps({**json.loads(Deal.from_seed(1).to_json()),
                                           "moves": [["chant", "E", MEGABYTE]]})),
        lambda: scenario_from_json(json.dumps({"format": "aluette-scenario", "seed": 1, "leader": MEGABYTE})),
        lambda: trick_winner("3O " * 300_000),
    ], ids=["seat", "signal key", "discard", "notation", "long notation", "option value", "option choice",
            "option name", "match name", "save version", "save cut", "save move", "save move value", "recipe seat",
            "trick"])
    def test_one_megabyte_is_quoted_short(self, call):
        with pytest.raises(AluetteError) as caught:
            call()
        assert len(str(caught.value)) < SHORT, str(caught.value)[:SHORT]

    def test_quoted(self):
        assert quoted("3O") == "'3O'" and quoted("x" * 100).endswith("… (100 characters)")
        assert "digits" in quoted(10 ** 5000) and quoted(list(range(1000))) == "a list of 1,000 items"


class TestDuplicateCards:
    """One error, DuplicateCardError, for a card given twice (was a bare AluetteError in 4 places)."""

    @pytest.mark.parametrize("call", [
        lambda: Hand("3O 2C 3O"),
        lambda: deck_from_hands({**HANDS, "S": HANDS["E"]}, Seat.N),
        lambda: trick_winner("3O 1E 3O"),
        lambda: parse_partial_hands({"N": "3O", "S": "Monsieur"}),
        lambda: complete_hands({"W": "4C 4c"}, seed=1),
    ], ids=["hand", "deck from hands", "trick", "scenario two seats", "scenario one seat"])
    def test_one_error(self, call):
        with pytest.raises(DuplicateCardError, match="twice|given to North and South"):
            call()

    def test_the_hand_check_is_linear_and_short(self):
        # quality bar, checks over input are linear: Hand() counted each card with list.count (quadratic); 200,000
        # cards are refused at once
        with pytest.raises(DuplicateCardError) as caught:
            Hand(list(DECK) * 4000)
        assert len(str(caught.value)) < SHORT


class TestSimulationArguments:
    @pytest.mark.parametrize("value", [1.5, "4", 0, True, None])
    def test_max_pending_is_a_whole_number(self, value):
        # was: a raw ValueError/TypeError from islice, or 0 silently read as 1
        with pytest.raises(AluetteError, match="max_pending must be a whole number"):
            simulate(10, seed=1, max_pending=value)

    def test_a_factory_returning_none_is_refused(self):
        # was: None in the bot tuple silently became the simulation's random player
        def nobody(seat, rng):
            return None
        with pytest.raises(AluetteError, match="returned None"):
            simulate(10, seed=1, players={"N": nobody, "E": "random", "S": "random", "W": "random"})

    def test_simulate_chunks_checks_its_arguments_at_once(self):
        with pytest.raises(BadSeedError):
            simulate_chunks(10, seed=-1)  # before any chunk is asked for

    def test_a_trillion_deals_start_at_once_in_flat_memory(self):
        # README, flat memory: simulate_chunks(10**12) built its whole task list first (1.45 GB for 10**12); now lazy.
        # Bounded consumption: two chunks of 1,000 deals, then the generator is closed.
        tracemalloc.start()
        try:
            chunks = simulate_chunks(10 ** 12, seed=1, chunk_size=1000)
            first, second = next(chunks), next(chunks)
            chunks.close()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert len(first) == len(second) == 1000 and second.deal.iloc[0] == 1000
        assert peak < 200 * 2 ** 20  # a list of 10**9 task tuples would not fit in any memory


class LyingBot(HeuristicBot):
    """Signals an honest signal, then one it may not make (a card it does not hold)."""

    def signals(self, view, legal):
        bad = next(key for key in ("monsieur", "madame", "borgne", "vache") if key not in legal)
        return [Decision(Signal(view.seat, legal[0]), "honest"), Decision(Signal(view.seat, bad), "dishonest")]


class TestSignalRound:
    def test_a_refused_signal_leaves_the_deal_unchanged(self):
        # was: the bot's valid signal was applied, then its next one refused: the deal was left changed
        deal = Deal.from_seed(4, options=Options(chant=False))
        before = deal.to_json()
        with pytest.raises(BadSignalError):
            signal_round(deal, {"N": HeuristicBot(signals=True), "S": LyingBot(signals=True)})
        assert deal.to_json() == before

    def test_accepted_signals_are_all_applied_in_order(self):
        deal = Deal.from_seed(4, options=Options(chant=False))
        made = signal_round(deal, {seat: HeuristicBot(signals=True) for seat in Seat})
        assert [d.move for d in made] == list(deal.moves) and made
