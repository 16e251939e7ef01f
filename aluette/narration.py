"""The sentences that tell a deal: each completed trick, each signal, and a deal's whole history as one seat may
see it (:attr:`View.events <aluette.records.View.events>`).

The rules themselves are elsewhere (who wins a trick: :func:`aluette.tricks.best_of`; the score and its reason:
:mod:`aluette.scoring`; who receives the stock: :func:`aluette.options.chant_recipients`); this module only words
them. What a seat may read follows the deal's secrecy: its own dealt hand, stock cards and discards, every public
answer and every card played, and only its own partnership's signals (decision ``signals-partner-only``, see
:mod:`aluette.deal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .moves import ChantAnswer, Discard, Play, Signal
from .options import chant_recipients
from .seats import Seat
from .signals import signal_for
from .tricks import strongest

if TYPE_CHECKING:
    from .deal import Deal
    from .records import SignalRecord, TrickRecord

__all__ = ["trick_sentence", "signal_sentence", "deal_events"]


def trick_sentence(record: TrickRecord) -> str:
    """One sentence: who won the trick with what, or why it was spoiled and who leads again. Each card carries its
    name after its code (``"E: 12E king of swords"``), so that a code whose suit letter is also a seat's (E for
    swords, *espadas*, and East) is never read as a second seat."""
    played = ", ".join(f"{s}: {c} {c.nickname or c.name}" for s, c in record.plays)
    if record.winner is None:
        tied = strongest(record.plays)
        names = " and ".join(f"{s}'s {c}" for s, c in tied)
        again = f"; {record.leader} leads again" if record.number < 9 else ", the last trick: nobody wins it"
        return f"Trick {record.number} ({played}): spoiled, {names} tie as {tied[0][1].class_name}{again}."
    card = record.card_of(record.winner)
    label = card.nickname or card.name
    then = " and leads next" if record.number < 9 else ""
    return f"Trick {record.number} ({played}): {record.winner} wins with {card} ({label}){then}."


def signal_sentence(record: SignalRecord) -> str:
    """``"S signals le Borgne (2 of coins): wink"``; for the aces, how many and how many times."""
    kind = signal_for(record.key)
    times = record.count
    what = f"{times} ace{'s' if times != 1 else ''}" if record.key == "aces" else kind.what
    gesture = kind.gesture.replace("once for each ace held", f"{times} time{'s' if times != 1 else ''}")
    return f"{record.seat} signals {what}: {gesture}"


def deal_events(deal: Deal, seat: Optional[Seat]) -> tuple[str, ...]:
    """The history of ``deal`` as sentences, as ``seat`` may see it (``None``: everything, for teaching): the deal
    and the cut, each dealt hand it may see, then every move with what followed it (the stock dealt after the
    chant, a completed trick, the result)."""
    dealer = deal.dealer

    def may_see(owner: Seat) -> bool:
        return seat is None or seat is owner

    cut = f", {dealer.right} cut {deal.cut} cards" if deal.cut else ""
    lines = [f"{dealer} deals{cut}; {dealer.left} sits at the dealer's left and leads first."]
    lines += [f"{s} is dealt {deal.dealt_hand(s)}." for s in dealer.left.clockwise_from() if may_see(s)]
    received = deal.stock_received
    signals = iter(r for r in deal.signals if seat is None or r.seat.team is seat.team)
    tricks = iter(deal.tricks)
    chants = plays = 0
    for move in deal.moves:
        if isinstance(move, Signal):
            if seat is None or move.seat.team is seat.team:
                lines.append(signal_sentence(next(signals)) + ".")
            continue
        lines.append(f"{move}.")
        if isinstance(move, ChantAnswer):
            chants += 1
            if chants == 4 and received:
                first, second = chant_recipients(dealer, deal.options)
                lines.append(f"All four agree: the stock goes alternately to {first} and {second}, six each.")
                lines += [f"{s} receives {' '.join(map(str, received[s]))} from the stock."
                          for s in (first, second) if may_see(s)]
            elif not move.agree:
                lines.append("The chant is off: the stock stays unused and unseen.")
        elif isinstance(move, Discard) and may_see(move.seat):
            lines.append(f"{move.seat} discarded {' '.join(map(str, move.cards))} face down.")
        elif isinstance(move, Play):
            plays += 1
            if plays % 4 == 0:
                lines.append(trick_sentence(next(tricks)))
    if deal.result is not None:
        lines.append(deal.result.reason)
    return tuple(lines)
