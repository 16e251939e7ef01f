"""Golden playthroughs, as OpenSpiel keeps them: a few seeded deals and one match written as text, each seat's view
and the events each seat sees after every move, so that a change of a rule, of the narration or of what a seat may
see shows as one reviewable diff.

    .venv/bin/python -m tools.playthroughs               # check: exit 1 and print the diff if a file differs
    .venv/bin/python -m tools.playthroughs --regenerate  # write tests/playthroughs/*.txt again

``tests/test_playthroughs.py`` regenerates the texts in memory and diffs them against the files.

The games are played by the signalling :class:`~aluette.bots.HeuristicBot` at all four seats (no chance of its own),
on the first seed from 0 that has the property each playthrough is there for (chant agreed with signals, a surrender
accepted, a surrender refused; a match with all three): the property is stated, the seed is found, not copied.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Callable, Optional

from aluette import SEATS, Deal, HeuristicBot, Match, Options, RandomBot, Signal, SurrenderAnswer, SurrenderOffer
from aluette.moves import MordienneAnnouncement
from aluette.options import Rebour
from aluette.drivers import play_deal, play_match

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


def deal_text(deal: Deal, title: str) -> list[str]:
    """The playthrough of a finished ``deal``: replayed from its deck, the state after every move."""
    replay = Deal.from_seed(deal.seed, dealer=deal.dealer, options=deal.options) if deal.seed is not None \
        else Deal.from_deck(deal.deck, dealer=deal.dealer, options=deal.options)
    lines = [f"=== {title}", f"seed {deal.seed}, dealer {deal.dealer}, cut {deal.cut}, {deal.options!r}"]
    seen = {seat: 0 for seat in SEATS}

    def state(heading: str) -> None:
        lines.append(heading)
        lines.append(_table_line(replay))
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


def playthroughs() -> dict[str, str]:
    """``{file name: text}`` of every playthrough."""
    surrender = Options(surrender=True)
    deals = {
        "deal_chant_and_signals": (_bot_deal(Options()),
                                   lambda d: _chant_agreed(d) and _has(Signal)(d), "a chant agreed and a signal"),
        "deal_surrender_accepted": (_bot_deal(surrender, random=True), _has(SurrenderAnswer, lambda m: m.accept),
                                    "a surrender accepted, random bots"),
        "deal_surrender_refused": (_bot_deal(surrender, random=True),
                                   _has(SurrenderAnswer, lambda m: not m.accept), "a surrender refused, random bots"),
        "deal_rebour_announced": (_bot_deal(Options(rebour=Rebour.ONLY_ANNOUNCED), random=True),
                                  _has(MordienneAnnouncement, lambda m: m.announce),
                                  "a mordienne announced under pagat's Rebour variant, random bots"),
        "deal_no_chant_option": (_bot_deal(Options(chant=False, mordienne=False)), lambda d: d.is_over,
                                 "any finished deal"),
    }
    texts = {}
    for name, (make, wanted, what) in deals.items():
        deal = _first(make, wanted, what)
        texts[f"{name}.txt"] = "\n".join(deal_text(deal, f"{name} (first seed with {what})")) + "\n"

    def make_match(seed: int) -> Match:
        match = Match(seed, options=surrender)
        play_match(match, _bots())
        return match

    def full(match: Match) -> bool:
        deals_ = match.deals
        return (any(_chant_agreed(d) for d in deals_) and any(_has(Signal)(d) for d in deals_)
                and any(_has(SurrenderOffer, lambda m: m.offer)(d) for d in deals_))

    match = _first(make_match, full, "a match with a chant agreed, a signal and a surrender offered")
    lines = [f"=== match, seed {match.seed}, first dealer {match.deals[0].dealer}, {match.options!r} (first seed "
             f"with a chant agreed, a signal and a surrender offered)"]
    for number, deal in enumerate(match.deals, start=1):
        lines.extend(deal_text(deal, f"deal {number} of the match"))
        lines.append(f"scores after deal {number}: " + ", ".join(f"{t} {p}" for t, p in
                                                                   _scores_after(match, number).items()))
    lines.append(f"match over: {match.is_over}; winner {match.winner}")
    texts["match.txt"] = "\n".join(lines) + "\n"
    return texts


def _scores_after(match: Match, number: int) -> dict:
    totals: dict = {}
    for deal in match.deals[:number]:
        for team, points in deal.result.points.items():
            totals[team] = totals.get(team, 0) + points
    return totals


def differences(directory: Path = DIRECTORY) -> list[str]:
    """The unified diffs between the stored files and the texts made now (empty when they agree)."""
    diffs = []
    texts = playthroughs()
    stored = {path.name for path in directory.glob("*.txt")} if directory.exists() else set()
    for name in sorted(stored - set(texts)):
        diffs.append(f"--- {name}: stored but no longer made (remove it, or --regenerate)\n")
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
    for name, text in playthroughs().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", action="store_true", help="write tests/playthroughs/*.txt again")
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
