"""The fast play path of the engine (``Deal.play_index``), the block shuffle of :mod:`aluette.chance`, and
:func:`aluette.simulation.simulate`.

Rule sources are named per test; "decision of this project" marks API choices the rules sheet does not make.
"""

import numpy as np
import pytest

from aluette import (DECK, Card, Deal, DealOverError, IllegalMoveError, NotYourTurnError, Options, Play, Seat,
                     WrongPhaseError, score_tricks, shuffled_deck)
from aluette.errors import BadSeedError
from aluette.chance import cut_deck, shuffles_from_uniforms


def _random_indices(seed, n=36):
    return np.random.default_rng(seed).integers(0, 1_000_000, n).tolist()


class TestPlayIndex:
    """``Deal.play_index(i)`` is ``play(to_move, legal_cards()[i])`` with the same checks (decision of this
    project: the fast path for simulations and bots)."""

    def test_same_history_and_result_as_play(self):
        # The same choices made through play() and through play_index() give the same saved deal, move for move.
        for seed in range(30):
            options = Options(chant=False, mordienne=seed % 2 == 0)
            by_card = Deal.from_seed(seed, dealer="NESW"[seed % 4], options=options)
            by_index = Deal.from_seed(seed, dealer="NESW"[seed % 4], options=options)
            for k in _random_indices(seed):
                legal = by_card.legal_cards()
                i = k % len(legal)
                record = by_card.play(by_card.to_move, legal[i])
                assert by_index.play_index(i) == record
            assert by_index.is_over and by_card.is_over
            assert by_index.to_json() == by_card.to_json()
            assert by_index.moves == by_card.moves

    def test_result_agrees_with_score_tricks(self):
        # The rules sheet, "scoring": the deal's points are those of its nine outcomes, scored by score_tricks.
        for seed in range(30):
            deal = Deal.from_seed(seed, options=Options(chant=False))
            for k in _random_indices(seed + 1000):
                deal.play_index(k % len(deal.legal_cards()))
            assert deal.result.score == score_tricks(deal.notation)
            assert len(deal.notation) == 9 and set(deal.notation) <= set("NESWX")

    def test_legal_cards_are_high_to_low_and_match_legal_moves(self):
        # Hand order: high to low by strength, then deck order (Hand's docstring); legal_moves lists the same plays.
        deal = Deal.from_seed(3, options=Options(chant=False))
        legal = deal.legal_cards()
        assert [(-c.strength, c.index) for c in legal] == sorted((-c.strength, c.index) for c in legal)
        assert deal.legal_moves() == [Play(deal.to_move, c) for c in legal]

    @pytest.mark.parametrize("bad", [-1, 9, True, 1.0, "0", None])
    def test_bad_index_is_refused_and_leaves_the_deal_unchanged(self, bad):
        # Engine guarantee (aluette.errors): a refused move raises a named error and changes nothing.
        deal = Deal.from_seed(5, options=Options(chant=False))
        deal.play_index(0)
        before, legal = deal.to_json(), deal.legal_cards()
        with pytest.raises(IllegalMoveError, match="cannot play card number"):
            deal.play_index(bad)
        assert deal.to_json() == before and deal.legal_cards() == legal

    def test_numpy_integer_index_is_accepted(self):
        deal = Deal.from_seed(5, options=Options(chant=False))
        first = deal.legal_cards()[2]
        deal.play_index(np.int64(2))
        assert deal.moves[-1].card is first

    def test_wrong_phase_and_over(self):
        # The rules sheet, "setup": the chant comes before play; once nine tricks are played no card can be played.
        deal = Deal.from_seed(5, options=Options(chant=True))
        with pytest.raises(WrongPhaseError, match="chant phase"):
            deal.play_index(0)
        assert deal.moves == ()
        deal = Deal.from_seed(5, options=Options(chant=False))
        for _ in range(36):
            deal.play_index(0)
        with pytest.raises(DealOverError):
            deal.play_index(0)

    def test_play_keeps_its_checks(self):
        # The rules sheet, "gameplay": each plays in turn, only cards they hold.
        deal = Deal.from_seed(8, options=Options(chant=False))
        other = deal.to_move.left
        with pytest.raises(NotYourTurnError):
            deal.play(other, deal.hands[other][0])
        not_held = next(c for c in DECK if c not in deal.hands[deal.to_move])
        before = deal.to_json()
        with pytest.raises(IllegalMoveError, match="not in their hand"):
            deal.play(deal.to_move, not_held)
        assert deal.to_json() == before


class TestBlockShuffle:
    """:func:`aluette.chance.shuffles_from_uniforms` draws exactly the shuffles of :func:`shuffled_deck`
    (aluette.chance docstring: a block ``rng.random((n, 49))`` gives the same deals as ``n`` single draws)."""

    def test_block_equals_single_draws(self):
        orders, cuts = shuffles_from_uniforms(np.random.default_rng(11).random((50, 49)))
        rng = np.random.default_rng(11)
        for order, cut in zip(orders, cuts):
            single_order, single_cut = shuffled_deck(rng)
            assert tuple(DECK[i] for i in order) == single_order and int(cut) == single_cut
            assert 1 <= cut <= 47

    def test_from_seed_uses_that_shuffle(self):
        orders, cuts = shuffles_from_uniforms(np.random.default_rng(12).random((1, 49)))
        deal = Deal.from_seed(12)
        assert deal.deck == cut_deck([DECK[i] for i in orders[0]], int(cuts[0])) and deal.cut == cuts[0]
        assert isinstance(deal.deck[0], Card) and deal.dealer is Seat.N


# ---------------------------------------------------------------------------------------------------- simulate
from concurrent.futures import ProcessPoolExecutor  # noqa: E402

import pandas as pd  # noqa: E402

from aluette import AluetteError, SEATS, Team, UnknownSeatError  # noqa: E402
from aluette.players.bots import Decision  # noqa: E402
from aluette.simulation import (BLOCK_SIZE, COLUMNS, Summary, block_generator, simulate,  # noqa: E402
                                simulate_chunks, simulate_summary, step_deals)

NO_CHANT = Options(chant=False)


class HighestCardBot:
    """A test bot (the aluette.players.bots protocol): always plays its highest card, declines the chant and the surrender,
    never signals. Module level, so it is picklable."""

    def __init__(self, seat, rng):
        self.seat, self.rng = seat, rng

    def choose(self, view, legal_moves):
        if view.phase.value == "play":
            return Decision(Play(self.seat, view.hand[0]), "highest card")
        return Decision(legal_moves[-1], "declines")  # declines the chant / the surrender

    def signals(self, view, legal_signals):
        return []


def highest_card_bot(seat, rng):
    return HighestCardBot(seat, rng)


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(2) as executor:
        yield executor


class TestSimulateFrame:
    def test_schema(self):
        # Decision of this project: one row per deal with the columns documented in COLUMNS.
        df = simulate(1500, seed=3)
        assert list(df.columns) == list(COLUMNS)
        assert len(df) == 1500 and df.deal.tolist() == list(range(1500))
        assert df.dealer.tolist()[:5] == ["N", "E", "S", "W", "N"]  # dealer="rotate": deal i dealt by SEATS[i % 4]
        assert set(df.dealer.cat.categories) == set(df.winner.cat.categories) == {"N", "E", "S", "W"}
        assert set(df.team.cat.categories) == {"NS", "EW"}
        assert df.points_ns.dtype == np.int8 and df.mordienne.dtype == bool and df.spoiled.dtype == np.int8
        assert df.surrender_accepted.dtype == bool and df.chant.dtype == bool
        options = Options()
        assert (df.opt_mordienne == options.mordienne).all() and (df.opt_chant == options.chant).all()
        assert (df.opt_chant_recipients == options.chant_recipients.value).all()
        assert (df.opt_surrender == options.surrender).all() and (df.players == "random").all()
        assert simulate(10, seed=3, dealer="E").dealer.eq("E").all()

    def test_determinism_by_seed(self):
        # Quality bar: all chance from an explicit seed; the same seed gives the same deals.
        assert simulate(1200, seed=5).equals(simulate(1200, seed=5))
        assert not simulate(1200, seed=5).notation.equals(simulate(1200, seed=6).notation)

    def test_deal_i_depends_only_on_seed_and_i(self):
        # Chance contract: a shorter run is the beginning of a longer one.
        short, long = simulate(1500, seed=9, engine="vectorized"), simulate(2600, seed=9, engine="vectorized")
        assert short.equals(long.iloc[:1500])

    def test_contract_replayed_with_the_public_engine(self):
        # The module docstring's contract, rebuilt from scratch: block 1's generator; per deal, Deal.from_seed(rng)
        # takes the 49 shuffle doubles, then 45 decision doubles; play p takes legal_cards()[floor(u[9 + p] * k)].
        df = simulate(BLOCK_SIZE + 5, seed=11, options=NO_CHANT)
        rng = np.random.default_rng(np.random.SeedSequence(11).spawn(2)[1])
        for i in range(BLOCK_SIZE, BLOCK_SIZE + 5):
            deal = Deal.from_seed(rng, dealer=SEATS[i % 4], options=NO_CHANT)
            u = rng.random(45)
            for p in range(36):
                legal = deal.legal_cards()
                deal.play(deal.to_move, legal[int(np.floor(u[9 + p] * len(legal)))])
            row = df.iloc[i]
            assert row.notation == deal.notation
            assert (row.points_ns, row.points_ew) == (deal.result.points[Team.NS], deal.result.points[Team.EW])

    @pytest.mark.parametrize("options", [Options(surrender=True),
                                         Options(chant_recipients="left_and_partner", mordienne=False)])
    def test_random_player_is_legal_moves_at_floor_u_times_len(self, options):
        # Chance contract point 4, in every phase: the random player takes legal_moves()[floor(u * len)], reading
        # the slots 49-52 (chant), 53-54 (discards), 55-57 (surrender), 58-93 (plays) in order.
        draws = np.random.default_rng(5).random((12, 94))
        draws[::2, 49:53] = 0.3  # every other deal: all four agree to the chant, so both recipients discard
        dealers = np.arange(12) % 4
        raw = step_deals(draws, dealers, options)
        first_slot = {"chant": 49, "discard": 53, "surrender": 55, "play": 58}
        for row, dealer, notation_codes in zip(draws, dealers, raw["outcomes"]):
            orders, cuts = shuffles_from_uniforms(row[None, :49])
            deal = Deal.from_deck(cut_deck([DECK[i] for i in orders[0]], int(cuts[0])), dealer=SEATS[dealer],
                                  options=options)
            made = dict.fromkeys(first_slot, 0)
            while not deal.is_over:
                phase = deal.phase.value
                moves = deal.legal_moves()
                deal.apply(moves[int(np.floor(row[first_slot[phase] + made[phase]] * len(moves)))])
                made[phase] += 1
            expected = [-1] * 9 if deal.result.score is None else ["NESWX".index(c) for c in deal.notation]
            assert notation_codes.tolist() == expected
        assert raw["chant"][::2].all() and (raw["surrendered_by"] >= 0).any() == options.surrender

    def test_block_generator_is_the_spawned_child(self):
        child = np.random.SeedSequence(42).spawn(4)[3]
        assert block_generator(42, 3).random(5).tolist() == np.random.default_rng(child).random(5).tolist()

    @pytest.mark.parametrize("engine", ["step", "vectorized"])
    def test_executor_and_chunk_size_change_nothing(self, pool, engine):
        # Chance contract: results do not depend on the executor, its workers or the chunk size.
        reference = simulate(3500, seed=21, engine=engine, chunk_size=100_000)
        assert simulate(3500, seed=21, engine=engine, chunk_size=1000, executor=pool).equals(reference)
        assert simulate(3500, seed=21, engine=engine, chunk_size=1).equals(reference)
        chunks = list(simulate_chunks(3500, seed=21, engine=engine, chunk_size=2000, executor=pool,
                                      max_pending=1))
        assert [len(c) for c in chunks] == [2000, 1500]
        assert pd.concat(chunks, ignore_index=True).equals(reference)

    def test_bots_plug_in_and_are_executor_independent(self, pool):
        players = {"N": highest_card_bot, "S": highest_card_bot, "E": "random", "W": "random"}
        one = simulate(2000, seed=4, players=players, chunk_size=1000)
        assert one.equals(simulate(2000, seed=4, players=players, chunk_size=1000, executor=pool))
        assert (one.players == "N:highest_card_bot E:random S:highest_card_bot W:random").all()
        # N-S never agree to the chant (the bot declines), so no deal has it
        assert not one.chant.any()
        # the bots' seats play by the bot, not at random
        assert not one.notation.equals(simulate(2000, seed=4).notation)

    def test_progress_bar_changes_nothing(self, capsys):
        assert simulate(1000, seed=2, progress=True).equals(simulate(1000, seed=2))


@pytest.fixture(scope="module")
def frames():
    return [simulate(3000, seed=31, options=o, engine="vectorized")
            for o in (Options(), Options(mordienne=False, chant=False), Options(surrender=True))]


class TestInvariants:

    def test_points(self, frames):
        # The rules sheet, "scoring": one partnership scores a deal, 1 point, or 2 with mordienne (or a refused
        # surrender).
        for df in frames:
            assert df.points_ns.isin([0, 1, 2]).all() and df.points_ew.isin([0, 1, 2]).all()
            assert ((df.points_ns == 0) | (df.points_ew == 0)).all()
            scored = df.points_ns + df.points_ew
            assert (df.team.isna() == (scored == 0)).all()
            assert (df.team.eq("NS") == (df.points_ns > 0)).all()

    def test_notation_and_agreement_with_score_tricks(self, frames):
        # pagat notation: nine letters from NESWX; the row's score is score_tricks of its notation.
        for df in frames:
            played = df[~df.surrender_accepted]
            assert played.notation.str.fullmatch("[NESWX]{9}").all()
            assert (played.spoiled == played.notation.str.count("X")).all()
            mordienne_rule = bool(df.opt_mordienne.iloc[0])
            for row in played.itertuples():
                score = score_tricks(row.notation, mordienne=mordienne_rule)
                assert (None if pd.isna(row.winner) else row.winner) == (score.winner and str(score.winner))
                assert row.mordienne == score.mordienne and row.first_to_reach == score.reached_first
                if pd.isna(row.surrendered_by):
                    assert (row.points_ns, row.points_ew) == (score.team_points[Team.NS],
                                                              score.team_points[Team.EW])
            unplayed = df[df.surrender_accepted]
            assert (unplayed.notation == "").all() and ((unplayed.points_ns + unplayed.points_ew) == 1).all()


class TestBadArguments:
    @pytest.mark.parametrize("n", [0, -5, 1.5, True, "10"])
    def test_n_deals(self, n):
        with pytest.raises(AluetteError, match="n_deals must be a whole number of at least 1"):
            simulate(n, seed=1)

    def test_seed_is_required(self):
        with pytest.raises(TypeError):
            simulate(10)
        for seed in (None, -1, 1.5, "1"):  # one error family: simulate(seed=-1) raised TypeError
            with pytest.raises(BadSeedError, match="explicit seed" if seed is None else "whole number"):
                simulate(10, seed=seed)

    def test_players(self):
        with pytest.raises(AluetteError, match="unknown players 'randm'; known: 'random', 'heuristic'"):
            simulate(10, seed=1, players="randm")
        with pytest.raises(AluetteError, match="missing: E, W"):
            simulate(10, seed=1, players={"N": "random", "S": "random"})
        with pytest.raises(UnknownSeatError):
            simulate(10, seed=1, players={"Q": "random"})
        with pytest.raises(AluetteError, match="must be 'random', a player name or a factory"):
            simulate(10, seed=1, players={s: 3 for s in "NESW"})
        with pytest.raises(AluetteError, match="vectorized engine plays random players and non-signalling heuristic"):
            simulate(10, seed=1, engine="vectorized", players={s: highest_card_bot for s in "NESW"})

    def test_other_arguments(self):
        with pytest.raises(AluetteError, match="engine must be one of"):
            simulate(10, seed=1, engine="fast")
        with pytest.raises(AluetteError, match="chunk_size"):
            simulate(10, seed=1, chunk_size=0)
        with pytest.raises(AluetteError, match="options must be an aluette.Options"):
            simulate(10, seed=1, options={"chant": False})
        with pytest.raises(AluetteError, match="executor must be a concurrent.futures.Executor"):
            simulate(10, seed=1, executor="pool")
        with pytest.raises(UnknownSeatError):
            simulate(10, seed=1, dealer="Q")


class TestSummary:
    def test_summary_counts_the_frame(self):
        # simulate_summary adds up exactly what simulate returns, chunk by chunk.
        options = Options(surrender=True)
        df = simulate(4000, seed=41, options=options, engine="vectorized")
        summary = simulate_summary(4000, seed=41, options=options, engine="vectorized", chunk_size=1000)
        assert summary == Summary().add(df)
        played = df[~df.surrender_accepted]
        assert summary.deals == 4000 and summary.played == len(played)
        assert summary.points == {"NS": int(df.points_ns.sum()), "EW": int(df.points_ew.sum())}
        assert summary.dealer_side_points + summary.other_side_points == df.points_ns.sum() + df.points_ew.sum()
        assert summary.spoiled_by_trick.sum() == played.spoiled.sum() == summary.spoiled_histogram @ np.arange(10)
        assert summary.spoiled_by_trick[0] == played.notation.str[0].eq("X").sum()
        assert summary.wins_by_position.sum() == played.winner.notna().sum()
        assert summary.first_to_reach == df.first_to_reach.sum() and summary.mordienne == df.mordienne.sum()
        assert summary.surrender_accepted == df.surrender_accepted.sum()
        halves = (Summary().add(df.iloc[:1000]) + Summary().add(df.iloc[1000:]))
        assert halves == summary

    def test_by_dealer_side_and_by_seat(self):
        # The rules sheet, "scoring": the point goes to the winner's partnership (N-S or E-W). Counted here from the
        # rows another way: the dealer's side is the dealer's partnership, N and S one side, E and W the other.
        from aluette.simulation import Edge, dealer_margin
        players = {"N": "heuristic", "E": "random", "S": "random", "W": "random"}
        df = simulate(3000, seed=43, players=players, engine="vectorized")
        summary = Summary().add(df)
        dealer_team = df.dealer.map({"N": "NS", "S": "NS", "E": "EW", "W": "EW"}).astype(str)
        points = df.points_ns + df.points_ew
        dealer_points = points.where(df.team.astype(str) == dealer_team, 0)
        margin = dealer_margin(df)
        assert (margin == 2 * dealer_points - points).all()
        side = summary.by_dealer_side()
        assert side.loc["dealer's side", "points"] == dealer_points.sum() == summary.dealer_side_points
        assert side.loc["other side", "points"] == points.sum() - dealer_points.sum()
        assert abs(side.share.sum() - 1) < 1e-12 and side.per_deal.iloc[0] == dealer_points.sum() / 3000
        edge, direct = summary.dealer_edge(), Edge.of(margin)
        assert abs(edge.mean - margin.mean()) < 1e-12 and abs(edge.high - direct.high) < 1e-9
        assert edge.low < edge.mean < edge.high and edge.deals == 3000
        seats = summary.by_seat()
        for seat in "NESW":
            team = "NS" if seat in "NS" else "EW"
            assert seats.loc[seat, "won"] == (df.winner == seat).sum()
            assert seats.loc[seat, "dealt"] == (df.dealer == seat).sum() == 750  # the deal rotates
            assert seats.loc[seat, "side_points"] == df[f"points_{team.lower()}"].sum()
            assert seats.loc[seat, "points_when_dealing"] == dealer_points[df.dealer == seat].sum()
        # the one heuristic bot against three random players wins far more than a quarter of the deals won
        assert seats.won_share["N"] > 0.25 + 3.29 * np.sqrt(0.25 * 0.75 / seats.won.sum())
        halves = Summary().add(df.iloc[:1000]) + Summary().add(df.iloc[1000:])
        assert halves == summary and (halves.by_seat() == seats).all().all()

    def test_an_edge_needs_deals(self):
        from aluette.simulation import Edge
        with pytest.raises(AluetteError, match="no deals counted yet"):
            Summary().dealer_edge()
        with pytest.raises(AluetteError, match="no deals to average"):
            Edge.of([])
        assert Edge.of([1, 1, 1]).significant and not Edge.of([1, -1, 1, -1]).significant

    def test_table(self):
        table = simulate_summary(2000, seed=1, options=NO_CHANT, engine="vectorized").table()
        assert {"count", "out_of", "rate", "low", "high"} <= set(table.columns)
        assert ((table.low <= table.rate) & (table.rate <= table.high)).all()
        assert table.loc["trick 1 spoiled", "out_of"] == 2000


def test_benchmarks_are_found_and_honest_about_the_heuristic():
    # `make bench` runs every tests/benchmarks/bench_*.py; the vectorized heuristic exists, so its figure is measured
    # (heuristic_status() gives the reason there is none, and an empty string here).
    from tests.benchmarks import bench_speed
    from tests.benchmarks.run import benchmarks
    assert {"bench_speed", "bench_bots"} <= set(benchmarks())
    assert bench_speed.heuristic_status() == ""


class TestNamedBots:
    def test_heuristic_players_from_aluette_bots(self, pool):
        # simulate() plays the bots of aluette.players.bots by name, with results independent of the workers
        players = {"N": "heuristic", "S": "heuristic", "E": "random", "W": "random"}
        alone = simulate(300, seed=4, players=players, options=NO_CHANT)
        assert alone.equals(simulate(300, seed=4, players=players, options=NO_CHANT, executor=pool, chunk_size=100))
        ns = alone.points_ns.sum() / (alone.points_ns.sum() + alone.points_ew.sum())
        assert ns > 0.6  # the heuristic pair beats random players (measured properly in bench_bots)

    def test_signalling_bots_by_name(self):
        df = simulate(50, seed=2, players="signalling")
        assert len(df) == 50 and set(df.players) == {"signalling"}
