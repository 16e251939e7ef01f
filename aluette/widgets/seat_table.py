"""One view of a seat at a table (notebooks 08 and 10): :class:`SeatTable`, over a :class:`~aluette.players.seat_port.SeatPort`.

The seats round the table with the trick and the last trick, whose turn it is and the status, the hand as card
buttons (play, or choose a discard), the questions (the chant, surrender), the signals, Hint and Next deal, the score
sheet and the deal as the seat saw it. Every picture and text is drawn from the port's :meth:`view
<aluette.players.seat_port.SeatPort.view>` and :meth:`facts <aluette.players.seat_port.SeatPort.facts>` (the seat's own hand, the
cards played, the public answers and scores, its partnership's signals), so no widget trait ever holds another seat's
hidden card; every move goes through :meth:`submit <aluette.players.seat_port.SeatPort.submit>`, which the engine checks.
Notebook 08's :class:`~aluette.widgets.match.MatchTable` is this view with the match's set-up controls above it;
notebook 10's :class:`~aluette.widgets.together.PlayTogether` puts it under its lobby.

A click names what it was drawn for: each card button stands for one card (a slot whose card changes gets a new
button), so a late click (a double click reaching the kernel after its card was played and its slot refilled) finds
its card gone and is ignored, with no move and no message; and a card button drawn anew ignores the pointer for its
first 0.4 s in the page (the style's ``aluette-arming``, :mod:`aluette.widgets.common`), and every card button again
for 0.4 s at each of your actions but choosing discards, and when the stock's cards come in (a played card's slot is
hidden and the cards after it close up; a message or a question's row above the hand changes: :meth:`SeatTable.
_own_action`), so a second click dispatched after the redraw reaches no button.

Each widget costs the classroom server a message per page: what a fresh table does not show (card slots beyond the
hand, answer buttons of a question not asked, signal buttons, the discard row) is made when first needed, and the
widgets share one layout and one style of each kind (widths by CSS class, :func:`seat_css`).
"""

from __future__ import annotations

import contextlib
from html import escape
from typing import Iterable, Mapping, Optional, Sequence, Union

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ..players.protocol import Decision
from ..cards import Card, CardLike
from ..deal import Phase, View
from ..decisions import badged
from ..errors import AluetteError, DealOverError
from ..i18n import N_, _, language, ngettext
from ..moves import ChantAnswer, Discard, Play, Signal, SurrenderAnswer, SurrenderOffer
from ..narration import move_sentence, signal_words, trick_reason
from ..options import chant_recipients
from ..pictures import back_svg, round_table_html, trick_html
from ..scoring import explain_mordienne, first_to_reach
from ..players.seat_port import SeatFacts, SeatPort
from ..seats import SEATS, Seat, Team
from ..signals import signal_for
from .common import (CardControl, CardParts, MessageArea, card_label, card_words, follow_card_deck, friendly,
                     live_region, page_card_deck, plural, reachable_widgets, sheet_html, styled)
from .review import ReviewPanel, prepare_worker

__all__ = ["SeatTable", "HandCard", "mordienne_note", "question_asked", "seat_css"]

_BACKS: dict = {}  # a card's back as the table draws it, by language (its title says "hidden card" in words)


def _back() -> str:
    code = language()
    if code not in _BACKS:
        _BACKS[code] = back_svg(22)
    return _BACKS[code]

# what the seat to move does now (translated where shown: :mod:`aluette.i18n`)
_TURN_WORDS = {Phase.CHANT: N_("answer the chant"), Phase.DISCARD: N_("discard"), Phase.SURRENDER: N_("speak"),
               Phase.ANNOUNCE: N_("announce mordienne"), Phase.PLAY: N_("play")}
_YOUR_TURN = {Phase.CHANT: N_("<b>Your turn:</b> do you agree to the chant?"),
              Phase.DISCARD: N_("<b>Your turn:</b> choose six cards to discard."),
              Phase.SURRENDER: N_("<b>Your turn:</b> answer the surrender question."),
              Phase.ANNOUNCE: N_("<b>Your turn:</b> announce mordienne or not."),
              Phase.PLAY: N_("<b>Your turn:</b> click a card to play it.")}

#: The answer buttons of the questions: key → (label, CSS class suffix, button style, method, its argument).
_ANSWERS = {"agree": (N_("Agree to the chant"), "chant-agree", "success", "answer_chant", True),
            "decline": (N_("Decline the chant"), "chant-decline", "warning", "answer_chant", False),
            "offer": (N_("Offer to surrender"), "surrender-offer", "warning", "offer_surrender", True),
            "play on": (N_("Play on"), "surrender-play-on", "", "offer_surrender", False),
            "accept": (N_("Accept their surrender"), "surrender-accept", "success", "answer_surrender", True),
            "refuse": (N_("Refuse (we must make mordienne)"), "surrender-refuse", "warning", "answer_surrender",
                       False)}


def seat_css(css: str) -> str:
    """The table's own rules for a view of CSS class ``css`` (its widgets' classes start with it). Up to 480 px wide
    (a phone held upright) the round table is a column: N, then W and E side by side, the trick, S (beside the
    trick, the trick would cover them; the felt's "clockwise" note, which that layout no longer shows, is left out),
    the status sits under the table, the counts and "first to reach" are left for a wider screen, the hand's cards are
    52 px wide (six to a row: two rows for nine), and the score sheet, in a region that scrolls sideways, is drawn
    tighter; so the trick, whose turn it is and the hand fit one phone screen (tests/browser/test_phone.py)."""
    return f"""
.{css} .{css}-auto {{ width: auto; }}
.{css} .{css}-discard {{ width: 170px; }}
.{css} .{css}-wrap {{ flex-wrap: wrap; }}
.{css} .{css}-top {{ align-items: flex-start; }}
.{css} .{css}-side {{ flex: 1 1 300px; min-width: 260px; }}
.{css} .{css}-question {{ flex: 1 0 100%; }}
.{css} .{css}-sheet {{ overflow-x: auto; contain: inline-size; }}
.{css} .{css}-reason {{ font-weight: bold; }}
@media (max-width: 480px) {{
  .{css} .{css}-score-sheet th, .{css} .{css}-score-sheet td {{ padding: 2px 3px; }}
  .{css} .{css}-table-round {{ grid-template-columns: auto auto !important; }}
  .{css} .{css}-table-round > .aluette-seat-N {{ grid-area: 1 / 1 / 2 / 3 !important; }}
  .{css} .{css}-table-round > .aluette-seat-W {{ grid-area: 2 / 1 !important; }}
  .{css} .{css}-table-round > .aluette-seat-E {{ grid-area: 2 / 2 !important; }}
  .{css} .{css}-table-round > div:not(.aluette-seat) {{ grid-area: 3 / 1 / 4 / 3 !important; min-width: 0 !important; }}
  .{css} .{css}-table-round > .aluette-seat-S {{ grid-area: 4 / 1 / 5 / 3 !important; }}
  .{css} .{css}-table-round .aluette-seat {{ padding: 0 !important; font-size: 90%; }}
  .{css} .{css}-table-round .aluette-seat > div > div + div {{ display: inline; margin-right: 6px; }}
  .{css} .{css}-table-round > div:not(.aluette-seat) {{ padding: 4px !important; }}
  .{css} .{css}-table-round > div:not(.aluette-seat) > div:last-child {{ display: none; }}
  .{css} .{css}-counts, .{css} .{css}-reached {{ display: none; }}
  .{css} .{css}-hand {{ --aluette-card-w: 52px; }}
}}
"""


class HandCard(CardControl):
    """A card of the hand: a button and then its picture, two widgets side by side in the hand's box (class
    ``aluette-card-pairs``: the picture is drawn under the transparent button, :func:`~aluette.widgets.common.
    card_style`), so that the picture is the button's target; one widget fewer per card than a
    :class:`~aluette.widgets.common.CardButton` (no box of its own), with the same interface
    (:class:`~aluette.widgets.common.CardControl`: :meth:`show`, :meth:`hide`, :meth:`click`, :attr:`label`,
    :attr:`card`). The picture (class ``<css>-card`` and ``aluette-card-picture``) carries the marks
    (``aluette-card-selected``, ``aluette-card-hint``); the button (``<css>-card-button``) the accessible name. A
    hidden card holds no card in any trait (secrecy).

    A button stands for one card: when the slot shows another card, it gets a new button (:attr:`renewed` is set
    until the view puts it in the hand's box, :func:`fill_hand`, which then closes the old one), so a click on the old
    one, drawn for the old card, names that card (:meth:`click` passes the card the clicked button was drawn for).
    """

    def __init__(self, on_click, parts: CardParts, card: Card, action: str, css: str):
        self.css = css
        self.picture = styled(w.HTML(layout=parts.layout, style=parts.picture_style), "aluette-card-picture",
                              f"{css}-card")
        self.parts, self.card, self._last, self._on_click = parts, None, None, on_click
        self.button, self._drawn, self.renewed = None, None, False
        self._retired: list[w.Button] = []  # buttons replaced, closed once the box holds the new one (fill_hand)
        self._new_button()
        self.renewed = False
        self.show(card, action)

    def _new_button(self) -> None:
        old = self.button
        button = styled(w.Button(description="", tooltip="", layout=self.parts.layout,
                                 style=self.parts.button_style), "aluette-card-button", f"{self.css}-card-button")
        button.on_click(lambda b: self._clicked(b))
        self.button, self.renewed = button, True
        if old is not None:
            self._retired.append(old)  # a click already on its way to it names the old card (ignored, then no widget)

    def _clicked(self, button: w.Button) -> None:
        if button is self.button:
            self.click()  # else a button replaced since: its card is not this slot's any more (ignored)

    def show(self, card: Card, action: str, selected: bool = False, hint: bool = False) -> None:
        if self._last is not None and card is not self._last:
            self._new_button()
        super().show(card, action, selected=selected, hint=hint)

    @property
    def widgets(self) -> tuple[w.Button, w.HTML]:
        """The button and the picture, in the order of the hand's box."""
        return self.button, self.picture

    @property
    def layout(self) -> w.Layout:
        """The layout of both widgets (the parts' default one, or their hidden one)."""
        return self.picture.layout

    @property
    def _dom_classes(self) -> tuple[str, ...]:
        """The picture's CSS classes (with the marks)."""
        return self.picture._dom_classes

    def _marked(self) -> w.HTML:
        return self.picture

    def _place(self, layout: w.Layout) -> None:
        self.picture.layout = self.button.layout = layout

    def close(self) -> None:
        """Close the picture and the button (their models, and the card, leave the browser)."""
        self.picture.close()
        self.button.close()
        self._close_retired()

    def _close_retired(self) -> None:
        for old in self._retired:
            old.close()
        self._retired.clear()


def fill_hand(box: w.Box, slots: Sequence[HandCard], again: bool = False) -> None:
    """Put the widgets of ``slots`` in ``box`` when one of them got a new button since (or ``again``: the slots
    changed), then close the buttons they replaced. In that order: closed first, the old buttons left the page one
    by one, and the cards after each slid under the pointer (a test's watch of a double click in the explorer saw
    nine of them pass under it), before the new ones came in together."""
    if again or any(slot.renewed for slot in slots):
        for slot in slots:
            slot.renewed = False
        box.children = tuple(x for slot in slots for x in slot.widgets)
    for slot in slots:
        slot._close_retired()


def mordienne_note(score, enabled: bool) -> str:
    """Why a scored deal was not mordienne, from its :class:`~aluette.scoring.DealScore`: the engine's own words
    (:func:`aluette.scoring.explain_mordienne`; ``enabled``: whether the match plays mordienne), or ``""`` when there
    is nothing to add (the engine's reason already says why: a mordienne made, or a run not announced)."""
    if score is None or score.winner is None or score.mordienne:
        return ""
    why = explain_mordienne(score, mordienne=enabled)
    return "" if why.removeprefix("Mordienne: no. ") in score.reason else why


def question_asked(view: View) -> tuple[bool, bool, bool]:
    """Which question ``view``'s seat is asked now: ``(chant, offering, answering)`` (the chant; whether to offer
    surrender; whether to accept the other side's), at most one true."""
    asked = view.to_move is view.seat and view.phase in (Phase.CHANT, Phase.SURRENDER)
    chant = asked and view.phase is Phase.CHANT
    offering = asked and view.phase is Phase.SURRENDER and view.surrender_by is None
    answering = asked and view.phase is Phase.SURRENDER and view.surrender_by is not None
    return chant, offering, answering


class _NotNow(AluetteError):
    """A click at a moment when it is not your turn (shown as a message)."""


class SeatTable(w.VBox):
    """A seat at a table, drawn from its port and played through it; see the module docstring.

    Args:
        port: the seat's :class:`~aluette.players.seat_port.SeatPort` (replaced by :meth:`attach`).
        css: the prefix of every CSS class of the view (``"aluette-match"`` in 08, ``"aluette-together"`` in 10):
            ``<css>-status``, ``<css>-table`` (the round table; its grid ``<css>-table-round``), ``<css>-hand``,
            ``<css>-card``/``<css>-card-button``, ``<css>-chant-agree``..., ``<css>-signal``, ``<css>-hint``,
            ``<css>-next``, ``<css>-message``, ``<css>-score`` (the match score line), ``<css>-scores`` (the
            sheet), ``<css>-counts``, ``<css>-reached``, ``<css>-events``.
        layout: the one layout of the widgets that never change theirs (a host shares its own).
        message: the message line (default: one of the view's own, under the questions); a host that gives its own
            places it.
        names: other suffixes for some classes (``{"table": "board"}``), where a host already uses one.
        face_down: tricks stacked face down, as at a real table where remembering them is the skill (issue 19 §3):
            the table shows the last trick only (as always) and each seat's count, and the deal's history leaves out
            the cards played until the deal is over; also :attr:`face_down`, changed at any time.

    Python methods do what the buttons do: :meth:`play`, :meth:`pick`, :meth:`answer_chant`, :meth:`discard`,
    :meth:`offer_surrender`, :meth:`answer_surrender`, :meth:`signal`, :meth:`hint`, :meth:`follow_hint`,
    :meth:`next_deal`. A click at the wrong moment (out of turn, Next deal before the deal is over...) shows a message
    and changes nothing; the engine refuses every illegal move.
    """

    def __init__(self, port: Optional[SeatPort] = None, *, css: str = "aluette-seat", layout: Optional[w.Layout] = None,
                 message: Optional[MessageArea] = None, names: Optional[Mapping[str, str]] = None,
                 face_down: bool = False, **kwargs):
        self._plain = layout if layout is not None else w.Layout()
        super().__init__(layout=self._plain, **kwargs)
        self.css = css
        self._names = dict(names or {})
        self._port: Optional[SeatPort] = None
        self._stop_observing = None
        self._batch = 0  # > 0 inside one of the view's actions: the port's changes are drawn once at its end
        self._stale = False
        self._hint_card: Optional[Card] = None
        self._wait_note: Optional[str] = None  # the "not your turn" message shown, if any
        self._errors_seen = 0
        self.internal_errors: list[str] = []  # exceptions in the port's timers (bugs), kept for tests
        self._hand_set: frozenset = frozenset()
        self._face_down = bool(face_down)

        plain = self._plain
        html_style, button_style = HTMLStyle(), w.ButtonStyle()
        self._html_style, self._button_style = html_style, button_style

        def html(name):
            return styled(w.HTML(layout=plain, style=html_style), self._css(name))

        self._html = html
        self.status = html("status")
        self.match_score = html("score")
        self.reached = html("reached")
        self.counts = html("counts")
        self.table = html("table")
        self.signals_view = html("signals")
        self.score_view = html("scores")
        self.events_view = html("events")
        self._own_message = message is None
        self.message = message if message is not None else styled(MessageArea(layout=plain, style=html_style),
                                                                  self._css("message"))

        # the hand: card pictures that are buttons, one slot per card, made when a hand first needs it (nine, up to
        # fifteen with six stock cards); a slot whose card has gone is hidden
        self._parts = CardParts(layout=plain, picture_style=html_style, button_style=button_style)
        self._slots: list[HandCard] = []
        self._slot_cards: list[Optional[Card]] = []
        self._slot_keys: list = []  # what each slot shows now, to update only what changes
        self._slot_deal: Optional[tuple] = None  # (port, deal number) the slots were laid out for
        self._acting = False  # an action of this page's player is being drawn (_own_action): the hand paused first
        self._focus_wanted = False  # your action left the keyboard's focus nowhere: the next control you need gets it
        self._picked: set[Card] = set()
        self._hand_head = html("hand-head")
        self.hand_box = styled(w.HBox(layout=plain), self._css("hand"), self._css("wrap"), "aluette-card-pairs")
        self._discard_row: Optional[w.HBox] = None
        self._discard_button: Optional[w.Button] = None
        self._pick_count: Optional[w.HTML] = None

        # questions: one button per answer, so a late click can never answer another question
        self._answer_buttons: dict[str, w.Button] = {}
        self._question = html("question")
        self._questions = styled(w.HBox([self._question], layout=w.Layout(display="none")),
                                 self._css("questions"), self._css("wrap"))

        self.hint_button = self._button(_("Hint"), "hint", self.hint, "info")
        self.hint_button.icon = "lightbulb-o"
        self.hint_button.tooltip = _("what the heuristic bot would do in your place, and why (from your view only)")
        self.next_button = self._button(_("Next deal"), "next", self.next_deal, "primary")
        self.signal_buttons: list[w.Button] = []
        self._signal_keys: list[Optional[str]] = []
        self._signal_row = styled(w.HBox(layout=plain), self._css("wrap"))
        self._score_key = None
        self._buttons_row = w.HBox([self.hint_button, self.next_button], layout=plain)
        self.review_panel: Optional[ReviewPanel] = None  # the Review of a finished deal: made at the first one's end
        self._seat_children = self._lay_out()
        self.children = self.seat_children()
        follow_card_deck(self, self._on_deck)
        if port is not None:
            self.attach(port)

    def _on_deck(self) -> None:
        """The page's card pictures changed (:func:`~aluette.widgets.common.card_deck_control`): every card is drawn
        again from the new deck (the hand's slots keep their buttons: the same cards)."""
        self._slot_keys = [None] * len(self._slot_keys)
        self.redraw()

    def seat_children(self) -> list:
        """The view's widgets, top to bottom (a host puts its own controls around them): the table with the status
        beside it (on a phone, under it), the questions, the message, the hand, Hint and Next deal, the signals, the
        score sheet and the deal's events."""
        return list(self._seat_children)

    def _lay_out(self) -> list:
        def row(children, *names):
            return styled(w.HBox(children, layout=self._plain), self._css("wrap"), *map(self._css, names))

        side = styled(w.VBox([self.match_score, self.status, self.counts, self.reached], layout=self._plain),
                      self._css("side"))
        return [row([self.table, side], "top"), self._questions,
                *([self.message] if self._own_message else []), self._hand_head, self.hand_box,
                self._buttons_row, self.signals_view, self._signal_row, self.score_view, self.events_view]

    def _css(self, name: str) -> str:
        return f"{self.css}-{self._names.get(name, name)}"

    # ------------------------------------------------------------------ the port
    @property
    def port(self) -> Optional[SeatPort]:
        """The seat's port this view draws and plays through."""
        return self._port

    def attach(self, port: SeatPort) -> None:
        """Show ``port``'s seat from now on (a new match, a seat taken)."""
        if self._stop_observing is not None:
            self._stop_observing()
        self._port = port
        self._stop_observing = port.observe(self._on_change)
        self._score_key = None
        self._hint_card = None
        self._picked = set()
        self._errors_seen = len(getattr(port, "internal_errors", ()))
        self.redraw()

    def redraw(self) -> None:
        """Draw the seat again (at the end of the action under way, if any)."""
        if self._batch:
            self._stale = True
        else:
            self._render()

    def _on_change(self, kinds: frozenset) -> None:
        if "left" in kinds:  # the seat was opened on another device: this page has left it, nothing to draw
            return
        if "move" in kinds or "deal" in kinds:
            self._hint_card = None
        if "deal" in kinds and not self._batch:
            self.message.clear()  # a message of the last deal may name a card dealt again now
        if "error" in kinds:
            errors = getattr(self._port, "internal_errors", [])
            self.internal_errors.extend(errors[self._errors_seen:])
            self._errors_seen = len(errors)
            self.message.error(_("Internal error while the bots played (a bug; the details are in the table's "
                                 "internal_errors). Press New match to go on."))
        self.redraw()

    @contextlib.contextmanager
    def _batched(self):
        """Inside: the port's changes are drawn once, at the end."""
        self._batch += 1
        try:
            yield
        finally:
            self._batch -= 1
            if not self._batch and self._stale:
                self._stale = False
                self._render()

    @property
    def face_down(self) -> bool:
        """Whether completed tricks are stacked face down (the history of the deal shows its cards once it is
        over)."""
        return self._face_down

    @face_down.setter
    def face_down(self, value: bool) -> None:
        self._face_down = bool(value)
        self.redraw()

    @property
    def you(self) -> Seat:
        """The seat shown."""
        return self._port.seat

    # ------------------------------------------------------------------ read-only state
    @property
    def card_buttons(self) -> tuple[HandCard, ...]:
        """The card pictures (buttons) of the cards now in your hand, high to low."""
        return tuple(b for b, c in zip(self._slots, self._slot_cards) if c is not None and c in self._hand_set)

    def button_for(self, card: CardLike) -> HandCard:
        """The card picture (button) of ``card`` in your hand.

        Raises:
            UnknownCardError: not a card. AluetteError: you do not hold it.
        """
        card = Card.parse(card)
        for button, slot_card in zip(self._slots, self._slot_cards):
            if slot_card is card and card in self._hand_set:
                return button
        raise AluetteError(f"you do not hold {card}")

    @property
    def picking(self) -> bool:
        """True while you choose six cards to discard (a card click then chooses it)."""
        return self._picking()

    @property
    def picked(self) -> tuple[Card, ...]:
        """The cards chosen for the discard, high to low."""
        return tuple(c for c in self._slot_cards if c is not None and c in self._picked)

    @property
    def chant_buttons(self) -> dict[bool, w.Button]:
        """``{True: agree, False: decline}``: the chant's answer buttons (shown while you are asked)."""
        return {True: self._answer("agree"), False: self._answer("decline")}

    @property
    def surrender_buttons(self) -> dict[str, w.Button]:
        """``{"offer", "play on", "accept", "refuse"}``: the surrender's answer buttons."""
        return {key: self._answer(key) for key in ("offer", "play on", "accept", "refuse")}

    @property
    def question_buttons(self) -> tuple[w.Button, ...]:
        """The answer buttons of the question you are asked now (none when you are not asked)."""
        return tuple(self._questions.children[1:])

    @property
    def discard_button(self) -> w.Button:
        """The button that discards the six cards chosen (shown while you choose a discard)."""
        self._discard_parts()
        return self._discard_button

    @property
    def visible_signal_buttons(self) -> dict[str, w.Button]:
        """``{signal key: button}`` of the signals you may make now."""
        return {k: b for k, b in zip(self._signal_keys, self.signal_buttons) if k is not None}

    @property
    def visible_signal_keys(self) -> tuple[str, ...]:
        """The signals you may make now (one button each)."""
        return tuple(k for k in self._signal_keys if k is not None)

    # ------------------------------------------------------------------ actions (what the buttons do)
    @friendly()
    def play(self, card: CardLike) -> None:
        """Play ``card`` from your hand (as clicking its button)."""
        card = Card.parse(card)
        self._check_your_turn(_("play a card"))
        self._submit(Play(self.you, card), _("You played {card}.").format(card=card_label(card)))

    @friendly()
    def answer_chant(self, agree: bool) -> None:
        """Agree to (``True``) or decline the chant when you are asked."""
        self._check_your_turn(_("answer the chant"))
        self._submit(ChantAnswer(self.you, bool(agree)),
                     _("You agree to the chant.") if agree else _("You decline the chant: the stock stays unused."),
                     answered=True)

    @friendly()
    def discard(self, cards: Union[str, Iterable[CardLike], None] = None) -> None:
        """Discard six cards after receiving six from the stock (default: the chosen ones)."""
        self._check_your_turn(_("discard"))
        chosen = self.picked if cards is None else cards
        self._submit(Discard(self.you, chosen), _("You discarded six cards face down; you hold nine again."))

    @friendly()
    def offer_surrender(self, offer: bool = True) -> None:
        """Offer your side's surrender (``True``) or play on, when you speak for your side."""
        self._check_your_turn(_("speak"))
        self._submit(SurrenderOffer(self.you, bool(offer)),
                     _("You offer to surrender.") if offer else _("You play on."), answered=True)

    @friendly()
    def answer_surrender(self, accept: bool) -> None:
        """Accept (a sure point) or refuse (then your side must make mordienne) the other side's surrender."""
        self._check_your_turn(_("answer"))
        self._submit(SurrenderAnswer(self.you, bool(accept)),
                     _("You accept the surrender.") if accept else _("You refuse: your side must make mordienne."),
                     answered=True)

    @friendly()
    def signal(self, key: str) -> None:
        """Make signal ``key`` (:data:`aluette.SIGNALS`) to your partner; honest only (the engine checks)."""
        with self._own_action():
            you = self.you
            self._port.submit(Signal(you, key))
            record = next(r for r in reversed(self._port.view().signals) if r.seat is you)
            self.message.ok(_("You signal to your partner: {signal}.").format(signal=signal_words(record)))

    @friendly()
    def hint(self) -> Optional[Decision]:
        """What :class:`~aluette.players.bots.HeuristicBot` (reading signals) would do in your place, from your view only;
        shown as a message (the suggested card is highlighted, or the suggested discard chosen). Returns the
        :class:`~aluette.players.bots.Decision`, or ``None`` when it is not your turn."""
        with self._own_action():  # the hint's message may move the hand
            decision = self._port.hint()
            view = self._port.view(events=False)
            if decision is None:
                self.message.ok(self._not_your_turn_text(view, _("No hint now")))
                return None
            self.message.ok(_("Hint: {move}. Why: {reason}.").format(move=move_sentence(decision.move),
                                                                     reason=decision.reason))
            if view.phase is Phase.PLAY:
                self._hint_card = decision.move.card
            elif view.phase is Phase.DISCARD:
                self._picked = set(decision.move.cards)
            self._render()
        return decision

    def follow_hint(self) -> Optional[Decision]:
        """Make the hint's move (for a demonstration or a test); ``None`` when it is not your turn."""
        decision = self.hint()
        if decision is not None:
            with self._batched():
                self._port.submit(decision.move)
        return decision

    @friendly()
    def next_deal(self) -> None:
        """Start the next deal once the current one is over.

        Raises (shown as a message): WrongPhaseError before the deal is over; DealOverError once the match is over.
        """
        facts = self._port.facts()
        if facts.is_over:
            raise DealOverError(_("the match is over") + (f": {facts.again[0].lower()}{facts.again[1:]}"
                                                          if facts.again else ""))
        with self._own_action():
            self._focus_wanted = True  # Next deal turns disabled, and the hand is drawn anew
            self._port.next_deal()
            self.message.ok(_("Deal {number}: {dealer} deals.").format(
                number=self._port.facts().deal_number, dealer=self._port.view(events=False).dealer))

    @friendly()
    def pick(self, card: CardLike) -> None:
        """Choose ``card`` for your discard, or put it back if chosen (as clicking its picture while you discard).

        Raises (shown as a message): UnknownCardError; AluetteError when you are not choosing a discard now or do
        not hold the card."""
        card = Card.parse(card)
        view = self._port.view(events=False)
        if not self._picking():
            raise AluetteError(self._not_your_turn_text(view, _("No discard to choose now")))
        if card not in view.hand:
            raise AluetteError(_("you do not hold {card}").format(card=card_label(card)))
        self._picked.symmetric_difference_update({card})
        text = (_("{card} chosen for your discard ({count} of 6 chosen).") if card in self._picked
                else _("{card} back from your discard ({count} of 6 chosen)."))
        self.message.ok(text.format(card=card_words(card), count=len(self._picked)))
        self._render_hand(view)

    def close(self) -> None:
        """Close this view and every widget it made (their models leave the browser)."""
        if getattr(self, "_stop_observing", None) is not None:  # also called by __del__, maybe after a failed init
            self._stop_observing()
            self._stop_observing = None
        made = [*reachable_widgets(self), *getattr(self, "signal_buttons", ()),  # shown or not
                *getattr(self, "_answer_buttons", {}).values()]
        for widget in made:
            if widget is not self:
                widget.close()
        if getattr(self, "_parts", None) is not None:
            self._parts.close()  # with the hidden cards' layout, if any was hidden
        super().close()

    # ------------------------------------------------------------------ widgets made when first needed
    def _button(self, text: str, name: str, handler, style: str = "") -> w.Button:
        """A button of the table (the shared layout and style; class ``<css>-<name>``) that calls ``handler()``."""
        button = styled(w.Button(description=text, button_style=style, tooltip="", layout=self._plain,
                                 style=self._button_style), self._css(name), self._css("auto"))
        if handler is not None:
            button.on_click(lambda _: handler())
        return button

    def _answer(self, key: str) -> w.Button:
        """The answer button ``key`` of :data:`_ANSWERS`, made the first time it is asked for."""
        if key not in self._answer_buttons:
            label, name, style, method, argument = _ANSWERS[key]
            action = getattr(self, method)
            self._answer_buttons[key] = self._button(_(label), name, lambda: action(argument), style)
        return self._answer_buttons[key]

    def _discard_parts(self) -> None:
        """The discard row (the Discard button and the count of cards chosen) under the hand, made the first time
        it is needed and then shown or hidden."""
        if self._discard_row is not None:
            return
        self._discard_button = self._button(_("Discard these six"), "discard", self._on_discard, "primary")
        self._pick_count = self._html("pick-count")
        self._discard_row = styled(w.HBox([self._discard_button, self._pick_count],
                                          layout=w.Layout(display="none")), self._css("discard-row"))
        children = list(self.children)
        children.insert(children.index(self.hand_box) + 1, self._discard_row)
        self.children = children

    # ------------------------------------------------------------------ callbacks
    def _on_card(self, card: Card) -> None:
        """A click on a card button: ``card`` is the card that button was drawn for; gone from the hand (a late
        second click of a double click), the click is ignored."""
        if card not in self._hand_set:
            return
        if self._picking():
            self.pick(card)
            return
        self.play(card)

    def _on_discard(self) -> None:
        if not self._picking():
            self.message.error(self._not_your_turn_text(self._port.view(events=False), _("No discard to make now")))
            return
        self.discard()

    def _on_signal(self, button: w.Button) -> None:
        key = self._signal_keys[self.signal_buttons.index(button)]
        if key is None:
            self.message.error(_("That signal is no longer available."))
            return
        self.signal(key)

    def _submit(self, move, done: str, answered: bool = False) -> None:
        """Your move through the port (which checks it), then the message; ``answered``: an answer to a question,
        whose buttons go with it (:meth:`_own_action`)."""
        with self._own_action(answered):
            self._port.submit(move)  # raises and changes nothing when refused
            self._picked = set()
            self.message.ok(done)

    def _check_your_turn(self, what: str) -> None:
        view = self._port.view(events=False)
        if view.to_move is not self.you:
            text = self._not_your_turn_text(view, _("You cannot {what} now").format(what=what))
            self._wait_note = text  # cleared when your turn comes (see _render)
            raise _NotNow(text)

    # ------------------------------------------------------------------ drawing (from the seat's view only)
    def _picking(self) -> bool:
        view = self._port.view(events=False)
        return view.phase is Phase.DISCARD and view.to_move is self.you

    def _not_your_turn_text(self, view: View, head: str) -> str:
        facts = self._port.facts()
        if view.phase is Phase.OVER:
            after = (_("the match is over") + (f": {facts.again[0].lower()}{facts.again[1:].rstrip('.')}"
                                               if facts.again else "")
                     if facts.is_over else _("press Next deal"))
            return _("{head}: deal {number} is over; {after}.").format(head=head, number=facts.deal_number,
                                                                        after=after)
        what = _(_TURN_WORDS[view.phase])
        if view.to_move is self.you:
            return _("{head}: it is your turn to {what}.").format(head=head, what=what)
        if facts.bots_pending:
            return _("{head}: it is {seat}'s turn to {what} (the bots move after a short pause).").format(
                head=head, seat=view.to_move, what=what)
        return _("{head}: it is {seat}'s turn to {what}.").format(head=head, seat=view.to_move, what=what)

    def _render(self) -> None:
        if self._port is None:
            return
        view = self._port.view()
        facts = self._port.facts()
        self._hand_set = frozenset(view.hand)
        if self._wait_note is not None and view.to_move is self.you:
            if self.message.last_error == self._wait_note:
                self.message.clear()
            self._wait_note = None
        self._render_status(view, facts)
        self._render_hand(view)
        self._render_questions(view)
        self._render_table(view, facts)
        self._render_signals(view, facts)
        self._render_scores(facts)
        self._render_reached(view)
        self.hint_button.layout = self._plain if facts.hints else self._parts.hidden_layout
        self.next_button.disabled = not facts.awaiting_next_deal
        self._render_review(view)
        self._render_events(view)
        if self._focus_wanted:
            self._focus_next_control(view, facts)

    def _render_review(self, view: View) -> None:
        """The Review of the deal (:mod:`aluette.widgets.review`), made and placed under Hint and Next deal at the
        first deal's end; it works out and shows a review only once a deal is over, and hides during one."""
        if self.review_panel is None:
            if view.phase is not Phase.OVER:
                if view.tricks:  # the review's worker loads the solver during the first deal, once a trick is played:
                    prepare_worker()  # eight tricks are time enough, and a page opened and left starts none
                return
            self.review_panel = ReviewPanel(self.css, layout=self._plain)
            children = list(self.children)
            children.insert(children.index(self._buttons_row) + 1, self.review_panel)
            self.children = children
        self.review_panel.show(view)

    def _render_events(self, view: View) -> None:
        if self._face_down and view.phase is not Phase.OVER and view.tricks:
            won = " · ".join(f"{s} {view.trick_counts[s]}" for s in SEATS)
            stacked = ngettext("<b>Tricks face down</b>: {count} trick stacked before its winner (tricks won: "
                               "{won}); the deal's history shows it once the deal is over.",
                               "<b>Tricks face down</b>: {count} tricks stacked before their winners (tricks won: "
                               "{won}); the deal's history shows them once the deal is over.", len(view.tricks))
            self.events_view.value = (f'<div class="{self._css("face-down")}">'
                                      f'{stacked.format(count=len(view.tricks), won=won)}</div>')
            return
        summary = escape(_("What happened in this deal (as you saw it)"))
        self.events_view.value = (f"<details><summary>{summary}</summary><ol>"
                                  + "".join(f"<li>{escape(e)}</li>" for e in view.events) + "</ol></details>")

    def _score_line(self, facts: SeatFacts) -> str:
        you, s = facts.seat, facts.scores
        ns = _("NS (you and {partner})").format(partner=you.partner) if you.team is Team.NS else "NS"
        ew = _("EW (you and {partner})").format(partner=you.partner) if you.team is Team.EW else "EW"
        return f"{ns} {s[Team.NS]} – {ew} {s[Team.EW]}"

    def _render_status(self, view: View, facts: SeatFacts) -> None:
        you = facts.seat
        total = facts.target  # the match's (an extended Rebour match plays to 10), not only the options'
        of = (_(" (to {points} points)").format(points=total) if total
              else _(" of {deals}").format(deals=facts.options.match_deals))
        head = _("Deal {number}{of} · {dealer} deals · you are {you}, your partner {partner}").format(
            number=facts.deal_number, of=of, dealer=view.dealer, you=you, partner=you.partner)
        if view.phase is Phase.OVER:
            if facts.is_over:
                winner = facts.winner
                end = (_("the match is drawn ({badge})").format(badge=badged('drawn-match')) if winner is None
                       else _("your side ({team}) wins the match").format(team=winner) if winner is you.team
                       else _("the other side ({team}) wins the match").format(team=winner))
                s = facts.scores
                now = _("Match over: NS {ns} – EW {ew}; {end}.").format(ns=s[Team.NS], ew=s[Team.EW], end=end) + (
                    f" {facts.again}" if facts.again else "")
            else:
                now = _("Deal over. {who}").format(who=facts.next_deal_by)
            # the verdict in one short line; the whole reason, and why not mordienne, on demand (issue 23 §6)
            why = mordienne_note(view.result.score, facts.options.mordienne)
            question = escape(_("Why not mordienne?") if why else _("Why?"))
            detail = " ".join(filter(None, [view.result.reason, why]))
            verdict = (f'{escape(view.result.verdict)} <details class="{self._css("verdict")}"><summary>{question}'
                       f'</summary><span class="{self._css("verdict-detail")}">{escape(detail)}</span></details>')
            now = f"{verdict} <b>{escape(now)}</b>"
        elif view.to_move is you:
            now = _(_YOUR_TURN[view.phase])
        else:
            now = escape(_("Waiting for {seat} to {what}…").format(seat=view.to_move,
                                                                    what=_(_TURN_WORDS[view.phase])))
        chant = ""
        if view.chant_answers:
            said = ", ".join((_("{seat} agrees") if a else _("{seat} declines")).format(seat=s)
                             for s, a in view.chant_answers)
            if view.chant_agreed:
                first, second = chant_recipients(view.dealer, view.options)
                outcome = _(": all agree, so {first} (the dealer's left) and {second} receive six stock cards each "
                            "and discard six").format(first=first, second=second)
            else:
                outcome = {False: _(": no chant, the stock stays unused"), None: ""}[view.chant_agreed]
            chant = "<div>" + _("The chant: {said}{outcome}.").format(said=escape(said), outcome=outcome) + "</div>"
        self.status.value = live_region(f"<div>{escape(head)}</div>{chant}<div>{now}</div>")
        score = _("Match score: {score}").format(score=self._score_line(facts))
        self.match_score.value = f'<div class="{self._css("score-line")}"><b>{escape(score)}</b></div>'
        counts = view.trick_counts
        won = " · ".join(f"{s} {counts[s]}" for s in SEATS)
        spoiled = sum(1 for t in view.tricks if t.winner is None)
        held = " · ".join(f"{s} {view.hand_sizes[s]}" for s in SEATS)
        line = _("tricks played: {played} of 9 · tricks won: {won} · spoiled: {spoiled} · cards on the table: "
                 "{table} · cards in hand: {held}").format(played=len(view.tricks), won=won, spoiled=spoiled,
                                                           table=len(view.trick), held=held)
        self.counts.value = f'<div class="{self._css("counts-line")}">{escape(line)}</div>'

    def _render_hand(self, view: View) -> None:
        deal, hand = (id(self._port), view.dealer, self._port.facts().deal_number), view.hand
        picking = view.phase is Phase.DISCARD and view.to_move is view.seat
        action = self._card_action(view, picking)
        renewed, same_deal = False, deal == self._slot_deal
        if not same_deal:
            self._slot_deal = deal
            self._slot_cards = [*hand, *[None] * (len(self._slots) - len(hand))]
            self._picked = set()
        elif not set(hand) <= set(self._slot_cards):  # cards came in (the stock): the hand is laid out again
            renewed = self._lay_out_again(hand, action)
            self._picked = set()
        if not picking:
            self._picked = set()
        deck = page_card_deck().deck
        if len(self._slots) < len(self._slot_cards):  # a hand larger than any before: new slots, shown at once
            for card in self._slot_cards[len(self._slots):]:
                self._slots.append(HandCard(self._on_card, self._parts, card, action, self.css))
                self._slot_keys.append(())
            renewed = True
        keys = [(card, action, card in self._picked, card is self._hint_card, deck)
                if card is not None and card in view.hand else None for card in self._slot_cards]
        gone = [i for i, (old, key) in enumerate(zip(self._slot_keys, keys)) if old and not key]
        moved = renewed or bool(gone)
        if any(self._slot_keys) and moved and not self._acting:
            self._rearm()  # cards shown move: before the first change, so that none is clickable where it lands
        for i, card in enumerate(self._slot_cards):
            key = keys[i]
            shown = key is not None
            if key == self._slot_keys[i]:
                continue  # unchanged: nothing to compute or send
            self._slot_keys[i] = key
            if shown:
                self._slots[i].show(card, action, selected=card in self._picked, hint=card is self._hint_card)
            else:
                self._slots[i].hide()
        fill_hand(self.hand_box, self._slots, again=renewed)
        if self._acting and same_deal and gone:
            self._focus_near(gone[0], keys)
        self._hand_head.value = _("<b>Your hand</b> ({what})").format(what=escape(self._hand_text(view, picking)))
        if picking or self._discard_row is not None:
            self._discard_parts()
            self._discard_row.layout.display = None if picking else "none"
            self._pick_count.value = _("{count} of 6 chosen").format(count=len(self.picked)) if picking else ""

    def _focus_near(self, place: int, keys: list) -> None:
        """Your card (or your discard) left the hand by your action, and the keyboard's focus with its button (hidden):
        the focus goes to the card now in its place (the next one, or else the last), so that a keyboard user goes on
        from the hand rather than from the top of the page. After a click the browser shows no focus ring for it
        (``:focus-visible``)."""
        shown = [i for i, key in enumerate(keys) if key]
        if shown:
            self._slots[next((i for i in shown if i > place), shown[-1])].button.focus()
        else:  # your last card: Next deal, once the deal is over (_focus_next_control)
            self._focus_wanted = True

    @contextlib.contextmanager
    def _own_action(self, answered: bool = False):
        """An action of this page's player (a move, Next deal, a signal, a hint), drawn once at the end
        (:meth:`_batched`). The hand's buttons pause first (:meth:`_rearm`), before anything of the action is sent:
        besides a card leaving the hand, its message can grow and a question's row above the hand can go, moving the
        hand under the pointer of a double click (on an answer, or on Hint just below the hand). Choosing a card for
        the discard does not pause them: a person may choose six cards in quick succession, and the hand does not
        move. ``answered``: the action answers a question, and once it is drawn the keyboard's focus goes to the
        hand (:meth:`_focus_hand`)."""
        self._rearm()
        self._acting = True  # the action's drawing does not switch the class back (that would cancel the pause)
        self._focus_wanted = False  # the focus is where this action left it, unless it says otherwise
        try:
            with self._batched():
                yield
        finally:
            self._acting = False
        if answered:
            self._focus_hand()

    def _focus_hand(self) -> None:
        """Your answer's button went with its question (the chant, the surrender), and the keyboard's focus with it:
        the focus goes to the first card of your hand, where your next action is (your discard or your card; no
        question of yours follows your own answer), so that a keyboard user goes on from there rather than from the
        top of the page."""
        first = self._first_card()
        if first is not None:
            first.focus()
        self._focus_wanted = True  # and again at your turn: the stock's cards, if they come, lay the hand out anew

    def _first_card(self) -> Optional[w.Button]:
        """The button of the first card shown in your hand (``None`` for an empty hand)."""
        return next((slot.button for slot, key in zip(self._slots, self._slot_keys) if key), None)

    def _focus_next_control(self, view: View, facts) -> None:
        """Your last action left the keyboard's focus nowhere (your last card, Next deal) or on a hand that may be
        laid out anew (your answer to the chant, and then the stock's cards: the buttons whose place changed are drawn
        anew in the page, and a focused one loses the focus): the control you need next gets it once it is there.
        That is Next deal once the deal is over, else, at your turn, your question's first answer or your hand's
        first card. Nothing moves the focus before then, and any action of yours cancels the wait."""
        target = None
        if view.phase is Phase.OVER:
            target = None if self.next_button.disabled else self.next_button
        elif view.to_move is self.you:
            answers = self.question_buttons
            target = answers[0] if answers else self._first_card()
        if target is not None:
            self._focus_wanted = False
            target.focus()

    def _rearm(self) -> None:
        """The cards of the hand are about to move (a card leaves and the cards after it close up, or the stock's
        cards come in): every card button ignores the pointer for 0.4 s again, as a button drawn anew does. The hand's
        box switches between two classes, each naming its own copy of the pause (``aluette-arming`` and
        ``aluette-rearming``, :mod:`aluette.widgets.common`), and a new animation name starts the pause again."""
        if "aluette-hand-moved" in self.hand_box._dom_classes:
            self.hand_box.remove_class("aluette-hand-moved")
        else:
            self.hand_box.add_class("aluette-hand-moved")

    def _lay_out_again(self, hand, action: str) -> bool:
        """The slots in the order of ``hand`` (the same deal's hand with cards added: the six stock cards), each
        card of the hand before keeping its slot, and so its button: a click made on the hand as drawn before, on
        its way while the stock arrives, names a card still in the hand and does what a click on it does now (before,
        7 of the 9 buttons were renewed and such a click was ignored). The new cards take the slots left, then new
        ones. Returns ``True`` (the hand's box is filled again)."""
        at = {card: i for i, card in enumerate(self._slot_cards) if card is not None and card in hand}
        spare = [i for i in range(len(self._slots)) if i not in at.values()]
        slots, keys, cards = [], [], []
        for card in hand:
            i = at[card] if card in at else (spare.pop(0) if spare else None)
            if i is None:
                slots.append(HandCard(self._on_card, self._parts, card, action, self.css))
                keys.append(())
            else:
                slots.append(self._slots[i])
                keys.append(self._slot_keys[i])
            cards.append(card)
        self._slots = slots + [self._slots[i] for i in spare]
        self._slot_keys = keys + [self._slot_keys[i] for i in spare]
        self._slot_cards = cards + [None] * len(spare)
        return True

    @staticmethod
    def _card_action(view: View, picking: bool) -> str:
        """What a click on a card of your hand does now (said in its accessible name)."""
        if picking:
            return _("choose it for your discard, or put it back")
        if view.phase is Phase.OVER:
            return _("the deal is over")
        if view.phase is Phase.PLAY:
            return _("play it") if view.to_move is view.seat else _("play it when it is your turn")
        return _("your card (no card is played before the first trick)")

    def _hand_text(self, view: View, picking: bool) -> str:
        if picking:
            return _("click six cards to choose your discard, then press Discard these six")
        if view.phase is Phase.OVER:
            return _("the match is over") if self._port.facts().is_over else _("the deal is over: press Next deal")
        if view.phase is Phase.PLAY:
            return _("click a card to play it")
        return _("the cards are played once the chant and the questions are answered")

    def _render_questions(self, view: View) -> None:
        chant, offering, answering = question_asked(view)
        self._questions.layout.display = None if chant or offering or answering else "none"
        keys = (("agree", "decline") if chant else ("offer", "play on") if offering
                else ("accept", "refuse") if answering else ())
        shown = (self._question, *(self._answer(key) for key in keys))
        if self._questions.children != shown:
            self._questions.children = shown
        if chant:
            first, second = chant_recipients(view.dealer, view.options)
            said = "; ".join((_("{seat} agrees") if a else _("{seat} declines")).format(seat=s)
                             for s, a in view.chant_answers) or _("nobody yet")
            self._question.value = _("<b>The chant:</b> if all four agree, the twelve stock cards go alternately to "
                                     "{first} and {second}, six each, and each discards six. So far: {said}.").format(
                first=first, second=second, said=escape(said))
        elif offering:
            self._question.value = _("<b>Surrender?</b> You speak for your side: offer to surrender (if they accept, "
                                     "they score 1 and the deal ends; if they refuse, they must make mordienne or "
                                     "your side scores 2), or play on.")
        elif answering:
            self._question.value = _("<b>{side} offers to surrender.</b> Accept: your side scores 1 and the deal "
                                     "ends. Refuse: your side must make mordienne (score 2), or {side} scores "
                                     "2.").format(side=view.surrender_by)
        else:
            self._question.value = ""

    def _render_table(self, view: View, facts: SeatFacts) -> None:
        you = facts.seat
        spoken = dict(view.surrender_spoken)
        cells = {}
        for seat in SEATS:
            marks = (_(" · deals") if seat is view.dealer else "") + (_(" · <b>to move</b>") if seat is view.to_move
                                                                      else "")
            head = f"<div><b>{seat}</b> ({escape(facts.players[seat])}){marks}</div>"
            body = "<div>" + _("tricks won: {count}").format(count=view.trick_counts[seat]) + "</div>"
            if seat is not you:
                body += f"<div>{_back()} × {view.hand_sizes[seat]}</div>"
            else:
                held = view.hand_sizes[seat]
                mine = ngettext("{count} card in your hand, below", "{count} cards in your hand, below", held)
                body += f"<div>{mine.format(count=held)}</div>"
            if seat in spoken:
                said = _("offers to surrender") if spoken[seat] else _("plays on")
                body += f"<div><i>{said}</i></div>"
            colour = "#fff3c4" if seat is view.to_move else "transparent"
            cells[seat] = f'<div style="background:{colour};border-radius:8px;padding:2px 6px">{head}{body}</div>'
        centre, deck = "", page_card_deck().deck
        if view.trick or not view.tricks:
            centre = trick_html(view.trick, title=_("Trick {number}, on the table").format(
                number=len(view.tricks) + 1), deck=deck)
            if not view.trick:
                centre += "<div><i>" + _("No card played yet.") + "</i></div>"
        if view.tricks:
            last = view.tricks[-1]
            title = (_("Trick {number}, the last one") if view.trick else _("Trick {number}")).format(
                number=last.number)
            centre += trick_html(last.plays, title=title, winner=last.winner, spoiled=last.spoiled,
                                 width=54 if not view.trick else 36, deck=deck)
            centre += f'<div class="{self._css("reason")}">{escape(trick_reason(last))}</div>'
        self.table.value = round_table_html(cells, centre=centre, css_class=f"aluette-table {self.css}-table-round")

    def _render_signals(self, view: View, facts: SeatFacts) -> None:
        you = facts.seat
        partner = [r.describe() for r in view.signals if r.seat is you.partner]
        mine = [r.describe() for r in view.signals if r.seat is you]
        none = "<li><i>" + _("none yet") + "</i></li>"
        rows = "".join(f"<li>{escape(t)}</li>" for t in partner) or none
        yours = "".join(f"<li>{escape(t)}</li>" for t in mine) or none
        if not facts.signals:
            self.signals_view.value = _("<b>Signals:</b> off in this match (nobody signals).")
        else:
            self.signals_view.value = (_("<b>Your partner's signals</b> (only you see them):") + f"<ul>{rows}</ul>"
                                       + _("<b>Your signals</b> (only your partner sees them):") + f"<ul>{yours}</ul>"
                                       + "<div>" + _("Signal to your partner (honest signals only):") + "</div>")
        keys = list(self._port.legal_signals()) if facts.signals else []  # from your own hand and signals only
        while len(self.signal_buttons) < len(keys):
            button = self._button("", "signal", None)
            button.on_click(self._on_signal)
            self.signal_buttons.append(button)
            self._signal_keys.append(None)
        for i, button in enumerate(self.signal_buttons):
            key = keys[i] if i < len(keys) else None
            if key == self._signal_keys[i]:
                continue  # unchanged
            self._signal_keys[i] = key
            kind = signal_for(key) if key is not None else None
            with button.hold_sync():
                button.description = _(kind.what) if kind else ""
                button.tooltip = _("gesture: {gesture}").format(gesture=_(kind.gesture)) if kind else ""
        shown = tuple(self.signal_buttons[:len(keys)])  # a button out of the row is empty and hidden
        if self._signal_row.children != shown:
            self._signal_row.children = shown

    def _render_reached(self, view: View) -> None:
        outcomes = [t.winner for t in view.tricks]
        rows = []
        for n, custom in ((2, _("turns one of their tricks face up")), (3, _("turns two face up"))):
            seat = first_to_reach(outcomes, n)
            who = _("{seat}, who {custom}").format(seat=seat, custom=custom) if seat is not None else _("nobody yet")
            first = _("first to {count} tricks: {who}").format(count=n, who=who)
            rows.append(f"<li>{escape(first)}</li>")
        self.reached.value = ("<div>" + _("<b>First to reach</b> (pagat's custom)") + "</div><ul>" + "".join(rows)
                              + "</ul>")

    def _render_scores(self, facts: SeatFacts) -> None:
        key = (id(self._port), facts.deal_number, facts.awaiting_next_deal or facts.is_over)
        if key == self._score_key:
            return
        self._score_key = key
        sheet = self._port.score_sheet()
        # in a region that scrolls sideways when the sheet is wider than the page (a phone), focusable so that a
        # keyboard scrolls it too
        self.score_view.value = (_("<b>Score sheet</b>: {score}").format(score=escape(self._score_line(facts)))
                                 + f'<div class="{self._css("sheet")}" role="region" tabindex="0" '
                                 + 'aria-label="' + escape(_("Score sheet")) + '">'
                                 + sheet_html(sheet, classes=self._css("score-sheet"), border=0) + "</div>")
