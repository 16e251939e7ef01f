"""Widget for the "Play a match" notebook (08): you sit at S, a signalling :class:`~aluette.bots.HeuristicBot`
partner sits at N, and two bots (heuristic or random) sit at E and W, for a whole :class:`~aluette.Match`.

The widget is a view of a :class:`~aluette.session.MatchSession` (the match, who plays each seat, the bots' pauses,
the events): it observes the session's events and draws; its buttons submit South's moves to the session
(:meth:`~aluette.session.MatchSession.submit`), which the engine checks. Every rule is the engine's; the bots are
:mod:`aluette.bots`.

Secrecy (quality bar of this project): every picture and text is built from ``session.view(Seat.S)``, a
:class:`~aluette.View` that holds South's own hand, the cards played, the public answers and scores, and the
signals of South's partnership; never another seat's unplayed card, the unused stock or another seat's discards.
Widget traits reach the browser even when hidden, so no trait is ever given anything else. The audit of any widget
tree is :func:`state_problems` (built on :mod:`aluette.secrecy`).

Bots' pauses: the session says which bot moves next and after what pause (``bot_delay``, a trait linked to the
pause drop-down); the widget waits on the kernel's asyncio event loop (``loop.call_later``), one move per call, so
the kernel keeps handling clicks between bot moves (a click out of turn gets a message). With ``bot_delay=0``, or
outside a running event loop (a plain script, pytest), the bots move at once, inside the same call: the state never
depends on a timer to be right.
"""

from __future__ import annotations

import asyncio
import contextlib
import traceback
from html import escape
from typing import Iterable, Optional, Union

import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ..bot_protocol import Decision
from ..bots import RandomBot
from ..cards import Card, CardLike
from ..deal import Deal, Phase, View
from ..errors import AluetteError, DealOverError
from ..match import Match
from ..moves import ChantAnswer, Discard, Play, Signal, SurrenderAnswer, SurrenderOffer
from ..options import Options, SurrenderUntil
from ..pictures import back_svg, round_table_html, trick_html
from ..scoring import explain_mordienne, first_to_reach
from ..secrecy import secrecy_problems
from ..seats import SEATS, Seat
from ..session import OPPONENTS, MatchSession, SessionEvent, check_bot_delay
from ..signals import signal_for
from .common import (CardControl, CardParts, MessageArea, SeedBox, card_label, card_size_control, card_style,
                     card_words, friendly, live_region, no_null_tooltips, plural, reachable_widgets, seed_from_text,
                     sheet_html, state_text, styled)

__all__ = ["MatchTable", "HandCard", "FORMATS", "mordienne_note", "question_asked", "show_questions", "YOU", "PARTNER",
           "parse_seed", "short_label", "state_problems"]

#: Your seat and your partner's.
YOU, PARTNER = Seat.S, Seat.N

#: The match formats: key → (label, the options it sets). Five deals: the seed sheet and pagat; first side to 5
#: points: the Vendée and Breton descriptions (trictrac.net, olonnes.com, regles2jeux.fr).
FORMATS = {"deals": ("five deals", {"match_deals": 5, "target_points": None}),
           "points": ("first side to 5 points", {"target_points": 5})}

_SEED_MAX = 2 ** 32 - 1
_ROLE = {Seat.N: "your partner, a heuristic bot", Seat.S: "you"}
_BACK = back_svg(22)
_TURN_WORDS = {Phase.CHANT: "answer the chant", Phase.DISCARD: "discard", Phase.SURRENDER: "speak",
               Phase.ANNOUNCE: "announce mordienne", Phase.PLAY: "play"}  # what the seat to move does now

#: The answer buttons of the questions: key → (label, CSS class, button style, method, its argument).
_ANSWERS = {"agree": ("Agree to the chant", "aluette-match-chant-agree", "success", "answer_chant", True),
            "decline": ("Decline the chant", "aluette-match-chant-decline", "warning", "answer_chant", False),
            "offer": ("Offer to surrender", "aluette-match-surrender-offer", "warning", "offer_surrender", True),
            "play on": ("Play on", "aluette-match-surrender-play-on", "", "offer_surrender", False),
            "accept": ("Accept their surrender", "aluette-match-surrender-accept", "success", "answer_surrender",
                       True),
            "refuse": ("Refuse (we must make mordienne)", "aluette-match-surrender-refuse", "warning",
                       "answer_surrender", False)}

#: The table's own rules, in its style sheet (:func:`~aluette.widgets.common.card_style`): the widths and the
#: wrapping of its controls by CSS class, so that its widgets share one layout (each widget costs a message). Up to
#: 480 px wide (a phone held upright) the round table puts W and E side by side above the trick (beside it, the trick
#: would cover them), and the score sheet, in a region that scrolls sideways, is drawn tighter.
_MATCH_CSS = """
.aluette-match .aluette-match-seed { width: 190px; }
.aluette-match .aluette-match-opponents { width: 300px; }
.aluette-match .aluette-match-format { width: 280px; }
.aluette-match .aluette-match-option { width: 110px; }
.aluette-match .aluette-match-option-surrender-later { width: 130px; }
.aluette-match .aluette-match-delay { width: 200px; }
.aluette-match .aluette-match-auto { width: auto; }
.aluette-match .aluette-match-discard { width: 170px; }
.aluette-match .aluette-match-wrap { flex-wrap: wrap; }
.aluette-match .aluette-match-top { align-items: flex-start; }
.aluette-match .aluette-match-side { flex: 1 1 300px; min-width: 260px; }
.aluette-match .aluette-match-question { flex: 1 0 100%; }
.aluette-match .aluette-match-sheet { overflow-x: auto; contain: inline-size; }
@media (max-width: 480px) {
  .aluette-match .aluette-match-score-sheet th, .aluette-match .aluette-match-score-sheet td { padding: 2px 3px; }
  .aluette-match .aluette-match-round { grid-template-columns: auto auto !important; }
  .aluette-match .aluette-match-round > .aluette-seat-N { grid-area: 1 / 1 / 2 / 3 !important; }
  .aluette-match .aluette-match-round > .aluette-seat-W { grid-area: 2 / 1 !important; }
  .aluette-match .aluette-match-round > .aluette-seat-E { grid-area: 2 / 2 !important; }
  .aluette-match .aluette-match-round > div:not(.aluette-seat) { grid-area: 3 / 1 / 4 / 3 !important; }
  .aluette-match .aluette-match-round > .aluette-seat-S { grid-area: 4 / 1 / 5 / 3 !important; }
}
"""


def short_label(card: Card) -> str:
    """A card button's label: the code, and the nickname of the top eight (``"2C la Vache"``, ``"11B"``); the
    picture above the button shows the card, its tooltip the full name."""
    return f"{card.code} {card.nickname}" if card.nickname else card.code


def parse_seed(text: str) -> int:
    """A match seed from the seed box: a whole number from 0 to 2**32 - 1.

    Raises:
        AluetteError: anything else (the message quotes it).
    """
    return seed_from_text(text, _SEED_MAX)  # one seed check for every seed box (aluette.widgets.common)


class HandCard(CardControl):
    """A card of your hand: a button and then its picture, two widgets side by side in the hand's box (class
    ``aluette-card-pairs``: the picture is drawn under the transparent button, :func:`~aluette.widgets.common.
    card_style`), so that the picture is the button's target; one widget fewer per card than a
    :class:`~aluette.widgets.common.CardButton` (no box of its own), with the same interface
    (:class:`~aluette.widgets.common.CardControl`: :meth:`show`, :meth:`hide`, :meth:`click`, :attr:`label`,
    :attr:`card`). The picture (class ``aluette-match-card`` and ``aluette-card-picture``) carries the marks
    (``aluette-card-selected``, ``aluette-card-hint``); the button (``aluette-match-card-button``) the accessible
    name. A hidden card holds no card in any trait (secrecy).
    """

    def __init__(self, on_click, parts: CardParts, card: Card, action: str):
        self.picture = styled(w.HTML(layout=parts.layout, style=parts.picture_style), "aluette-card-picture",
                              "aluette-match-card")
        self.button = styled(w.Button(description="", tooltip="", layout=parts.layout, style=parts.button_style),
                             "aluette-card-button", "aluette-match-card-button")
        self.parts, self.card, self._last, self._on_click = parts, None, None, on_click
        self.button.on_click(lambda _: self.click())
        self.show(card, action)

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


class HintOnHand:
    """How a card table shows a hint (the match here and the play-together table, one way for both): the move and
    its reason in the message line, and the move marked on the hand, the card to play highlighted or the cards to
    discard picked. For a widget with ``message``, ``_hint_card``, ``_picked`` and ``_render``."""

    def _show_hint(self, decision: Decision, phase: Phase) -> Decision:
        self.message.ok(f"Hint: {decision.move}. Why: {decision.reason}.")
        if phase is Phase.PLAY:
            self._hint_card = decision.move.card
        elif phase is Phase.DISCARD:
            self._picked = set(decision.move.cards)
        self._render()
        return decision


class MatchTable(HintOnHand, w.VBox):
    """A whole match against bots: you at S, a signalling heuristic partner at N, two bots at E and W; a view of a
    :class:`~aluette.session.MatchSession` (:attr:`session`).

    Args:
        seed: the match seed (every deal's shuffle comes from it, :class:`aluette.Match`).
        opponents: ``"heuristic"`` or ``"random"`` (:data:`OPPONENTS`).
        options: the rule :class:`~aluette.Options` (default: mordienne and chant on, surrender off).
        bot_delay: seconds before each bot move (0: the bots answer at once); the trait :attr:`bot_delay`, linked to
            the pause drop-down.
        first_dealer: who deals first (the deal then passes to the left; :class:`aluette.Match`).

    Controls (CSS class in brackets, for browser tests):

    * set-up, applied by the next New match: ``seed_box`` (``aluette-match-seed``, a
      :class:`~aluette.widgets.common.SeedBox`: a bad value gets a message and the box shows the seed it had),
      ``opponents`` (``aluette-match-opponents``), ``option_boxes`` (``aluette-match-option`` and
      ``aluette-match-option-mordienne``, ``-chant``, ``-surrender``), ``surrender_late_box``
      (``aluette-match-option-surrender-later``: ``Options.surrender_until``, needs surrender), ``new_button``
      (``aluette-match-new``);
      ``delay_choice`` (``aluette-match-delay``: the bots' pause, at once); ``format`` (``aluette-match-format``:
      five deals or first side to 5 points), ``signals_box`` (``aluette-match-option-signals``), ``size_control``
      (``aluette-card-size``, :func:`~aluette.widgets.common.card_size_control`);
    * your hand (``hand_box``, ``aluette-match-hand``): one :class:`HandCard` per card (``card_buttons``), a button
      (``aluette-match-card-button``, named by the card in words and what a click does) over its picture
      (``aluette-match-card``): a click plays the card or, while you choose a discard, chooses it or puts it back,
      with ``discard_button`` (``aluette-match-discard``) and the count (``aluette-match-pick-count``);
    * questions (``aluette-match-questions``, text ``aluette-match-question``): ``chant_buttons[True/False]``
      (``aluette-match-chant-agree``, ``aluette-match-chant-decline``), ``surrender_buttons["offer"/"play on"/
      "accept"/"refuse"]`` (``aluette-match-surrender-offer``, ``-play-on``, ``-accept``, ``-refuse``); one button
      per answer, so a late click never answers the next question; ``question_buttons``: those shown now;
    * ``signal_buttons`` (``aluette-match-signal``: the honest signals you may make now, ``visible_signal_buttons``;
      a button beyond them is out of its row and empty), ``hint_button`` (``aluette-match-hint``), ``next_button``
      (``aluette-match-next``).

    Each widget costs the classroom server a message per page: what a fresh table does not show (card slots beyond
    the hand, answer buttons of a question not asked, signal buttons, the discard row) is made when first needed,
    and the widgets share one layout and one style of each kind (widths by CSS class, :data:`_MATCH_CSS`).

    Views: ``status`` (``aluette-match-status``: deal, dealer, the chant's answers, whose turn, the result),
    ``counts`` (``aluette-match-counts``: tricks played, won per seat, spoiled, cards on the table and in each hand),
    ``message`` (``aluette-match-message``), ``table`` (``aluette-match-table``: the seats round the table with
    their trick counts and hand sizes as card backs, the trick on the table and the last trick in the centre),
    ``signals_view`` (``aluette-match-signals``), ``score_view`` (``aluette-match-scores``: the score sheet),
    ``events_view`` (``aluette-match-events``: the deal as South saw it).

    Python methods do what the buttons do: :meth:`play`, :meth:`answer_chant`, :meth:`discard`,
    :meth:`offer_surrender`, :meth:`answer_surrender`, :meth:`signal`, :meth:`hint`, :meth:`follow_hint`,
    :meth:`next_deal`, :meth:`new_match`, and :meth:`run_bots` (make the pending bot moves now); each move goes
    through :meth:`MatchSession.submit <aluette.session.MatchSession.submit>`.

    A click at the wrong moment (out of turn, a card already played, Next deal before the deal is over...) shows a
    message and changes nothing; the engine refuses every illegal move.

    Raises:
        AluetteError: a bad seed, opponents, options or pause.
    """

    #: The pause before each bot move, in seconds (0 to :data:`aluette.session.MAX_BOT_DELAY`); linked to
    #: :attr:`delay_choice` and passed to the session.
    bot_delay = traitlets.Float(0.4)

    def __init__(self, seed: int = 1, opponents: str = "heuristic", options: Optional[Options] = None,
                 bot_delay: float = 0.4, first_dealer: Union[Seat, str] = Seat.N, signals: bool = True):
        self._plain = w.Layout()  # the one layout of every widget here that never changes its own (below)
        super().__init__(layout=self._plain)
        self._first_dealer = Seat.parse(first_dealer)
        options = Options.coerce(options)
        if opponents not in OPPONENTS:
            raise AluetteError(f"unknown opponents {opponents!r}; known: {', '.join(OPPONENTS)}")
        self.bot_delay = check_bot_delay(bot_delay)
        self.internal_errors: list[str] = []  # exceptions in timer callbacks (bugs), kept for tests
        # the driver of the bots' pauses: one timer at a time, and a generation number so that a timer of a session
        # that has been replaced does nothing
        self._timer: Optional[asyncio.TimerHandle] = None
        self._generation = 0
        self._session: Optional[MatchSession] = None
        self._stop_observing = None
        self._batch = 0  # > 0 inside one of the view's actions: the session's events are drawn once at its end
        self._stale = False
        self._hint_card: Optional[Card] = None
        self._wait_note: Optional[str] = None  # the "not your turn" message shown, if any

        # One layout and one style of each kind for every widget that never changes them (widths and wrapping come
        # from the style sheet, by CSS class): each widget the browser gets costs the server a message. Only the
        # questions' box and the discard row, shown and hidden, have a layout of their own.
        plain = self._plain
        html_style, button_style = HTMLStyle(), w.ButtonStyle()
        checkbox_style, dropdown_style = CheckboxStyle(), DescriptionStyle()
        self._button_style = button_style

        # ---- set-up controls
        self.seed_box = SeedBox(parse_seed(seed), "aluette-match-seed", maximum=_SEED_MAX, layout=plain,
                                on_change=lambda number: self._on_settings_changed(),
                                message=lambda: self.message)
        self.opponents = self._w(w.Dropdown(options=[(label, key) for key, label in OPPONENTS.items()],
                                            value=opponents, style=dropdown_style,
                                            description="Opponents", layout=plain),
                                 "aluette-match-opponents")
        self.option_boxes = {}
        for name, label in (("mordienne", "mordienne"), ("chant", "chant"), ("surrender", "surrender")):
            box = self._w(w.Checkbox(value=getattr(options, name), description=label, indent=False,
                                     layout=plain, style=checkbox_style),
                          "aluette-match-option", f"aluette-match-option-{name}")
            self.option_boxes[name] = box
        self.surrender_late_box = self._w(
            w.Checkbox(value=options.surrender_until is SurrenderUntil.LAST_TRICK, description="surrender later",
                       indent=False, tooltip="with surrender: offered before any trick up to the last, not only the "
                                             "first (pagat gives no time: a choice of this tutorial)",
                       layout=plain, style=checkbox_style),
            "aluette-match-option", "aluette-match-option-surrender-later")
        self.signals_box = self._w(w.Checkbox(value=bool(signals), description="signals", indent=False,
                                              tooltip="untick to play without signals (pagat advises learning the "
                                                      "game without them first)",
                                              layout=plain, style=checkbox_style),
                                   "aluette-match-option", "aluette-match-option-signals")
        self.format = self._w(w.Dropdown(options=[(label, key) for key, (label, _) in FORMATS.items()],
                                         value="points" if options.target_points == 5 else "deals",
                                         description="Match", layout=plain, style=dropdown_style),
                              "aluette-match-format")
        self.new_button = self._w(w.Button(description="New match", icon="refresh", style=button_style,
                                           layout=plain,
                                           tooltip="start a match with the seed, opponents and options shown"),
                                  "aluette-match-new")
        pauses = sorted({0.0, 0.2, 0.4, 0.8, 1.5, self.bot_delay})  # a drop-down: a slider's handle has no name
        self.delay_choice = self._w(w.Dropdown(options=[(_pause_label(p), p) for p in pauses],
                                               value=self.bot_delay, description="Bot pause", style=dropdown_style,
                                               layout=plain), "aluette-match-delay")

        # ---- views
        def html(css):
            return self._w(w.HTML(layout=plain, style=html_style), css)

        self.status = html("aluette-match-status")
        self.match_score = html("aluette-match-score")
        self.reached = html("aluette-match-reached")
        self.counts = html("aluette-match-counts")
        self.table = html("aluette-match-table")
        self.signals_view = html("aluette-match-signals")
        self.score_view = html("aluette-match-scores")
        self.events_view = html("aluette-match-events")
        self.message = self._w(MessageArea(layout=plain, style=html_style), "aluette-match-message")
        self._html = html

        # ---- your hand: card pictures that are buttons (play, or choose for the discard), one slot per card, made
        # when a hand first needs it (nine, up to fifteen with six stock cards); a slot whose card has gone is hidden
        self._parts = CardParts(layout=plain, picture_style=html_style, button_style=button_style)
        self._slots: list[HandCard] = []
        self._slot_cards: list[Optional[Card]] = []
        self._slot_keys: list = []  # what each slot shows now, to update only what changes
        self._slot_deal: Optional[tuple] = None  # (session, deal number) the slots were laid out for
        self._picked: set[Card] = set()
        self._hand_head = html("aluette-match-hand-head")
        self.hand_box = self._w(w.HBox(layout=plain), "aluette-match-hand", "aluette-match-wrap",
                                "aluette-card-pairs")
        # the discard row: made the first time you choose a discard (most deals have none)
        self._discard_row: Optional[w.HBox] = None
        self._discard_button: Optional[w.Button] = None
        self._pick_count: Optional[w.HTML] = None

        # ---- questions: one button per answer, so a late click can never answer another question; the question
        # and the buttons of its answers (made when first asked) are the children of one box, the buttons on a line
        # of their own
        self._answer_buttons: dict[str, w.Button] = {}
        self._question = html("aluette-match-question")
        self._questions = self._w(w.HBox([self._question], layout=w.Layout(display="none")),
                                  "aluette-match-questions", "aluette-match-wrap")

        self.hint_button = self._button("Hint", "aluette-match-hint", self.hint, "info")
        self.hint_button.icon = "lightbulb-o"
        self.hint_button.tooltip = "what the heuristic bot would do in your place, and why (from your view only)"
        self.next_button = self._button("Next deal", "aluette-match-next", self.next_deal, "primary")
        # the signals you may make now, one button each (children of the signals' row; made when first needed)
        self.signal_buttons: list[w.Button] = []
        self._signal_keys: list[Optional[str]] = []
        self._signal_row = self._w(w.HBox(layout=plain), "aluette-match-wrap")

        self.new_button.on_click(lambda _: self._on_new())
        self.opponents.observe(lambda change: self._on_settings_changed(), names="value")
        for box in (*self.option_boxes.values(), self.surrender_late_box, self.signals_box, self.format):
            box.observe(lambda change: self._on_settings_changed(), names="value")
        self.observe(self._on_bot_delay, names="bot_delay")  # before the link: a new pause joins the choices
        w.link((self.delay_choice, "value"), (self, "bot_delay"))

        self.size_control = card_size_control(layout=plain)

        def row(children, *css):
            return self._w(w.HBox(children, layout=plain), "aluette-match-wrap", *css)

        self.children = [
            card_style(_MATCH_CSS, layout=plain, style=html_style),
            row([self.seed_box, self.opponents, self.new_button]),
            row([self.format, *self.option_boxes.values(), self.surrender_late_box, self.signals_box,
                 self.delay_choice]),
            self.size_control,
            # the status beside the table, so a projector shows the table, the status and the hand at once
            row([self.table, self._w(w.VBox([self.match_score, self.status, self.counts, self.reached],
                                            layout=plain), "aluette-match-side")], "aluette-match-top"),
            self._questions, self.message,
            self._hand_head, self.hand_box,
            w.HBox([self.hint_button, self.next_button], layout=plain),
            self.signals_view, self._signal_row,
            self.score_view, self.events_view]
        self.add_class("aluette-match")
        self.add_class("aluette-sized")
        self._score_key = None
        self._start(parse_seed(seed), self.opponents.value, options, bool(signals))
        no_null_tooltips(self)

    @traitlets.validate("bot_delay")
    def _valid_bot_delay(self, proposal) -> float:
        return check_bot_delay(proposal["value"])  # AluetteError for a bad pause, before anything changes

    # ------------------------------------------------------------------ read-only state
    @property
    def session(self) -> MatchSession:
        """The match session this widget shows (replaced by :meth:`new_match`)."""
        return self._session

    @property
    def match(self) -> Match:
        """The engine's match (Python side only: the browser gets only what South may see)."""
        return self._session.match

    @property
    def deal(self) -> Deal:
        """The current deal of :attr:`match`."""
        return self._session.deal

    @property
    def view(self) -> View:
        """What you, South, may see of the current deal: the only source of every display."""
        return self._session.view(YOU)

    @property
    def bots(self) -> dict:
        """The bots at N, E and W (see :func:`aluette.session.make_bots`)."""
        return self._session.bots

    @property
    def waiting_for_bots(self) -> bool:
        """True while a bot move is scheduled (``bot_delay`` > 0)."""
        return self._timer is not None

    @property
    def card_buttons(self) -> tuple[HandCard, ...]:
        """The card pictures (buttons) of the cards now in your hand, high to low: a click plays the card, or, while
        you choose a discard, chooses it (or puts it back)."""
        return tuple(b for b, c in zip(self._slots, self._slot_cards) if c is not None and self._held(c))

    def button_for(self, card: CardLike) -> HandCard:
        """The card picture (button) of ``card`` in your hand.

        Raises:
            UnknownCardError: not a card. AluetteError: you do not hold it.
        """
        card = Card.parse(card)
        for button, slot_card in zip(self._slots, self._slot_cards):
            if slot_card is card and self._held(card):
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
        """``{"offer", "play on", "accept", "refuse"}``: the surrender's answer buttons (shown while you are
        asked)."""
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

    # ------------------------------------------------------------------ actions (what the buttons do)
    @friendly()
    def play(self, card: CardLike) -> None:
        """Play ``card`` from your hand (as clicking its button).

        Raises (shown as a message when called from a button): UnknownCardError, NotYourTurnError, WrongPhaseError,
        CardNotInHandError, DealOverError.
        """
        card = Card.parse(card)
        self._check_your_turn("play a card")
        self._submit(Play(YOU, card), f"You played {card_label(card)}.")

    @friendly()
    def answer_chant(self, agree: bool) -> None:
        """Agree to (``True``) or decline the chant when you are asked."""
        self._check_your_turn("answer the chant")
        self._submit(ChantAnswer(YOU, bool(agree)),
                     "You agree to the chant." if agree else "You decline the chant: the stock stays unused.")

    @friendly()
    def discard(self, cards: Union[str, Iterable[CardLike], None] = None) -> None:
        """Discard six cards after receiving six from the stock (default: the toggled ones)."""
        self._check_your_turn("discard")
        chosen = self.picked if cards is None else cards
        self._submit(Discard(YOU, chosen), "You discarded six cards face down; you hold nine again.")

    @friendly()
    def offer_surrender(self, offer: bool = True) -> None:
        """Offer your side's surrender (``True``) or play on, when you speak for your side."""
        self._check_your_turn("speak")
        self._submit(SurrenderOffer(YOU, bool(offer)), "You offer to surrender." if offer else "You play on.")

    @friendly()
    def answer_surrender(self, accept: bool) -> None:
        """Accept (a sure point) or refuse (then your side must make mordienne) the other side's surrender."""
        self._check_your_turn("answer")
        self._submit(SurrenderAnswer(YOU, bool(accept)),
                     "You accept the surrender." if accept else "You refuse: your side must make mordienne.")

    @friendly()
    def signal(self, key: str) -> None:
        """Make signal ``key`` (:data:`aluette.SIGNALS`) to your partner; honest only (the engine checks).

        Raises (shown as a message): BadSignalError in a match without signals."""
        with self._batched():
            self._session.submit(YOU, Signal(YOU, key))
            record = next(r for r in reversed(self.view.signals) if r.seat is YOU)
            self.message.ok(f"You signal to your partner: {record.describe().removeprefix('S signals ')}.")

    @friendly()
    def hint(self) -> Optional[Decision]:
        """What :class:`~aluette.bots.HeuristicBot` (reading signals) would do in your place, from your view only;
        shown as a message (the suggested card is highlighted, or the suggested discard toggled). Returns the
        :class:`~aluette.bots.Decision`, or ``None`` when it is not your turn."""
        decision = self._session.hint(YOU)
        view = self.view
        if decision is None:
            self.message.ok(self._not_your_turn_text(view, "No hint now"))
            return None
        return self._show_hint(decision, view.phase)

    def follow_hint(self) -> Optional[Decision]:
        """Make the hint's move (for a demonstration or a test); ``None`` when it is not your turn."""
        decision = self.hint()
        if decision is not None:
            with self._batched():
                self._session.submit(YOU, decision.move)
                self._drive()
        return decision

    @friendly()
    def next_deal(self) -> None:
        """Start the next deal once the current one is over.

        Raises (shown as a message): WrongPhaseError before the deal is over; DealOverError once the match is over.
        """
        if self.match.is_over:
            raise DealOverError("the match is over: press New match to play another")
        with self._batched():
            self._session.next_deal()
            self.message.ok(f"Deal {self.match.deal_number}: {self.view.dealer} deals.")
            self._drive()

    @friendly()
    def new_match(self, seed: Union[int, str, None] = None) -> None:
        """Start a new match with ``seed`` (default: the seed box), the opponents and the options shown.

        Raises (shown as a message): AluetteError for a bad seed or options; the current match then goes on.
        """
        seed = self.seed_box.seed_value if seed is None else parse_seed(seed)
        options = Options(**{name: box.value for name, box in self.option_boxes.items()},
                          surrender_until=(SurrenderUntil.LAST_TRICK if self.surrender_late_box.value
                                           else SurrenderUntil.FIRST_TRICK),
                          **FORMATS[self.format.value][1])
        self._start(seed, self.opponents.value, options, self.signals_box.value)
        self.seed_box.seed_value = seed
        self.message.ok(f"New match, seed {seed}, against {OPPONENTS[self.opponents.value]}.")

    def run_bots(self) -> None:
        """Make every bot move due now, without the pauses (until it is your turn or the deal is over)."""
        self._cancel_timer()
        self._drive(delay=0.0)

    def close(self) -> None:
        """Close this widget and every widget it made (their models leave the browser)."""
        if getattr(self, "_timer", None) is not None:  # also called by __del__, maybe after a failed __init__
            self._cancel_timer()
        self._generation = getattr(self, "_generation", 0) + 1
        if getattr(self, "_stop_observing", None) is not None:
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
    def _button(self, text: str, css: str, handler, style: str = "") -> w.Button:
        """A button of the table (the shared layout and style; class ``css``) that calls ``handler()``."""
        button = self._w(w.Button(description=text, button_style=style, tooltip="", layout=self._plain,
                                  style=self._button_style), css, "aluette-match-auto")
        if handler is not None:
            button.on_click(lambda _: handler())
        return button

    def _answer(self, key: str) -> w.Button:
        """The answer button ``key`` of :data:`_ANSWERS`, made the first time it is asked for."""
        if key not in self._answer_buttons:
            label, css, style, method, argument = _ANSWERS[key]
            action = getattr(self, method)
            self._answer_buttons[key] = self._button(label, css, lambda: action(argument), style)
        return self._answer_buttons[key]

    def _discard_parts(self) -> None:
        """The discard row (the Discard button and the count of cards chosen) under the hand, made the first time
        it is needed and then shown or hidden."""
        if self._discard_row is not None:
            return
        self._discard_button = self._button("Discard these six", "aluette-match-discard", self._on_discard,
                                            "primary")
        self._pick_count = self._html("aluette-match-pick-count")
        self._discard_row = self._w(w.HBox([self._discard_button, self._pick_count],
                                           layout=w.Layout(display="none")), "aluette-match-discard-row")
        children = list(self.children)
        children.insert(children.index(self.hand_box) + 1, self._discard_row)
        self.children = children

    # ------------------------------------------------------------------ callbacks
    def _on_card(self, card: Card) -> None:
        if not self._held(card):
            self.message.error(f"{card_label(card)} is no longer in your hand (already played or discarded).")
            return
        if self._picking():
            self.pick(card)
            return
        self.play(card)

    @friendly()
    def pick(self, card: CardLike) -> None:
        """Choose ``card`` for your discard, or put it back if chosen (as clicking its picture while you discard).

        Raises (shown as a message): UnknownCardError; AluetteError when you are not choosing a discard now or do
        not hold the card."""
        card = Card.parse(card)
        if not self._picking():
            raise AluetteError(self._not_your_turn_text(self.view, "No discard to choose now"))
        if not self._held(card):
            raise AluetteError(f"you do not hold {card_label(card)}")
        self._picked.symmetric_difference_update({card})
        chosen = len(self._picked)
        self.message.ok(f"{card_words(card)} {'chosen for' if card in self._picked else 'back from'} your discard "
                        f"({chosen} of 6 chosen).")
        self._render_hand(self.view)

    def _on_discard(self) -> None:
        if not self._picking():
            self.message.error(self._not_your_turn_text(self.view, "No discard to make now"))
            return
        self.discard()

    def _on_signal(self, button: w.Button) -> None:
        key = self._signal_keys[self.signal_buttons.index(button)]
        if key is None:
            self.message.error("That signal is no longer available.")
            return
        self.signal(key)

    def _on_new(self) -> None:
        self.new_match()

    def _on_settings_changed(self) -> None:
        self.message.ok("Press New match to start a match with this seed, these opponents and options.")

    def _on_bot_delay(self, change) -> None:
        pause = change["new"]
        choices = [value for _, value in self.delay_choice.options]
        if pause not in choices:  # a pause set from Python joins the drop-down's choices
            self.delay_choice.options = [(_pause_label(p), p) for p in sorted({*choices, pause})]
        if self._session is not None:
            self._session.bot_delay = pause

    # ------------------------------------------------------------------ the session and the bots' pauses
    def _start(self, seed: int, opponents: str, options: Options, signals: bool) -> None:
        session = MatchSession.against_bots(seed, opponents=opponents, options=options, signals=signals, seat=YOU,
                                            first_dealer=self._first_dealer, bot_delay=self.bot_delay)  # raises first
        self._cancel_timer()
        self._generation += 1
        if self._stop_observing is not None:
            self._stop_observing()
        self._session = session
        self._stop_observing = session.observe(self._on_event)
        self._score_key = None
        self._hint_card = None
        self.message.clear()
        self._drive()

    def _on_event(self, event: SessionEvent) -> None:
        """A change in the session: drawn at once, or at the end of the view's action under way."""
        if event.kind in ("move", "deal"):
            self._hint_card = None
        if self._batch:
            self._stale = True
        else:
            self._render()

    @contextlib.contextmanager
    def _batched(self):
        """Inside: the session's events are drawn once, at the end."""
        self._batch += 1
        try:
            yield
        finally:
            self._batch -= 1
            if not self._batch and self._stale:
                self._stale = False
                self._render()

    def _submit(self, move, done: str) -> None:
        """South's move through the session (which checks it), the message, then the bots."""
        with self._batched():
            self._session.submit(YOU, move)  # raises and changes nothing when refused
            self.message.ok(done)
            self._drive()

    def _drive(self, delay: Optional[float] = None) -> None:
        """The bots' moves the session says are due: now (no pause or no event loop), or the next one later."""
        with self._batched():
            while (turn := self._session.next_bot) is not None:
                pause = turn.delay if delay is None else delay
                loop = _running_loop() if pause > 0 else None
                if loop is not None:
                    self._cancel_timer()
                    self._timer = loop.call_later(pause, self._bot_step, self._generation)
                    break
                self._session.step()
            self._stale = True  # always drawn once at the end

    def _bot_step(self, generation: int) -> None:
        if generation != self._generation:
            return  # a timer of a session that has been replaced
        self._timer = None
        try:
            with self._batched():
                if self._session.next_bot is not None:
                    self._session.step()
                self._drive()
        except Exception:  # a bug: say so rather than lose it in the event loop's log
            self.internal_errors.append(traceback.format_exc())  # kernel side only: it may name hidden cards
            self.message.error("Internal error while the bots played (a bug; the details are in "
                               "MatchTable.internal_errors). Press New match to go on.")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _check_your_turn(self, what: str) -> None:
        view = self._session.view(YOU, events=False)
        if view.to_move is not YOU:
            text = self._not_your_turn_text(view, f"You cannot {what} now")
            self._wait_note = text  # cleared when your turn comes (see _render)
            raise _NotNow(text)

    # ------------------------------------------------------------------ drawing (from South's view only)
    def _held(self, card: Card) -> bool:
        return card in self._hand_set

    def _picking(self) -> bool:
        view = self._session.view(YOU, events=False)
        return view.phase is Phase.DISCARD and view.to_move is YOU

    def _not_your_turn_text(self, view: View, head: str) -> str:
        if view.phase is Phase.OVER:
            after = "the match is over: press New match" if self.match.is_over else "press Next deal"
            return f"{head}: deal {self.match.deal_number} is over; {after}."
        what = _TURN_WORDS[view.phase]
        if view.to_move is YOU:
            return f"{head}: it is your turn to {what}."
        pause = " (the bots move after a short pause)" if self._timer is not None else ""
        return f"{head}: it is {view.to_move}'s turn to {what}{pause}."

    def _render(self) -> None:
        view = self._session.view(YOU)
        self._hand_set = frozenset(view.hand)
        if self._wait_note is not None and view.to_move is YOU:
            if self.message.last_error == self._wait_note:
                self.message.clear()
            self._wait_note = None
        self._render_status(view)
        self._render_hand(view)
        self._render_questions(view)
        self._render_table(view)
        self._render_signals(view)
        self._render_scores()
        self._render_reached(view)
        self.next_button.disabled = not self.match.awaiting_next_deal
        self.events_view.value = ("<details><summary>What happened in this deal (as you saw it)</summary><ol>"
                                  + "".join(f"<li>{escape(e)}</li>" for e in view.events) + "</ol></details>")

    def _render_status(self, view: View) -> None:
        match = self.match
        total = match.options.target_points
        of = f" (to {total} points)" if total else f" of {match.options.match_deals}"
        head = f"Deal {match.deal_number}{of} · {view.dealer} deals · you are S, your partner N"
        if view.phase is Phase.OVER:
            s = match.scores
            if match.is_over:
                winner = match.winner
                end = ("the match is drawn" if winner is None
                       else f"{'your side' if winner is YOU.team else 'the other side'} ({winner}) wins the match")
                now = f"Match over: NS {s['NS']} – EW {s['EW']}; {end}. Press New match to play again."
            else:
                now = "Deal over. Press Next deal."
            why = mordienne_note(view.result.score, match.options.mordienne)
            now = f"{escape(view.result.reason)}{escape(' ' + why if why else '')} <b>{now}</b>"
        elif view.to_move is YOU:
            now = {Phase.CHANT: "<b>Your turn:</b> do you agree to the chant?",
                   Phase.DISCARD: "<b>Your turn:</b> choose six cards to discard.",
                   Phase.SURRENDER: "<b>Your turn:</b> answer the surrender question.",
                   Phase.PLAY: "<b>Your turn:</b> click a card to play it."}[view.phase]
        else:
            what = _TURN_WORDS[view.phase]
            now = f"Waiting for {view.to_move} to {what}…"
        chant = ""
        if view.chant_answers:
            said = ", ".join(f"{s} {'agrees' if a else 'declines'}" for s, a in view.chant_answers)
            if view.chant_agreed:
                first, second = self._session.chant_recipients()
                outcome = (f": all agree, so {first} (the dealer's left) and {second} receive six stock cards each "
                           f"and discard six")
            else:
                outcome = {False: ": no chant, the stock stays unused", None: ""}[view.chant_agreed]
            chant = f"<div>The chant: {escape(said)}{outcome}.</div>"
        s = match.scores
        score = f"Match score: NS (you and N) {s['NS']} – EW {s['EW']}"
        self.status.value = live_region(f"<div>{escape(head)}</div>{chant}<div>{now}</div>")
        self.match_score.value = f'<div class="aluette-match-score-line"><b>{escape(score)}</b></div>'
        counts = view.trick_counts
        won = " · ".join(f"{s} {counts[s]}" for s in SEATS)
        spoiled = sum(1 for t in view.tricks if t.winner is None)
        held = " · ".join(f"{s} {view.hand_sizes[s]}" for s in SEATS)
        self.counts.value = (f'<div class="aluette-match-counts-line">tricks played: {len(view.tricks)} of 9 · '
                             f"tricks won: {won} · spoiled: {spoiled} · cards on the table: {len(view.trick)} · "
                             f"cards in hand: {held}</div>")

    def _render_hand(self, view: View) -> None:
        deal, hand = (id(self._session), self.match.deal_number), view.hand
        if deal != self._slot_deal or not set(hand) <= set(self._slot_cards):
            self._slot_deal = deal
            self._slot_cards = [*hand, *[None] * (len(self._slots) - len(hand))]
            self._picked = set()
        picking = self._picking()
        if not picking:
            self._picked = set()
        action = self._card_action(view)
        if len(self._slots) < len(self._slot_cards):  # a hand larger than any before: new slots, shown at once
            for card in self._slot_cards[len(self._slots):]:
                self._slots.append(HandCard(self._on_card, self._parts, card, action))
                self._slot_keys.append(())
            self.hand_box.children = tuple(x for slot in self._slots for x in slot.widgets)
        for i, card in enumerate(self._slot_cards):
            shown = card is not None and card in self._hand_set
            key = (card, action, card in self._picked, card is self._hint_card) if shown else None
            if key == self._slot_keys[i]:
                continue  # unchanged: nothing to compute or send
            self._slot_keys[i] = key
            if shown:
                self._slots[i].show(card, action, selected=card in self._picked, hint=card is self._hint_card)
            else:
                self._slots[i].hide()
        self._hand_head.value = f"<b>Your hand</b> ({escape(self._hand_text(view))})"
        if picking or self._discard_row is not None:
            self._discard_parts()
            self._discard_row.layout.display = None if picking else "none"
            self._pick_count.value = f"{len(self.picked)} of 6 chosen" if picking else ""

    def _card_action(self, view: View) -> str:
        """What a click on a card of your hand does now (said in its accessible name)."""
        if self._picking():
            return "choose it for your discard, or put it back"
        if view.phase is Phase.OVER:
            return "the deal is over"
        if view.phase is Phase.PLAY:
            return "play it" if view.to_move is YOU else "play it when it is your turn"
        return "your card (no card is played before the first trick)"

    def _hand_text(self, view: View) -> str:
        if self._picking():
            return "click six cards to choose your discard, then press Discard these six"
        if view.phase is Phase.OVER:
            return "the deal is over: press Next deal" if not self.match.is_over else "the match is over"
        if view.phase is Phase.PLAY:
            return "click a card to play it"
        return "the cards are played once the chant and the questions are answered"

    def _render_questions(self, view: View) -> None:
        chant, offering, answering = question_asked(view)
        self._questions.layout.display = None if chant or offering or answering else "none"
        keys = (("agree", "decline") if chant else ("offer", "play on") if offering
                else ("accept", "refuse") if answering else ())
        shown = (self._question, *(self._answer(key) for key in keys))
        if self._questions.children != shown:
            self._questions.children = shown
        if chant:
            first, second = self._session.chant_recipients()
            said = "; ".join(f"{s} {'agrees' if a else 'declines'}" for s, a in view.chant_answers) or "nobody yet"
            self._question.value = (f"<b>The chant:</b> if all four agree, the twelve stock cards go alternately to "
                                    f"{first} and {second}, six each, and each discards six. So far: {escape(said)}.")
        elif offering:
            self._question.value = ("<b>Surrender?</b> You speak for your side: offer to surrender (if they accept, "
                                    "they score 1 and the deal ends; if they refuse, they must make mordienne or "
                                    "your side scores 2), or play on.")
        elif answering:
            self._question.value = (f"<b>{view.surrender_by} offers to surrender.</b> Accept: your side scores 1 "
                                    f"and the deal ends. Refuse: your side must make mordienne (score 2), or "
                                    f"{view.surrender_by} scores 2.")
        else:
            self._question.value = ""

    def _render_table(self, view: View) -> None:
        spoken = dict(view.surrender_spoken)
        cells = {}
        for seat in SEATS:
            role = _ROLE.get(seat, "an opponent, " + ("a heuristic bot" if self.opponents_kind == "heuristic"
                                                      else "a random bot"))
            marks = (" · deals" if seat is view.dealer else "") + (" · <b>to move</b>" if seat is view.to_move
                                                                   else "")
            head = f"<div><b>{seat}</b> ({escape(role)}){marks}</div>"
            body = f"<div>tricks won: {view.trick_counts[seat]}</div>"
            if seat is not YOU:
                body += f"<div>{_BACK} × {view.hand_sizes[seat]}</div>"
            else:
                body += f"<div>{plural(view.hand_sizes[seat], 'card')} in your hand, below</div>"
            if seat in spoken:
                body += f"<div><i>{'offers to surrender' if spoken[seat] else 'plays on'}</i></div>"
            colour = "#fff3c4" if seat is view.to_move else "transparent"
            cells[seat] = f'<div style="background:{colour};border-radius:8px;padding:2px 6px">{head}{body}</div>'
        centre = ""
        if view.trick or not view.tricks:
            centre = trick_html(view.trick, title=f"Trick {len(view.tricks) + 1}, on the table")
            if not view.trick:
                centre += "<div><i>No card played yet.</i></div>"
        if view.tricks:
            last = view.tricks[-1]
            title = f"Trick {last.number}" + (", the last one" if view.trick else "")
            centre += trick_html(last.plays, title=title, winner=last.winner, spoiled=last.spoiled,
                                 width=54 if not view.trick else 36)
        self.table.value = round_table_html(cells, centre=centre, css_class="aluette-table aluette-match-round")

    @property
    def opponents_kind(self) -> str:
        """The opponents of the match in progress: ``"heuristic"`` or ``"random"``."""
        return "random" if isinstance(self._session.players[Seat.E], RandomBot) else "heuristic"

    def _render_signals(self, view: View) -> None:
        partner = [r.describe() for r in view.signals if r.seat is PARTNER]
        mine = [r.describe() for r in view.signals if r.seat is YOU]
        rows = "".join(f"<li>{escape(t)}</li>" for t in partner) or "<li><i>none yet</i></li>"
        yours = "".join(f"<li>{escape(t)}</li>" for t in mine) or "<li><i>none yet</i></li>"
        if not self._session.signals:
            self.signals_view.value = "<b>Signals:</b> off in this match (nobody signals)."
        else:
            self.signals_view.value = (f"<b>Your partner's signals</b> (only you see them):<ul>{rows}</ul>"
                                       f"<b>Your signals</b> (only your partner sees them):<ul>{yours}</ul>"
                                       f"<div>Signal to your partner (honest signals only):</div>")
        keys = self._session.legal_signals(YOU)  # from your own hand and signals only
        while len(self.signal_buttons) < len(keys):
            button = self._button("", "aluette-match-signal", None)
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
                button.description = kind.what if kind else ""
                button.tooltip = f"gesture: {kind.gesture}" if kind else ""
        shown = tuple(self.signal_buttons[:len(keys)])  # a button out of the row is empty and hidden
        if self._signal_row.children != shown:
            self._signal_row.children = shown

    def _render_reached(self, view: View) -> None:
        outcomes = [t.winner for t in view.tricks]
        rows = []
        for n, custom in ((2, "turns one of their tricks face up"), (3, "turns two face up")):
            seat = first_to_reach(outcomes, n)
            who = f"{seat}, who {custom}" if seat is not None else "nobody yet"
            rows.append(f"<li>first to {n} tricks: {escape(who)}</li>")
        self.reached.value = ("<div><b>First to reach</b> (pagat's custom)</div><ul>" + "".join(rows) + "</ul>")

    def _render_scores(self) -> None:
        match = self.match
        key = (id(match), match.deal_number, match.current.is_over)
        if key == self._score_key:
            return
        self._score_key = key
        sheet = match.score_sheet()
        s = match.scores
        # in a region that scrolls sideways when the sheet is wider than the page (a phone), focusable so that a
        # keyboard scrolls it too
        self.score_view.value = (f"<b>Score sheet</b>: NS (you and N) {s['NS']} – EW {s['EW']}"
                                 f'<div class="aluette-match-sheet" role="region" tabindex="0" '
                                 f'aria-label="Score sheet">'
                                 + sheet_html(sheet, classes="aluette-match-score-sheet", border=0) + "</div>")

    @staticmethod
    def _w(widget, *classes):
        for css in classes:
            widget.add_class(css)
        return widget


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


def show_questions(view: View, chant_buttons: dict, surrender_buttons: dict) -> tuple[bool, bool, bool]:
    """Show the answer buttons of the question ``view``'s seat is asked now and hide the others, by their own
    layouts: ``chant_buttons`` ``{True: agree, False: decline}``, ``surrender_buttons`` ``{"offer", "play on",
    "accept", "refuse"}``. Returns ``(chant, offering, answering)``: which question is asked
    (:func:`question_asked`)."""
    chant, offering, answering = question_asked(view)
    for b in chant_buttons.values():
        b.layout.display = None if chant else "none"
    for key, b in surrender_buttons.items():
        b.layout.display = None if (offering if key in ("offer", "play on") else answering) else "none"
    return chant, offering, answering


class _NotNow(AluetteError):
    """A click at a moment when it is not your turn (shown as a message)."""


def _running_loop() -> Optional[asyncio.AbstractEventLoop]:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _pause_label(pause: float) -> str:
    return f"{pause:g} s" if pause else "none"


def state_problems(table: MatchTable) -> list[str]:
    """What is wrong with ``table``'s browser-side state now (:func:`~aluette.widgets.common.state_text`): a card
    hidden from you named anywhere in it, or a card of your hand missing from it (the positive control); see
    :func:`aluette.secrecy.secrecy_problems`. Empty when all is well."""
    return secrecy_problems(state_text(table), table.deal, YOU, where="the widget state")
