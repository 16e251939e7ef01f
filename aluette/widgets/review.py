"""The Review of a finished deal (issue 18 §2), shown by the seat's view (:class:`~aluette.widgets.seat_table.
SeatTable`, notebooks 08 and 10) once a deal is over: each of your cards against best play with all hands open
(:mod:`aluette.analysis.review`), and "Find a better card" for each mistake, the answer shown on request only.

:class:`ReviewPanel` is given the seat's own view; before the deal's end it shows nothing and works nothing out
(:func:`~aluette.analysis.review.review_deal` refuses), so no trait ever holds an analysis of a deal in progress.
What it shows is the seat's own hands and the cards on the table at each of its moves (all of them played by the
end), never a discard or the unused stock.

Never blocking the page: with an event loop running (JupyterLab, the classroom app), the moves are worked out in
a worker process (one per server process, started when first needed, at a lower priority), the last tricks first,
and each row appears as it is done, under a progress line; the kernel keeps answering clicks meanwhile (the
solver holds Python's lock while it searches, so a thread would freeze the page). Without a running loop (a
script, pytest) nothing runs behind the caller's back: the review is worked out lazily, when :meth:`ReviewPanel.
work_out` is called (its button, "Work it out"), inside that call.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import multiprocessing
import os
from concurrent.futures.process import BrokenProcessPool
from html import escape
from typing import Optional

import ipywidgets as w

from ..analysis.review import (FIRST_TRICK_NODES, HINDSIGHT, DealReview, MoveReview, budget_for, from_outcome,
                               order_of_work, positions, solve_job)
from ..card_names import card_name
from ..cards import Card
from ..errors import AluetteError
from ..i18n import _
from ..pictures import trick_html
from ..records import Phase, View
from .common import MessageArea, friendly, live_region, styled

__all__ = ["ReviewPanel", "prepare_worker"]

_POOL: Optional[concurrent.futures.ProcessPoolExecutor] = None


def _lower_priority() -> None:  # pragma: no cover - runs in the worker process
    try:
        os.nice(5)
    except OSError:
        pass


def _pool() -> concurrent.futures.ProcessPoolExecutor:
    """The review's worker process, shared by every review of this process (started on first use)."""
    global _POOL
    if _POOL is None:
        _POOL = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                       initializer=_lower_priority)
        atexit.register(_shutdown)
    return _POOL


def _submit(*job) -> concurrent.futures.Future:
    """``_pool().submit(*job)``; a pool whose worker died (killed, or out of memory) is replaced by a new one once,
    so that one lost worker does not leave every later review of this process "not worked out"."""
    try:
        return _pool().submit(*job)
    except BrokenProcessPool:
        _shutdown()
        return _pool().submit(*job)


def _shutdown() -> None:
    """Stop the worker at the process's exit, before the interpreter tears its modules down (a search under way is
    not waited for)."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None


def _warm() -> float:  # pragma: no cover - runs in the worker process
    from ..analysis._kernel import warm_up
    return warm_up()


def prepare_worker() -> None:
    """Start the worker process and load the solver in it ahead of the first review (a few seconds, paid during
    the deal rather than after it); does nothing without a running event loop, or once started."""
    if _POOL is None and _running_loop() is not None:
        _pool().submit(_warm)


def _deliver(loop: asyncio.AbstractEventLoop, callback, *args) -> None:
    """Hand a worker's result to ``callback`` on the page's event loop (from the pool's thread); dropped when the
    loop has closed since (the page is gone)."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # the loop is closed: nobody is left to show the result to
        pass


def _running_loop() -> Optional[asyncio.AbstractEventLoop]:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class ReviewPanel(w.VBox):
    """The Review of your deal, under the seat's table; see the module docstring.

    Args:
        css: the prefix of its CSS classes (``<css>-review``, ``-review-rows``, ``-review-find``, ``-review-card``,
            ``-review-answer``, ``-review-feedback``), for browser tests.
        first_trick_nodes, max_nodes: the search budgets (:func:`~aluette.analysis.review.budget_for`).
        background: work out in the worker process when an event loop runs (default); ``False``: only on request
            (:meth:`work_out`).

    :meth:`show` ``(view)`` is called by the seat's view at every change: at a deal's end it starts the review,
    during a deal it hides the panel. :attr:`review` is the :class:`~aluette.analysis.review.DealReview` once every
    move is done; :meth:`find_better` opens the next mistake to find a better card for, :meth:`try_card` tries a
    card there, :meth:`show_answer` shows the answer.
    """

    def __init__(self, css: str = "aluette-seat", *, first_trick_nodes: int = FIRST_TRICK_NODES,
                 max_nodes: Optional[int] = None, background: bool = True, layout: Optional[w.Layout] = None):
        plain = layout if layout is not None else w.Layout()
        super().__init__(layout=w.Layout(display="none"))
        self.css, self._plain = css, plain
        self.first_trick_nodes, self.max_nodes, self.background = first_trick_nodes, max_nodes, background
        self._key = None  # the deal being reviewed: (seat, its tricks' cards)
        self._token = 0  # a new deal makes the results of the last one stale
        self._moves: dict[int, MoveReview] = {}
        self._positions = ()
        self._view: Optional[View] = None
        self._futures: list = []
        self._built = False
        self._exercise: Optional[MoveReview] = None
        self.review: Optional[DealReview] = None
        self.add_class(f"{css}-review")

    # ------------------------------------------------------------------ widgets, made at the first deal's end
    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        css, plain = self.css, self._plain
        self.head = styled(w.HTML(layout=plain), f"{css}-review-head")
        self.rows = styled(w.HTML(layout=plain), f"{css}-review-rows")
        # a layout of its own: shown or hidden by itself, never with the widgets of the table sharing ``plain``
        self.find_button = styled(w.Button(description=_("Find a better card"), icon="search", layout=w.Layout(),
                                           tooltip=_("try to find a better card for one of your mistakes")),
                                  f"{css}-review-find")
        self.find_button.on_click(lambda _: self.find_better())
        self.position_view = styled(w.HTML(layout=plain), f"{css}-review-position")
        self.card_row = styled(w.HBox(layout=plain), f"{css}-review-cards", f"{css}-wrap")
        self._card_buttons: list[w.Button] = []
        self._card_of: dict[w.Button, Card] = {}
        self.answer_button = styled(w.Button(description=_("Show the answer"), icon="eye", layout=plain,
                                             tooltip=_("show the best card for this move")), f"{css}-review-answer")
        self.answer_button.on_click(lambda _: self.show_answer())
        self.work_button = styled(w.Button(description=_("Work it out"), icon="cogs",
                                           layout=w.Layout(display="none"),
                                           tooltip=_("work out the review now (it takes some seconds)")),
                                  f"{css}-review-work")
        self.work_button.on_click(lambda _: self.work_out())
        self.feedback = styled(MessageArea(layout=plain), f"{css}-review-feedback")
        self.message = self.feedback
        self.exercise_box = w.VBox([self.position_view, self.card_row, self.answer_button, self.feedback],
                                   layout=w.Layout(display="none"))
        self.children = [self.head, self.work_button, self.rows, self.find_button, self.exercise_box]

    # ------------------------------------------------------------------ driven by the seat's view
    def show(self, view: View) -> None:
        """Follow the seat's ``view``: at a finished deal (nine tricks played), review it once; else hide."""
        if view.phase is not Phase.OVER or len(view.tricks) < 9:
            if self._key is not None or self.layout.display != "none":
                self._clear()
            return
        key = (view.seat, tuple(c for t in view.tricks for _, c in t.plays))
        if key == self._key:
            return
        self._clear()
        self._key = key
        self._start(view)

    def _clear(self) -> None:
        self._token += 1
        for future in self._futures:
            future.cancel()  # not started yet: never run
        self._futures, self._moves, self._positions, self._view, self.review = [], {}, (), None, None
        self._key, self._exercise = None, None
        self.layout.display = "none"
        if self._built:
            self.exercise_box.layout.display = "none"
            self.rows.value = self.head.value = ""

    def _start(self, view: View) -> None:
        self._build()
        deal, found = positions(view)  # raises WrongPhaseError before the end: never reached then
        self._view, self._positions = view, found
        self._two = not (deal.result.surrender_accepted is False)
        self._data = deal.to_dict()
        token, data = self._token, self._data
        loop = _running_loop() if self.background else None
        self.work_button.layout.display = "none" if loop is not None else None
        self.layout.display = None
        self._draw()
        if loop is None:
            return  # lazily: work_out() on request
        for pos in order_of_work(found):
            budget = budget_for(pos, self.first_trick_nodes, self.max_nodes)
            future = _submit(solve_job, data, pos.moves, budget)
            future.add_done_callback(lambda f, pos=pos: _deliver(loop, self._finished, token, pos, f))
            self._futures.append(future)

    def work_out(self) -> Optional[DealReview]:
        """Work out every move not done yet, here and now (the last tricks first); returns the review, or ``None``
        when no finished deal is shown."""
        if self._view is None:
            return None
        self.work_button.layout.display = "none"
        token = self._token
        for pos in order_of_work(self._positions):
            if pos.number not in self._moves:
                budget = budget_for(pos, self.first_trick_nodes, self.max_nodes)
                self._done(token, pos, solve_job(self._data, pos.moves, budget))
        return self.review

    def _finished(self, token: int, pos, future) -> None:
        if future.cancelled():
            return
        error = future.exception()
        outcome = solve_job_failure(error) if error is not None else future.result()
        self._done(token, pos, outcome)

    def _done(self, token: int, pos, outcome: tuple) -> None:
        if token != self._token:
            return  # a result of a deal no longer shown
        self._moves[pos.number] = from_outcome(pos, outcome, self._two)
        if len(self._moves) == len(self._positions):
            points = self._view.result.points
            team = self._view.seat.team
            self.review = DealReview(self._view.seat, tuple(self._moves[p.number] for p in self._positions),
                                     points[team] - points[team.other])
        self._draw()

    # ------------------------------------------------------------------ drawing
    def _draw(self) -> None:
        done, total = len(self._moves), len(self._positions)
        if self.review is None and self.work_button.layout.display != "none":
            state = _("Press <b>Work it out</b> to see each of your cards against best play.")
        elif self.review is None:
            state = escape(_("Working out your moves with all hands open: {done} of {total} done…").format(
                done=done, total=total))
        else:
            mistakes = len(self.review.mistakes)
            state = escape(self.review.summary()) + (
                " " + _("Press <b>Find a better card</b> to try again where it cost your side.") if mistakes else "")
        self.head.value = live_region(
            _("<b>Review of your deal</b> (your cards against best play with all hands open)")
            + f"<div><i>{escape(_(HINDSIGHT))}</i></div><div>{state}</div>")
        items = []
        for pos in self._positions:
            move = self._moves.get(pos.number)
            if move is None:
                later = _("to work out") if self.work_button.layout.display != "none" else _("working it out…")
                items.append("<li>" + escape(_("Trick {number}: you played {card}: {later}").format(
                    number=pos.trick, card=pos.played, later=later)) + "</li>")
                continue
            mark = "✔" if move.verdict.name == "BEST" else "✘" if move.verdict.mistake else "?"
            # a mistake's best card is its answer: shown only by "Show the answer"
            text = move.text()
            if move.verdict.mistake:
                text = text[:text.rindex(" (best:")] + "." if " (best:" in text else text
            items.append(f"<li>{mark} {escape(text)}</li>")
        self.rows.value = "<ol>" + "".join(items) + "</ol>"
        can_find = self.review is not None and bool(self.review.mistakes)
        self.find_button.layout.display = None if can_find else "none"

    # ------------------------------------------------------------------ find a better card
    @friendly()
    def find_better(self) -> Optional[MoveReview]:
        """Open the next of your mistakes (after the one open, in order) to find a better card for; returns it, or
        ``None`` when there is none (said)."""
        if self.review is None:
            raise AluetteError(_("the review is not ready yet"))
        mistakes = self.review.mistakes
        if not mistakes:
            self.feedback.ok(_("No mistake to look at: every card worked out was best."))
            return None
        current = self._exercise
        later = [m for m in mistakes if current is None or m.number > current.number]
        move = (later or mistakes)[0]
        self._exercise = move
        table = (trick_html(move.table, title=_("Trick {number}, on the table").format(number=move.trick), width=44)
                 if move.table else "<div>" + escape(_("Trick {number}: you lead.").format(number=move.trick))
                 + "</div>")
        self.position_view.value = _("<b>Find a better card</b>: trick {number}, you played {card} and then {result} "
                                     "with best play. Which card of your hand would have done better?").format(
            number=move.trick, card=move.played, result=escape(move.result_words())) + table
        while len(self._card_buttons) < len(move.hand):
            button = styled(w.Button(layout=self._plain), f"{self.css}-review-card")
            button.on_click(self._on_card)
            self._card_buttons.append(button)
        for button, card in zip(self._card_buttons, move.hand):
            button.description = f"{card.code} {card.nickname}".strip()
            button.tooltip = _("try {card}").format(card=card_name(card))
            self._card_of[button] = card
        self.card_row.children = tuple(self._card_buttons[:len(move.hand)])
        self.feedback.clear()
        self.exercise_box.layout.display = None
        return move

    def _on_card(self, button: w.Button) -> None:
        card = self._card_of.get(button)
        if card is not None:
            self.try_card(card)

    @friendly()
    def try_card(self, card) -> Optional[bool]:
        """Try ``card`` of the open mistake's hand: says whether it does better; returns that."""
        if self._exercise is None:
            raise AluetteError(_("press Find a better card first"))
        right, text = self._exercise.try_card(card)
        (self.feedback.ok if right else self.feedback.error)(text)
        return right

    @friendly()
    def show_answer(self) -> Optional[tuple[Card, ...]]:
        """Show the best cards of the open mistake (on request only); returns them."""
        move = self._exercise
        if move is None:
            raise AluetteError(_("press Find a better card first"))
        cards = _(" or ").join(str(c) for c in move.best_cards)
        self.feedback.ok(_("The answer: {cards}, after which best play gives {result}.").format(
            cards=cards, result=move.best_words()))
        return move.best_cards

    def close(self) -> None:
        self._clear()
        if self._built:
            for widget in (self.head, self.work_button, self.rows, self.find_button, self.position_view, self.card_row,
                           self.answer_button, self.feedback, self.exercise_box, *self._card_buttons):
                widget.close()
        super().close()


def solve_job_failure(error: BaseException) -> tuple:
    """The outcome of a job whose worker failed (the process died, or raised): not worked out, the reason said."""
    return ("not worked out", f"the search failed ({type(error).__name__})")
