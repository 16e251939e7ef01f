"""Widgets of the "play together" page (notebook 10); the teacher's tables page is :mod:`aluette.widgets.desk`.

:class:`PlayTogether` is one student's device at a shared table: a thin view over a
:class:`~aluette.together.SeatController` (the lobby, the seat, the moves through the table's log). It draws from the
seat's own :class:`~aluette.store.SeatState` only (the seat's :class:`~aluette.deal.View`: its own hand, the cards
played, its partnership's signals), so no widget trait ever holds another seat's hidden card. The other seats' moves
are pushed: once the page has a table, it subscribes to its process's watcher of that table
(:func:`aluette.store.watch.watch`: one per process per table, woken by the database), which wakes it with each
change and drives the table's bots; the page then refreshes inside itself: on the kernel's event loop (a Jupyter or
Voilà kernel), or, on a server that runs many pages in one process without a running loop in the page (Solara's
virtual kernels), through the page runner it set with :func:`set_page_runner`. Otherwise (a script, pytest) nothing
is pushed and :meth:`PlayTogether.refresh` reads.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import traceback
from html import escape
from typing import Callable, Optional, Union
from urllib.parse import parse_qs, urlencode

import ipywidgets as w

from ..decisions import BADGE
from ..errors import AluetteError, InputTooLongError, TableError
from ..seats import SEATS, Seat, Team
from ..store.service import PLAYER_NAME_LIMIT, SEAT_CODE_LENGTH, TABLE_NAME_LIMIT
from ..store.watch import TableChange, watch
from ..together import SeatController
from ..i18n import _, ngettext
from .common import (LimitedCombobox, LimitedText, MessageArea, card_deck_control, card_size_control, card_style,
                     friendly, limited_text, no_null_tooltips, reachable_widgets, session_storage, styled)
from .seat_table import SeatTable, seat_css
from .table_draw import TableDraw

#: The bots the host may seat (:data:`aluette.store.service.TABLE_BOT_KINDS`), with their labels (catalogued in
#: :mod:`aluette.widgets.match`, shown through ``_()``).
_FILL_KINDS = {"heuristic": "heuristic bots", "expert": "expert bots"}

__all__ = ["PlayTogether", "seat_words", "page_query", "set_page_query", "rejoin_link", "QUERY_LIMIT",
           "set_page_runner"]

_CODE_TEXT = 2 * SEAT_CODE_LENGTH  # a seat code typed with dashes and spaces


#: What a seated page reaches of its seat table (:class:`~aluette.widgets.seat_table.SeatTable`) as its own.
_SEAT_PARTS = frozenset({
    "status", "table", "score_view", "match_score", "signals_view", "events_view", "counts", "reached", "hand_box",
    "_slots", "_question", "card_buttons", "button_for", "chant_buttons", "surrender_buttons", "question_buttons",
    "discard_button", "signal_buttons", "visible_signal_keys", "visible_signal_buttons", "hint_button",
    "next_button", "picking", "picked", "play", "pick", "answer_chant", "discard", "offer_surrender",
    "answer_surrender", "signal", "hint", "follow_hint", "next_deal"})


#: The teacher's tables page (:mod:`aluette.widgets.desk`) stops polling after this many seconds (a lesson is
#: shorter; a reload starts again). The students' pages do not poll: their table's watcher wakes them.
POLL_LIFETIME = 4 * 3600.0


def _running_loop() -> Optional[asyncio.AbstractEventLoop]:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


#: ``runner(step, closed)``, called while the current page is built: returns ``call()``, which any thread may call
#: (it does not block) to have ``step()`` run soon inside that page (where its widgets may change), and calls
#: ``closed()`` when the page goes; ``None`` when there is no page.
PageRunner = Callable[[Callable[[], None], Callable[[], None]], Optional[Callable[[], None]]]
_page_runner: Optional[PageRunner] = None


def set_page_runner(runner: Optional[PageRunner]) -> None:
    """For a server that runs many pages in one process with no event loop running in a page (Solara's virtual
    kernels: ``aluette/classroom/solara_app.py``): how the table's watcher has a page refresh inside itself. In a Jupyter
    kernel nothing needs setting: the page refreshes on the kernel's event loop."""
    global _page_runner
    _page_runner = runner


#: ``reader()``: the query string (what follows ``?`` in its address) of the page being built, or ``None`` when no
#: page is being built.
PageQuery = Callable[[], Optional[str]]
_page_query: Optional[PageQuery] = None

def set_page_query(reader: Optional[PageQuery]) -> None:
    """For a server that runs many pages in one process (Solara's virtual kernels: ``aluette/classroom/solara_app.py``,
    which reads it from the page's router): how a page reads its own address's query string. In a Jupyter kernel
    under Voilà nothing needs setting: Voilà gives the kernel its page's query string as ``QUERY_STRING`` (a
    pre-heated kernel once the page's request came, :func:`_preheated_query`)."""
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
        query = os.environ.get("QUERY_STRING")
    if query is None and os.environ.get("VOILA_PREHEAT") == "True":
        query = _preheated_query()
    query = query or ""
    if len(query) > QUERY_LIMIT:
        raise InputTooLongError(_("this page's address is {length:,} characters long after its '?'; at most "
                                  "{limit} are read, so nothing of it was. Type your table's name and your "
                                  "seat code below.").format(length=len(query), limit=QUERY_LIMIT))
    found = parse_qs(query)
    limits = {"table": TABLE_NAME_LIMIT, "code": _CODE_TEXT}
    return {key: found[key][0][:limit] for key, limit in limits.items() if found.get(key)}


def _preheated_query() -> str:
    """The query string of a page served from a kernel Voilà pre-heated (``make app SERVER=voila``): the kernel ran
    the notebook before any page asked for it, so its environment has no ``QUERY_STRING``; Voilà's
    ``wait_for_request`` waits here for the page's request and then sets it (the cells before, the imports, stay
    pre-heated). Empty when Voilà cannot say."""
    try:
        from voila.utils import wait_for_request
    except ImportError:
        return ""
    wait_for_request()
    return os.environ.get("QUERY_STRING", "")


def rejoin_link(table: str, code: str) -> str:
    """The address that brings a seat's player back (:func:`page_query`): the page's own address with
    ``?table=...&code=...``, written relative to the page (``?...``), so that it is right on every server
    (``/10_play_together?...`` on Solara's, ``/voila/render/10_play_together.ipynb?...`` on Voilà)."""
    return "?" + urlencode({"table": table, "code": code})


#: The longest query string :func:`page_query` reads: the seat's link (:func:`rejoin_link`) of the longest table name
#: (each of its characters may take 12 once percent-encoded) and seat code, with 200 characters to spare for the rest
#: of the address (a class's token).
QUERY_LIMIT = len(rejoin_link("\U00020000" * TABLE_NAME_LIMIT, "X" * _CODE_TEXT)) - 1 + 200


#: The browser session's draws seen to the end (table and seat code), the newest last, at most SEEN_DRAWS_KEPT.
_SEEN_DRAWS = "aluette.seen_draws"
SEEN_DRAWS_KEPT = 16

_KERNEL_STUDENT = secrets.token_hex(16)  # a Jupyter or Voilà kernel's pages (no browser session known)


def page_student() -> str:
    """Who the current page's student is, as far as the app knows (one seat per student at a table:
    :meth:`aluette.store.TableService.take_seat`): an identity kept in the page's browser session
    (:func:`~aluette.widgets.common.session_storage`: Solara's session cookie, the same for every tab of a browser
    and after a reload), or, where the server keeps no session (a Jupyter or Voilà kernel, one page per kernel on
    Voilà), the kernel's own. A private window or another browser is another student to the app."""
    storage = session_storage()
    if storage is None:
        return _KERNEL_STUDENT
    return storage.setdefault("aluette.student", secrets.token_hex(16))


def seat_words(info, empty: str, connected: str, away: str) -> str:
    """Who plays a seat (a :class:`~aluette.store.SeatInfo`), as HTML: ``empty``, "a bot", or the player's name
    (escaped) followed by ``connected`` or ``away``."""
    if info.kind is None:
        return empty
    if info.kind == "bot":
        return _("a bot")
    return escape(info.player) + (connected if info.connected else away)


class PlayTogether(w.VBox):
    """One student's device at a shared table (notebook 10); a view of :attr:`controller`.

    Args:
        controller: the seat's :class:`~aluette.together.SeatController` (default: one on the default database).
        poll: take the table's changes from the process's watcher (when the page has an event loop running or a
            page runner, :func:`set_page_runner`).
        face_down: the tricks played are stacked face down (:class:`~aluette.widgets.seat_table.SeatTable`) even at a
            table whose setting keeps them in view. A table opened on this page stacks them face down unless its
            opener unticks ``face_down_box`` (the table's setting, the same for every seat).

    Once seated at a ready table, the seat is drawn by the one view of a seat at a table,
    :attr:`seat_table` (a :class:`~aluette.widgets.seat_table.SeatTable` of CSS prefix ``aluette-together``, whose
    port is the controller), under the seat code; its controls are reachable from here too (``status``,
    ``chant_buttons``, :meth:`play`...).

    Controls (CSS class in brackets, for browser tests): the lobby: ``table_box`` (``aluette-together-table``, a
    box to type a table's name or pick one), ``open_button`` (``aluette-together-open``), ``name_box``
    (``aluette-together-name``), ``seat_buttons`` (``aluette-together-seat`` and ``aluette-together-seat-N``...),
    ``code_box`` (``aluette-together-code``) and ``rejoin_button`` (``aluette-together-rejoin``); ``seats_view``
    (``aluette-together-seats``: who sits where, who is missing); at the table: ``code_view``
    (``aluette-together-your-code``, with the seat's link ``aluette-together-link``), ``bot_kind``
    (``aluette-together-bot-kind``, heuristic or expert bots) and ``fill_button`` (``aluette-together-fill``, the
    host only), ``status`` (``aluette-together-status``), ``score_view``
    (``aluette-together-score``), ``table`` (``aluette-together-round``, its grid ``aluette-together-table-round``),
    the hand (``aluette-together-card`` pictures under ``aluette-together-card-button`` buttons), ``discard_button`` (``aluette-together-discard``), ``chant_buttons``
    (``aluette-together-chant-agree``, ``-decline``), ``surrender_buttons`` (``aluette-together-surrender-offer``,
    ``-play-on``, ``-accept``, ``-refuse``), ``signal_buttons`` (``aluette-together-signal``), ``hint_button``
    (``aluette-together-hint``), ``next_button`` (``aluette-together-next``), ``message``
    (``aluette-together-message``).
    """

    def __init__(self, controller: Optional[SeatController] = None, *, poll: bool = True, face_down: bool = False):
        super().__init__()
        self.controller = controller if controller is not None else SeatController(student=page_student())
        self.internal_errors: list[str] = []  # exceptions in the pushed refreshes (bugs), kept for tests
        self._call: Optional[Callable[[], None]] = None  # runs self._woken in the page (from the watcher's thread)
        self._unwatch: Optional[Callable[[], None]] = None
        self._watched: Optional[str] = None  # the table watched
        self._change: Optional[TableChange] = None  # the watcher's changes not handled yet (merged)
        self._scheduled = False
        self._lost = False  # the watcher stopped on an error
        self._wake_lock = threading.Lock()
        self._closed = False
        self.seat_table: Optional[SeatTable] = None  # made when the seat's table is ready
        self._face_down = bool(face_down)
        self._told_seat: Optional[Seat] = None  # the seat the page's message named last
        self._was_stood_in = False  # the page last showed the seat given to a bot

        self.message = styled(MessageArea(), "aluette-together-message")
        # ---- the lobby
        self.table_box = styled(LimitedCombobox(limit=TABLE_NAME_LIMIT, what=_("the table's name"),
                                                message=lambda: self.message,
                                                placeholder=_("a table's name, e.g. blue"), description=_("Table"),
                                           options=[], ensure_option=False, layout=w.Layout(width="320px")),
                                "aluette-together-table")
        self.open_button = self._button(_("Open the table"), "aluette-together-open", self.open_table, "primary")
        self.name_box = styled(LimitedText(limit=PLAYER_NAME_LIMIT, what=_("your name"), message=lambda: self.message,
                                           placeholder=_("your first name"), description=_("Your name"),
                                      layout=w.Layout(width="320px")), "aluette-together-name")
        self.seat_buttons = {}
        for seat in SEATS:
            self.seat_buttons[seat] = self._button(_("Sit at {seat}").format(seat=seat), "aluette-together-seat",
                                                   lambda s=seat: self.take_seat(s))
            self.seat_buttons[seat].add_class(f"aluette-together-seat-{seat}")
        self.code_box = styled(LimitedText(limit=_CODE_TEXT, what=_("the seat code"), message=lambda: self.message,
                                           placeholder="ABCDE-FGHJK", description=_("Seat code"),
                                      layout=w.Layout(width="320px")), "aluette-together-code")
        self.rejoin_button = self._button(_("Come back to my seat"), "aluette-together-rejoin", self.rejoin)
        self.seats_view = styled(w.HTML(), "aluette-together-seats")
        # the partnership draw seats a table of four people; a group may choose its partners instead (a new table)
        self.choose_box = styled(w.Checkbox(value=False, indent=False, description=_("No draw: we pick partners"),
                                            layout=w.Layout(width="auto")), "aluette-together-choose")
        self.choose_note = styled(w.HTML("<small>" + _("{badge} <!-- partners-chosen-option --> unticked, as it "
                                                       "starts, a new table of four is seated by the partnership "
                                                       "draw, as the sources always do; ticked, partners are the "
                                                       "seats you take.").format(badge=_(BADGE)) + "</small>"),
                                  "aluette-together-choose-note")
        self.face_down_box = styled(w.Checkbox(value=True, indent=False, description=_("Tricks face down"),
                                               layout=w.Layout(width="auto")), "aluette-together-face-down")
        self.draw_view = TableDraw(on_finished=self._draw_finished)
        self._lobby = w.VBox([
            w.HTML(_("<b>1.</b> Type your table's name (or pick one) and open it. "
                     "<b>2.</b> Type your name and sit at a free seat: once four of you sit, the partnership draw "
                     "decides partners and seats, as at a real table. "
                     "<b>Back after a reload?</b> Type the table's name and your seat code.")),
            w.HBox([self.table_box, self.open_button, self.choose_box, self.choose_note, self.face_down_box],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            w.HBox([self.name_box, *self.seat_buttons.values()], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.code_box, self.rejoin_button], layout=w.Layout(flex_flow="row wrap"))])
        # the seat given to a bot by the teacher: what to do, with the seat code's box and button under it
        self.stood_in_view = styled(w.HTML(layout=w.Layout(display="none")), "aluette-together-stood-in")
        # ---- at the table
        self.code_view = styled(w.HTML(), "aluette-together-your-code")
        self.fill_button = self._button(_("Fill the empty seats with bots"), "aluette-together-fill",
                                        self.fill_with_bots, "info")
        # which bots fill them: the heuristic bots of 08, or the expert (it thinks up to a second a card)
        self.bot_kind = styled(w.Dropdown(options=[(_(label), kind) for kind, label in _FILL_KINDS.items()],
                                          value="heuristic", description=_("Bots"),
                                          layout=w.Layout(width="260px")), "aluette-together-bot-kind")
        self._table_box = w.VBox(layout=w.Layout(display="none"))  # the seat table, once there is one
        # the page's card size and pictures (Spanish or French suits), as in 02 and 08: this page's own
        self.card_controls = w.HBox([card_size_control(), card_deck_control()],
                                    layout=w.Layout(flex_flow="row wrap"))
        self.children = [card_style(seat_css("aluette-together")), self.stood_in_view, self._lobby, self.seats_view,
                         self.code_view,
                         self.draw_view, w.HBox([self.bot_kind, self.fill_button],
                                                layout=w.Layout(flex_flow="row wrap", align_items="center")),
                         self.message, self.card_controls, self._table_box]
        self.add_class("aluette-together")
        self.add_class("aluette-sized")
        self._stop_observing = self.controller.observe(lambda kinds: self._render_page())

        self._refresh_names()
        self._from_address()
        self._render()
        no_null_tooltips(self)
        if poll:
            self.listen()

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
        info = self.controller.open_table(text, draw=not self.choose_box.value, face_down=self.face_down_box.value)
        self.table_box.value = info.name
        self.message.ok(_("Table {name}: free seats {seats}; type your name and sit down.").format(
            name=info.name, seats=", ".join(map(str, info.free_seats))) if info.free_seats
            else _("Table {name}: every seat is held.").format(name=info.name))
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
        self._told_seat = ticket.seat
        if ticket.seat is not Seat.parse(seat):  # the fourth to sit: the draw seated them at once
            self._say_moved(Seat.parse(seat))
            return
        self.message.ok(_("You sit at {seat} at table {table}. Keep your seat code {code}: with it you come back "
                          "to this seat after a reload.").format(seat=ticket.seat, table=ticket.table,
                                                                 code=ticket.code))

    def _say_moved(self, old: Seat) -> None:
        """The message once the partnership draw moved this page's student from ``old``: the seat they hold now
        (the one every text of the page names)."""
        ticket = self.controller.ticket
        self.message.ok(_("The partnership draw seated you at {seat} at table {table} (you had sat at {old}); the "
                          "draw below shows how. Keep your seat code {code}: with it you come back to this seat "
                          "after a reload.").format(seat=ticket.seat, table=ticket.table, old=old,
                                                    code=ticket.code))

    @friendly()
    def rejoin(self, code: Optional[str] = None) -> None:
        """Come back to your seat with the code in the box (or ``code``) at the table in the table box."""
        code = limited_text(self.code_box.value if code is None else code, _CODE_TEXT, "the seat code")
        table = limited_text(self.table_box.value, TABLE_NAME_LIMIT, "the table's name")
        if not table.strip() and self.controller.table is None:
            raise TableError(_("type your table's name too"))
        ticket = self.controller.rejoin(code, table if table.strip() else None)
        self.code_box.value = ""
        self._told_seat = ticket.seat
        self.message.ok(_("Welcome back, {player}: you sit at {seat} at table {table}.").format(
            player=ticket.player, seat=ticket.seat, table=ticket.table))
        self._render()

    @friendly()
    def fill_with_bots(self) -> None:
        """The table's first player fills the empty seats with bots."""
        filled = self.controller.fill_with_bots(self.bot_kind.value)
        self.message.ok((_("Expert bots sit at {seats}.") if self.bot_kind.value == "expert"
                         else _("Bots sit at {seats}.")).format(seats=", ".join(map(str, filled))) if filled
                        else _("No seat was empty."))
        self._render()

    # ------------------------------------------------------------------ the seat table's controls, from here too
    def _seat(self) -> SeatTable:
        if self.seat_table is None:
            raise TableError(_("take a seat first (or come back to yours with its seat code)"))
        return self.seat_table

    @property
    def _playing(self) -> w.VBox:
        """The box of the seat's table (hidden until the seat's table is ready)."""
        return self._table_box

    def __getattr__(self, name: str):
        # the seat table's controls and actions (status, table, chant_buttons, play, hint...), once seated
        if name in _SEAT_PARTS:
            table = self.__dict__.get("seat_table") if "seat_table" in self.__dict__ else None
            if table is None:
                raise AttributeError(f"{name}: no seat table yet (take a seat first)")
            return getattr(table, name)
        raise AttributeError(name)

    def refresh(self) -> bool:
        """One read of the database: redraws and returns ``True`` when something changed."""
        return self.controller.refresh()

    # ------------------------------------------------------------------ pushed updates
    def listen(self) -> bool:
        """Take the table's changes from the process's watcher (:mod:`aluette.store.watch`) from now on, refreshed on
        the running event loop or through the page runner (:func:`set_page_runner`); the page subscribes once it
        has a table, and unsubscribes when closed. ``False`` when neither is there (or it listens already)."""
        if self._call is not None or self._closed:
            return False
        loop = _running_loop()
        if loop is not None:
            self._call = lambda: loop.call_soon_threadsafe(self._woken)
        elif _page_runner is not None:
            self._call = _page_runner(self._woken, self._page_gone)
        if self._call is not None:
            self._watch_table()
        return self._call is not None

    @property
    def polling(self) -> bool:
        """The page takes its table's changes (from the watcher once it has a table)."""
        return self._call is not None and not self._closed

    @property
    def watching(self) -> bool:
        """Subscribed to a table's watcher."""
        return self._unwatch is not None

    def _watch_table(self) -> None:
        """Subscribe to the watcher of the controller's table (again when it changed); the bots are then the
        watcher's to drive."""
        table = self.controller.table
        if self._call is None or self._closed or table == self._watched:
            return
        self._stop_watching()
        if table is None:
            return
        try:
            self._unwatch = watch(self.controller.service, table, self._wake, seat=lambda: self.controller.seat)
        except AluetteError as error:  # the page goes on reading by itself
            self.message.error(str(error))
            return
        self._watched = table
        self.controller.drive_bots = False

    def _stop_watching(self) -> None:
        if self._unwatch is not None:
            self._unwatch()
        self._unwatch, self._watched = None, None
        self.controller.drive_bots = True

    def _wake(self, change: Optional[TableChange]) -> None:
        """From the watcher's thread: note the change and have the page refresh (once for many changes)."""
        with self._wake_lock:
            if change is None:
                self._lost = True
            elif self._change is None:
                self._change = change
            else:
                self._change = TableChange(max(change.seq, self._change.seq), change.seats or self._change.seats)
            if self._scheduled or self._closed:
                return
            self._scheduled = True
        try:
            self._call()
        except RuntimeError:  # the page's event loop is closed: the page is gone
            with self._wake_lock:
                self._scheduled = False

    def _woken(self) -> None:
        """In the page: the refresh the watcher asked for; its failure said on the page."""
        with self._wake_lock:
            change, self._change, self._scheduled = self._change, None, False
            lost, self._lost = self._lost, False
        if self._closed:
            return
        if lost:  # the watcher stopped (a bug: it says so in its log): this page reads by itself from now on
            self._stop_watching()
            self.message.error(_("This page stopped receiving the table's moves; reload it and come back with "
                                 "your seat code."))
            return
        if change is None:
            return
        try:
            self.controller.refresh(force=change.seats, seq=change.seq)
        except AluetteError as error:  # the database refused (a closed table, a seat given to a bot...)
            self.message.error(str(error))
        except Exception:  # a bug: say so rather than lose it in the event loop's log
            self.internal_errors.append(traceback.format_exc())
            self.message.error(_("Internal error while reading the table (a bug); reload the page and come back "
                                 "with your seat code."))

    def _page_gone(self) -> None:
        """The page runner's word that the page went (its server closed it): no more updates."""
        self._closed = True
        self._stop_watching()

    def close(self) -> None:
        """Stop the table's updates and close this widget and every widget it made."""
        if not getattr(self, "_closed", True):
            self._closed = True
            self._stop_watching()
        if getattr(self, "_stop_observing", None) is not None:
            self._stop_observing()
        if getattr(self, "seat_table", None) is not None:
            self.seat_table.close()  # with the widgets it made and no longer shows
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

    # ------------------------------------------------------------------ drawing (from the seat's state only)
    def _render(self) -> None:
        self._render_page()
        if self.seat_table is not None:
            self.seat_table.redraw()

    def _render_page(self) -> None:
        """The lobby, the seats and the seat code; the seat table, made when the seat's table is first ready (it
        then draws itself on the controller's changes)."""
        controller = self.controller
        self._watch_table()
        self._render_seats(controller.info)
        state = controller.state
        seated = controller.ticket is not None
        info, seat = controller.info, controller.seat
        draw = info.draw if info is not None and not (state and state.deal_points) else None
        # a page that comes to the table once its deal has started (the draw is the log's first entry): the draw
        # was shown already, the page goes straight to the trick as it is
        self.draw_view.show(draw, draw.seating[seat] if draw is not None and seat is not None else None,
                            seen=state is not None and state.seq > 1 or self._saw_draw())
        stood_in = seated and controller.stood_in
        ready = seated and not stood_in and state is not None and state.info.ready and not self._draw_first()
        if not seated and self.seat_table is not None:  # the seat was opened on another device: back to the lobby
            self.seat_table.close()
            self.seat_table = None
            self._table_box.children = []
        self._render_stood_in(stood_in)
        self._lobby.layout.display = "none" if seated and not stood_in else None
        if ready and self.seat_table is None:
            self.seat_table = SeatTable(controller, css="aluette-together", message=self.message,
                                        names={"table": "round"},
                                        face_down=self._face_down or bool(state.info.settings.get("face_down")))
            self._table_box.children = [self.seat_table]
        self._table_box.layout.display = None if ready else "none"
        self.fill_button.layout.display = (None if controller.is_host and state is not None
                                           and state.info.free_seats else "none")
        self.bot_kind.layout.display = self.fill_button.layout.display
        if not seated:
            self.code_view.value = ""
            return
        ticket = controller.ticket
        if self._told_seat is not None and self._told_seat is not ticket.seat:  # the draw moved the student
            old, self._told_seat = self._told_seat, ticket.seat
            self._say_moved(old)
        link = escape(rejoin_link(ticket.table, ticket.code))
        self.code_view.value = ('<div style="font-size:110%">' + _(
            "<b>{player}</b>, you sit at <b>{seat}</b> at table <b>{table}</b>. Your seat code: {code} (keep it: "
            "with it you come back to this seat after a reload), or keep {link}this link to your seat</a>.").format(
            player=escape(ticket.player), seat=ticket.seat, table=escape(ticket.table),
            code=f'<code class="aluette-together-code-text">{escape(ticket.code)}</code>',
            link=f'<a class="aluette-together-link" href="{link}">') + "</div>")

    def _render_stood_in(self, stood_in: bool) -> None:
        """While the teacher has given the seat to a bot: the warning, and of the lobby the seat code's box (filled
        with this seat's code) and "Come back to my seat" only; once given back, the seat's normal page."""
        rows = self._lobby.children
        for row in rows[:-1]:
            row.layout.display = "none" if stood_in else None
        self.stood_in_view.layout.display = None if stood_in else "none"
        if stood_in and not self._was_stood_in:
            ticket = self.controller.ticket
            self.stood_in_view.value = ('<div role="alert">⚠ ' + _(
                "The teacher gave your seat {seat} at table <b>{table}</b> to a bot, which plays it now. Ask the "
                "teacher to give it back: this page then comes back to your seat by itself, or press Come back to "
                "my seat below (your seat code is in the box).").format(seat=ticket.seat,
                                                                        table=escape(ticket.table)) + "</div>")
            self.code_box.value = ticket.code
            self.message.clear()
        elif not stood_in and self._was_stood_in:
            self.stood_in_view.value = ""
            self.code_box.value = ""
            self.message.clear()  # the seat's refusals while the bot held it are over
        self._was_stood_in = stood_in

    def _draw_key(self) -> Optional[str]:
        ticket = self.controller.ticket
        return None if ticket is None else f"{ticket.table}\n{ticket.code}"

    def _saw_draw(self) -> bool:
        """This seat's page saw the whole of its table's draw before (a reload, or the seat's other tab): the draw
        is shown folded away, as to a page that comes back once the deal has started (kept in the browser session,
        :func:`page_student`'s storage; nothing is kept where the server keeps no session)."""
        storage, key = session_storage(), self._draw_key()
        return storage is not None and key is not None and key in storage.get(_SEEN_DRAWS, ())

    def _draw_finished(self) -> None:
        storage, key = session_storage(), self._draw_key()
        if storage is not None and key is not None:
            seen = [k for k in storage.get(_SEEN_DRAWS, ()) if k != key]
            storage[_SEEN_DRAWS] = (seen + [key])[-SEEN_DRAWS_KEPT:]
        self._render()

    def _draw_first(self) -> bool:
        """The table's partnership draw is shown and this page has not seen all of it yet: no hand before it."""
        return self.draw_view.draw is not None and not self.draw_view.finished

    def _render_seats(self, info) -> None:
        if info is None:
            self.seats_view.value = ""
            return
        you = self.controller.seat
        rows = []
        for seat in SEATS:
            who = seat_words(info.seats[seat], _("<i>empty: waiting for a player</i>"), "",
                             _(" <i>(not connected)</i>"))
            mark = _(" (you)") if seat is you else (_(" · host") if seat is info.host else "")
            rows.append(f"<li><b>{seat}</b>{mark}: {who}</li>")
        missing = len(info.free_seats)
        head = (_("Table <b>{name}</b>").format(name=escape(info.name))
                + (_(" (closed by the teacher)") if info.closed else "")
                + (_(", seated by the partnership draw") if info.draw is not None else "")
                + (ngettext(": {count} seat missing", ": {count} seats missing", missing).format(count=missing)
                   if missing else _(": all four seats held")))
        self.seats_view.value = f"<div>{head}</div><ul>{''.join(rows)}</ul>"
