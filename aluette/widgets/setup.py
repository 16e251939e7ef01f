"""Widgets for the setup notebook (02): the partnership draw and the deal, stepped card by card.

Rule sources (all decided by the engine, never here): :func:`aluette.partnership_draw` (the rules sheet, "setup"; pagat.com;
decisions of this project: the first name deals the face-up cards, Madame's holder sits at N and deals first) and
:mod:`aluette.chance` (the dealer shuffles, the dealer's right cuts, nine cards each in threes from the dealer's left;
twelve left over). Everything here is a teaching view: the draw is face up anyway, and the deal is shown face up so
the reader can follow each card.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Optional, Sequence

import ipywidgets as w

from ..cards import Card
from ..chance import cut_deck, deal_steps, shuffled_deck
from ..draw import DrawResult, partnership_draw
from ..pictures import cards_html, round_table_html
from ..seats import SEATS, Seat, Team
from ..errors import AluetteError
from ..card_names import seat_name
from ..i18n import _, ngettext
from .common import (SHORT_TEXT, LimitedText, MessageArea, SeedBox, card_deck_control, card_label,
                     card_size_control, card_style, check_seed, follow_card_deck, friendly, limited_text,
                     no_null_tooltips, page_card_deck, page_card_size, seed_box, stepper_buttons, styled)

__all__ = ["seating_html", "PartnershipDraw", "DealingStepper"]

_TEAM_COLOUR = {Team.NS: "#1f4e9c", Team.EW: "#b03a2e"}

#: The width in pixels of 02's card pictures at each card size of the page (:func:`card_size_control`): a card of the
#: draw, a card of a hand in the deal, a card of the pile. These views draw their pictures at that width (they are
#: not zoomed as the ``aluette-sized`` views are, whose normal cards are already 72 px wide): on "large", for a
#: projector, half as wide again as normal.
PICTURE_WIDTHS = {"small": (28, 26, 22), "normal": (34, 30, 26), "large": (52, 46, 40)}


def _follow_card_size(view: w.Widget, render) -> None:
    """Call ``render()`` whenever the page's card size or card pictures change, until ``view`` is closed."""
    follow_card_deck(view, render)
    setting = page_card_size()

    def changed(change):
        if view.comm is None:  # closed: stop following
            setting.unobserve(changed, names="size")
            return
        render()

    setting.observe(changed, names="size")


def _widths() -> tuple[int, int, int]:
    return PICTURE_WIDTHS[page_card_size().size]


def seating_html(seating: Mapping[Seat, str], dealer: Optional[Seat] = None) -> str:
    """Who sits where, drawn round a table: each seat's letter and name in its partnership's colour, partners
    opposite (N–S against E–W), the dealer marked."""
    cells = {}
    for seat in SEATS:
        colour = _TEAM_COLOUR[seat.team]
        mark = _(" <i>(deals)</i>") if seat == dealer else ""
        cells[seat] = (f'<div style="border:2px solid {colour};border-radius:8px;padding:4px 10px;color:{colour}">'
                       f'<b>{seat}</b> {escape(seating[seat])}{mark}</div>')
    return round_table_html(cells, centre=_("<b>the table</b>"), css_class="aluette-table aluette-seating")


class _SteppedDemo:
    """The Next / Run to end / New shuffle buttons of a stepped demo, as read-only properties (for tests and
    notebooks); the widget sets ``_next``, ``_run`` and ``_new`` with :func:`stepper_buttons`."""

    @property
    def next_button(self) -> w.Button:
        return self._next

    @property
    def run_button(self) -> w.Button:
        return self._run

    @property
    def new_button(self) -> w.Button:
        return self._new


class PartnershipDraw(_SteppedDemo, w.VBox):
    """The partnership draw, card by card.

    Four name boxes (clockwise round the table; the first name deals the face-up cards, starting with the second),
    a seed box, and buttons Next (one more face-up card), Run to end and New shuffle (the next seed). Each player's
    cards so far are shown, a player stops receiving cards once they hold one of the top four; at the end the
    partnerships, the new seating round a table and the first dealer are shown. Changing a name or the seed starts
    the draw again; names that are empty or the same show a message and leave the draw as it was.

    Read-only for tests: :attr:`draw` (the engine's :class:`~aluette.draw.DrawResult`), :attr:`shown` (face-up
    cards shown so far), :attr:`finished`.

    Raises:
        AluetteError: the initial ``names`` are not four distinct non-empty names (later bad names typed into the
            boxes only show a message); ``seed`` outside 0 to 2**32-1 or not a whole number.
    """

    def __init__(self, names: Sequence[str] = ("Anne", "Bruno", "Chantal", "Denis"), seed: int = 1):
        super().__init__()
        if isinstance(names, str) or len(names) != 4:  # one box per name: five names would not fit four boxes
            raise AluetteError(f"the draw needs four names, got {names!r}")
        check_seed(seed)
        self._names = []
        for i, name in enumerate(names):
            box = LimitedText(limit=SHORT_TEXT, what=f"name {i + 1}", message=lambda: self.message, value=name,
                              description=(_("1st (deals)"), _("2nd"), _("3rd"), _("4th"))[i],
                              continuous_update=False,
                              layout=w.Layout(width="210px"))
            box.add_class("aluette-draw-name")
            box.add_class(f"aluette-draw-name-{i + 1}")
            box.observe(lambda change: self._restart(), names="value")
            self._names.append(box)
        self._seed = seed_box(seed, "aluette-draw-seed", self._restart, lambda: self.message)
        self._next, self._run, self._new = stepper_buttons("aluette-draw", self._step, self._seed, _("Next card"))
        self._status = styled(w.HTML(), "aluette-draw-status")
        self._cards = styled(w.HTML(), "aluette-draw-cards")
        self._result = styled(w.HTML(), "aluette-draw-result")
        self.message = styled(MessageArea(), "aluette-draw-message")
        self._draw: DrawResult = partnership_draw(names, seed)  # bad initial names raise here
        self._shown = 0
        self.children = [card_style(), w.HBox(self._names[:2]), w.HBox(self._names[2:]),
                         w.HBox([self._seed, self._next, self._run, self._new]), card_size_control(),
                         card_deck_control(), self.message,
                         self._status, self._cards, self._result]
        self.add_class("aluette-draw")
        self._restart()
        _follow_card_size(self, self._render)
        no_null_tooltips(self)

    # ------------------------------------------------------------- read-only state and controls
    @property
    def draw(self) -> DrawResult:
        """The engine's result for the current names and seed (the whole draw, shown or not)."""
        return self._draw

    @property
    def shown(self) -> int:
        """How many face-up cards are shown so far."""
        return self._shown

    @property
    def finished(self) -> bool:
        """True once every face-up card of the draw is shown."""
        return self._shown == len(self._draw.steps)

    @property
    def name_boxes(self) -> tuple[w.Text, ...]:
        return tuple(self._names)

    @property
    def seed(self) -> SeedBox:
        """The seed box (``value``: its text; ``seed_value``: the seed used)."""
        return self._seed

    @property
    def status(self) -> w.HTML:
        """One sentence about the last card shown."""
        return self._status

    @property
    def result(self) -> w.HTML:
        """Partnerships, seating and first dealer, once the draw is over (empty before)."""
        return self._result

    # ------------------------------------------------------------- callbacks
    def _check_names(self) -> None:
        """The names in words a student reads (the engine's own message shows the Python list of names).

        Raises:
            AluetteError: an empty name (which box), or two names alike (which boxes, a short prefix of the name).
        """
        seen: dict[str, str] = {}
        for box in self._names:
            name, place = box.value.strip(), box.description.split(" ")[0]
            if not name:
                raise AluetteError(_("the {place} name is empty: type a name for each of the four players").format(
                    place=place))
            key = name.casefold()
            if key in seen:
                short = name if len(name) <= 20 else name[:20] + "…"
                raise AluetteError(_("the {first} and {second} names are both \"{name}\": the four players need "
                                     "different names").format(first=seen[key], second=place, name=short))
            seen[key] = place

    @friendly()
    def _restart(self) -> None:
        names = [limited_text(box.value, SHORT_TEXT, f"name {i}") for i, box in enumerate(self._names, start=1)]
        self._check_names()
        draw = partnership_draw(names, self._seed.seed_value)
        self._draw, self._shown = draw, 0
        self.message.clear()
        self._render()

    def _step(self, count: Optional[int]) -> None:
        if self.finished:
            self.message.error(_("the draw is over: all four top cards are out. Press New shuffle for another "
                                 "draw."))
            return
        total = len(self._draw.steps)
        self._shown = total if count is None else min(total, self._shown + count)
        self.message.clear()
        self._render()

    def _render(self) -> None:
        draw = self._draw
        shown = draw.steps[:self._shown]
        top = set(draw.top_card.values())
        rows = []
        for name in draw.names:
            got = [c for n, c in shown if n == name]
            stopped = next((c for c in got if c in top), None)
            note = _(" — holds {card}, no more cards").format(card=card_label(stopped)) if stopped else ""
            rows.append(f'<tr><td style="vertical-align:middle;padding-right:8px"><b>{escape(name)}</b>'
                        f'{escape(note)}</td><td>{cards_html(got, width=_widths()[0], deck=page_card_deck().deck)}'
                        f'</td></tr>')
        self._cards.value = f'<table>{"".join(rows)}</table>'
        if self._shown == 0:
            self._status.value = _("{dealer} shuffles (seed {seed}) and deals face up, one card at a time, starting "
                                   "with {first}. Press Next card.").format(
                dealer=escape(draw.names[0]), seed=self._seed.seed_value, first=escape(draw.names[1]))
        else:
            name, card = shown[-1]
            extra = (_(": one of the top four, so {name} gets no more cards").format(name=escape(name))
                     if card in top else "")
            self._status.value = _("Card {number} of {total}: {card} to {name}{extra}.").format(
                number=self._shown, total=len(draw.steps), card=escape(card_label(card)), name=escape(name),
                extra=extra)
        if not self.finished:
            self._result.value = ""
            return
        (monsieur, madame), (borgne, vache) = draw.pairs
        self._result.value = (
            "<p>" + _("<b>Partners:</b> {monsieur} (Monsieur) with {madame} (Madame), against {borgne} (le Borgne) "
                      "with {vache} (la Vache).").format(monsieur=escape(monsieur), madame=escape(madame),
                                                         borgne=escape(borgne), vache=escape(vache)) + "</p>"
            + "<p>" + _("<b>New seating:</b> partners sit opposite; Madame's holder {madame} takes N and deals "
                        "first.").format(madame=escape(madame)) + "</p>"
            + seating_html(draw.seating, draw.first_dealer))


class DealingStepper(_SteppedDemo, w.VBox):
    """Shuffle, cut and the 3-3-3 deal, one step at a time, driven by :mod:`aluette.chance`.

    Controls: a seed box, the dealer's seat, and buttons Next (one step), Run to end and New shuffle (next seed).
    The steps: the shuffled deck; the cut by the dealer's right; the twelve packets of three given clockwise from
    the dealer's left (three rounds); the twelve cards left over, the stock. Every card is shown face up (a teaching
    view). The hands built here are exactly ``Deal.from_seed(seed, dealer=dealer)``'s.

    Read-only for tests: :attr:`step` (0 shuffled, 1 cut, 2-13 packets, 14 stock), :attr:`hands` (cards received so
    far per seat), :attr:`stock` (the twelve once shown, else ``()``), :attr:`cut`.

    Raises:
        AluetteError: ``seed`` outside 0 to 2**32-1 or not a whole number. UnknownSeatError: ``dealer``.
    """

    LAST_STEP = 14

    def __init__(self, seed: int = 1, dealer: Seat = Seat.N):
        super().__init__()
        check_seed(seed)
        self._seed = seed_box(seed, "aluette-deal-seed", self._restart, lambda: self.message)
        self._dealer = w.Dropdown(options=[(f"{s} ({seat_name(s)})", s) for s in SEATS], value=Seat.parse(dealer),
                                  description=_("Dealer"), layout=w.Layout(width="200px"))
        self._dealer.add_class("aluette-deal-dealer")
        self._dealer.observe(lambda change: self._restart(), names="value")
        self._next, self._run, self._new = stepper_buttons("aluette-deal", self._go, self._seed)
        self._status = styled(w.HTML(), "aluette-deal-status")
        self._table = styled(w.HTML(), "aluette-deal-table")
        self.message = styled(MessageArea(), "aluette-deal-message")
        self.children = [card_style(), w.HBox([self._seed, self._dealer, self._next, self._run, self._new]),
                         card_size_control(), card_deck_control(), self.message, self._status, self._table]
        self.add_class("aluette-deal")
        self._restart()
        _follow_card_size(self, self._render)
        no_null_tooltips(self)

    # ------------------------------------------------------------- read-only state and controls
    @property
    def step(self) -> int:
        return self._step

    @property
    def finished(self) -> bool:
        return self._step == self.LAST_STEP

    @property
    def cut(self) -> int:
        """Cards lifted by the dealer's right."""
        return self._cut

    @property
    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        """Cards each seat has received so far, in the order received."""
        packets = self._packets[:max(0, self._step - 1)]
        return {seat: tuple(c for s, cards in packets if s is seat for c in cards) for seat in SEATS}

    @property
    def stock(self) -> tuple[Card, ...]:
        """The twelve cards left over, once the last step is shown."""
        return self._deck[36:] if self.finished else ()

    @property
    def seed(self) -> SeedBox:
        """The seed box (``value``: its text; ``seed_value``: the seed used)."""
        return self._seed

    @property
    def dealer(self) -> w.Dropdown:
        return self._dealer

    @property
    def status(self) -> w.HTML:
        return self._status

    @property
    def table(self) -> w.HTML:
        return self._table

    # ------------------------------------------------------------- callbacks
    def _restart(self) -> None:
        self._order, self._cut = shuffled_deck(self._seed.seed_value)
        self._deck = cut_deck(self._order, self._cut)
        self._packets = deal_steps(self._deck, self._dealer.value)
        self._step = 0
        self.message.clear()
        self._render()

    def _go(self, count: Optional[int]) -> None:
        if self.finished:
            self.message.error(_("the deal is done: nine cards each and twelve in the stock. Press New shuffle."))
            return
        self._step = self.LAST_STEP if count is None else min(self.LAST_STEP, self._step + count)
        self.message.clear()
        self._render()

    def _render(self) -> None:
        dealer: Seat = self._dealer.value
        step = self._step
        if step == 0:
            pile = self._order
            self._status.value = _("Step 0: {dealer} (the dealer) shuffles (seed {seed}). The deck, top card "
                                   "first:").format(dealer=dealer, seed=self._seed.seed_value)
        elif step == 1:
            pile = self._deck
            self._status.value = _("Step 1: {seat}, at the dealer's right, cuts: lifts the top {count} cards and puts "
                                   "them underneath. The deck is now, top card first:").format(
                seat=dealer.right, count=self._cut)
        elif step <= 13:
            seat, cards = self._packets[step - 2]
            pile = self._deck[3 * (step - 1):]
            first = _(" (the dealer's left: the deal starts here)") if seat == dealer.left and step == 2 else ""
            self._status.value = _("Step {step}: round {round} of 3, {seat}{first} receives {cards}.").format(
                step=step, round=(step - 2) // 4 + 1, seat=seat, first=first, cards=" ".join(map(str, cards)))
        else:
            pile = self._deck[36:]
            self._status.value = _("Step 14: everyone holds nine cards; the twelve left over are the stock, used only "
                                   "if all four agree to the chant.")
        hands = self.hands
        unused, hand_width, pile_width = _widths()
        cells = {}
        for seat in SEATS:
            role = (_(" — dealer") if seat == dealer else _(" — cuts") if seat == dealer.right
                    else _(" — first card") if seat == dealer.left else "")
            held = len(hands[seat])
            count = ngettext("{count} card", "{count} cards", held).format(count=held)
            cells[seat] = (f"<div><b>{seat}</b>{role} ({count})</div>"
                           f"{cards_html(hands[seat], width=hand_width, deck=page_card_deck().deck)}")
        in_pile = ngettext("{count} card", "{count} cards", len(pile)).format(count=len(pile))
        if step == self.LAST_STEP:
            centre = _("<b>the stock: {count}</b>").format(count=in_pile)
            caption = _("The stock ({count}, top first)").format(count=in_pile)
        else:
            centre = _("<b>the deck: {count}</b>").format(count=in_pile)
            caption = _("The deck ({count}, top first)").format(count=in_pile)
        pile_html = cards_html(pile, width=pile_width, deck=page_card_deck().deck, caption=caption)
        self._table.value = (round_table_html(cells, centre=centre, css_class="aluette-table aluette-deal-seats")
                             + pile_html)
