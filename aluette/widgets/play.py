"""Widgets for the "Play" notebook: one trick at a time, and a whole deal stepped trick by trick.

Rules come from the engine (:class:`~aluette.Deal`, the rules sheet, "gameplay": the highest class wins and its player
leads next; the highest class played twice or more spoils the trick and its leader leads again). Nothing here decides a
trick.

* :class:`TrickPicker`: choose the leader and each seat's card; see the winner, or the spoiled trick, and who leads
  next. The trick is really played in a :class:`~aluette.Deal` built with :meth:`~aluette.Deal.from_hands`.
* :class:`TrickStepper`: a deal from a seed box, stepped with Next trick / Run to end / New deal. The cards are
  played by :func:`aluette.players.drivers.simple_move`, a deliberately trivial rule (each seat plays its highest card, or
  its lowest), not good play: the bots of :mod:`aluette.players.bots` play well. This is an omniscient teaching view: all
  four hands are shown.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Union

import ipywidgets as w

from ..cards import DECK, Card, CardLike
from ..deal import Deal, Phase, TrickRecord
# play_out and play_out_match stay importable from here for notebooks saved before they moved to aluette.players.drivers
from ..players.drivers import SIMPLE_RULES, play_out, play_out_match, simple_move  # noqa: F401
from ..errors import AluetteError, DuplicateCardError, UnknownCardError
from ..options import Options
from ..card_names import seat_name
from ..i18n import _
from ..pictures import view_html
from ..seats import SEATS, Seat
from .common import (SHORT_TEXT, LimitedCombobox, MessageArea, check_seed, friendly, limited_text, next_seed,
                     no_null_tooltips, seed_box)

__all__ = ["play_one_trick", "TrickPicker", "TrickStepper"]

_NO_CHANT = Options(chant=False)


def play_one_trick(leader: Union[Seat, str], cards: Mapping[Union[Seat, str], CardLike]) -> tuple[TrickRecord, Seat]:
    """Play one trick in the engine: ``leader`` leads, each seat plays its card of ``cards`` (a card per seat).

    The trick is played as the first trick of a :class:`Deal` built with :meth:`Deal.from_hands` (the leader sits at
    the dealer's left; the rest of each hand is filler that is never played), so the winner and the next leader are
    the engine's. Returns ``(record, next_leader)``: the :class:`TrickRecord` and the seat that leads the next trick
    (the winner; the same leader when the trick is spoiled).

    Raises:
        UnknownSeatError / UnknownCardError: a seat or card that is not one (the message names it).
        AluetteError: a seat without a card or given two (``"N"`` and ``"n"``), or a card given to two seats.
    """
    leader = Seat.parse(leader)
    # "N" and "n" both given: refused, else one of the two cards would be silently dropped
    chosen = {seat: Card.parse(card) for seat, card in Seat.parse_mapping(cards, "card", all_four=True).items()}
    seen: dict[Card, Seat] = {}
    for seat, card in chosen.items():
        if card in seen:
            raise DuplicateCardError(_("{card} is chosen twice ({first} and {second}): there is one of each card in "
                                       "the deck").format(card=card, first=seat_name(seen[card]),
                                                          second=seat_name(seat)))
        seen[card] = seat
    filler = iter(c for c in DECK if c not in seen)
    hands = {seat: [chosen[seat]] + [next(filler) for n in range(8)] for seat in SEATS}
    deal = Deal.from_hands(hands, dealer=leader.right, options=_NO_CHANT)
    record = None
    for seat in leader.clockwise_from():
        record = deal.play(seat, chosen[seat])
    return record, deal.leader


class TrickPicker(w.VBox):
    """Choose the leader and the four cards of a trick; see the winner or why the trick is spoiled, and who leads next.

    Controls (CSS classes for browser tests): ``leader`` dropdown (``aluette-play-leader``), ``card_boxes`` — one
    combobox per seat (``aluette-play-card`` and ``aluette-play-card-N``...), accepting any card text
    :meth:`Card.parse` reads; ``result`` (``aluette-play-trick-result``), ``message`` (``aluette-message``).
    Read-only: ``record`` (the last valid :class:`TrickRecord`) and ``next_leader``.
    Bad input (an unknown card, a card chosen twice, an empty box) shows a message naming it; the last valid trick
    stays shown and the widget keeps working.
    """

    def __init__(self, leader: Union[Seat, str] = Seat.N,
                 cards: Mapping[Union[Seat, str], str] | None = None):
        cards = {Seat.parse(s): c for s, c in (cards or {"N": "1O", "E": "12E", "S": "3C", "W": "1B"}).items()}
        self.leader = w.Dropdown(options=[(f"{s} ({seat_name(s)})", s.value) for s in SEATS],
                                 value=Seat.parse(leader).value, description=_("Leader"))
        self.leader.add_class("aluette-play-leader")
        codes = [c.code for c in DECK]
        self.card_boxes = {}
        for seat in SEATS:
            box = LimitedCombobox(limit=SHORT_TEXT, what=_("{seat}'s card").format(seat=seat_name(seat)),
                                  message=lambda: self.message,
                                  value=str(cards.get(seat, "")), options=codes, ensure_option=False,
                                  placeholder=_("e.g. 3O, king of swords"), description=seat_name(seat),
                                  continuous_update=True)  # the picture follows each keystroke (notebook 04)
            box.add_class("aluette-play-card")
            box.add_class(f"aluette-play-card-{seat}")
            self.card_boxes[seat] = box
        self.order = w.HTML()
        self.result = w.HTML()
        self.result.add_class("aluette-play-trick-result")
        self.message = MessageArea()
        self.record: TrickRecord | None = None
        self.next_leader: Seat | None = None
        self.leader.observe(self._update, names="value")
        for box in self.card_boxes.values():
            box.observe(self._update, names="value")
        super().__init__([self.leader, w.HBox([w.VBox(list(self.card_boxes.values()))]), self.order,
                          self.result, self.message])
        self.add_class("aluette-play-trick")
        self._update()
        no_null_tooltips(self)

    @friendly()
    def _update(self, change=None) -> None:
        leader = Seat.parse(self.leader.value)
        self.order.value = _("Play order: {order} (clockwise from the leader).").format(
            order=" → ".join(seat_name(s) for s in leader.clockwise_from()))
        cards = {}
        for seat, box in self.card_boxes.items():
            text = limited_text(box.value, SHORT_TEXT, _("{seat}'s card").format(seat=seat_name(seat))).strip()
            if not text:
                raise AluetteError(_("choose a card for {seat} (a code such as 3O or 12E, or a name)").format(
                    seat=seat_name(seat)))
            try:
                cards[seat] = Card.parse(text)
            except UnknownCardError as error:
                raise UnknownCardError(_("{seat}'s card: {error}").format(seat=seat_name(seat), error=error)) from None
        record, next_leader = play_one_trick(leader, cards)
        self.record, self.next_leader = record, next_leader
        if record.spoiled:
            after = _("The trick is spoiled: {seat} led it and leads again.").format(seat=seat_name(next_leader))
        else:
            after = _("{seat} wins the trick and leads next.").format(seat=seat_name(record.winner))
        self.result.value = (record._repr_html_() + f"<div>{escape(record.explain())}</div>"
                             f"<div><b>{escape(after)}</b></div>")
        self.message.clear()


class TrickStepper(w.VBox):
    """A whole deal from a seed, stepped trick by trick, played by the trivial rule of
    :func:`~aluette.players.drivers.simple_move`.

    Controls (CSS classes): ``seed`` (``aluette-play-seed``), ``dealer`` (``aluette-play-dealer``), ``rule``
    (``aluette-play-rule``), buttons ``next_button`` (``aluette-play-next``), ``run_button`` (``aluette-play-run``),
    ``new_button`` (``aluette-play-new``: the next seed). Views: ``table`` (all four hands and the trick so far,
    ``aluette-play-table``), ``last_trick`` (``aluette-play-last-trick``), ``counts`` (the running trick counts per
    seat, ``aluette-play-counts``), ``events`` (the deal's events as text, ``aluette-play-events``), ``message``.
    Changing the seed, the dealer or the rule starts that deal again from the beginning. The chant is declined
    (:func:`~aluette.players.drivers.simple_move`), so each seat plays the nine cards it was dealt. Read-only: ``deal``.

    Raises:
        AluetteError: an unknown ``rule``; ``seed`` outside 0 to 2**32-1 or not a whole number.
        UnknownSeatError: ``dealer`` is not a seat.
    """

    def __init__(self, seed: int = 1, dealer: Union[Seat, str] = Seat.N, rule: str = "highest"):
        if rule not in SIMPLE_RULES:
            raise AluetteError(f"unknown playing rule {rule!r}; known: {', '.join(SIMPLE_RULES)}")
        check_seed(seed)
        self.seed = seed_box(seed, "aluette-play-seed", self._restart, lambda: self.message)
        self.dealer = w.Dropdown(options=[(f"{s} ({seat_name(s)})", s.value) for s in SEATS],
                                 value=Seat.parse(dealer).value, description=_("Dealer"))
        self.dealer.add_class("aluette-play-dealer")
        self.rule = w.Dropdown(options=[(_(text), key) for key, text in SIMPLE_RULES.items()], value=rule,
                               description=_("Rule"), layout=w.Layout(width="max-content"))
        self.rule.add_class("aluette-play-rule")
        self.next_button = w.Button(description=_("Next trick"), icon="step-forward")
        self.next_button.add_class("aluette-play-next")
        self.run_button = w.Button(description=_("Run to end"), icon="fast-forward")
        self.run_button.add_class("aluette-play-run")
        self.new_button = w.Button(description=_("New deal"), icon="random", tooltip=_("deal the next seed"))
        self.new_button.add_class("aluette-play-new")
        self.table = w.HTML()
        self.table.add_class("aluette-play-table")
        self.last_trick = w.HTML()
        self.last_trick.add_class("aluette-play-last-trick")
        self.counts = w.HTML()
        self.counts.add_class("aluette-play-counts")
        self.events = w.HTML()
        self.events.add_class("aluette-play-events")
        self.message = MessageArea()
        self.deal: Deal = Deal.from_seed(seed, dealer=self.dealer.value)
        for control in (self.dealer, self.rule):
            control.observe(self._restart, names="value")
        self.next_button.on_click(self._next)
        self.run_button.on_click(self._run)
        self.new_button.on_click(self._new)
        super().__init__([
            w.HBox([self.seed, self.dealer, self.rule]),
            w.HBox([self.next_button, self.run_button, self.new_button]),
            self.message, self.counts, self.last_trick, self.table, self.events])
        self.add_class("aluette-play-deal")
        self._restart()
        no_null_tooltips(self)

    @friendly()
    def _restart(self, change=None) -> None:
        self.deal = Deal.from_seed(self.seed.seed_value, dealer=self.dealer.value)
        while self.deal.phase is not Phase.PLAY:  # the chant is declined: play can start
            self.deal.apply(simple_move(self.deal, self.rule.value))
        self.message.ok(_("Seed {seed}, dealer {dealer}: {rule}. Press Next trick.").format(
            seed=self.seed.seed_value, dealer=seat_name(Seat.parse(self.dealer.value)),
            rule=_(SIMPLE_RULES[self.rule.value])))
        self._show()

    @friendly()
    def _next(self, button=None) -> None:
        if self._refuse_if_over():
            return
        play_out(self.deal, self.rule.value, tricks=1)
        self.message.ok(self.deal.tricks[-1].explain())
        self._show()

    @friendly()
    def _run(self, button=None) -> None:
        if self._refuse_if_over():
            return
        play_out(self.deal, self.rule.value)
        self.message.ok(self.deal.result.reason)
        self._show()

    def _new(self, button=None) -> None:
        next_seed(self.seed)  # the observer deals it

    def _refuse_if_over(self) -> bool:
        if self.deal.is_over:
            self.message.error(_("The deal is over ({reason}) Press New deal or change the seed.").format(
                reason=self.deal.result.reason))
            return True
        return False

    def _show(self) -> None:
        deal = self.deal
        self.table.value = view_html(deal.view(None))
        self.last_trick.value = (deal.tricks[-1]._repr_html_() if deal.tricks
                                 else "<i>" + _("No trick played yet.") + "</i>")
        counts = deal.trick_counts
        cells = "".join(f"<td style='padding:0 8px'><b>{s}</b> {counts[s]}</td>" for s in SEATS)
        notation = deal.notation or "–"
        self.counts.value = ("<div>" + _("After {count} of 9 tricks (pagat notation {notation}), tricks won:").format(
            count=len(deal.tricks), notation=f"<code>{notation}</code>") + f"</div><table><tr>{cells}</tr></table>")
        if deal.tricks:
            self.counts.value += deal.tricks_table().reset_index().to_html(index=False)
        self.events.value = "<pre style='white-space:pre-wrap'>" + escape("\n".join(deal.events)) + "</pre>"
        over = deal.is_over
        self.next_button.disabled = over
        self.run_button.disabled = over

