"""Scoring a deal from its nine trick outcomes.

Sources: the rules sheet, "scoring" (most tricks scores 1 for the partnership; a tie for most goes to whoever reached
that number first; mordienne scores 2) and pagat.com's examples in its notation (one letter per trick: the seat that won
it, X = spoiled). Decisions of this project (README, "The rules and where they come from"): all nine spoiled → nobody
scores; a spoiled trick breaks a run;
an earlier spoiled or lost trick counts as "before" the run.
"""

import numpy as np
import pytest

from aluette import AluetteError, NotationError, Seat, Team, first_to_reach, parse_outcomes, score_tricks
from aluette.decisions import badged
from aluette.scoring import explain_mordienne, score_deal


class TestPagatExamples:
    def test_everyone_two_first_to_reach(self):
        # pagat: SENWSEXNW -> S scores 1 for N-S (everyone has two; S got there first, at trick 5)
        score = score_tricks("SENWSEXNW")
        assert (score.winner, score.team, score.points, score.mordienne) == (Seat.S, Team.NS, 1, False)
        assert score.reached_first and score.reached_at == 5
        assert all(score.count(s) == 2 for s in "NESW")

    def test_not_mordienne_when_winner_also_won_earlier(self):
        # pagat: XSENXWSSS -> S scores 1, not mordienne, because S also won the second trick
        score = score_tricks("XSENXWSSS")
        assert (score.winner, score.points, score.mordienne) == (Seat.S, 1, False)


class TestMostTricks:
    def test_partners_do_not_pool(self):
        # the rules sheet's overview: partners do not combine tricks; N 3 + S 3 = 6 for N-S, but E's 4 is the single
        # best
        score = score_tricks("NNNSEEEES")
        assert (score.winner, score.team) == (Seat.E, Team.EW)
        assert score.count("N") + score.count("S") == 5 > score.count("E") == 4

    def test_tie_goes_to_first_to_reach(self):
        # the rules sheet: a tie for most goes to whoever got that number first
        score = score_tricks("WWWSSSXXX")
        assert (score.winner, score.team, score.reached_first) == (Seat.W, Team.EW, True)
        score = score_tricks("SSWWWXXSX")
        assert score.winner is Seat.W  # W reached 3 at trick 5, S only at trick 8

    def test_all_spoiled_nobody_scores(self):
        # decision of this project
        score = score_tricks("XXXXXXXXX")
        assert (score.winner, score.team, score.points) == (None, None, 0)
        assert score.team_points == {Team.NS: 0, Team.EW: 0}


class TestMordienne:
    def test_lose_first_four_win_last_five(self):
        # the rules sheet's example: lost the first four tricks, won the last five in a row -> mordienne, 2 points
        score = score_tricks("NEWNSSSSS")
        assert score.count("S") == 5
        assert (score.winner, score.points, score.mordienne) == (Seat.S, 2, True)

    def test_run_must_end_with_ninth(self):
        score = score_tricks("NEWSSSSSE")
        assert (score.winner, score.mordienne, score.points) == (Seat.S, False, 1)

    def test_spoiled_trick_breaks_the_run(self):
        # decision: a spoiled trick inside the run breaks it
        score = score_tricks("NEWSSSXSS")
        assert score.winner is Seat.S and not score.mordienne

    def test_earlier_spoiled_trick_counts_as_before(self):
        # decision: an earlier spoiled trick counts as "before" the run
        score = score_tricks("XXXXXSSSS")
        assert (score.winner, score.mordienne, score.points) == (Seat.S, True, 2)

    def test_winning_all_nine_is_not_mordienne(self):
        # nothing came before the run
        assert score_tricks("NNNNNNNNN").mordienne is False

    def test_run_by_a_seat_that_does_not_win_the_deal(self):
        # the mordienne player must win the deal: W's run 7-9 (3) loses to S's four, reached at trick 4
        score = score_tricks("SSSSENWWW")
        assert (score.winner, score.mordienne) == (Seat.S, False)

    def test_tie_where_run_player_reaches_last(self):
        # S won 1-3, W won 7-9: both 3; S got there first, W's run does not count
        score = score_tricks("SSSENXWWW")
        assert (score.winner, score.mordienne) == (Seat.S, False)

    def test_pagat_spoiled_last_trick_is_not_mordienne(self):
        # pagat's example EXWEWNNNX: N won tricks 6-8, the spoiled ninth breaks the run: 1 point for N-S
        # (decision mordienne-spoiled-breaks-run, which this example of pagat's supports)
        score = score_tricks("EXWEWNNNX")
        assert (score.winner, score.mordienne, score.points) == (Seat.N, False, 1)

    def test_one_trick_run_ending_the_deal(self):
        # decision one-trick-run-mordienne: XXXXXXXXS, S wins only the ninth, a run of one: mordienne, 2 points
        score = score_tricks("XXXXXXXXS")
        assert (score.winner, score.mordienne, score.points) == (Seat.S, True, 2)
        assert "a run of one ending the deal" in score.reason

    def test_all_nine_not_mordienne_scores_one(self):
        # decision all-nine-not-mordienne
        assert score_tricks("SSSSSSSSS").points == 1

    def test_option_off(self):
        # mordienne is an optional rule (the rules sheet)
        score = score_tricks("XXXXXSSSS", mordienne=False)
        assert (score.points, score.mordienne) == (1, False)


class TestNotation:
    def test_sequence_forms(self):
        assert parse_outcomes([Seat.S, "e", None, "X", "n", "W", "S", "S", "S"])[2:4] == (None, None)
        assert score_tricks(["S", "E", "N", "W", "S", "E", None, "N", "W"]).winner is Seat.S

    @pytest.mark.parametrize("text,match", [("SENWSEXN", "nine tricks, got 8"), ("SENWSEXNWW", "got 10"),
                                            ("SENWSEXNQ", "trick 9: 'Q'"), ("", "got 0")])
    def test_bad_notation(self, text, match):
        with pytest.raises(NotationError, match=match):
            score_tricks(text)

    def test_reason_mentions_first_to_reach(self):
        assert "reached 2 first" in score_tricks("SENWSEXNW").reason


class TestFirstToReach:
    """pagat.com's Aluette page: by custom the first player to win a second trick turns one card face up, and the
    first to win a third turns two, so the table sees who reached two and three first."""

    def test_pagat_example_s_reaches_two_first(self):
        # pagat's example SENWSEXNW: S wins its second trick at trick 5; E at 6, N at 8, W at 9
        assert first_to_reach("SENWSEXNW", 2) is Seat.S
        assert first_to_reach("SENWSEXNW", 3) is None  # nobody wins a third trick
        assert first_to_reach("SENWSEXNW", 1) is Seat.S

    def test_third_trick(self):
        # N reaches two at trick 4, E three at trick 7 before N's third at trick 8
        assert first_to_reach("NENNEXEEN"[:4], 2) is Seat.N
        assert first_to_reach("NEENEXENN", 3) is Seat.E
        assert first_to_reach("NEENEXENN", 2) is Seat.E  # E wins a second trick at 3, N only at 4

    def test_deal_in_progress_and_sequences(self):
        assert first_to_reach("", 2) is None
        assert first_to_reach([Seat.W, None, "w"], 2) is Seat.W
        assert first_to_reach("XXXXXXXXX", 1) is None  # all spoiled: nobody reaches anything

    def test_agrees_with_score_tricks_on_a_tie(self):
        # the rules sheet, "scoring": a tie for most tricks goes to whoever got that number first
        for notation in ("SENWSEXNW", "WWWSSSXXX", "SSWWWXXSX"):
            score = score_tricks(notation)
            top = max(score.count(s) for s in "NESW")
            assert first_to_reach(notation, top) is score.winner

    @pytest.mark.parametrize("n", [0, 10, True, 2.0, "2"])
    def test_bad_n(self, n):
        with pytest.raises(AluetteError, match="n must be a whole number"):
            first_to_reach("SENW", n)

    @pytest.mark.parametrize("outcomes,match", [("SENWSEXNWS", "at most nine"), ("SQ", "trick 2: 'Q' is not a seat"),
                                                (None, "expected pagat notation"), ("N" * 500, "500 characters")])
    def test_bad_outcomes(self, outcomes, match):
        with pytest.raises(NotationError, match=match):
            first_to_reach(outcomes, 2)


class TestScoreDeal:
    """scoring.score_deal: the points of a finished deal, surrender included. Source: pagat.com (surrender accepted:
    the accepting side scores 1, the deal is not played; refused: the refusing side scores 2 if it makes mordienne,
    else the offering side scores 2); decision surrender-refused-all-spoiled."""

    def test_without_surrender_it_is_score_tricks(self):
        for notation in ("SENWSEXNW", "NEWXSSSSS", "XXXXXXXXX"):
            score = score_tricks(notation)
            result = score_deal(notation)
            assert result.score == score and result.reason == score.reason
            assert dict(result.points) == dict(score.team_points)
            assert result.surrendered_by is None and result.surrender_accepted is None

    def test_accepted(self):
        result = score_deal(None, surrendered_by="EW", surrender_accepted=True)
        assert dict(result.points) == {Team.NS: 1, Team.EW: 0} and result.score is None
        assert "NS scores 1 and the deal is not played" in result.reason

    @pytest.mark.parametrize("notation, by, team", [
        ("NEWXSSSSS", "EW", Team.NS),   # NS refused and S made mordienne: NS scores 2
        ("NEWXSSSSS", "NS", Team.NS),   # EW refused and failed (the mordienne is NS's): NS, the offering side
        ("SENWSEXNW", "EW", Team.EW),   # NS refused, S won without mordienne: EW scores 2
        ("XXXXXXXXX", "NS", Team.NS)])  # all nine spoiled: a failure of the refusing side (decision)
    def test_refused(self, notation, by, team):
        result = score_deal(notation, surrendered_by=by, surrender_accepted=False)
        assert result.points[team] == 2 and result.points[team.other] == 0 and result.team is team
        assert result.reason.startswith(score_tricks(notation).reason)

    def test_the_verdict_says_who_scores_and_why_in_one_short_sentence(self):
        # issue 23 §6: the match table's one-line verdict (the reason is the detail): for any nine outcomes, with
        # or without a refused surrender, and for an accepted one, the side that scores and its points, as the
        # points themselves say, then a few words, one sentence
        rng = np.random.default_rng(23)
        letters = np.array(list("NESWX"))
        results = [score_deal(None, surrendered_by=by, surrender_accepted=True) for by in ("NS", "EW")]
        for _ in range(400):
            notation = "".join(rng.choice(letters, 9))
            results.append(score_deal(notation))
            results.append(score_deal(notation, surrendered_by=str(rng.choice(["NS", "EW"])), surrender_accepted=False))
        for result in results:
            verdict = result.verdict
            team = result.team
            head = "Nobody scores: " if team is None else f"{team} scores {result.points[team]}: "
            assert verdict.startswith(head) and verdict.endswith(".") and ". " not in verdict, verdict
            assert len(verdict) < 90 and verdict != result.reason, verdict
            if result.surrendered_by is None:
                assert ("made mordienne" in verdict) == result.score.mordienne, verdict

    @pytest.mark.parametrize("kwargs, message", [
        (dict(outcomes="SENWSEXNW", surrendered_by="NS"), "both or neither"),
        (dict(outcomes="SENWSEXNW", surrender_accepted=False), "both or neither"),
        (dict(outcomes="SENWSEXNW", surrendered_by="NE", surrender_accepted=False), "NS or EW, got 'NE'"),
        (dict(outcomes="SENWSEXNW", surrendered_by="NS", surrender_accepted=True), "no trick outcomes"),
        (dict(outcomes=None), "nine trick outcomes")])
    def test_inconsistent_arguments_are_named(self, kwargs, message):
        with pytest.raises(AluetteError, match=message):
            score_deal(**kwargs)


class TestExplainMordienne:
    """scoring.explain_mordienne: the engine's words for mordienne, which the scoring widget shows. Sources: the
    rules sheet and pagat.com (mordienne); decisions mordienne-spoiled-breaks-run and
    mordienne-spoiled-counts-before."""

    def test_made_uses_the_reason_sentence(self):
        score = score_tricks("NEWXSSSSS")
        text = explain_mordienne(score)
        assert text.startswith("Mordienne: yes.") and text.endswith("It is worth 2.")
        assert text[len("Mordienne: yes. "):-len(" It is worth 2.")] in score.reason

    def test_not_made_names_the_tricks(self):
        assert explain_mordienne(score_tricks("XSENXWSSS")).startswith("Mordienne: no. S won tricks 2, 7, 8 and 9.")
        assert explain_mordienne(score_tricks("XXXXNXXXX")).startswith("Mordienne: no. N won trick 5.")

    def test_not_made_says_what_broke_the_run(self):
        # the first trick after the winner's first that went elsewhere (a spoiled one too), or trick 1 won
        assert "After S's first trick (trick 2), trick 3 went to E, breaking the run." in explain_mordienne(
            score_tricks("XSENXWSSS"))
        assert (f"trick 6 went to nobody (spoiled), breaking the run ({badged('mordienne-spoiled-breaks-run')}"
                in explain_mordienne(score_tricks("XXXXNXXXX")))
        assert "S won trick 1, so no trick S did not win comes before a run." in explain_mordienne(
            score_tricks("SENWSEXNW"))

    def test_off_nobody_and_unannounced(self):
        assert explain_mordienne(score_tricks("NEWXSSSSS", mordienne=False), mordienne=False).startswith(
            "Mordienne is off")
        assert "Nobody won a trick" in explain_mordienne(score_tricks("XXXXXXXXX"))
        unannounced = score_tricks("NEWXSSSSS", announced=["N"])
        assert explain_mordienne(unannounced) == "Mordienne: no. " + unannounced.reason.split(". ", 1)[1]
