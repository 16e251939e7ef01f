"""Widget tests for the "Scoring" notebook (aluette.widgets.scoring), driven without a browser.

Each test names its rule source: the rules sheet = docs/sources ("scoring", "end of game"); pagat =
pagat.com's Aluette page (its two worked examples and the surrender rule); decision = a decision of this project.
"""

from aluette import Match, Phase, Seat, Team
from aluette.players.drivers import play_out_match
from aluette.widgets.scoring import MatchSheet, ScoringView, SurrenderDemo, running_counts, surrender_position


def typed(text, **kwargs):
    view = ScoringView("NNNNNNNNN", **kwargs)
    view.notation.value = text
    return view


class TestScoringView:
    def test_pagat_first_example(self):
        # pagat: SENWSEXNW, everyone has two, S got there first: S scores 1 for N-S, no mordienne
        view = typed("SENWSEXNW")
        assert view.score.winner is Seat.S and view.score.points == 1
        assert "S (South) scores 1 point for N–S." in view.result.value
        assert "S reached 2 first, at trick 5" in view.result.value
        assert "Mordienne: no." in view.result.value
        assert view.message.last_error is None

    def test_pagat_second_example(self):
        # pagat: XSENXWSSS, S scores 1, not mordienne (S also won trick 2)
        view = typed("XSENXWSSS")
        assert "S (South) scores 1 point for N–S." in view.result.value
        assert "Mordienne: no. S won tricks 2, 7, 8 and 9." in view.result.value

    def test_typing_fills_the_nine_slots(self):
        # pagat notation: one letter per trick, in order
        view = typed("senw sexnw")
        assert [slot.value for slot in view.slots] == list("SENWSEXNW")

    def test_a_q_is_named_and_the_widget_still_works(self):
        # decision (quality bar): the message names the bad letter; the last good deal stays; the widget keeps working
        view = typed("SENWSEXNW")
        before = view.score
        view.notation.value = "SENWSEXNQ"
        assert "'Q'" in view.message.last_error and "trick 9" in view.message.last_error
        assert view.score is before and [s.value for s in view.slots] == list("SENWSEXNW")
        view.notation.value = "XSENXWSSS"
        assert view.message.last_error is None and view.score.notation == "XSENXWSSS"

    def test_not_nine_tricks_is_named(self):
        # the rules sheet: a deal has nine tricks (nine cards each)
        view = typed("SENW")
        assert "nine tricks, got 4" in view.message.last_error

    def test_clicking_a_slot_rescores_and_rewrites_the_notation(self):
        # the rules sheet, "scoring": S with three tricks, alone at the top, scores
        view = typed("SENWSEXNW")
        view.slots[6].value = "S"
        assert view.notation.value == "SENWSESNW"
        assert view.score.winner is Seat.S and view.score.count("S") == 3
        assert "held by S alone" in view.result.value

    def test_clicking_after_bad_input_recovers(self):
        # decision (quality bar): after an error the slots still work and clear the message
        view = typed("SENWSEXNW")
        view.notation.value = "SENWSEXN?"
        view.slots[0].value = "N"
        assert view.message.last_error is None and view.notation.value == "NENWSEXNW"
        assert view.score.notation == "NENWSEXNW"

    def test_mordienne_checkbox(self):
        # the rules sheet and pagat: mordienne (optional) scores 2; decision: an earlier spoiled trick counts as "before"
        view = typed("NEWXSSSSS")
        assert view.score.points == 2 and "Mordienne: yes." in view.result.value
        assert "scores 2 points" in view.result.value
        view.mordienne.value = False
        assert view.score.points == 1 and "Mordienne is off" in view.result.value

    def test_a_spoiled_trick_breaks_the_run(self):
        # decision: a spoiled trick breaks a mordienne run
        view = typed("NEWSXSSSS")
        assert view.score.points == 1 and "Mordienne: no." in view.result.value

    def test_partners_do_not_pool_tricks(self):
        # the rules sheet, "scoring": partners do not combine tricks; the best single player's partnership scores
        view = typed("EENSNSSEE")
        assert "E (East) scores 1 point for E–W." in view.result.value

    def test_all_nine_spoiled_nobody_scores(self):
        # decision: all nine spoiled, nobody scores
        view = typed("XXXXXXXXX")
        assert view.score.points == 0 and "Nobody scores." in view.result.value

    def test_running_counts(self):
        # pagat: SENWSEXNW, after trick 5 only S has two; the spoiled trick 7 adds to nobody
        counts = running_counts("SENWSEXNW")
        assert counts.loc[5].tolist() == ["S", 1, 1, 2, 1]
        assert counts.loc[7].tolist() == ["X", 1, 2, 2, 1]
        assert counts.loc[9, ["N", "E", "S", "W"]].tolist() == [2, 2, 2, 2]
        view = typed("SENWSEXNW")
        assert "<th>trick</th>" in view.counts.value


class TestSurrenderDemo:
    def test_position_starts_with_the_dealers_left_speaking(self):
        # decision: the dealer's left speaks first for their partnership
        deal = surrender_position()
        assert deal.phase is Phase.SURRENDER and deal.to_move is Seat.E

    def test_accepted_the_accepting_side_scores_one(self):
        # pagat: an accepted surrender scores 1 to the accepting side, the deal is not played
        demo = SurrenderDemo(answer="accept")
        assert demo.deal.result.points == {Team.NS: 1, Team.EW: 0} and demo.deal.tricks == ()
        assert "N–S 1, E–W 0" in demo.result.value

    def test_refused_and_mordienne_made_scores_two(self):
        # pagat: refused, the refusing side scores 2 if it makes mordienne
        demo = SurrenderDemo(answer="refuse", rule="highest")
        assert demo.deal.notation == "EEEESSSSS"
        assert demo.deal.result.points == {Team.NS: 2, Team.EW: 0}
        assert "N–S 2, E–W 0" in demo.result.value

    def test_refused_and_mordienne_missed_gives_two_to_the_surrendering_side(self):
        # pagat: refused and no mordienne, the side that surrendered scores 2
        demo = SurrenderDemo()
        demo.rule.value = "lowest"
        assert demo.deal.notation == "SSSSSEEEE"
        assert demo.deal.result.points == {Team.NS: 0, Team.EW: 2}
        assert "N–S 0, E–W 2" in demo.result.value
        demo.answer.value = "accept"
        assert "N–S 1, E–W 0" in demo.result.value


class TestMatchSheet:
    def test_five_deals_first_dealer_deals_twice(self):
        # the rules sheet, "end of game": five deals, so the first dealer deals twice; the deal passes to the left
        sheet = MatchSheet(seed=1)
        match = sheet.match
        assert len(match.deals) == 5 and [str(d.dealer) for d in match.deals] == ["N", "E", "S", "W", "N"]
        for deal in match.deals:
            assert f"<td>{deal.notation}</td>" in sheet.sheet.value
        scores = match.scores
        assert f"N–S {scores[Team.NS]}, E–W {scores[Team.EW]}" in sheet.summary.value

    def test_the_higher_score_wins(self):
        # the rules sheet, "end of game": the partnership with the higher score wins
        sheet = MatchSheet(seed=1)
        assert sheet.match.winner is Team.NS and "N–S wins the match" in sheet.summary.value

    def test_a_tie_is_a_drawn_match(self):
        # decision: a tie after the last deal is a drawn match
        drawn = next(s for s in range(200) if play_out_match(Match(s), "highest").is_drawn)  # found, not copied
        sheet = MatchSheet(seed=1 if drawn != 1 else 0)
        sheet.seed.value = str(drawn)
        assert sheet.match.is_drawn and "a drawn match" in sheet.summary.value

    def test_same_seed_same_match(self):
        # decision (quality bar): the seed decides everything
        sheet = MatchSheet(seed=4)
        again = play_out_match(Match(4), "highest")
        assert [d.notation for d in sheet.match.deals] == [d.notation for d in again.deals]
        sheet.rule.value = "lowest"
        lowest = play_out_match(Match(4), "lowest")
        assert [d.notation for d in sheet.match.deals] == [d.notation for d in lowest.deals]


def test_the_match_sheet_plays_either_match_the_reader_chooses():
    # issue 19 §2: five deals (the rules sheet, pagat.com) and first side to 5 points (trictrac.net, regles2jeux.fr),
    # taught as equals: the sheet plays the one chosen
    from aluette.widgets.scoring import MATCH_FORMATS, MatchSheet
    sheet = MatchSheet(seed=4)  # notebook 05's first-to-5 example: North-South reach 5 after six deals
    assert sheet.format.value == "deals" and len(sheet.match.deals) == 5
    sheet.format.value = "points"
    assert sheet.match.options.target_points == 5 and max(sheet.match.scores.values()) == 5
    assert len(sheet.match.deals) == 6 and "After 6 deals" in sheet.summary.value
    assert [label for label, _ in MATCH_FORMATS.values()] == ["five deals", "first side to 5 points"]
