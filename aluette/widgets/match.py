"""Widget for the "Play a match" notebook (08): you sit at S, a signalling :class:`~aluette.players.bots.HeuristicBot`
partner sits at N, and two bots (heuristic, random or expert: then the partner is an expert too) sit at E and W,
for a whole :class:`~aluette.Match`.

:class:`MatchTable` is the match's set-up controls (seed, opponents, options, format, the bots' pause, New match)
above the one view of a seat at a table, :class:`~aluette.widgets.seat_table.SeatTable`, which it is. The seat is
South's port into a :class:`~aluette.players.session.MatchSession` (:meth:`MatchSession.seat_port
<aluette.players.session.MatchSession.seat_port>`, a :class:`~aluette.players.seat_port.SessionSeat`): the view draws from it and
submits South's moves to it, which the engine checks; the port drives the bots, after their pause, on the kernel's
event loop. Every rule is the engine's; the bots are :mod:`aluette.players.bots`.

Secrecy (quality bar of this project): every picture and text is built from South's :class:`~aluette.View` (South's
own hand, the cards played, the public answers and scores, the signals of South's partnership); never another seat's
unplayed card, the unused stock or another seat's discards. Widget traits reach the browser even when hidden, so no
trait is ever given anything else. The audit of any widget tree is :func:`state_problems` (built on
:mod:`aluette.secrecy`).

Bots' pauses: the session says which bot moves next and after what pause (``bot_delay``, a trait linked to the
pause drop-down); the port waits on the kernel's asyncio event loop (``loop.call_later``), one move per call, so the
kernel keeps handling clicks between bot moves (a click out of turn gets a message). With ``bot_delay=0``, or
outside a running event loop (a plain script, pytest), the bots move at once, inside the same call: the state never
depends on a timer to be right.

A reload: on a server that keeps a page's storage (:func:`~aluette.widgets.common.set_page_storage`, the classroom
app), the match in progress is saved there after each change (:meth:`Match.to_dict <aluette.Match.to_dict>`) and a
new table on the same page's storage resumes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_description import DescriptionStyle

from ..players.bots import RandomBot
from ..cards import Card
from ..deal import Deal, View
from ..errors import AluetteError
from ..match import Match
from ..options import Options, SurrenderUntil
from ..secrecy import secrecy_problems
from ..seats import Seat
from ..players.session import OPPONENTS, MatchSession, Person, check_bot_delay, make_bots
from .common import (SeedBox, card_deck_control, card_size_control, card_style, friendly, no_null_tooltips,
                     seed_from_text,
                     session_storage, state_text)
from ..i18n import N_, _, number
from .seat_table import HandCard, SeatTable, mordienne_note, question_asked, seat_css

__all__ = ["MatchTable", "HandCard", "FORMATS", "mordienne_note", "question_asked", "YOU", "PARTNER",
           "parse_seed", "short_label", "state_problems"]

#: Your seat and your partner's.
YOU, PARTNER = Seat.S, Seat.N

#: The match formats: key → (label, the options it sets), taught as equals. Five deals: the rules sheet and pagat (the
#: English descriptions); first side to 5 points: the French descriptions (trictrac.net, regles2jeux.fr).
FORMATS = {"deals": (N_("five deals"), {"match_deals": 5, "target_points": None}),
           "points": (N_("first side to 5 points"), {"target_points": 5})}

_SEED_MAX = 2 ** 32 - 1

#: The opponents' labels of :data:`aluette.players.session.OPPONENTS`, marked here for the catalogue (the engine's table stays
#: plain English): shown through ``_()``, a kind added there without its entry here is shown in English.
_OPPONENT_LABELS = (N_("heuristic bots"), N_("random bots"), N_("expert bots"))

#: The set-up controls' widths, in the table's style sheet (:func:`~aluette.widgets.common.card_style`, with the
#: seat's own rules, :func:`~aluette.widgets.seat_table.seat_css`), so that its widgets share one layout (each
#: widget costs a message).
_MATCH_CSS = """
.aluette-match .aluette-match-seed { width: 190px; }
.aluette-match .aluette-match-opponents { width: 300px; }
.aluette-match .aluette-match-format { width: 280px; }
.aluette-match .aluette-match-option { width: 110px; }
.aluette-match .aluette-match-option-surrender-later { width: 130px; }
.aluette-match .aluette-match-option-face-down { width: 140px; }
.aluette-match .aluette-match-delay { width: 200px; }
"""


#: The prefix of a kept match's key in the session's storage (with the table's ``keep``).
_KEPT = "aluette.match."


@dataclass(frozen=True)
class _Kept:
    session: MatchSession
    opponents: str

    @property
    def match(self) -> Match:
        return self.session.match


def _replayed(match: Match, opponents: str, signals: bool) -> MatchSession:
    """A session at ``match``'s last move, its bots made afresh from the seed and asked for each of their moves again
    in order (so a random opponent's generator stands where it stood), South's moves submitted; when the bots no
    longer make the same moves (another version of them), the match itself with fresh bots."""
    session = MatchSession.against_bots(match.seed, opponents=opponents, options=match.options, signals=signals,
                                        first_dealer=match.first_dealer, seat=YOU)
    for number, deal in enumerate(match.deals, start=1):
        if number > 1:
            session.next_deal()
        moves = list(deal.moves)
        while len(session.deal.moves) < len(moves):
            move = moves[len(session.deal.moves)]
            if move.seat is YOU:
                session.submit(YOU, move)
            elif session.next_bot is not None and session.next_bot.seat is move.seat:
                session.step()
            else:
                break
        if list(session.deal.moves) != moves:
            bots = make_bots(match.seed, opponents, signals, partner_of=YOU)
            return MatchSession(match, {**bots, YOU: Person()}, signals=signals)
    return session


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


class MatchTable(SeatTable):
    """A whole match against bots: you at S, a signalling heuristic partner at N, two bots at E and W; the match's set-up above the seat's
    :class:`~aluette.widgets.seat_table.SeatTable`, whose port is South's in a :class:`~aluette.players.session.MatchSession`
    (:attr:`session`).

    Args:
        seed: the match seed (every deal's shuffle comes from it, :class:`aluette.Match`).
        opponents: ``"heuristic"``, ``"random"`` or ``"expert"`` (:data:`OPPONENTS`; with experts, the partner is
            one too).
        options: the rule :class:`~aluette.Options` (default: mordienne and chant on, surrender off).
        bot_delay: seconds before each bot move (0: the bots answer at once); the trait :attr:`bot_delay`, linked to
            the pause drop-down.
        first_dealer: who deals first (the deal then passes to the left; :class:`aluette.Match`).
        keep: a name under which the match is kept for a reload of the page, on a server that keeps a browser
            session's storage (:func:`~aluette.widgets.common.set_session_storage`: the classroom app): saved after
            every change (:meth:`Match.to_dict <aluette.Match.to_dict>`); a table made with the same name in the
            same browser session replays it and goes on (its set-up boxes show its seed and options). ``None``:
            nothing kept.

    Controls (CSS class in brackets, for browser tests):

    * set-up, applied by the next New match: ``seed_box`` (``aluette-match-seed``, a
      :class:`~aluette.widgets.common.SeedBox`: a bad value gets a message and the box shows the seed it had),
      ``opponents`` (``aluette-match-opponents``), ``option_boxes`` (``aluette-match-option`` and
      ``aluette-match-option-mordienne``, ``-chant``, ``-surrender``), ``surrender_late_box``
      (``aluette-match-option-surrender-later``: ``Options.surrender_until``, needs surrender), ``new_button``
      (``aluette-match-new``);
      ``delay_choice`` (``aluette-match-delay``: the bots' pause, at once); ``format`` (``aluette-match-format``:
      five deals or first side to 5 points), ``signals_box`` (``aluette-match-option-signals``), ``face_down_box``
      (``aluette-match-option-face-down``: the tricks stacked face down, at once), ``size_control``
      (``aluette-card-size``, :func:`~aluette.widgets.common.card_size_control`), ``deck_control``
      (``aluette-card-deck``: Spanish- or French-suited pictures, :func:`~aluette.widgets.common.card_deck_control`);
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
    through :meth:`MatchSession.submit <aluette.players.session.MatchSession.submit>`.

    A click at the wrong moment (out of turn, a card already played, Next deal before the deal is over...) shows a
    message and changes nothing; the engine refuses every illegal move.

    Raises:
        AluetteError: a bad seed, opponents, options or pause.
    """

    #: The pause before each bot move, in seconds (0 to :data:`aluette.players.session.MAX_BOT_DELAY`); linked to
    #: :attr:`delay_choice` and passed to the session.
    bot_delay = traitlets.Float(0.4)

    def __init__(self, seed: int = 1, opponents: str = "heuristic", options: Optional[Options] = None,
                 bot_delay: float = 0.4, first_dealer: Union[Seat, str] = Seat.N, signals: bool = True,
                 keep: Optional[str] = None):
        plain = w.Layout()  # the one layout of every widget here that never changes its own
        super().__init__(css="aluette-match", layout=plain)
        self._first_dealer = Seat.parse(first_dealer)
        options = Options.coerce(options)
        if opponents not in OPPONENTS:
            raise AluetteError(f"unknown opponents {opponents!r}; known: {', '.join(OPPONENTS)}")
        self.bot_delay = check_bot_delay(bot_delay)
        self._session: Optional[MatchSession] = None
        self._keep = None if keep is None else str(keep)[:40]
        self._stop_keeping = None
        kept = self._kept()  # a match of this page before a reload: the set-up shows it
        if kept is not None:
            seed, options, opponents = kept.match.seed, kept.match.options, kept.opponents
            signals, self._first_dealer = kept.session.signals, kept.match.first_dealer

        # One layout and one style of each kind for every widget that never changes them (widths and wrapping come
        # from the style sheet, by CSS class): each widget the browser gets costs the server a message.
        html_style, button_style = self._html_style, self._button_style
        checkbox_style, dropdown_style = CheckboxStyle(), DescriptionStyle()

        # ---- set-up controls
        self.seed_box = SeedBox(parse_seed(seed), "aluette-match-seed", maximum=_SEED_MAX, layout=plain,
                                on_change=lambda number: self._on_settings_changed(),
                                message=lambda: self.message)
        self.opponents = self._w(w.Dropdown(options=[(_(label), key) for key, label in OPPONENTS.items()],
                                            value=opponents, style=dropdown_style,
                                            description=_("Opponents"), layout=plain),
                                 "aluette-match-opponents")
        self.option_boxes = {}
        for name, label in (("mordienne", _("mordienne")), ("chant", _("chant")), ("surrender", _("surrender"))):
            box = self._w(w.Checkbox(value=getattr(options, name), description=label, indent=False,
                                     layout=plain, style=checkbox_style),
                          "aluette-match-option", f"aluette-match-option-{name}")
            self.option_boxes[name] = box
        self.surrender_late_box = self._w(
            w.Checkbox(value=options.surrender_until is SurrenderUntil.LAST_TRICK, description=_("surrender later"),
                       indent=False, tooltip=_("with surrender: offered before any trick up to the last, not only the "
                                               "first (pagat gives no time: a choice of this tutorial)"),
                       layout=plain, style=checkbox_style),
            "aluette-match-option", "aluette-match-option-surrender-later")
        self.signals_box = self._w(w.Checkbox(value=bool(signals), description=_("signals"), indent=False,
                                              tooltip=_("untick to play without signals (pagat advises learning the "
                                                        "game without them first)"),
                                              layout=plain, style=checkbox_style),
                                   "aluette-match-option", "aluette-match-option-signals")
        self.face_down_box = self._w(w.Checkbox(value=False, description=_("tricks face down"), indent=False,
                                                tooltip=_("as at a real table: the tricks played are stacked face "
                                                          "down and their cards shown once the deal is over"),
                                                layout=plain, style=checkbox_style),
                                     "aluette-match-option", "aluette-match-option-face-down")
        self.format = self._w(w.Dropdown(options=[(_(label), key) for key, (label, sets) in FORMATS.items()],
                                         value="points" if options.target_points == 5 else "deals",
                                         description=_("Match"), layout=plain, style=dropdown_style),
                              "aluette-match-format")
        self.new_button = self._w(w.Button(description=_("New match"), icon="refresh", style=button_style,
                                           layout=plain,
                                           tooltip=_("start a match with the seed, opponents and options shown")),
                                  "aluette-match-new")
        pauses = sorted({0.0, 0.2, 0.4, 0.8, 1.5, self.bot_delay})  # a drop-down: a slider's handle has no name
        self.delay_choice = self._w(w.Dropdown(options=[(_pause_label(p), p) for p in pauses],
                                               value=self.bot_delay, description=_("Bot pause"), style=dropdown_style,
                                               layout=plain), "aluette-match-delay")

        self.new_button.on_click(lambda _: self._on_new())
        self.opponents.observe(lambda change: self._on_settings_changed(), names="value")
        for box in (*self.option_boxes.values(), self.surrender_late_box, self.signals_box, self.format):
            box.observe(lambda change: self._on_settings_changed(), names="value")
        self.face_down_box.observe(lambda change: setattr(self, "face_down", change["new"]), names="value")
        self.observe(self._on_bot_delay, names="bot_delay")  # before the link: a new pause joins the choices
        w.link((self.delay_choice, "value"), (self, "bot_delay"))

        self.size_control = card_size_control(layout=plain)
        self.deck_control = card_deck_control(layout=plain, style=self.size_control.style)

        def row(children):
            return self._w(w.HBox(children, layout=plain), "aluette-match-wrap")

        self.children = [
            card_style(_MATCH_CSS + seat_css("aluette-match"), layout=plain, style=html_style),
            row([self.seed_box, self.opponents, self.new_button]),
            row([self.format, *self.option_boxes.values(), self.surrender_late_box, self.signals_box,
                 self.face_down_box, self.delay_choice]),
            self.size_control, self.deck_control,
            *self.seat_children()]
        self.add_class("aluette-match")
        self.add_class("aluette-sized")
        if kept is not None:
            self._begin(kept.session)
            self.message.ok(_("Welcome back: deal {number} of your match goes on.").format(
                number=kept.match.deal_number))
        else:
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
        """The bots at N, E and W (see :func:`aluette.players.session.make_bots`)."""
        return self._session.bots

    @property
    def waiting_for_bots(self) -> bool:
        """True while a bot move is scheduled (``bot_delay`` > 0)."""
        return self.port is not None and self.port.waiting_for_bots

    @property
    def opponents_kind(self) -> str:
        """The opponents of the match in progress: ``"heuristic"``, ``"random"`` or ``"expert"``."""
        bot = self._session.players[Seat.E]
        return ("random" if isinstance(bot, RandomBot) else "expert" if type(bot).__name__ == "ExpertBot"
                else "heuristic")

    # ------------------------------------------------------------------ actions of the set-up
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
        self.message.ok(_("New match, seed {seed}, against {opponents}.").format(
            seed=seed, opponents=_(OPPONENTS[self.opponents.value])))

    def run_bots(self) -> None:
        """Make every bot move due now, without the pauses (until it is your turn or the deal is over)."""
        self.port.run_bots()

    def close(self) -> None:
        """Close this widget and every widget it made (their models leave the browser); the bots stop."""
        if getattr(self, "_port", None) is not None:  # also called by __del__, maybe after a failed __init__
            self._port.close()
        super().close()

    # ------------------------------------------------------------------ callbacks
    def _on_new(self) -> None:
        self.new_match()

    def _on_settings_changed(self) -> None:
        self.message.ok(_("Press New match to start a match with this seed, these opponents and options."))

    def _on_bot_delay(self, change) -> None:
        pause = change["new"]
        choices = [value for _, value in self.delay_choice.options]
        if pause not in choices:  # a pause set from Python joins the drop-down's choices
            self.delay_choice.options = [(_pause_label(p), p) for p in sorted({*choices, pause})]
        if self._session is not None:
            self._session.bot_delay = pause

    # ------------------------------------------------------------------ the session
    def _start(self, seed: int, opponents: str, options: Options, signals: bool) -> None:
        session = MatchSession.against_bots(seed, opponents=opponents, options=options, signals=signals, seat=YOU,
                                            first_dealer=self._first_dealer, bot_delay=self.bot_delay)  # raises first
        self._begin(session)

    def _begin(self, session: MatchSession) -> None:
        if self._port is not None:
            self._port.close()  # its pending bot move does nothing now
        if self._stop_keeping is not None:
            self._stop_keeping()
        self._session = session
        port = session.seat_port(YOU, again=_("Press New match to play again."))
        self.message.clear()
        self.attach(port)
        storage = session_storage() if self._keep is not None else None
        if storage is not None:  # kept for a reload of this page: after every change, and now
            self._stop_keeping = port.observe(lambda kinds: self._save(storage))
            self._save(storage)
        with self._batched():
            port.start()

    # ------------------------------------------------------------------ kept across a reload
    def _save(self, storage: dict) -> None:
        storage[_KEPT + self._keep] = {"match": self.match.to_dict(), "opponents": self.opponents_kind,
                                       "signals": self._session.signals}

    def _kept(self) -> Optional["_Kept"]:
        """The match this page kept before a reload (:func:`~aluette.widgets.common.session_storage`), replayed,
        or ``None``: none kept, or a kept one that does not replay (then forgotten)."""
        storage = session_storage() if self._keep is not None else None
        saved = storage.get(_KEPT + self._keep) if storage is not None else None
        if saved is None:
            return None
        try:
            match = Match.from_dict(saved["match"])  # every move checked by the engine
            opponents, signals = saved["opponents"], bool(saved["signals"])
            session = _replayed(match, opponents, signals)
        except (AluetteError, KeyError, TypeError):
            storage.pop(_KEPT + self._keep, None)
            return None
        session.bot_delay = self.bot_delay
        return _Kept(session, opponents)

    @staticmethod
    def _w(widget, *classes):
        for css in classes:
            widget.add_class(css)
        return widget


def _pause_label(pause: float) -> str:
    # TRANSLATORS: a pause of the bots, in seconds ("0.4 s"); {seconds} is written as the language writes numbers
    return _("{seconds} s").format(seconds=number(pause)) if pause else _("none")


def state_problems(table: MatchTable) -> list[str]:
    """What is wrong with ``table``'s browser-side state now (:func:`~aluette.widgets.common.state_text`): a card
    hidden from you named anywhere in it, or a card of your hand missing from it (the positive control); see
    :func:`aluette.secrecy.secrecy_problems`. Empty when all is well."""
    return secrecy_problems(state_text(table), table.deal, YOU, where="the widget state")
