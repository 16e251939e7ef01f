"""Widget for the chant notebook (03): agree or decline, the stock dealt to two players, and the discard of six.

Rule sources (all applied by :class:`aluette.Deal`, never here): the rules sheet, "setup", and pagat.com — every
player is asked, from the dealer's left; the chant happens only if all four agree (decision of this project: asking
stops at the first refusal); then the twelve stock cards go alternately to the dealer's left and the dealer (variant:
the dealer's partner, :class:`~aluette.options.ChantRecipients`), six each, and each discards six face down, keeping
nine. If anyone declines, the stock stays unused and unseen.

The reader sits at one seat and sees only what that seat may see (:meth:`aluette.Deal.view`): other hands, the other
recipient's cards and every discard are drawn as card backs and never reach the browser.
"""

from __future__ import annotations

from html import escape
from typing import Optional

import ipywidgets as w

from ..cards import Card, parse_cards
from ..chance import stock_steps
from ..deal import Deal, Phase
from ..errors import AluetteError
from ..options import ChantRecipients, Options
from ..pictures import back_svg, cards_html, round_table_html
from ..seats import SEATS, Seat
from ..card_names import seat_name
from ..decisions import badged
from ..i18n import N_, _, ngettext
from .common import (CARDS_TEXT, CardButton, LimitedText, MessageArea, SeedBox, card_size_control, card_style,
                     card_words, check_choice, check_seed, close_widgets, friendly, limited_text, next_seed,
                     no_null_tooltips, seed_box, styled)

__all__ = ["ChantDemo"]

_RECIPIENTS = [(N_("the dealer's left and the dealer (the rules sheet, pagat)"), ChantRecipients.LEFT_AND_DEALER),
               (N_("the dealer's left and the dealer's partner (variant)"), ChantRecipients.LEFT_AND_PARTNER)]


class ChantDemo(w.VBox):
    """One real deal from a seed, through the chant.

    Controls: seed, dealer, who receives the stock (:class:`~aluette.options.ChantRecipients`), the seat you sit
    at, a New deal button; four agree/decline toggles in asking order (the dealer's left first; only the seat being
    asked can answer, and asking stops at the first refusal, as the engine decides); when you receive six stock
    cards, a discard picker: click six of your fifteen card pictures (or type them) and press Discard; you choose
    first: the suggested discard (:meth:`Deal.suggested_discard <aluette.Deal.suggested_discard>`, keep the highest
    nine) is shown only when you ask for it ("Suggest: keep the highest nine", which also chooses it) or after your
    discard, beside yours; throwing away Monsieur, the highest card, gets a remark. The other seats answer with the
    toggles too; another recipient's discard is made for it by keeping its highest nine.

    Bad input (not six cards, a card you do not hold, an unknown card, an answer out of turn) shows a message and
    leaves the deal as it was. "New deal" moves to the next seed (after the largest, back to 0).

    Raises:
        AluetteError: ``seed`` outside 0 to 2**32-1 or not a whole number; unknown ``recipients``.
        UnknownSeatError: ``dealer`` or ``you`` is not a seat.

    Read-only for tests: :attr:`deal` (the engine's :class:`~aluette.Deal`), :attr:`you`.
    """

    def __init__(self, seed: int = 1, dealer: Seat = Seat.N, you: Optional[Seat] = None,
                 recipients: ChantRecipients = ChantRecipients.LEFT_AND_DEALER):
        super().__init__()
        dealer = Seat.parse(dealer)
        check_seed(seed)
        check_choice(recipients, ChantRecipients, "stock recipients")
        self._seed = seed_box(seed, "aluette-chant-seed", self._restart, lambda: self.message)
        self._dealer = w.Dropdown(options=[(f"{s} ({seat_name(s)})", s) for s in SEATS], value=dealer,
                                  description=_("Dealer"), layout=w.Layout(width="200px"))
        self._dealer.add_class("aluette-chant-dealer")
        self._you = w.Dropdown(options=[(f"{s} ({seat_name(s)})", s) for s in SEATS],
                               value=Seat.parse(you) if you is not None else dealer.left, description=_("You sit at"),
                               layout=w.Layout(width="220px"))
        self._you.add_class("aluette-chant-you")
        self._recipients = w.Dropdown(options=[(_(label), key) for label, key in _RECIPIENTS],
                                      value=ChantRecipients(recipients), description=_("Stock to"),
                                      layout=w.Layout(width="470px"))
        self._recipients.add_class("aluette-chant-recipients")
        self._new = w.Button(description=_("New deal"))
        self._new.add_class("aluette-chant-new")
        self._new.on_click(lambda _: next_seed(self._seed))
        for control in (self._dealer, self._you, self._recipients):
            control.observe(lambda change: self._restart(), names="value")

        self._answers = []
        self._answer_labels = []
        for k in range(4):
            toggle = w.ToggleButtons(options=[(_("agree"), True), (_("decline"), False)], value=None,
                                     style={"button_width": "80px"})
            toggle.add_class("aluette-chant-answer")
            toggle.add_class(f"aluette-chant-answer-{k + 1}")
            toggle.observe(lambda change, k=k: self._on_answer(k, change), names="value")
            self._answers.append(toggle)
            self._answer_labels.append(w.HTML(layout=w.Layout(width="330px")))

        self._picks = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self._count = w.HTML()
        self._count.add_class("aluette-chant-count")
        self._suggestion = w.HTML()
        self._suggestion.add_class("aluette-chant-suggestion")
        self._suggest = w.Button(description=_("Suggest: keep the highest nine"), layout=w.Layout(width="auto"),
                                 tooltip=_("show and choose the six lowest cards"))
        self._suggest.add_class("aluette-chant-suggest")
        self._suggest.on_click(lambda _: self._on_suggest())
        self._discard = w.Button(description=_("Discard these six"), button_style="primary",
                                 layout=w.Layout(width="auto"), tooltip=_("put the six chosen cards face down"))
        self._discard.add_class("aluette-chant-discard")
        self._discard.on_click(lambda _: self._on_discard_picked())
        self._typed = LimitedText(limit=CARDS_TEXT, what="the typed discard", message=lambda: self.message,
                                  placeholder=_("or type six card codes, separated by spaces"),
                                  layout=w.Layout(width="300px"))
        self._typed.add_class("aluette-chant-typed")
        self._typed_button = w.Button(description=_("Discard typed cards"), layout=w.Layout(width="auto"),
                                      tooltip=_("discard the six cards typed in the box"))
        self._typed_button.add_class("aluette-chant-discard-typed")
        self._typed_button.on_click(lambda _: self._on_discard_typed())
        self._picker = w.VBox([w.HTML(_("<b>Your discard:</b> click the six cards to put face down (click again "
                                        "to put one back).")), self._picks,
                               self._count, self._suggestion,
                               w.HBox([self._suggest, self._discard]), w.HBox([self._typed, self._typed_button])])
        self._picker.add_class("aluette-chant-picker")

        self._table = styled(w.HTML(), "aluette-chant-table")
        self._result = styled(w.HTML(), "aluette-chant-result")
        self._events = styled(w.HTML(), "aluette-chant-events")
        self.message = styled(MessageArea(), "aluette-chant-message")
        self._quiet = False
        self._chosen: set = set()
        self.size_control = card_size_control()
        self.children = [card_style(), w.HBox([self._seed, self._dealer, self._you, self._new]), self._recipients,
                         self.size_control,
                         w.HTML(_("<b>The chant:</b> each player is asked in turn, from the dealer's left.")),
                         *[w.HBox([label, toggle]) for label, toggle in zip(self._answer_labels, self._answers)],
                         self.message, self._result, self._picker, self._table, self._events]
        self.add_class("aluette-chant")
        self.add_class("aluette-sized")
        self._restart()
        no_null_tooltips(self)

    # ------------------------------------------------------------- read-only state and controls
    @property
    def deal(self) -> Deal:
        """The engine's deal (Python side only; the browser gets only what :attr:`you` may see)."""
        return self._deal

    @property
    def you(self) -> Seat:
        return self._you.value

    @property
    def asking_order(self) -> tuple[Seat, ...]:
        """The seats in the order they are asked: the dealer's left first."""
        return self._deal.dealer.left.clockwise_from()

    @property
    def answer_toggles(self) -> tuple[w.ToggleButtons, ...]:
        """The agree/decline toggles in asking order."""
        return tuple(self._answers)

    @property
    def pick_buttons(self) -> tuple[CardButton, ...]:
        """One card picture (a button: a click chooses the card or puts it back) per card of your hand while you have
        a discard to make (else empty)."""
        return tuple(self._picks.children)

    @property
    def chosen(self) -> tuple:
        """The cards currently chosen for the discard, high to low."""
        return tuple(c for c in self._pick_cards if c in self._chosen)

    def pick(self, card) -> None:
        """Choose ``card`` for your discard, or put it back (as clicking its picture)."""
        self._on_pick(Card.parse(card))

    @property
    def seed(self) -> SeedBox:
        """The seed box (``value``: its text; ``seed_value``: the seed dealt)."""
        return self._seed

    @property
    def dealer(self) -> w.Dropdown:
        return self._dealer

    @property
    def seat(self) -> w.Dropdown:
        """The "You sit at" control."""
        return self._you

    @property
    def recipients(self) -> w.Dropdown:
        return self._recipients

    @property
    def new_button(self) -> w.Button:
        return self._new

    @property
    def discard_button(self) -> w.Button:
        return self._discard

    @property
    def suggest_button(self) -> w.Button:
        return self._suggest

    @property
    def typed(self) -> w.Text:
        return self._typed

    @property
    def typed_button(self) -> w.Button:
        return self._typed_button

    @property
    def picker(self) -> w.VBox:
        """The discard picker (shown only while you have a discard to make)."""
        return self._picker

    @property
    def table(self) -> w.HTML:
        return self._table

    @property
    def result(self) -> w.HTML:
        return self._result

    @property
    def events(self) -> w.HTML:
        return self._events

    # ------------------------------------------------------------- callbacks
    def _restart(self) -> None:
        options = Options(chant_recipients=self._recipients.value)
        self._deal = Deal.from_seed(self._seed.seed_value, dealer=self._dealer.value, options=options)
        self._pick_cards: tuple = ()
        self._chosen = set()
        self._quiet = True
        try:
            for toggle in self._answers:
                toggle.value = None
        finally:
            self._quiet = False
        self._typed.value = ""
        self.message.clear()
        self._render()

    def _on_answer(self, k: int, change) -> None:
        if not self._quiet and change["new"] is not None:
            self._answer(k, change["new"])

    @friendly()
    def _answer(self, k: int, agree: bool) -> None:
        try:
            self._deal.answer_chant(self.asking_order[k], agree)
        except AluetteError:
            self._quiet = True
            try:  # show what the engine recorded for that seat (None if it has not answered)
                self._answers[k].value = dict(self._deal.view(None).chant_answers).get(self.asking_order[k])
            finally:
                self._quiet = False
            raise
        self.message.clear()
        self._others_discard()
        self._render()

    def _others_discard(self) -> None:
        # a recipient other than you keeps its highest nine (a simple player, not a rule)
        deal = self._deal
        while deal.phase is Phase.DISCARD and deal.to_move is not self.you:
            deal.discard(deal.to_move, deal.suggested_discard(deal.to_move))

    @friendly()
    def _discard_cards(self, cards) -> None:
        suggested = self._deal.suggested_discard(self.you)
        self._deal.discard(self.you, cards)
        cards = parse_cards(cards)
        self._typed.value = ""
        text = _("You discarded {cards} face down; you hold nine cards again.").format(
            cards=" ".join(map(str, cards)))
        if set(cards) == set(suggested):
            text += _(" That is the suggested discard: you kept your highest nine.")
        else:
            text += _(" Keeping the highest nine would have discarded {cards}.").format(
                cards=" ".join(map(str, suggested)))
        monsieur = Card.parse("3O")
        if monsieur in cards:
            text += _(" You threw away Monsieur, the highest card of the game: it would have won any trick it was "
                      "played to. Keep it next time!")
        self.message.ok(text)
        self._others_discard()
        self._render()

    def _on_discard_picked(self) -> None:
        self._discard_cards(self.chosen)

    @friendly()
    def _on_discard_typed(self) -> None:
        typed = limited_text(self._typed.value, CARDS_TEXT, "the typed discard")
        if not typed.strip():
            raise AluetteError(_("type six card codes first, separated by spaces (e.g. 4O 5C 6B 7E 8O 10C)"))
        self._discard_cards(parse_cards(typed))

    @friendly()
    def _on_suggest(self) -> None:
        lowest = self._deal.suggested_discard(self.you)
        self._chosen = set(lowest)
        self._suggestion.value = cards_html(lowest, width=36, caption=_("Keeping the highest nine means "
                                                                        "discarding these six (now chosen):"))
        self._show_picks()

    def _on_pick(self, card: Card) -> None:
        if card not in self._pick_cards:
            self.message.error(_("{card} is not in your hand now.").format(card=card_words(card)))
            return
        self._chosen.symmetric_difference_update({card})
        self._show_picks()

    def _show_picks(self) -> None:
        for card, button in zip(self._pick_cards, self._picks.children):
            button.show(card, _("choose it for your discard, or put it back"), selected=card in self._chosen)
        self._count.value = _("{count} of 6 chosen: {cards}").format(
            count=len(self.chosen), cards=" ".join(map(str, self.chosen)) or "—")

    # ------------------------------------------------------------- drawing (only what `you` may see)
    def _render(self) -> None:
        deal, you = self._deal, self.you
        view = deal.view(you)
        first, second = deal.chant_recipients()
        answered = dict(view.chant_answers)
        for k, seat in enumerate(self.asking_order):
            roles = [r for r, who in ((_("dealer's left"), deal.dealer.left), (_("dealer"), deal.dealer),
                                      (_("you"), you)) if seat == who]
            if seat in answered:
                state = _("agrees") if answered[seat] else _("declines")
            elif view.phase is Phase.CHANT and view.to_move == seat:
                state = _("your turn to answer") if seat == you else _("asked now")
            elif view.chant_agreed is False:
                state = _("not asked: the chant is already off")
            else:
                state = _("waits to be asked")
            label = f"{seat} ({', '.join(roles)})" if roles else str(seat)
            self._answer_labels[k].value = _("<b>{seat}</b>: {state}").format(seat=escape(label), state=state)
            self._answers[k].disabled = not (view.phase is Phase.CHANT and view.to_move == seat)

        # the variant gives six to each; dealing them alternately is a decision of the project, marked
        how = ("" if second is deal.dealer else f" ({escape(badged('chant-variant-alternate'))})")
        if view.chant_agreed is None:
            self._result.value = _("If all four agree, the twelve stock cards go alternately to {first} and "
                                   "{second}, six each{how}; each then discards six face down.").format(
                first=first, second=second, how=how)
        elif view.chant_agreed is False:
            decliner = next(s for s, a in view.chant_answers if not a)
            self._result.value = _("<b>{seat} declines, so the chant is off.</b> The stock stays unused and unseen, "
                                   "every hand keeps its nine cards, and {left} (the dealer's left) leads the first "
                                   "trick.").format(seat=decliner, left=deal.dealer.left)
        elif view.phase is Phase.DISCARD:
            self._result.value = _("<b>All four agree.</b> The stock went alternately to {first} and {second}{how}; "
                                   "{seat} must now discard six.").format(first=first, second=second, how=how,
                                                                           seat=deal.to_move)
        else:
            self._result.value = _("<b>All four agreed; {first} and {second} each took six and discarded six face "
                                   "down.</b> Each holds nine again; the discards stay out of this deal. {leader} "
                                   "leads the first trick.").format(first=first, second=second, leader=deal.leader)

        picking = view.phase is Phase.DISCARD and view.to_move == you
        self._picker.layout.display = None if picking else "none"
        if picking:
            hand = view.hand
            if tuple(hand) != self._pick_cards:
                self._pick_cards = tuple(hand)
                self._chosen = set()
                self._suggestion.value = ""  # you choose first; the suggestion only when asked
                self._replace_picks([CardButton(self._on_pick, "aluette-chant-pick") for card in hand])
            self._show_picks()
        else:
            self._pick_cards = ()
            self._chosen = set()
            self._replace_picks(())
            self._suggestion.value = ""
            self._count.value = ""

        cells = {}
        for seat in SEATS:
            role = _(" — dealer") if seat == deal.dealer else ""
            count = view.hand_sizes[seat]
            held = ngettext("{count} card", "{count} cards", count).format(count=count)
            yours = _(" — you") if seat == you else ""
            head = f"<div><b>{seat}</b>{role}{yours} ({held})</div>"
            if seat in view.hands:
                body = cards_html(view.hands[seat], width=32)
            else:
                body = "".join(back_svg(18) for card in range(view.hand_sizes[seat]))
            discarded = view.discards.get(seat)
            if discarded:
                body += cards_html(discarded, width=22, caption=_("your discard, face down"))
            elif seat in (first, second) and view.chant_agreed and seat not in view.hands:
                body += "<div><i>" + _("took six from the stock") + "</i></div>"
            cells[seat] = head + body
        self._table.value = round_table_html(cells, centre=self._stock_html(view, first, second),
                                             css_class="aluette-table aluette-chant-seats")
        self._events.value = ("<details><summary>" + _("What happened (as you saw it)") + "</summary><ul>"
                              + "".join(f"<li>{escape(e)}</li>" for e in view.events) + "</ul></details>")

    def _replace_picks(self, buttons) -> None:
        # the old buttons are closed: alive, they would keep a hand's cards in the browser after a change of seat
        old = self._picks.children
        self._picks.children = tuple(buttons)
        close_widgets(old)

    def _stock_html(self, view, first: Seat, second: Seat) -> str:
        if not view.chant_agreed:
            note = _("unused and unseen") if view.chant_agreed is False else _("face down")
            return ("<div>" + _("<b>The stock</b> (12 cards, {note})").format(note=note) + "</div>"
                    + "".join(back_svg(16) for card in range(12)))
        # the stock as dealt, card by card; only your own cards are drawn face up
        mine = set(view.stock_received.get(view.seat, ()))
        cells = []
        for number, (seat, card) in enumerate(stock_steps(self._deal.stock, first, second), start=1):
            face = cards_html([card], width=26) if card in mine else back_svg(26)
            cells.append(f'<div style="display:inline-block;text-align:center;margin:1px">{face}'
                         f'<div style="font-size:80%">{number}→{seat}</div></div>')
        return "<div>" + _("<b>The stock, dealt alternately</b>") + "</div>" + "".join(cells)
