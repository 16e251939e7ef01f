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

from .card_names import card_name, class_name, seat_name
from .decisions import badged
from .i18n import _, ngettext
from .moves import ChantAnswer, Discard, Play, Signal, move_sentence
from .options import chant_recipients
from .seats import Seat, may_see
from .signals import seen_by, signal_for
from .tricks import strongest

if TYPE_CHECKING:
    from .deal import Deal
    from .records import SignalRecord, TrickRecord

__all__ = ["trick_sentence", "trick_reason", "signal_sentence", "signal_words", "move_sentence", "deal_events"]


def trick_sentence(record: TrickRecord) -> str:
    """One sentence: who won the trick with what, or why it was spoiled and who leads again. Each card carries its
    name after its code (``"E: 12E king of swords"``), so that a code whose suit letter is also a seat's (E for
    swords, *espadas*, and East) is never read as a second seat."""
    # TRANSLATORS: a card of a trick: its seat, its code and its name ("E: 12E king of swords")
    played = ", ".join(_("{seat}: {code} {name}").format(seat=s, code=c, name=c.nickname or card_name(c))
                       for s, c in record.plays)
    if record.winner is None:
        tied = strongest(record.plays)
        # TRANSLATORS: a card of a spoiled trick's tie: {seat}'s {card} ("E's 1O")
        names = _(" and ").join(_("{seat}'s {card}").format(seat=s, card=c) for s, c in tied)
        again = (_("; {seat} leads again").format(seat=record.leader) if record.number < 9
                 else _(", the last trick: nobody wins it"))
        # TRANSLATORS: a spoiled trick, « pli pourri »: {names} are the tied cards, {rank} their rank ("aces")
        return _("Trick {number} ({played}): spoiled, {names} tie as {rank}{again}.").format(
            number=record.number, played=played, names=names, rank=class_name(tied[0][1]), again=again)
    card = record.card_of(record.winner)
    label = card.nickname or card_name(card)
    if record.number < 9:
        return _("Trick {number} ({played}): {seat} wins with {card} ({name}) and leads next.").format(
            number=record.number, played=played, seat=record.winner, card=card, name=label)
    return _("Trick {number} ({played}): {seat} wins with {card} ({name}).").format(
        number=record.number, played=played, seat=record.winner, card=card, name=label)




def trick_reason(record: TrickRecord) -> str:
    """A completed trick's outcome in a few words, to show beside it as it completes: ``"West wins with la Vache"``,
    ``"East wins with the 5 of coins"``, ``"spoiled: two aces tie"`` (the long form, with every card:
    :func:`trick_sentence`)."""
    if record.winner is None:
        tied = strongest(record.plays)
        how_many = {2: _("two"), 3: _("three"), 4: _("four")}
        # TRANSLATORS: a spoiled trick (« pli pourri »): "spoiled: two aces tie"
        return _("spoiled: {count} {rank} tie").format(count=how_many.get(len(tied), len(tied)),
                                                       rank=class_name(tied[0][1]))
    card = record.card_of(record.winner)
    return _("{seat} wins with {card}").format(seat=seat_name(record.winner),
                                               card=card.nickname or card_name(card, article=True))


def _stock_sentence(deal: Deal, first: Seat, second: Seat) -> str:
    """Who receives the stock: alternately the dealer's left and the dealer (the rules sheet, pagat.com), or, in the
    variant, six to the dealer's left and six to the dealer's partner, dealt alternately as the engine does it
    (decision ``chant-variant-alternate``, marked with its badge)."""
    if second is deal.dealer:
        return _("All four agree: the stock goes alternately to {first} and {second}, six each.").format(
            first=first, second=second)
    return _("All four agree: the stock goes six to {first} (the dealer's left) and six to {second} (the dealer's "
             "partner), dealt alternately ({badge}).").format(first=first, second=second,
                                                              badge=badged('chant-variant-alternate'))


def signal_words(record: SignalRecord) -> str:
    """What a signal says and its gesture, ``"le Borgne (2 of coins): wink"``; for the aces, how many and how many
    times (``"2 aces: open the mouth 2 times"``); in the page's language."""
    kind = signal_for(record.key)
    times = record.count
    if record.key == "aces":
        return ngettext("{count} ace: open the mouth {count} time", "{count} aces: open the mouth {count} times",
                        times).format(count=times)
    return _("{what}: {gesture}").format(what=_(kind.what), gesture=_(kind.gesture))


def signal_sentence(record: SignalRecord) -> str:
    """``"S signals le Borgne (2 of coins): wink"``; for the aces, how many and how many times."""
    return _("{seat} signals {signal}").format(seat=record.seat, signal=signal_words(record))


def deal_events(deal: Deal, seat: Optional[Seat]) -> tuple[str, ...]:
    """The history of ``deal`` as sentences, as ``seat`` may see it (``None``: everything, for teaching): the deal
    and the cut, each dealt hand it may see, then every move with what followed it (the stock dealt after the
    chant, a completed trick, the result)."""
    dealer = deal.dealer

    cut = _(", {seat} cut {count} cards").format(seat=dealer.right, count=deal.cut) if deal.cut else ""
    lines = [_("{dealer} deals{cut}; {left} sits at the dealer's left and leads first.").format(
        dealer=dealer, cut=cut, left=dealer.left)]
    lines += [_("{seat} is dealt {hand}.").format(seat=s, hand=deal.dealt_hand(s))
              for s in dealer.left.clockwise_from() if may_see(seat, s)]
    received = deal.stock_received
    signals = iter(r for r in deal.signals if seen_by(r.seat, seat))
    tricks = iter(deal.tricks)
    chants = plays = 0
    for move in deal.moves:
        if isinstance(move, Signal):
            if seen_by(move.seat, seat):
                lines.append(signal_sentence(next(signals)) + ".")
            continue
        lines.append(move_sentence(move) + ".")
        if isinstance(move, ChantAnswer):
            chants += 1
            if chants == 4 and received:
                first, second = chant_recipients(dealer, deal.options)
                lines.append(_stock_sentence(deal, first, second))
                lines += [_("{seat} receives {cards} from the stock.").format(
                    seat=s, cards=' '.join(map(str, received[s]))) for s in (first, second) if may_see(seat, s)]
            elif not move.agree:
                lines.append(_("The chant is off: the stock stays unused and unseen."))
        elif isinstance(move, Discard) and may_see(seat, move.seat):
            lines.append(_("{seat} discarded {cards} face down.").format(
                seat=move.seat, cards=' '.join(map(str, move.cards))))
        elif isinstance(move, Play):
            plays += 1
            if plays % 4 == 0:
                lines.append(trick_sentence(next(tricks)))
    if deal.result is not None:
        lines.append(deal.result.reason)
    return tuple(lines)
