"""Golden playthroughs (as OpenSpiel keeps them): seeded deals and one match written as text under
``tests/playthroughs/`` — each state's legal moves, the public table and each seat's own view (hand, stock received,
discards, its partnership's signals) and the events each seat sees, after every move. Each file records its game
(seed, options, moves) and the check replays those moves (OpenSpiel's ``playthrough_test.py``), so a change to a bot
changes nothing here, and a change of a rule, of the narration or of what a seat may see fails with the diff. To
show a new game, ``.venv/bin/python -m tools.playthroughs --regenerate`` plays the bots again.

Rules the files show: the rules sheet, "setup" (the chant, the stock to the dealer's left and the dealer, six
discards), "gameplay", "scoring"; pagat.com (surrender; Guy Rebour's account); the rules sheet's signal table (only
the partner sees a signal: decision signals-partner-only).
"""

import re

import pytest

from aluette import DECK
from tools.playthroughs import DIRECTORY, differences, playthroughs


def test_the_playthroughs_are_unchanged():
    diffs = differences()
    assert not diffs, ("replaying the recorded moves gives other states than tests/playthroughs/ (a rule, the "
                       "narration or a view changed; if intended, review the diff and regenerate):\n"
                       + "".join(diffs)[:20000])


def test_the_check_plays_no_bot(monkeypatch):
    # the files are replayed from their records: a bot that changed (here, one that can no longer move) changes
    # nothing in the check
    from aluette.players import bots

    def broken(*args, **kwargs):
        raise AssertionError("a bot was asked to play during the check")
    monkeypatch.setattr(bots.HeuristicBot, "choose", broken)
    monkeypatch.setattr(bots.RandomBot, "choose", broken)
    assert differences() == []


def test_every_state_lists_its_legal_moves():
    # OpenSpiel's playthroughs list LegalActions() for every state; here one "legal" line per state, whose moves
    # are the engine's legal_moves() (the check replays them, so they are checked there)
    for name, text in playthroughs().items():
        lines = text.splitlines()
        states = [i for i, line in enumerate(lines) if line.startswith("-- ")]
        assert states, name
        for i in states:
            assert lines[i + 2].startswith("  legal"), (name, lines[i:i + 3])


def test_a_file_without_its_record_is_refused(tmp_path):
    (tmp_path / "match.txt").write_text("=== match\n-- dealt\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no 'record:' line"):
        differences(tmp_path)


def test_every_kind_of_move_is_in_the_files():
    # the golden files cover every kind of move: chant, surrender (accepted and refused), signals, a match
    text = "\n".join(playthroughs().values())
    for phrase in ("agrees to the chant", "declines the chant", "discards six cards", "offers to surrender",
                   "accepts the surrender", "refuses the surrender", " signals ", " plays ", "announces mordienne", "scores after deal 5"):
        assert phrase in text, phrase


def test_a_seat_line_never_shows_another_seats_hidden_cards():
    # quality bar: a player's view never contains another player's hidden cards. In the files, a seat's line holds
    # its own hand and what it received and discarded; nothing of the other seats' hands.
    codes = re.compile(r"\b(?:1[0-2]|[1-9])[OCBE]\b")
    for name, text in playthroughs().items():
        hands = {}
        for line in text.splitlines():
            match = re.match(r"  ([NESW]): hand ([^;]*)(.*)", line)
            if match:
                seat, hand, rest = match.groups()
                hands[seat] = set(codes.findall(hand))
                others = set(codes.findall(rest))
                foreign = re.findall(r"(?:received|discards) ([NESW]) ", rest)
                assert set(foreign) <= {seat}, (name, line)
                assert len(others) <= 12, (name, line)  # at most its own six received and six discarded
        assert hands and set().union(*hands.values()) <= {c.code for c in DECK}


def test_the_directory_holds_only_made_files():
    assert {p.name for p in DIRECTORY.glob("*.txt")} == set(playthroughs())
