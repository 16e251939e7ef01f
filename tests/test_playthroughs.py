"""Golden playthroughs (as OpenSpiel keeps them): seeded deals and one match written as text under
``tests/playthroughs/`` — the public table and each seat's own view (hand, stock received, discards, its
partnership's signals) and the events each seat sees, after every move. A change of a rule, of the narration or of
what a seat may see fails here with the diff; if the change is intended, review the diff and run
``.venv/bin/python -m tools.playthroughs --regenerate``.

Rules the files show: seeds, "setup" (the chant, the stock to the dealer's left and the dealer, six discards),
"gameplay", "scoring"; pagat.com (surrender); the seeds' signal table (only the partner sees a signal).
"""

import re

from aluette import DECK
from tools.playthroughs import DIRECTORY, differences, playthroughs


def test_the_playthroughs_are_unchanged():
    diffs = differences()
    assert not diffs, ("the playthroughs differ from tests/playthroughs/ (if intended, run "
                       "`.venv/bin/python -m tools.playthroughs --regenerate`):\n" + "".join(diffs)[:20000])


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
