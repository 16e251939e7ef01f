"""Widgets of the "play together" page (notebook 10) and of the teacher's tables page.

:class:`PlayTogether` is one student's device at a shared table: a thin view over a
:class:`~aluette.together.SeatController` (the lobby, the seat, the moves through the table's log). It draws from the
seat's own :class:`~aluette.store.SeatState` only (the seat's :class:`~aluette.deal.View`: its own hand, the cards
played, its partnership's signals), so no widget trait ever holds another seat's hidden card. The other seats' moves
arrive by polling the database from an asyncio task on the kernel's event loop (every :data:`POLL_INTERVAL`
seconds, for at most :data:`POLL_LIFETIME` seconds, stopped when the widget is closed), or, on a server that runs
many pages in one process without a running loop in the page (Solara's virtual kernels), through the poller it set
with :func:`set_page_poller`; otherwise (a script, pytest) there is no polling and :meth:`PlayTogether.refresh` does
one poll.

:class:`TablesDesk` is the teacher's page: every table's seats, who is connected, the deal, the phase and the scores
(:meth:`TeacherDesk.summary <aluette.store.TeacherDesk.summary>`, never a card), with a button per seat to give an
absent student's seat to a bot and a button per table to close it.
"""

from __future__ import annotations

import asyncio
import html
import os
import traceback
from html import escape
from typing import Callable, Optional, Union
from urllib.parse import parse_qs, urlencode

import ipywidgets as w

from ..cards import Card, CardLike
from ..deal import Phase, View
from ..errors import AluetteError, InputTooLongError
from ..moves import ChantAnswer, Discard, Play, Signal, SurrenderAnswer, SurrenderOffer
from ..pictures import back_svg, round_table_html, trick_html
from ..seats import SEATS, Seat, Team
from ..signals import signal_for
from ..store import TeacherDesk
from ..store.service import PLAYER_NAME_LIMIT, SEAT_CODE_LENGTH, TABLE_NAME_LIMIT
from ..together import SeatController
from .common import (CardButton, LimitedCombobox, LimitedText, MessageArea, card_label, card_style, card_words,
                     friendly, limited_text, live_region, no_null_tooltips, reachable_widgets, styled)
from .match import HintOnHand, mordienne_note, show_questions

__all__ = ["PlayTogether", "TablesDesk", "seat_words", "page_query", "set_page_query", "rejoin_link", "QUERY_LIMIT",
           "set_page_poller", "POLL_INTERVAL",
           "POLL_LIFETIME"]

#: Seconds between two polls of the database for the other seats' moves.
POLL_INTERVAL = 0.1
#: A page stops polling after this many seconds (a lesson is shorter; a reload starts again).
POLL_LIFETIME = 4 * 3600.0

_SLOTS = 15  # the most cards a seat holds: nine and six from the stock, before the discard
_BACK = back_svg(22)
_TURN_WORDS = {Phase.CHANT: "answer the chant", Phase.DISCARD: "discard", Phase.SURRENDER: "speak",
               Phase.ANNOUNCE: "announce mordienne", Phase.PLAY: "play"}
_CODE_TEXT = 2 * SEAT_CODE_LENGTH  # a seat code typed with dashes and spaces
_NO_TABLE = 'No table yet: students open one on the "play together" page.'


def _running_loop() -> Optional[asyncio.AbstractEventLoop]:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


#: ``poller(step, interval, lifetime)``: calls ``step()`` every ``interval`` seconds in the current page until it
#: returns ``False``, the page goes or ``lifetime`` seconds passed; returns a function that stops it, or ``None``
#: when there is no page to poll in.
PagePoller = Callable[[Callable[[], bool], float, float], Optional[Callable[[], None]]]
_page_poller: Optional[PagePoller] = None


def set_page_poller(poller: Optional[PagePoller]) -> None:
    """For a server that runs many pages in one process with no event loop running in a page (Solara's virtual
    kernels: ``classroom/solara_app.py``): how a page polls the database. In a Jupyter kernel nothing needs setting:
    the page polls from a task on the kernel's event loop."""
    global _page_poller
    _page_poller = poller


#: ``reader()``: the query string (what follows ``?`` in its address) of the page being built, or ``None`` when no
#: page is being built.
PageQuery = Callable[[], Optional[str]]
_page_query: Optional[PageQuery] = None

def set_page_query(reader: Optional[PageQuery]) -> None:
    """For a server that runs many pages in one process (Solara's virtual kernels: ``classroom/solara_app.py``,
    which reads it from the page's router): how a page reads its own address's query string. In a Jupyter kernel
    under Voilà nothing needs setting: Voilà gives the kernel its page's query string as ``QUERY_STRING``."""
    global _page_query
    _page_query = reader


def page_query() -> dict[str, str]:
    """``table`` and ``code`` from the page's query string (the reader set by :func:`set_page_query`, else
    ``QUERY_STRING`` as Voilà sets it), each cut to its box's limit; empty when there is none.

    Raises:
        InputTooLongError: a query string of more than :data:`QUERY_LIMIT` characters (nothing of it is read).
    """
    query = _page_query() if _page_query is not None else None
    if query is None:
        query = os.environ.get("QUERY_STRING", "")
    if len(query) > QUERY_LIMIT:
        raise InputTooLongError(f"this page's address is {len(query):,} characters long after its '?'; at most "
                                f"{QUERY_LIMIT} are read, so nothing of it was. Type your table's name and your "
                                f"seat code below.")
    found = parse_qs(query)
    limits = {"table": TABLE_NAME_LIMIT, "code": _CODE_TEXT}
    return {key: found[key][0][:limit] for key, limit in limits.items() if found.get(key)}


def rejoin_link(table: str, code: str) -> str:
    """The address that brings a seat's player back (:func:`page_query`): the page's own address with
    ``?table=...&code=...``, written relative to the page (``?...``), so that it is right on every server
    (``/10_play_together?...`` on Solara's, ``/voila/render/10_play_together.ipynb?...`` on Voilà)."""
    return "?" + urlencode({"table": table, "code": code})


#: The longest query string :func:`page_query` reads: the seat's link (:func:`rejoin_link`) of the longest table name
#: (each of its characters may take 12 once percent-encoded) and seat code, with 200 characters to spare for the rest
#: of the address (a class's token).
QUERY_LIMIT = len(rejoin_link("\U00020000" * TABLE_NAME_LIMIT, "X" * _CODE_TEXT)) - 1 + 200


def seat_words(info, empty: str, connected: str, away: str) -> str:
    """Who plays a seat (a :class:`~aluette.store.SeatInfo`), as HTML: ``empty``, "a bot", or the player's name
    (escaped) followed by ``connected`` or ``away``."""
    if info.kind is None:
        return empty
    if info.kind == "bot":
        return "a bot"
    return escape(info.player) + (connected if info.connected else away)


class PlayTogether(HintOnHand, w.VBox):
    """One student's device at a shared table (notebook 10); a view of :attr:`controller`.

    Args:
        controller: the seat's :class:`~aluette.together.SeatController` (default: one on the default database).
        poll: poll the database on the kernel's event loop (when one is running).

    Controls (CSS class in brackets, for browser tests): the lobby: ``table_box`` (``aluette-together-table``, a
    box to type a table's name or pick one), ``open_button`` (``aluette-together-open``), ``name_box``
    (``aluette-together-name``), ``seat_buttons`` (``aluette-together-seat`` and ``aluette-together-seat-N``...),
    ``code_box`` (``aluette-together-code``) and ``rejoin_button`` (``aluette-together-rejoin``); ``seats_view``
    (``aluette-together-seats``: who sits where, who is missing); at the table: ``code_view``
    (``aluette-together-your-code``, with the seat's link ``aluette-together-link``), ``fill_button``
    (``aluette-together-fill``, the host only), ``status`` (``aluette-together-status``), ``score_view``
    (``aluette-together-score``), ``table`` (``aluette-together-round``),
    the hand (``aluette-together-card``), ``discard_button`` (``aluette-together-discard``), ``chant_buttons``
    (``aluette-together-chant-agree``, ``-decline``), ``surrender_buttons`` (``aluette-together-surrender-offer``,
    ``-play-on``, ``-accept``, ``-refuse``), ``signal_buttons`` (``aluette-together-signal``), ``hint_button``
    (``aluette-together-hint``), ``next_button`` (``aluette-together-next``), ``message``
    (``aluette-together-message``).
    """

    def __init__(self, controller: Optional[SeatController] = None, *, poll: bool = True):
        super().__init__()
        self.controller = controller if controller is not None else SeatController()
        self.internal_errors: list[str] = []  # exceptions in the polling task (bugs), kept for tests
        self._task: Optional[asyncio.Task] = None
        self._stop_poller: Optional[Callable[[], None]] = None
        self._poll_failures = 0
        self._closed = False
        self._picked: set[Card] = set()
        self._hint_card: Optional[Card] = None
        self._deal_shown: Optional[int] = None

        self.message = styled(MessageArea(), "aluette-together-message")
        # ---- the lobby
        self.table_box = styled(LimitedCombobox(limit=TABLE_NAME_LIMIT, what="the table's name",
                                                message=lambda: self.message,
                                                placeholder="a table's name, e.g. blue", description="Table",
                                           options=[], ensure_option=False, layout=w.Layout(width="320px")),
                                "aluette-together-table")
        self.open_button = self._button("Open the table", "aluette-together-open", self.open_table, "primary")
        self.name_box = styled(LimitedText(limit=PLAYER_NAME_LIMIT, what="your name", message=lambda: self.message,
                                           placeholder="your first name", description="Your name",
                                      layout=w.Layout(width="320px")), "aluette-together-name")
        self.seat_buttons = {}
        for seat in SEATS:
            self.seat_buttons[seat] = self._button(f"Sit at {seat}", "aluette-together-seat",
                                                   lambda s=seat: self.take_seat(s))
            self.seat_buttons[seat].add_class(f"aluette-together-seat-{seat}")
        self.code_box = styled(LimitedText(limit=_CODE_TEXT, what="the seat code", message=lambda: self.message,
                                           placeholder="ABCDE-FGHJK", description="Seat code",
                                      layout=w.Layout(width="320px")), "aluette-together-code")
        self.rejoin_button = self._button("Come back to my seat", "aluette-together-rejoin", self.rejoin)
        self.seats_view = styled(w.HTML(), "aluette-together-seats")
        self._lobby = w.VBox([
            w.HTML("<b>1.</b> Type your table's name (or pick one) and open it. "
                   "<b>2.</b> Type your name and sit at a free seat. "
                   "<b>Back after a reload?</b> Type the table's name and your seat code."),
            w.HBox([self.table_box, self.open_button], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.name_box, *self.seat_buttons.values()], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.code_box, self.rejoin_button], layout=w.Layout(flex_flow="row wrap"))])
        # ---- at the table
        self.code_view = styled(w.HTML(), "aluette-together-your-code")
        self.fill_button = self._button("Fill the empty seats with bots", "aluette-together-fill",
                                        self.fill_with_bots, "info")
        self.status = styled(w.HTML(), "aluette-together-status")
        self.score_view = styled(w.HTML(), "aluette-together-score")
        self.table = styled(w.HTML(), "aluette-together-round")
        self._slots = [CardButton(self._on_card, "aluette-together-card") for _ in range(_SLOTS)]
        self._slot_keys: list = [None] * _SLOTS
        self._hand_head = styled(w.HTML(), "aluette-together-hand-head")
        self.discard_button = self._button("Discard these six", "aluette-together-discard", self.discard, "primary")
        self._question = styled(w.HTML(), "aluette-together-question")
        self.chant_buttons = {
            True: self._button("Agree to the chant", "aluette-together-chant-agree",
                               lambda: self.answer_chant(True), "success"),
            False: self._button("Decline the chant", "aluette-together-chant-decline",
                                lambda: self.answer_chant(False), "warning")}
        self.surrender_buttons = {
            "offer": self._button("Offer to surrender", "aluette-together-surrender-offer",
                                  lambda: self.offer_surrender(True), "warning"),
            "play on": self._button("Play on", "aluette-together-surrender-play-on",
                                    lambda: self.offer_surrender(False)),
            "accept": self._button("Accept their surrender", "aluette-together-surrender-accept",
                                   lambda: self.answer_surrender(True), "success"),
            "refuse": self._button("Refuse (we must make mordienne)", "aluette-together-surrender-refuse",
                                   lambda: self.answer_surrender(False), "warning")}
        self.signal_buttons = []
        for i in range(11):
            b = self._button("", "aluette-together-signal", lambda i=i: self._on_signal(i))
            b.layout.display = "none"
            self.signal_buttons.append(b)
        self._signal_keys: list[Optional[str]] = [None] * len(self.signal_buttons)
        self.signals_view = styled(w.HTML(), "aluette-together-signals")
        self.hint_button = self._button("Hint", "aluette-together-hint", self.hint, "info")
        self.next_button = self._button("Next deal", "aluette-together-next", self.next_deal, "primary")
        self._playing = w.VBox([
            w.HBox([self.table, w.VBox([self.score_view, self.status],
                                       layout=w.Layout(flex="1 1 300px", min_width="260px"))],
                   layout=w.Layout(flex_flow="row wrap", align_items="flex-start")),
            self._question, w.HBox([*self.chant_buttons.values(), *self.surrender_buttons.values()],
                                   layout=w.Layout(flex_flow="row wrap")),
            self._hand_head, w.HBox(self._slots, layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.discard_button, self.hint_button, self.next_button]),
            self.signals_view, w.HBox(self.signal_buttons, layout=w.Layout(flex_flow="row wrap"))],
            layout=w.Layout(display="none"))
        self.children = [card_style(), self._lobby, self.seats_view, self.code_view, self.fill_button,
                         self.message, self._playing]
        self.add_class("aluette-together")
        self.add_class("aluette-sized")

        self._refresh_names()
        self._from_address()
        self._render()
        no_null_tooltips(self)
        if poll:
            self.start_polling()

    @friendly()
    def _from_address(self) -> None:
        """A page opened at its seat's link (``?table=...&code=...``, :func:`rejoin_link`): the boxes filled from
        it and the seat taken again."""
        query = page_query()
        if "table" in query:
            self.table_box.value = query["table"]
            if "code" in query:
                self.code_box.value = query["code"]
                self.rejoin()

    # ------------------------------------------------------------------ actions (what the controls do)
    @friendly()
    def open_table(self, name: Optional[str] = None) -> None:
        """Open the table named in the box (or ``name``), creating it if there is none of that name."""
        text = limited_text(self.table_box.value if name is None else name, TABLE_NAME_LIMIT, "the table's name")
        info = self.controller.open_table(text)
        self.table_box.value = info.name
        self.message.ok(f"Table {info.name}: " + (f"free seats {', '.join(map(str, info.free_seats))}; type your "
                                                  f"name and sit down." if info.free_seats else "every seat is held."))
        self._render()

    @friendly()
    def take_seat(self, seat: Union[Seat, str], player: Optional[str] = None) -> None:
        """Sit at ``seat`` with the name in the box (or ``player``); opens the table in the box first if needed."""
        name = limited_text(self.name_box.value if player is None else player, PLAYER_NAME_LIMIT, "your name")
        if self.controller.table is None:
            self.open_table()
            if self.controller.table is None:
                return
        try:
            ticket = self.controller.take_seat(seat, name)
        finally:
            self._render()
        self.message.ok(f"You sit at {ticket.seat} at table {ticket.table}. Keep your seat code {ticket.code}: with "
                        f"it you come back to this seat after a reload.")

    @friendly()
    def rejoin(self, code: Optional[str] = None) -> None:
        """Come back to your seat with the code in the box (or ``code``) at the table in the table box."""
        code = limited_text(self.code_box.value if code is None else code, _CODE_TEXT, "the seat code")
        table = limited_text(self.table_box.value, TABLE_NAME_LIMIT, "the table's name")
        if not table.strip() and self.controller.table is None:
            raise AluetteError("type your table's name too")
        ticket = self.controller.rejoin(code, table if table.strip() else None)
        self.code_box.value = ""
        self.message.ok(f"Welcome back, {ticket.player}: you sit at {ticket.seat} at table {ticket.table}.")
        self._render()

    @friendly()
    def fill_with_bots(self) -> None:
        """The table's first player fills the empty seats with bots."""
        filled = self.controller.fill_with_bots()
        self.message.ok(f"Bots sit at {', '.join(map(str, filled))}." if filled else "No seat was empty.")
        self._render()

    @friendly()
    def play(self, card: CardLike) -> None:
        """Play ``card`` from your hand."""
        card = Card.parse(card)
        self._submit(Play(self._you(), card), f"You played {card_label(card)}.")

    @friendly()
    def answer_chant(self, agree: bool) -> None:
        """Agree to or decline the chant."""
        self._submit(ChantAnswer(self._you(), bool(agree)),
                     "You agree to the chant." if agree else "You decline the chant: the stock stays unused.")

    @friendly()
    def pick(self, card: CardLike) -> None:
        """Choose ``card`` for your discard, or put it back."""
        card = Card.parse(card)
        if not self._picking():
            raise AluetteError("there is no discard to choose now")
        if card not in self._view().hand:
            raise AluetteError(f"you do not hold {card_label(card)}")
        self._picked.symmetric_difference_update({card})
        self.message.ok(f"{card_words(card)} {'chosen for' if card in self._picked else 'back from'} your discard "
                        f"({len(self._picked)} of 6 chosen).")
        self._render()

    @friendly()
    def discard(self, cards=None) -> None:
        """Discard the six chosen cards (or ``cards``)."""
        chosen = [c for c in self._view().hand if c in self._picked] if cards is None else cards
        self._submit(Discard(self._you(), chosen), "You discarded six cards face down; you hold nine again.")

    @friendly()
    def offer_surrender(self, offer: bool = True) -> None:
        """Offer your side's surrender, or play on."""
        self._submit(SurrenderOffer(self._you(), bool(offer)), "You offer to surrender." if offer else "You play on.")

    @friendly()
    def answer_surrender(self, accept: bool) -> None:
        """Accept or refuse the other side's surrender."""
        self._submit(SurrenderAnswer(self._you(), bool(accept)),
                     "You accept the surrender." if accept else "You refuse: your side must make mordienne.")

    @friendly()
    def signal(self, key: str) -> None:
        """Make signal ``key`` to your partner (honest only: the engine checks)."""
        self._submit(Signal(self._you(), key), "You signalled to your partner.")

    @friendly()
    def hint(self):
        """What the heuristic bot would do in your place (from your view only), shown as a message."""
        decision = self.controller.hint()
        if decision is None:
            self.message.ok("No hint now: it is not your turn.")
            return None
        return self._show_hint(decision, self._view().phase)

    @friendly()
    def next_deal(self) -> None:
        """Start the next deal once this one is over (any player of the table may)."""
        self.controller.next_deal()
        self._render()
        self.message.ok(f"Deal {self.controller.state.deal_number} starts.")

    def refresh(self) -> bool:
        """One poll of the database: redraws and returns ``True`` when something changed."""
        changed = self.controller.refresh()
        if changed:
            self._render()
        return changed

    # ------------------------------------------------------------------ polling
    def start_polling(self, interval: float = POLL_INTERVAL, lifetime: float = POLL_LIFETIME) -> bool:
        """Poll on the running event loop (one task), or through the page's poller (:func:`set_page_poller`);
        stopped by :meth:`close`, after ``lifetime`` seconds, or after 20 failed polls in a row. ``False`` when
        neither is there."""
        if self._task is not None or self._stop_poller is not None or self._closed:
            return False
        loop = _running_loop()
        if loop is not None:
            self._task = loop.create_task(self._poll(interval, lifetime))
            return True
        if _page_poller is not None:
            self._stop_poller = _page_poller(self._poll_step, interval, lifetime)
        return self._stop_poller is not None

    @property
    def visible_signal_keys(self) -> tuple[str, ...]:
        """The signals this seat may make now (one button each)."""
        return tuple(k for k in self._signal_keys if k is not None)

    @property
    def polling(self) -> bool:
        return (self._task is not None and not self._task.done()) or (self._stop_poller is not None
                                                                       and not self._closed)

    async def _poll(self, interval: float, lifetime: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + lifetime
        while loop.time() < end:
            await asyncio.sleep(interval)
            if not self._poll_step():
                break

    def _poll_step(self) -> bool:
        """One poll, its failure said on the page; ``False`` when polling must stop (the widget closed, or 20 failed
        polls in a row)."""
        if self._closed:
            return False
        try:
            self.refresh()
            self._poll_failures = 0
        except AluetteError as error:  # the database refused (a closed table, a seat given to a bot...)
            self._poll_failures += 1
            self.message.error(str(error))
        except Exception:  # a bug: say so rather than lose it in the event loop's log
            self._poll_failures += 1
            self.internal_errors.append(traceback.format_exc())
            self.message.error("Internal error while reading the table (a bug); reload the page and come back "
                               "with your seat code.")
        return not self._closed and self._poll_failures < 20

    def close(self) -> None:
        """Stop polling and close this widget and every widget it made."""
        self._closed = True
        task = getattr(self, "_task", None)
        if task is not None and not task.done():
            task.cancel()
        stop = getattr(self, "_stop_poller", None)
        if stop is not None:
            stop()
        for widget in reachable_widgets(self):
            if widget is not self:
                widget.close()
        super().close()

    # ------------------------------------------------------------------ inside
    def _button(self, text, css, handler, style=""):
        b = styled(w.Button(description=text, button_style=style, layout=w.Layout(width="auto")), css)
        b.on_click(lambda _: handler())
        return b

    def _refresh_names(self) -> None:
        try:
            self.table_box.options = tuple(self.controller.table_names()[-50:])
        except AluetteError as error:
            self.message.error(str(error))

    def _you(self) -> Seat:
        seat = self.controller.seat
        if seat is None:
            raise AluetteError("take a seat first (or come back to yours with its seat code)")
        return seat

    def _view(self) -> View:
        self._you()
        return self.controller.state.view

    def _picking(self) -> bool:
        state = self.controller.state
        return state is not None and state.view.phase is Phase.DISCARD and state.view.to_move is state.seat

    def _submit(self, move, done: str) -> None:
        self._you()
        try:
            self.controller.submit(move)
        finally:
            self._render()
        self._picked = set()
        self._hint_card = None
        self.message.ok(done)
        self._render()

    def _on_card(self, card: Card) -> None:
        if self._picking():
            self.pick(card)
        else:
            self.play(card)

    def _on_signal(self, i: int) -> None:
        key = self._signal_keys[i]
        if key is None:
            self.message.error("That signal is no longer available.")
            return
        self.signal(key)

    # ------------------------------------------------------------------ drawing (from the seat's state only)
    def _render(self) -> None:
        controller = self.controller
        self._render_seats(controller.info)
        state = controller.state
        seated = controller.ticket is not None
        self._lobby.layout.display = "none" if seated else None
        self._playing.layout.display = None if seated and state is not None and state.info.ready else "none"
        self.fill_button.layout.display = (None if controller.is_host and state is not None
                                           and state.info.free_seats else "none")
        if not seated:
            self.code_view.value = ""
            return
        ticket = controller.ticket
        link = escape(rejoin_link(ticket.table, ticket.code))
        self.code_view.value = (f'<div style="font-size:110%"><b>{escape(ticket.player)}</b>, you sit at '
                                f"<b>{ticket.seat}</b> at table <b>{escape(ticket.table)}</b>. Your seat code: "
                                f'<code class="aluette-together-code-text">{escape(ticket.code)}</code> (keep it: '
                                f"with it you come back to this seat after a reload), or keep "
                                f'<a class="aluette-together-link" href="{link}">'
                                f"this link to your seat</a>.</div>")
        if state is None or not state.info.ready:
            self.status.value = ""
            return
        if state.deal_number != self._deal_shown:  # a message of the last deal may name a card dealt again now
            if self._deal_shown is not None:
                self.message.clear()
            self._deal_shown = state.deal_number
        view = state.view
        self._render_status(state, view)
        self._render_table(state, view)
        self._render_hand(view)
        self._render_questions(view)
        self._render_signals(state, view)
        self.hint_button.layout.display = None if state.info.settings.get("hints", True) else "none"
        self.next_button.disabled = not state.awaiting_next_deal

    def _render_seats(self, info) -> None:
        if info is None:
            self.seats_view.value = ""
            return
        you = self.controller.seat
        rows = []
        for seat in SEATS:
            who = seat_words(info.seats[seat], "<i>empty: waiting for a player</i>", "", " <i>(not connected)</i>")
            mark = " (you)" if seat is you else (" · host" if seat is info.host else "")
            rows.append(f"<li><b>{seat}</b>{mark}: {who}</li>")
        missing = len(info.free_seats)
        head = (f"Table <b>{escape(info.name)}</b>" + (" (closed by the teacher)" if info.closed else "")
                + (f": {missing} seat{'s' if missing != 1 else ''} missing" if missing else ": all four seats held"))
        self.seats_view.value = f"<div>{head}</div><ul>{''.join(rows)}</ul>"

    def _render_status(self, state, view: View) -> None:
        you = state.seat
        options = state.info.options
        of = f" (to {options.target_points} points)" if options.target_points else f" of {options.match_deals}"
        head = f"Deal {state.deal_number}{of} · {view.dealer} deals · you are {you}, your partner {you.partner}"
        if view.phase is Phase.OVER:
            if state.is_over:
                winner = state.winner
                end = "the match is drawn" if winner is None else f"{winner} wins the match"
                now = f"<b>Match over: {end}.</b>"
            else:
                now = "<b>Deal over: any player presses Next deal.</b>"
            why = mordienne_note(view.result.score, options.mordienne)
            now = f"{escape(view.result.reason)}{escape(' ' + why if why else '')} {now}"
        elif view.to_move is you:
            now = {Phase.CHANT: "<b>Your turn:</b> do you agree to the chant?",
                   Phase.DISCARD: "<b>Your turn:</b> choose six cards to discard.",
                   Phase.SURRENDER: "<b>Your turn:</b> answer the surrender question.",
                   Phase.ANNOUNCE: "<b>Your turn:</b> announce mordienne or not.",
                   Phase.PLAY: "<b>Your turn:</b> click a card to play it."}[view.phase]
        else:
            now = f"Waiting for {view.to_move} to {_TURN_WORDS[view.phase]}…"
        chant = ""
        if view.chant_answers:
            said = ", ".join(f"{s} {'agrees' if a else 'declines'}" for s, a in view.chant_answers)
            chant = f"<div>The chant: {escape(said)}.</div>"
        self.status.value = live_region(f"<div>{escape(head)}</div>{chant}<div>{now}</div>")
        s = state.scores
        rows = "".join(f"<tr><td>{n}</td><td>{p[Team.NS]}</td><td>{p[Team.EW]}</td></tr>"
                       for n, p in enumerate(state.deal_points, start=1))
        self.score_view.value = (f'<div class="aluette-together-score-line"><b>Match score: NS {s[Team.NS]} – '
                                 f"EW {s[Team.EW]}</b></div><table><tr><th>deal</th><th>NS</th><th>EW</th></tr>"
                                 f"{rows}</table>")

    def _render_table(self, state, view: View) -> None:
        cells = {}
        for seat in SEATS:
            info = state.info.seats[seat]
            who = "you" if seat is state.seat else ("a bot" if info.kind == "bot" else escape(info.player or ""))
            marks = (" · deals" if seat is view.dealer else "") + (" · <b>to move</b>" if seat is view.to_move
                                                                   else "")
            body = f"<div>tricks won: {view.trick_counts[seat]}</div>"
            body += (f"<div>{_BACK} × {view.hand_sizes[seat]}</div>" if seat is not state.seat
                     else f"<div>{view.hand_sizes[seat]} cards in your hand, below</div>")
            colour = "#fff3c4" if seat is view.to_move else "transparent"
            cells[seat] = (f'<div style="background:{colour};border-radius:8px;padding:2px 6px"><div><b>{seat}</b> '
                           f"({who}){marks}</div>{body}</div>")
        centre = ""
        if view.trick or not view.tricks:
            centre = trick_html(view.trick, title=f"Trick {len(view.tricks) + 1}, on the table")
        if view.tricks:
            last = view.tricks[-1]
            centre += trick_html(last.plays, title=f"Trick {last.number}", winner=last.winner, spoiled=last.spoiled,
                                 width=54 if not view.trick else 36)
        self.table.value = round_table_html(cells, centre=centre, css_class="aluette-table aluette-together-table-round")

    def _render_hand(self, view: View) -> None:
        hand = list(view.hand)
        picking = self._picking()
        self._picked &= set(hand)
        if picking:
            action = "choose it for your discard, or put it back"
        elif view.phase is Phase.PLAY:
            action = "play it" if view.to_move is view.seat else "play it when it is your turn"
        else:
            action = "your card"
        for i, slot in enumerate(self._slots):
            card = hand[i] if i < len(hand) else None
            key = None if card is None else (card, action, card in self._picked, card is self._hint_card)
            if key == self._slot_keys[i]:
                continue
            self._slot_keys[i] = key
            if card is None:
                slot.hide()
            else:
                slot.show(card, action, selected=card in self._picked, hint=card is self._hint_card)
        what = ("click six cards, then press Discard these six" if picking
                else "click a card to play it" if view.phase is Phase.PLAY else "")
        self._hand_head.value = f"<b>Your hand</b>{escape(' (' + what + ')' if what else '')}"
        self.discard_button.layout.display = None if picking else "none"

    def _render_questions(self, view: View) -> None:
        chant, offering, answering = show_questions(view, self.chant_buttons, self.surrender_buttons)
        if chant:
            self._question.value = ("<b>The chant:</b> if all four agree, the twelve stock cards are dealt six each "
                                    "to two players, who then discard six.")
        elif offering:
            self._question.value = "<b>Surrender?</b> You speak for your side: offer to surrender, or play on."
        elif answering:
            self._question.value = (f"<b>{view.surrender_by} offers to surrender.</b> Accept (your side scores 1) "
                                    f"or refuse (your side must make mordienne).")
        else:
            self._question.value = ""

    def _render_signals(self, state, view: View) -> None:
        if not state.info.settings.get("signals", True):
            self.signals_view.value = "<b>Signals:</b> off at this table."
            keys = ()
        else:
            partner = [r.describe() for r in view.signals if r.seat is state.seat.partner]
            rows = "".join(f"<li>{escape(t)}</li>" for t in partner) or "<li><i>none yet</i></li>"
            self.signals_view.value = (f"<b>Your partner's signals</b> (only you see them):<ul>{rows}</ul>"
                                       f"<div>Signal to your partner (honest signals only):</div>")
            keys = state.legal_signals
        for i, button in enumerate(self.signal_buttons):
            key = keys[i] if i < len(keys) else None
            if key == self._signal_keys[i]:
                continue
            self._signal_keys[i] = key
            kind = signal_for(key) if key is not None else None
            with button.hold_sync():
                button.description = kind.what if kind else " "
                button.tooltip = f"gesture: {kind.gesture}" if kind else ""
            button.layout.display = None if kind else "none"


class TablesDesk(w.VBox):
    """The teacher's page of shared tables: every open table with its seats, who is connected, the deal, the phase,
    whose turn and the scores (never a card); a button per student's seat gives it to a bot, a button per table
    closes it, and Refresh reads again (also every few seconds while the page polls).

    Args:
        desk: the :class:`~aluette.store.TeacherDesk` (default: one on the default database).
        poll: read again every ``interval`` seconds on the kernel's event loop (when one is running).

    Controls (CSS class): ``refresh_button`` (``aluette-desk-refresh``), ``tables_view`` (``aluette-desk-tables``),
    per table a ``aluette-desk-close`` button and per person's seat a ``aluette-desk-bot`` button, ``message``
    (``aluette-desk-message``).
    """

    def __init__(self, desk: Optional[TeacherDesk] = None, *, poll: bool = True, interval: float = 1.0):
        super().__init__()
        self.desk = desk if desk is not None else TeacherDesk()
        self.message = styled(MessageArea(), "aluette-desk-message")
        self.refresh_button = styled(w.Button(description="Refresh", icon="refresh"), "aluette-desk-refresh")
        self.refresh_button.on_click(lambda _: self.refresh())
        self.tables_view = styled(w.VBox(), "aluette-desk-tables")
        self._rows: dict[str, tuple] = {}
        self._closed = False
        self._task: Optional[asyncio.Task] = None
        self.children = [w.HBox([self.refresh_button]), self.message, self.tables_view]
        self.add_class("aluette-desk")
        self.refresh()
        loop = _running_loop()
        if poll and loop is not None:
            self._task = loop.create_task(self._poll(interval))

    @property
    def summaries(self):
        """The tables as last read (:class:`~aluette.store.TableSummary` s)."""
        return self._summaries

    @friendly()
    def refresh(self) -> None:
        """Read every table again and redraw."""
        self._summaries = self.desk.summary()
        keep = {}
        for summary in self._summaries:
            row = self._rows.get(summary.name) or self._make_row(summary.name)
            keep[summary.name] = row
            self._draw_row(row, summary)
        for name, row in self._rows.items():
            if name not in keep:
                for widget in reachable_widgets(row[0]):
                    widget.close()
        self._rows = keep
        self.tables_view.children = [row[0] for row in keep.values()]
        if not keep:
            self.message.ok(_NO_TABLE)
        elif self.message.value and _NO_TABLE in html.unescape(self.message.value):
            self.message.clear()

    @friendly()
    def replace_with_bot(self, table: str, seat: Union[Seat, str]) -> None:
        """Give ``seat`` of ``table`` to a bot (an absent student's seat)."""
        self.desk.replace_with_bot(table, seat)
        self.message.ok(f"A bot plays {Seat.parse(seat)} at table {table} from now on.")
        self.refresh()

    @friendly()
    def close_table(self, table: str) -> None:
        """Close ``table``: no seat and no move any more (its log stays)."""
        self.desk.close_table(table)
        self.message.ok(f"Table {table} is closed.")
        self.refresh()

    def close(self) -> None:
        self._closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
        for widget in reachable_widgets(self):
            if widget is not self:
                widget.close()
        super().close()

    async def _poll(self, interval: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + POLL_LIFETIME
        while not self._closed and loop.time() < end:
            await asyncio.sleep(interval)
            if not self._closed:
                self.refresh()

    def _make_row(self, name: str) -> tuple:
        view = styled(w.HTML(), "aluette-desk-table")
        close = styled(w.Button(description=f"Close table {name}", button_style="danger",
                                layout=w.Layout(width="auto")), "aluette-desk-close")
        close.on_click(lambda _: self.close_table(name))
        bots = {}
        for seat in SEATS:
            b = styled(w.Button(description=f"Bot at {seat}", layout=w.Layout(width="auto", display="none"),
                                tooltip=f"give seat {seat} of table {name} to a bot (an absent student's)"),
                       "aluette-desk-bot", f"aluette-desk-bot-{seat}")
            b.on_click(lambda _, s=seat: self.replace_with_bot(name, s))
            bots[seat] = b
        box = styled(w.VBox([view, w.HBox([*bots.values(), close], layout=w.Layout(flex_flow="row wrap"))],
                            layout=w.Layout(border="1px solid #999", padding="4px", margin="4px 0")),
                     "aluette-desk-row")
        return box, view, bots

    @staticmethod
    def _draw_row(row: tuple, summary) -> None:
        _, view, bots = row
        seats = []
        for seat in SEATS:
            s = summary.seats[seat]
            who = seat_words(s, "<i>empty</i>", " · connected", " · <b>not connected</b>")
            seats.append(f"<li><b>{seat}</b>: {who}</li>")
            bots[seat].layout.display = None if s.kind != "bot" else "none"
        if summary.is_over:
            where = "match over: " + ("drawn" if summary.winner is None else f"{summary.winner} wins")
        elif not summary.ready:
            where = "waiting for players"
        else:
            where = (f"deal {summary.deal_number}, {summary.phase}"
                     + (f", {summary.to_move} to move" if summary.to_move else ""))
        s = summary.scores
        view.value = (f'<div><b>{escape(summary.name)}</b> · {escape(where)} · '
                      f'<span class="aluette-desk-score">NS {s[Team.NS]} – EW {s[Team.EW]}</span> · '
                      f"{summary.seq} moves logged</div><ul>{''.join(seats)}</ul>")
