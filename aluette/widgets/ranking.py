"""Widgets for the ranking notebook (01): the ranking with pictures, a trick comparer and an ordering exercise.

Rule sources: the ranking is :data:`aluette.cards.RANKING` (the rules sheet, "card rankings"; pagat.com); who wins a
trick is :func:`aluette.trick_winner` / :func:`aluette.explain_trick` (the rules sheet, "gameplay": the highest card
wins, a tie for the highest spoils the trick). Nothing here decides a rule: the widgets only wire controls to those
functions.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Optional, Sequence

import ipywidgets as w

from ..cards import DECK, Card, CardLike, parse_cards
from ..card_names import class_name
from ..chance import shuffled_deck
from ..deal import Hand
from ..errors import AluetteError, DuplicateCardError
from ..i18n import N_, _
from ..pictures import cards_html, trick_html
from ..frames import ranking_columns, ranking_table
from ..tricks import explain_trick, trick_winner
from .common import (CARDS_TEXT, CardButton, CardParts, LimitedText, MessageArea, SeedBox, card_label, card_style,
                     card_words, check_seed, close_widgets, friendly, limited_text, next_seed, no_null_tooltips,
                     seed_box)

__all__ = ["ranking_html", "TrickComparer", "OrderingExercise"]

_NONE = N_("— no card —")


def _WRAP() -> w.Layout:
    """A row of controls that wraps on a narrow screen (a phone) instead of widening the page."""
    return w.Layout(flex_flow="row wrap")


def ranking_html(width: int = 40, deck: str = "spanish") -> str:
    """The 19 ranking classes, high to low, as an HTML table: order, strength, class, nickname and the class's
    cards as pictures, Spanish (default) or French-suited (``deck="french"``, :mod:`aluette.pictures`). Built from
    :func:`aluette.frames.ranking_table`."""
    rows = []
    for order, row in ranking_table().iterrows():
        cards = parse_cards(row["cards"])
        pictures = cards_html(cards, width=width, deck=deck)
        rows.append(f"<tr><td>{order}</td><td>{row['strength']}</td><td>{escape(class_name(cards[0]))}</td>"
                    f"<td><i>{escape(row['nickname'])}</i></td><td>{pictures}</td></tr>")
    names = ranking_columns()
    head = "<tr>" + "".join(f"<th>{escape(names[k])}</th>" for k in ("order", "strength", "class", "nickname",
                                                                    "cards")) + "</tr>"
    return f'<table class="aluette-ranking">{head}{"".join(rows)}</table>'


class TrickComparer(w.VBox):
    """Pick two to four cards in play order and see which wins, or why the trick is spoiled.

    Controls: the 48 cards as small pictures (:attr:`palette`; a click chooses the card for Card 1, 2, 3, 4 in turn,
    and after card 4 the next click starts a new trick at card 1, emptying cards 3 and 4), four dropdowns over
    :data:`~aluette.cards.DECK` (cards 3 and 4 may be left empty), or a text box taking
    two to four cards in any :meth:`Card.parse <aluette.cards.Card.parse>` form separated by commas (or spaces for
    codes), applied with Enter or the "Compare typed cards" button. Bad input (an unknown card, a card twice, one or
    five cards, card 4 chosen with card 3 empty) shows a message; the picked cards stay as they were.

    Read-only results for tests: :attr:`cards`, :attr:`winner` (index or ``None`` when spoiled), :attr:`explanation`.
    """

    def __init__(self, cards: Sequence[CardLike] = ("3O", "12E")):
        super().__init__()
        options = [(card_label(c), c) for c in DECK]
        self._pickers = []
        for i in range(4):
            picker = w.Dropdown(options=options if i < 2 else [(_(_NONE), None)] + options,
                                description=_("Card {number}").format(number=i + 1),
                                layout=w.Layout(width="330px", max_width="100%"))
            picker.add_class("aluette-compare-card")
            picker.add_class(f"aluette-compare-card-{i + 1}")
            picker.observe(self._on_pick, names="value")
            if i >= 2:
                picker.observe(self._show_no_card, names="index")
                picker.index = 0  # ipywidgets may have left no option selected (it depends on the hash seed)
            self._pickers.append(picker)
        self._text = LimitedText(limit=CARDS_TEXT, what="the typed trick", message=lambda: self.message,
                                 placeholder=_("or type 2-4 cards: Monsieur, 1E, king of swords"),
                                 continuous_update=False, layout=w.Layout(width="420px", max_width="100%"))
        self._text.add_class("aluette-compare-text")
        self._text.observe(lambda change: self._use_text(), names="value")
        self._go = w.Button(description=_("Compare typed cards"))
        self._go.add_class("aluette-compare-go")
        self._go.on_click(lambda _: self._use_text())
        self._result = w.HTML()
        self._result.add_class("aluette-compare-result")
        self.message = MessageArea()
        self.message.add_class("aluette-compare-message")
        self._cards: tuple[Card, ...] = ()
        self._winner: Optional[int] = None
        self._explanation = ""
        self._quiet = False
        self._next = 0  # the card a palette click sets next (0: card 1)
        parts = CardParts()  # one layout and style for the 48 pictures and their buttons
        self._palette = [CardButton(self.choose, "aluette-compare-pick", parts) for card in DECK]
        for button, card in zip(self._palette, DECK):
            button.add_class("aluette-card-mini")
            button.show(card, _("choose it for the trick"))
        self._next_note = w.HTML(_("Click a card to choose it as card 1."))
        self._next_note.add_class("aluette-compare-next")
        self.children = [card_style(), self._next_note, w.HBox(self._palette, layout=w.Layout(flex_flow="row wrap")),
                         w.HBox(self._pickers[:2], layout=_WRAP()), w.HBox(self._pickers[2:], layout=_WRAP()),
                         w.HBox([self._text, self._go], layout=_WRAP()),
                         self.message, self._result]
        self.add_class("aluette-compare")
        self._set_cards(parse_cards(cards))
        no_null_tooltips(self)

    # ------------------------------------------------------------- read-only results
    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards compared last (empty if the current pick is not a trick)."""
        return self._cards

    @property
    def winner(self) -> Optional[int]:
        """Index in :attr:`cards` of the winning card, or ``None`` when the trick is spoiled or not valid."""
        return self._winner

    @property
    def explanation(self) -> str:
        """The sentence shown: who wins and why, or why the trick is spoiled."""
        return self._explanation

    @property
    def pickers(self) -> tuple[w.Dropdown, ...]:
        """The four card dropdowns (cards 3 and 4 may be ``None``)."""
        return tuple(self._pickers)

    @property
    def text(self) -> w.Text:
        """The text box for typed cards."""
        return self._text

    @property
    def palette(self) -> tuple[CardButton, ...]:
        """The 48 card pictures, in deck order; a click chooses the card (see :meth:`choose`)."""
        return tuple(self._palette)

    @friendly()
    def choose(self, card: CardLike) -> None:
        """Put ``card`` in the trick as the next card (card 1, 2, 3, 4 in turn; a new trick after card 4), as a
        click on its picture.

        Raises (shown as a message, nothing changes): UnknownCardError; AluetteError if the card is already in the
        trick."""
        card = Card.parse(card)
        cards = [p.value for p in self._pickers]
        slot = self._next
        cards[slot] = card
        if slot == 0:
            cards[2] = cards[3] = None
        chosen = [c for c in cards if c is not None]
        if len(set(chosen)) != len(chosen):
            raise AluetteError(_("{card} is already in the trick (each card appears once in a deck)").format(
                card=card_words(card)))
        self._next = (slot + 1) % 4
        self._set_cards(chosen)
        self._next_note.value = (_("Card {number}: {card}. The next click chooses card {next} (a new trick).")
                                 if self._next == 0 else
                                 _("Card {number}: {card}. The next click chooses card {next}.")).format(
            number=slot + 1, card=escape(card_words(card)), next=self._next + 1)
    @property
    def compare_button(self) -> w.Button:
        """The button that applies the typed cards."""
        return self._go

    # ------------------------------------------------------------- callbacks
    def _set_cards(self, cards: Sequence[Card]) -> None:
        self._quiet = True
        try:
            for i, picker in enumerate(self._pickers):
                picker.value = cards[i] if i < len(cards) else None
        finally:
            self._quiet = False
        self._show_trick()

    @staticmethod
    def _show_no_card(change) -> None:
        # ipywidgets turns value None into "no option selected" (a blank box in the browser), though the
        # "— no card —" option has that value: select that option instead
        if change["new"] is None:
            change["owner"].index = 0

    def _on_pick(self, change) -> None:
        if not self._quiet:
            self._show_trick()

    @friendly()
    def _use_text(self) -> None:
        text = limited_text(self._text.value, CARDS_TEXT, "the typed trick").strip()
        if not text:
            self.message.error(_("type two to four cards first, e.g. 'Monsieur, 1E' or '3O 12E'"))
            return
        cards = parse_cards(text)
        if not 2 <= len(cards) <= 4:
            raise AluetteError(_("a trick has 2 to 4 cards; you typed {count}: {cards}").format(
                count=len(cards), cards=" ".join(map(str, cards))))
        explain_trick(cards)  # refuses a repeated card before anything changes
        self._set_cards(cards)

    def _show_trick(self) -> None:
        cards = tuple(p.value for p in self._pickers if p.value is not None)
        try:
            if self._pickers[2].value is None and self._pickers[3].value is not None:
                # compared as cards 1, 2, 4, the answer would call card 4 "Card 3"
                raise AluetteError(_("card 4 is chosen but card 3 is empty: choose card 3 first, or empty card 4"))
            self._explanation = explain_trick(cards)
            self._winner = trick_winner(cards)
        except AluetteError as error:
            self._cards, self._winner, self._explanation = (), None, ""
            self._result.value = ""
            self.message.error(str(error))
            return
        self._cards = cards
        self.message.clear()
        plays = [(_("card {number}").format(number=i + 1), c) for i, c in enumerate(cards)]
        winner = None if self._winner is None else plays[self._winner][0]
        picture = trick_html(plays, title=_("The trick"), winner=winner, spoiled=self._winner is None)
        self._result.value = f"{picture}<p><b>{escape(self._explanation)}</b></p>"


class OrderingExercise(w.VBox):
    """"Put these cards in order": a seeded deal of a few cards; the reader gives them from highest to lowest and
    a Check button says right or wrong, and why.

    The cards are the top ``size`` cards of :func:`aluette.chance.shuffled_deck` for the seed in the seed box ("New
    cards" adds one to the seed, wrapping from the largest seed to 0). The reader clicks the card buttons in order
    (each click adds the card to the answer) or types the cards into the answer box. An answer is right when each
    card is at least as strong as the next; cards of one class are equal, so either order of them is right (the rules
    sheet, "card rankings").

    Read-only for tests: :attr:`cards` (the dealt cards), :attr:`correct` (``True``/``False`` after a check, else
    ``None``), :attr:`feedback`.

    Raises:
        AluetteError: ``size`` not a whole number from 2 to 12; ``seed`` outside 0 to 2**32-1 or not a whole number.
    """

    def __init__(self, seed: int = 1, size: int = 5):
        super().__init__()
        if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 12:
            raise AluetteError(f"the exercise deals 2 to 12 cards, got {size!r}")
        check_seed(seed)
        self._size = size
        self._seed = seed_box(seed, "aluette-order-seed", self._deal, lambda: self.message)
        self._new = w.Button(description=_("New cards"))
        self._new.add_class("aluette-order-new")
        self._new.on_click(lambda _: next_seed(self._seed))
        self._pictures = w.HTML()
        self._pictures.add_class("aluette-order-cards")
        self._picks = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self._card_parts = CardParts()  # shared by the cards of every deal of the exercise
        self._answer = LimitedText(limit=CARDS_TEXT, what="your order", message=lambda: self.message,
                                   description=_("Your order"), placeholder=_("highest first, e.g. 3O 1E 12B 7C 4O"),
                                   layout=w.Layout(width="420px", max_width="100%"))
        self._answer.add_class("aluette-order-answer")
        self._clear = w.Button(description=_("Clear"))
        self._clear.add_class("aluette-order-clear")
        self._clear.on_click(lambda _: self._reset_answer())
        self._check = w.Button(description=_("Check"), button_style="primary")
        self._check.add_class("aluette-order-check")
        self._check.on_click(lambda _: self._on_check())
        self._show = w.Button(description=_("Show the answer"))
        self._show.add_class("aluette-order-show")
        self._show.on_click(lambda _: self._on_show())
        self.message = MessageArea()
        self.message.add_class("aluette-order-result")
        self._cards: tuple[Card, ...] = ()
        self._correct: Optional[bool] = None
        self.children = [card_style(), w.HBox([self._seed, self._new]), self._pictures,
                         w.HTML(_("Click the cards from highest to lowest, or type them:")), self._picks,
                         w.HBox([self._answer, self._clear, self._check, self._show], layout=_WRAP()), self.message]
        self.add_class("aluette-order")
        self._deal()
        no_null_tooltips(self)

    # ------------------------------------------------------------- read-only state
    @property
    def cards(self) -> tuple[Card, ...]:
        """The dealt cards, in the order dealt."""
        return self._cards

    @property
    def correct(self) -> Optional[bool]:
        """The verdict of the last check, or ``None`` before any check of the current answer."""
        return self._correct

    @property
    def feedback(self) -> str:
        """The last message shown (text without markup)."""
        return self.message.last_error or self._feedback

    @property
    def seed(self) -> SeedBox:
        """The seed box (``value``: its text; ``seed_value``: the seed dealt)."""
        return self._seed

    @property
    def answer(self) -> w.Text:
        return self._answer

    @property
    def pick_buttons(self) -> tuple[CardButton, ...]:
        """One card picture (a button) per dealt card; a click adds that card to the answer."""
        return tuple(self._picks.children)

    @property
    def new_button(self) -> w.Button:
        return self._new

    @property
    def check_button(self) -> w.Button:
        return self._check

    @property
    def show_button(self) -> w.Button:
        return self._show

    @property
    def clear_button(self) -> w.Button:
        return self._clear

    # ------------------------------------------------------------- callbacks
    def _say(self, text: str, ok: bool = True) -> None:
        self._feedback = text
        if ok:
            self.message.ok(text)
        else:
            self.message.error(text)

    def _deal(self) -> None:
        order, cut = shuffled_deck(self._seed.seed_value)
        self._cards = tuple(order[:self._size])
        self._pictures.value = _("<b>Seed {seed}: put these {count} cards in order</b>").format(
            seed=self._seed.seed_value, count=self._size)
        buttons = []
        for card in self._cards:
            button = CardButton(self._append, "aluette-order-pick", self._card_parts)
            button.show(card, _("add it to your order"))
            buttons.append(button)
        old, self._picks.children = self._picks.children, buttons
        close_widgets(old)  # else every "New cards" leaves its buttons alive in the kernel and the browser
        self._reset_answer()

    def _reset_answer(self) -> None:
        self._answer.value = ""
        self._correct = None
        self._feedback = ""
        self.message.clear()

    def _append(self, card: Card) -> None:
        self._answer.value = " ".join(filter(None, [self._answer.value.strip(), card.code]))
        self._correct = None

    @friendly()
    def _on_check(self) -> None:
        self._correct = None
        answer = parse_cards(limited_text(self._answer.value, CARDS_TEXT, "your order"))
        dealt, given = set(self._cards), Counter(answer)  # linear: each card counted once (quality bar)
        repeated = sorted(c.code for c, n in given.items() if n > 1)
        extra = [c.code for c in answer if c not in dealt]
        missing = [c.code for c in self._cards if c not in given]
        if repeated or extra or missing or len(answer) != len(self._cards):
            problems = ([_("given twice: {cards}").format(cards=", ".join(repeated))] if repeated else []) + \
                       ([_("not dealt here: {cards}").format(cards=", ".join(extra))] if extra else []) + \
                       ([_("missing: {cards}").format(cards=", ".join(missing))] if missing else [])
            error = DuplicateCardError if repeated and not (extra or missing) else AluetteError
            raise error(_("give each of the {count} dealt cards exactly once ({problems})").format(
                count=len(self._cards), problems="; ".join(problems)))
        wrong = next(((a, b) for a, b in zip(answer, answer[1:]) if b.beats(a)), None)
        if wrong is None:
            self._correct = True
            ties = [(a, b) for a, b in zip(answer, answer[1:]) if a.ties(b)]
            note = "".join(_(" {a} and {b} are both {rank}: equal, so either order is right.").format(
                a=a, b=b, rank=class_name(a)) for a, b in ties)
            self._say(_("Right! {order}.{note}").format(order=" > ".join(c.code for c in answer), note=note))
        else:
            a, b = wrong
            self._correct = False
            self._say(_("Not yet: you put {a_label} before {b_label}, but {b} ({b_rank}, strength {b_strength}) beats "
                        "{a} ({a_rank}, strength {a_strength}).").format(
                a_label=card_label(a), b_label=card_label(b), a=a, b=b, a_rank=class_name(a), b_rank=class_name(b),
                a_strength=a.strength, b_strength=b.strength), ok=False)

    def _on_show(self) -> None:
        best = Hand(self._cards)  # the engine's order: strongest first
        self._correct = None
        self._say(_("Highest to lowest: {order}.").format(order=" > ".join(card_label(c) for c in best)))
