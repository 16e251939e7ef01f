"""Golden playthroughs, as OpenSpiel keeps them: a few seeded deals and one match written as text, each state's
legal moves, each seat's view and the events each seat sees after every move, so that a change of a rule, of the
narration or of what a seat may see shows as one reviewable diff.

Each file records its game (a ``record:`` line: the deal's or the match's saved JSON, seed, options and every move),
and the check replays those moves: a change to a bot changes no file and fails no test, and a change of the rules
shows as a diff of the states, not as a new game (OpenSpiel's ``playthrough_test.py`` replays its recorded actions
the same way).

    .venv/bin/python -m tools.playthroughs               # check: replay each file's moves; exit 1 and print the diff
    .venv/bin/python -m tools.playthroughs --regenerate  # play the bots again and write tests/playthroughs/*.txt

``tests/test_playthroughs.py`` runs the check. Only ``--regenerate`` plays bots: the signalling
:class:`~aluette.players.bots.HeuristicBot` at all four seats (no chance of its own), or seeded random bots, on the first seed
from 0 that has the property each playthrough is there for (chant agreed with signals, a surrender accepted, a
surrender refused, a mordienne announced; a match with all three): the property is stated, the seed is found, not
copied. Regenerate when a playthrough should show something new, not to follow a bot's change.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Callable, Optional

import json
from math import comb

from aluette import SEATS, Deal, HeuristicBot, Match, Options, Phase, RandomBot, Signal, SurrenderAnswer, SurrenderOffer
from aluette.moves import MordienneAnnouncement
from aluette.options import Rebour
from aluette.players.drivers import play_deal, play_match

DIRECTORY = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
SEARCH = 300  # seeds tried for each property


def _bots(seed: Optional[int] = None) -> dict:
    """The signalling heuristic bot at every seat; with a ``seed``, seeded random bots (they offer, accept and
    refuse a surrender, which the heuristic bots of one seed rarely all do)."""
    if seed is None:
        return {seat: HeuristicBot(signals=True) for seat in SEATS}
    return {seat: RandomBot(4 * seed + i) for i, seat in enumerate(SEATS)}


def _cards(cards) -> str:
    return " ".join(c.code for c in cards) or "-"


def _seat_line(deal: Deal, seat) -> str:
    """What ``seat``'s view holds that the other seats' views do not: its hand, stock received, discards, and the
    signals of its partnership."""
    view = deal.view(seat)
    parts = [f"hand {_cards(view.hand)}"]
    if view.stock_received:
        parts.append("received " + ", ".join(f"{s} {_cards(c)}" for s, c in view.stock_received.items()))
    if view.discards:
        parts.append("discards " + ", ".join(f"{s} {_cards(c)}" for s, c in view.discards.items()))
    if view.signals:
        parts.append("signals " + ", ".join(f"{r.seat} {r.key}" for r in view.signals))
    return f"  {seat}: " + "; ".join(parts)


def _table_line(deal: Deal) -> str:
    """What every seat's view shows alike (checked: the four views agree on it)."""
    views = [deal.view(seat) for seat in SEATS]
    shared = {(v.phase, v.to_move, v.trick, v.tricks, tuple(v.trick_counts.items()), tuple(v.hand_sizes.items()),
               v.chant_answers, v.surrender_spoken) for v in views}
    if len(shared) != 1:
        raise AssertionError("the four views disagree on the public state")
    view = views[0]
    to_move = f", {view.to_move} to move" if view.to_move else ""
    trick = ", ".join(f"{s} {c}" for s, c in view.trick) or "-"
    counts = " ".join(f"{s}{n}" for s, n in view.trick_counts.items())
    sizes = " ".join(f"{s}{n}" for s, n in view.hand_sizes.items())
    return f"  table: {view.phase.value}{to_move}; trick {trick}; tricks {deal.notation or '-'}; won {counts}; " \
           f"held {sizes}"


def _move_text(move) -> str:
    """A move in its JSON words, ``play E 3O``, ``chant N true``."""
    return " ".join(json.dumps(part) if not isinstance(part, str) else part for part in move.to_json())


def _legal_line(deal: Deal) -> str:
    """The legal moves of the state (OpenSpiel's ``LegalActions``): every one, except the 5,005 discards of the
    discard phase, which are counted. Signals, private to a seat, are not listed."""
    if deal.phase is Phase.OVER:
        return "  legal: -"
    if deal.phase is Phase.DISCARD:
        return f"  legal {deal.to_move}: {comb(15, 6)} discards (six of its fifteen cards)"
    return f"  legal {deal.to_move}: " + ", ".join(_move_text(m) for m in deal.legal_moves())


def deal_text(deal: Deal, title: str) -> list[str]:
    """The playthrough of a finished ``deal``: replayed from its deck, the state after every move."""
    replay = Deal.from_seed(deal.seed, dealer=deal.dealer, options=deal.options) if deal.seed is not None \
        else Deal.from_deck(deal.deck, dealer=deal.dealer, options=deal.options)
    lines = [f"=== {title}", f"seed {deal.seed}, dealer {deal.dealer}, cut {deal.cut}, {deal.options!r}"]
    seen = {seat: 0 for seat in SEATS}

    def state(heading: str) -> None:
        lines.append(heading)
        lines.append(_table_line(replay))
        lines.append(_legal_line(replay))
        for seat in SEATS:
            lines.append(_seat_line(replay, seat))
        new = {seat: replay.view(seat).events[seen[seat]:] for seat in SEATS}
        if len(set(new.values())) == 1:
            lines.extend(f"  events all: {e}" for e in new[SEATS[0]])
        else:
            for seat in SEATS:
                lines.extend(f"  events {seat}: {e}" for e in new[seat])
        for seat in SEATS:
            seen[seat] += len(new[seat])

    state("-- dealt")
    for number, move in enumerate(deal.moves, start=1):
        replay.apply(move)
        state(f"-- move {number}: {move}")
    if replay.to_json() != deal.to_json():
        raise AssertionError("the replay differs from the deal")
    lines.append(f"result: {replay.result.reason}" if replay.result else "result: none")
    return lines


def _first(make: Callable[[int], object], wanted: Callable[[object], bool], what: str):
    for seed in range(SEARCH):
        game = make(seed)
        if wanted(game):
            return game
    raise AssertionError(f"no seed below {SEARCH} gives {what}")


def _bot_deal(options: Options, random: bool = False) -> Callable[[int], Deal]:
    def make(seed: int) -> Deal:
        deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=options)
        play_deal(deal, _bots(seed if random else None))
        return deal
    return make


def _has(kind, value=None) -> Callable[[Deal], bool]:
    def test(deal: Deal) -> bool:
        return any(isinstance(m, kind) and (value is None or value(m)) for m in deal.moves)
    return test


def _chant_agreed(deal: Deal) -> bool:
    return deal.chant_agreed is True


#: The deals kept, by file name: (options, random bots?, the property looked for, its words).
DEALS = {
    "deal_chant_and_signals": (Options(), False, lambda d: _chant_agreed(d) and _has(Signal)(d),
                               "a chant agreed and a signal"),
    "deal_surrender_accepted": (Options(surrender=True), True, _has(SurrenderAnswer, lambda m: m.accept),
                                "a surrender accepted, random bots"),
    "deal_surrender_refused": (Options(surrender=True), True, _has(SurrenderAnswer, lambda m: not m.accept),
                               "a surrender refused, random bots"),
    "deal_rebour_announced": (Options(rebour=Rebour.ONLY_ANNOUNCED), True,
                              _has(MordienneAnnouncement, lambda m: m.announce),
                              "a mordienne announced under Guy Rebour's account (second form), random bots"),
    "deal_no_chant_option": (Options(chant=False, mordienne=False), False, lambda d: d.is_over, "any finished deal"),
}
MATCH_WHAT = "a chant agreed, a signal and a surrender offered"


def _record_line(data: dict) -> str:
    return "record: " + json.dumps(data, separators=(",", ":"))


def deal_file(name: str, deal: Deal) -> str:
    """The playthrough file of ``deal``: its title, its record and every state."""
    lines = deal_text(deal, f"{name} (first seed with {DEALS[name][3]})")
    return "\n".join([*lines[:2], _record_line(deal.to_dict()), *lines[2:]]) + "\n"


def match_file(match: Match) -> str:
    """The playthrough file of ``match``: its title, its record, every deal's states and the scores."""
    lines = [f"=== match, seed {match.seed}, first dealer {match.deals[0].dealer}, {match.options!r} (first seed "
             f"with {MATCH_WHAT})", _record_line(match.to_dict())]
    for number, deal in enumerate(match.deals, start=1):
        lines.extend(deal_text(deal, f"deal {number} of the match"))
        lines.append(f"scores after deal {number}: " + ", ".join(f"{t} {p}" for t, p in
                                                                   _scores_after(match, number).items()))
    lines.append(f"match over: {match.is_over}; winner {match.winner}")
    return "\n".join(lines) + "\n"


def played() -> dict[str, str]:
    """``{file name: text}`` of every playthrough, played by the bots on the first seed with each property: what
    ``--regenerate`` writes."""
    texts = {}
    for name, (options, random, wanted, what) in DEALS.items():
        deal = _first(_bot_deal(options, random=random), wanted, what)
        texts[f"{name}.txt"] = deal_file(name, deal)

    def make_match(seed: int) -> Match:
        match = Match(seed, options=Options(surrender=True))
        play_match(match, _bots())
        return match

    def full(match: Match) -> bool:
        deals_ = match.deals
        return (any(_chant_agreed(d) for d in deals_) and any(_has(Signal)(d) for d in deals_)
                and any(_has(SurrenderOffer, lambda m: m.offer)(d) for d in deals_))

    texts["match.txt"] = match_file(_first(make_match, full, MATCH_WHAT))
    return texts


def recorded(text: str) -> dict:
    """The saved game on a file's ``record:`` line.

    Raises:
        ValueError: the file has no record line (written before records were kept: ``--regenerate``).
    """
    for line in text.splitlines()[:3]:
        if line.startswith("record: "):
            return json.loads(line[len("record: "):])
    raise ValueError("no 'record:' line among the first three: regenerate the file with --regenerate")


def replayed(directory: Path = DIRECTORY) -> dict[str, str]:
    """``{file name: text}`` made by replaying the moves each stored file records (no bot plays): what the check
    compares with the files. The files expected are those :data:`DEALS` and the match name."""
    texts = {}
    for name in [*DEALS, "match"]:
        path = directory / f"{name}.txt"
        if not path.exists():
            continue
        data = recorded(path.read_text(encoding="utf-8"))
        texts[path.name] = match_file(Match.from_dict(data)) if name == "match" else deal_file(name,
                                                                                                Deal.from_dict(data))
    return texts


def playthroughs(directory: Path = DIRECTORY) -> dict[str, str]:
    """``{file name: text}`` of every playthrough, replayed from the stored files' records."""
    return replayed(directory)


def _scores_after(match: Match, number: int) -> dict:
    totals: dict = {}
    for deal in match.deals[:number]:
        for team, points in deal.result.points.items():
            totals[team] = totals.get(team, 0) + points
    return totals


def differences(directory: Path = DIRECTORY) -> list[str]:
    """The unified diffs between the stored files and the texts made now (empty when they agree)."""
    diffs = []
    texts = replayed(directory)
    stored = {path.name for path in directory.glob("*.txt")} if directory.exists() else set()
    expected = {f"{name}.txt" for name in [*DEALS, "match"]}
    for name in sorted(stored - expected):
        diffs.append(f"--- {name}: stored but no longer made (remove it, or --regenerate)\n")
    for name in sorted(expected - stored):
        diffs.append(f"--- {name}: missing (--regenerate plays the bots and writes it)\n")
    for name, text in texts.items():
        path = directory / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old != text:
            diffs.append("".join(difflib.unified_diff(old.splitlines(keepends=True), text.splitlines(keepends=True),
                                                      f"stored/{name}", f"made now/{name}")))
    return diffs


def regenerate(directory: Path = DIRECTORY) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in played().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", action="store_true",
                        help="play the bots again on the first seed with each property and write tests/playthroughs/*.txt")
    args = parser.parse_args(argv)
    if args.regenerate:
        for path in regenerate():
            print(f"wrote {path}")
        return 0
    diffs = differences()
    sys.stdout.write("".join(diffs) or "the playthroughs agree with tests/playthroughs/\n")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
