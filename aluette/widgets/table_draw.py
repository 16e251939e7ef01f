"""The partnership draw of a shared table, as every page of the table shows it (notebook 10's lobby step).

When four people sit at a table with the draw, the table records it (:mod:`aluette.store.service`) and seats them as
it says; each page then shows the same draw, stepped as notebook 02 steps one: every face-up card in turn, who holds
a top card and gets no more, then the partnerships, the new seating and who deals first (Madame's holder, at N).
Every card of the draw is dealt face up, so nothing in it is a secret; it is drawn from the table's own seed, never
the match's, so it says nothing of the deals.

Rule source: the rules sheet, "setup"; pagat.com (« Pour choisir les équipes et le premier donneur, tout joueur les
distribue une à la fois, face à face … »). The project's decisions on who deals the face-up cards and where each
sits are :mod:`aluette.draw`'s.
"""

from __future__ import annotations

from html import escape
from typing import Optional

import ipywidgets as w

from ..draw import DrawResult
from ..i18n import _
from ..pictures import cards_html
from .common import MessageArea, card_label, friendly, live_region, styled
from .setup import seating_html

__all__ = ["TableDraw"]


class TableDraw(w.VBox):
    """The draw that seated a table's four players, card by card; hidden while there is none. ``on_finished()`` is
    called once its last card is shown (the page then shows the student's hand: the draw comes first, for all four).

    Controls (CSS class): ``next_button`` (``aluette-table-draw-next``: one more face-up card), ``all_button``
    (``aluette-table-draw-all``: the whole draw), ``status`` (``aluette-table-draw-status``), the cards so far
    (``aluette-table-draw-cards``), ``result`` (``aluette-table-draw-result``: partners and the student's seat in
    one line once every card is shown, the draw folded away under it), ``message``.
    """

    def __init__(self, on_finished=None):
        super().__init__()
        self._on_finished = on_finished  # called once every card of the draw is shown
        self.message = styled(MessageArea(), "aluette-table-draw-message")
        self.next_button = self._button(_("Next card"), "aluette-table-draw-next", lambda: self.step(1), "primary")
        self.all_button = self._button(_("Show the whole draw"), "aluette-table-draw-all", lambda: self.step(None))
        self._head = styled(w.HTML(), "aluette-table-draw-head")
        self.status = styled(w.HTML(), "aluette-table-draw-status")
        self._cards = styled(w.HTML(), "aluette-table-draw-cards")
        self.result = styled(w.HTML(), "aluette-table-draw-result")
        self._buttons = w.HBox([self.next_button, self.all_button])
        self.children = [self._head, self._buttons, self.status, self._cards, self.result, self.message]
        self.add_class("aluette-table-draw")
        self._draw: Optional[DrawResult] = None
        self._you: Optional[str] = None
        self._shown = 0
        self.layout.display = "none"

    @property
    def draw(self) -> Optional[DrawResult]:
        return self._draw

    @property
    def shown(self) -> int:
        """Face-up cards shown so far."""
        return self._shown

    @property
    def finished(self) -> bool:
        return self._draw is not None and self._shown == len(self._draw.steps)

    def show(self, draw: Optional[DrawResult], you: Optional[str] = None, *, seen: bool = False) -> None:
        """Show ``draw`` (from its first card, or folded away as seen with ``seen``: a page that comes back to a
        table whose deal has started; the same draw again keeps its place), ``you`` the name of this page's player
        in it; ``None`` hides the view."""
        if draw != self._draw or you != self._you:
            if draw != self._draw:
                self._shown = len(draw.steps) if seen and draw is not None else 0
            self._draw, self._you = draw, you
            self._render()
        self.layout.display = "none" if draw is None else None

    @friendly()
    def step(self, count: Optional[int]) -> None:
        """``count`` more face-up cards (``None``: all of them)."""
        if self._draw is None:
            return
        total = len(self._draw.steps)
        if self._shown == total:
            self.message.ok(_("The draw is over: every top card is out."))
            return
        self._shown = total if count is None else min(total, self._shown + count)
        self.message.clear()
        self._render()
        if self._shown == total and self._on_finished is not None:
            self._on_finished()

    # ------------------------------------------------------------------ inside
    def _button(self, text, css, handler, style=""):
        b = styled(w.Button(description=text, button_style=style, layout=w.Layout(width="auto")), css)
        b.on_click(lambda button: handler())
        return b

    def _who(self, name: str) -> str:
        return _("{name} (you)").format(name=escape(name)) if name == self._you else escape(name)

    def _render(self) -> None:
        draw = self._draw
        if draw is None:
            for view in (self._head, self.status, self._cards, self.result):
                view.value = ""
            return
        names = draw.names
        self._head.value = _("<b>The partnership draw</b> decides partners, seats and the first dealer, as at a "
                             "real table (notebook 2): {dealer} deals the cards face up, one at a time, from {first} "
                             "round the table; a player who receives Monsieur, Madame, le Borgne or la Vache gets no "
                             "more cards.").format(dealer=self._who(names[0]), first=self._who(names[1]))
        shown = draw.steps[:self._shown]
        rows = []
        for name in names:
            got = [card for holder, card in shown if holder == name]
            top = draw.top_card[name] if draw.top_card[name] in got else None
            note = _(": {card}, no more cards").format(card=escape(card_label(top))) if top is not None else ""
            rows.append(f"<li><b>{self._who(name)}</b>{note} {cards_html(got, width=30)}</li>")
        cards = f'<ul style="list-style:none;padding-left:0">{"".join(rows)}</ul>'
        done = self._shown == len(draw.steps)
        for widget in (self._head, self._buttons, self.status, self._cards):  # once seen, the draw folds away
            widget.layout.display = "none" if done else None
        if not done:
            self._cards.value = cards
            now = (_("Press Next card, or Show the whole draw.") if not shown else
                   _("Card {number} of {total}: {card} to {name}.").format(
                       number=self._shown, total=len(draw.steps), card=escape(card_label(shown[-1][1])),
                       name=self._who(shown[-1][0])))
            self.status.value = live_region(now)
            self.result.value = ""
            return
        self._cards.value = ""
        self.status.value = live_region(_("The draw is over."))
        (monsieur, madame), (borgne, vache) = draw.pairs
        mine = "" if self._you is None else _(" You sit at <b>{seat}</b>.").format(seat=draw.seat_of(self._you))
        partners = _("<b>Partners by the draw:</b> {monsieur} (Monsieur) with {madame} (Madame), against {borgne} "
                     "(le Borgne) with {vache} (la Vache). {madame} holds Madame: N, and deals first.").format(
            monsieur=self._who(monsieur), madame=self._who(madame), borgne=self._who(borgne), vache=self._who(vache))
        self.result.value = (f"<details><summary>{partners}{mine}</summary>{cards}"
                             f"{seating_html(draw.seating, draw.first_dealer)}</details>")
