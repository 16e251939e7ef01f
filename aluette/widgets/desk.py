"""The teacher's tables page (notebook 11): :class:`TablesDesk`, every table in play with its seats, who is
connected, the deal, the phase and the scores (:meth:`TeacherDesk.summary <aluette.store.TeacherDesk.summary>`, never
a card). Each table has its own box, headed by its name, and every button in it names the table it acts on: a bot
for an absent student's seat, the seat given back (the student's code works again, or a new code for a lost one), a
seat freed, the table closed. Finished matches leave the list for one line of results; closed tables leave the page.
"""

from __future__ import annotations

import asyncio
import html
from html import escape
from typing import Optional, Union

import ipywidgets as w

from ..card_names import phase_name
from ..i18n import N_, _, ngettext
from ..seats import SEATS, Seat, Team
from ..store import TeacherDesk
from .common import MessageArea, friendly, reachable_widgets, styled
from .together import POLL_LIFETIME, _running_loop, seat_words

__all__ = ["TablesDesk"]

_NO_TABLE = N_('No table in play: students open one on the "play together" page.')


class TablesDesk(w.VBox):
    """The teacher's page of shared tables: every table in play (open, match not over) in a box headed by its name,
    with its seats, who is connected, the deal, the phase, whose turn and the scores (never a card); below them one
    line for the finished matches. Each seat's buttons name the seat and the table; Refresh reads again (also every
    ``interval`` seconds while the page polls).

    Args:
        desk: the :class:`~aluette.store.TeacherDesk` (default: one on the default database).
        poll: read again every ``interval`` seconds on the kernel's event loop (when one is running).

    Controls (CSS class): ``refresh_button`` (``aluette-desk-refresh``), ``tables_view`` (``aluette-desk-tables``),
    per table a box (``aluette-desk-row``) headed by its name (``aluette-desk-name``) with its state
    (``aluette-desk-table``), a ``aluette-desk-close`` button and per seat (``aluette-desk-seat-N``...) the buttons
    ``aluette-desk-bot`` (a bot takes the seat), ``aluette-desk-back`` (the bot leaves: the seat is its student's
    again, or free) and ``aluette-desk-code`` (a new seat code for the seat's student), each also
    ``aluette-desk-bot-N``...; ``finished_view`` (``aluette-desk-finished``) and ``close_finished_button``
    (``aluette-desk-close-finished``); ``message`` (``aluette-desk-message``).
    """

    def __init__(self, desk: Optional[TeacherDesk] = None, *, poll: bool = True, interval: float = 1.0):
        super().__init__()
        self.desk = desk if desk is not None else TeacherDesk()
        self.message = styled(MessageArea(), "aluette-desk-message")
        self.refresh_button = styled(w.Button(description=_("Refresh"), icon="refresh"), "aluette-desk-refresh")
        self.refresh_button.on_click(lambda _: self.refresh())
        self.tables_view = styled(w.VBox(), "aluette-desk-tables")
        self.finished_view = styled(w.HTML(), "aluette-desk-finished")
        self.close_finished_button = styled(w.Button(description=_("Close the finished tables"), button_style="",
                                                     layout=w.Layout(width="auto", display="none")),
                                            "aluette-desk-close-finished")
        self.close_finished_button.on_click(lambda _: self.close_finished())
        self._rows: dict[str, tuple] = {}
        self._finished: list = []
        self._closed = False
        self._task: Optional[asyncio.Task] = None
        self.children = [w.HBox([self.refresh_button]), self.message, self.tables_view,
                         w.HBox([self.finished_view, self.close_finished_button],
                                layout=w.Layout(flex_flow="row wrap", align_items="center"))]
        self.add_class("aluette-desk")
        self.refresh()
        loop = _running_loop()
        if poll and loop is not None:
            self._task = loop.create_task(self._poll(interval))

    @property
    def summaries(self):
        """The tables in play as last read (:class:`~aluette.store.TableSummary` s): open, match not over."""
        return self._summaries

    @property
    def finished(self):
        """The open tables whose match is over, as last read."""
        return self._finished

    @friendly()
    def refresh(self) -> None:
        """Read every table again and redraw."""
        every = self.desk.summary()
        self._summaries = [s for s in every if not s.is_over]
        self._finished = [s for s in every if s.is_over]
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
        self._draw_finished()
        if not keep:
            self.message.ok(_(_NO_TABLE))
        elif self.message.value and _(_NO_TABLE) in html.unescape(self.message.value):
            self.message.clear()

    @friendly()
    def replace_with_bot(self, table: str, seat: Union[Seat, str]) -> None:
        """Give ``seat`` of ``table`` to a bot (an absent student's seat, or an empty one)."""
        seat = Seat.parse(seat)
        self.desk.replace_with_bot(table, seat)
        self.message.ok(_("A bot plays {seat} at table {table} from now on. To undo it, press \"Give {seat} back\" in "
                          "table {table}'s box.").format(seat=seat, table=table))
        self.refresh()

    @friendly()
    def give_back(self, table: str, seat: Union[Seat, str], *, new_code: bool = False) -> None:
        """The bot leaves ``seat`` of ``table``: the seat is its student's again (their code works again; with
        ``new_code``, a new code is shown here for them), or free for a student to take. On a student's seat,
        ``new_code`` makes a new code for a lost one."""
        seat = Seat.parse(seat)
        before = next((s.seats[seat] for s in self._summaries if s.name.casefold() == table.casefold()), None)
        ticket = self.desk.give_back(table, seat, new_code=new_code)
        if ticket is not None:
            self.message.ok(_("New seat code for {player} at {seat}, table {table}: {code} (the old one no longer "
                              "works). Give it to {player} only: they type it with the table's name under \"Back "
                              "after a reload?\".").format(player=ticket.player, seat=seat, table=ticket.table,
                                                           code=ticket.code))
        elif before is not None and before.stands_in_for is None:
            self.message.ok(_("Seat {seat} at table {table} is free: a student may sit there now.").format(
                seat=seat, table=table))
        elif before is not None:
            self.message.ok(_("Seat {seat} at table {table} is {who}'s again: they come back with their seat code (or "
                              "reload their page).").format(seat=seat, table=table, who=before.stands_in_for))
        else:
            self.message.ok(_("Seat {seat} at table {table} is its student's again: they come back with their seat "
                              "code (or reload their page).").format(seat=seat, table=table))
        self.refresh()

    @friendly()
    def close_table(self, table: str) -> None:
        """Close ``table``: no seat and no move any more (its log stays)."""
        self.desk.close_table(table)
        self.message.ok(_("Table {table} is closed.").format(table=table))
        self.refresh()

    @friendly()
    def close_finished(self) -> None:
        """Close every table whose match is over."""
        names = [s.name for s in self._finished]
        for name in names:
            self.desk.close_table(name)
        self.message.ok(ngettext("Closed {count} finished table.", "Closed {count} finished tables.",
                                 len(names)).format(count=len(names)))
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
        head = styled(w.HTML('<h3 style="margin:2px 0">' + escape(_("Table {name}").format(name=name)) + '</h3>'),
                      "aluette-desk-name")
        view = styled(w.HTML(), "aluette-desk-table")
        close = styled(w.Button(description=_("Close table {name}").format(name=name), button_style="danger",
                                layout=w.Layout(width="auto")), "aluette-desk-close")
        close.on_click(lambda _: self.close_table(name))
        seats = {}
        lines = []
        for seat in SEATS:
            line = styled(w.HTML(), "aluette-desk-seat")
            bot = self._seat_button(_("Bot at {seat} ({name})").format(seat=seat, name=name), "aluette-desk-bot", seat,
                                    lambda _, s=seat: self.replace_with_bot(name, s))
            back = self._seat_button(_("Give {seat} back ({name})").format(seat=seat, name=name), "aluette-desk-back",
                                     seat,
                                     lambda _, s=seat: self.give_back(name, s))
            code = self._seat_button(_("New code for {seat} ({name})").format(seat=seat, name=name),
                                     "aluette-desk-code", seat,
                                     lambda _, s=seat: self.give_back(name, s, new_code=True))
            seats[seat] = (line, bot, back, code)
            lines.append(styled(w.HBox([line, bot, back, code], layout=w.Layout(flex_flow="row wrap",
                                                                              align_items="center")),
                                f"aluette-desk-seat-{seat}"))
        box = styled(w.VBox([head, view, *lines, w.HBox([close])],
                            layout=w.Layout(border="1px solid #999", padding="4px", margin="4px 0")),
                     "aluette-desk-row")
        return box, view, seats, name

    @staticmethod
    def _seat_button(text: str, css: str, seat: Seat, handler) -> w.Button:
        b = styled(w.Button(description=text, layout=w.Layout(width="auto", display="none")), css,
                   f"{css}-{seat}")
        b.on_click(handler)
        return b

    @staticmethod
    def _draw_row(row: tuple, summary) -> None:
        _box, view, seats, name = row
        for seat in SEATS:
            s = summary.seats[seat]
            line, bot, back, code = seats[seat]
            who = seat_words(s, "<i>" + escape(_("empty")) + "</i>", " · " + escape(_("connected")),
                             " · <b>" + escape(_("not connected")) + "</b>")
            if s.stands_in_for is not None:
                who += " " + escape(_("(for {name})").format(name=s.stands_in_for))
            line.value = f"<b>{seat}</b>: {who}"
            student = s.kind == "person" or s.stands_in_for is not None
            bot.layout.display = None if s.kind != "bot" else "none"
            back.description = (_("Give {seat} back to {player} ({name})").format(
                seat=seat, player=s.stands_in_for, name=name) if s.stands_in_for is not None
                else _("Free {seat} for a student ({name})").format(seat=seat, name=name))
            back.layout.display = None if s.kind == "bot" else "none"
            code.layout.display = None if student else "none"
        if summary.problem is not None:
            where = _("cannot be read: {problem}").format(problem=summary.problem)
        elif not summary.ready:
            where = _("waiting for players")
        else:
            phase = phase_name(summary.phase)
            where = (_("deal {number}, {phase}, {seat} to move") if summary.to_move else
                     _("deal {number}, {phase}")).format(number=summary.deal_number, phase=phase,
                                                         seat=summary.to_move)
        s = summary.scores
        view.value = (f'<div><b>{escape(summary.name)}</b> · {escape(where)} · '
                      f'<span class="aluette-desk-score">NS {s[Team.NS]} – EW {s[Team.EW]}</span> · '
                      + escape(ngettext("{count} move made", "{count} moves made", summary.moves).format(
                          count=summary.moves)) + "</div>")

    def _draw_finished(self) -> None:
        if not self._finished:
            self.finished_view.value = ""
            self.close_finished_button.layout.display = "none"
            return
        items = []
        for summary in self._finished:
            s = summary.scores
            end = _("drawn") if summary.winner is None else _("{team} wins").format(team=summary.winner)
            items.append(f"<b>{escape(summary.name)}</b> " + escape(_("(match over: {end}, NS {ns} – EW {ew})").format(
                end=end, ns=s[Team.NS], ew=s[Team.EW])))
        self.finished_view.value = "<div>" + _("Finished: {tables}.").format(tables="; ".join(items)) + "</div>"
        self.close_finished_button.layout.display = None
