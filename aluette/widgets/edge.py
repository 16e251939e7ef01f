"""Widgets for the "Edge cases" notebook (09): a scenario builder.

Every rule is the engine's: the deal comes from :func:`aluette.scenario.scenario_deal` (given hands, the rest from a
seeded shuffle; the dealer is the leader's right, the rules sheet, "gameplay"), moves are applied by :class:`~aluette.Deal`, the
bots are :mod:`aluette.players.bots`, saves are :meth:`Deal.to_json` / :meth:`Deal.from_json` and the recipes of
:func:`aluette.scenario.scenario_to_json`. This is an omniscient teaching view: the reader typed the hands, and all
four are shown.
"""

from __future__ import annotations

import json
from html import escape
from typing import Callable, Mapping, Optional, Union

import ipywidgets as w

from ..analysis.best_play import best_play, result_text
from ..card_names import phase_name, seat_name
from ..i18n import N_, _, number
from ..deal import Deal, Phase
from ..players.drivers import BOT_KINDS, bots_for, play_deal, play_turn
from ..errors import AluetteError, BadSeedError, SearchBudgetError, quoted
from ..moves import ChantAnswer, Discard, Move, Play, SurrenderAnswer, SurrenderOffer
from ..options import ChantRecipients, Options
from ..pictures import view_html
from ..savefile import load_json
from ..scenario import (SCENARIO_FORMAT, parse_partial_hands, replayed_from_trick, scenario_deal, scenario_from_json,
                        scenario_to_json, tricks_to_replay, undone)
from ..seats import SEATS, Seat
from .common import (CARDS_TEXT, MAX_SEED, SAVE_TEXT, CardParts, LimitedText, LimitedTextarea, MessageArea, SeedBox,
                     card_label, card_size_control, card_style, check_choice, check_seed, friendly, limited_text,
                     no_null_tooltips, styled, table_html)
from .seat_table import HandCard, fill_hand

__all__ = ["ScenarioBuilder", "BestPlayPanel", "move_label"]


def _check_shown_options(options: Options, what: str) -> None:
    """Refuse a loaded deal whose rule options the builder has no control for (``surrender_until``, ``rebour``):
    its controls could not show them, and "Export recipe" would drop them.

    Raises:
        AluetteError: such an option differs from its default (named in the message).
    """
    hidden = [f"{name}={getattr(options, name).value!r}" for name in ("surrender_until", "rebour")
              if getattr(options, name) != getattr(_DEFAULTS, name)]
    if hidden:
        raise AluetteError(f"the {what} plays {', '.join(hidden)}, which the scenario builder has no control for; "
                           f"load it in code with Deal.from_json")


_DEFAULTS = Options()

def _cards_of(seat: Seat) -> str:
    return _("{seat}'s cards").format(seat=seat_name(seat))


def _check_box_seed(seed: int, what: str) -> None:
    if seed > MAX_SEED:
        raise BadSeedError(f"this {what}'s seed {quoted(seed)} is larger than the seed box holds (0 to {MAX_SEED}), "
                           f"so it cannot be shown or exported here; nothing was loaded")


def _verdict(cost: int) -> str:
    """A card's verdict in the best-play table: best, or the points it gives away."""
    return _("best") if cost == 0 else _("gives away {points}").format(points=cost)


def move_label(move: Move) -> str:
    """How a move reads in the move dropdown: ``"3O — Monsieur"`` for a card, ``"agree to the chant"``..."""
    if isinstance(move, Play):
        return card_label(move.card)
    if isinstance(move, ChantAnswer):
        return _("agree to the chant") if move.agree else _("decline the chant")
    if isinstance(move, Discard):
        return _("discard the six lowest: {cards}").format(cards=" ".join(map(str, move.cards)))
    if isinstance(move, SurrenderOffer):
        return _("offer to surrender") if move.offer else _("do not offer to surrender")
    if isinstance(move, SurrenderAnswer):
        return _("accept the surrender") if move.accept else _("refuse the surrender")
    return str(move)


class BestPlayPanel(w.VBox):
    """"Best play, all hands open" for the builder's deal (issue 18 §3): on **Work out best play**
    (``aluette-edge-best-button``), each playable card of the seat to move with its result, the line of best play
    and the answers of :func:`aluette.analysis.best_play.best_play` ("can North make mordienne from here?", "is this
    deal won for N-S whatever E-W do?"), in ``result`` (``aluette-edge-best``). The builder shows every hand by
    design, so this reveals nothing hidden; the panel says so, and that it is hindsight. It is never part of a live
    deal of one seat. A search not decided within :data:`BUDGET` card plays says so (never a guess); a deal that is
    not in its play says what to do first. ``clear()`` empties it when the deal changes.
    """

    #: Card plays each of the panel's searches may try (a few seconds on a loaded core).
    BUDGET = 3_000_000

    def __init__(self, deal: Callable[[], Deal]):
        self._deal = deal
        self.button = w.Button(description=_("Work out best play"), icon="lightbulb-o", layout=w.Layout(width="auto"),
                               tooltip=_("solve the deal shown, every hand open"))
        self.button.add_class("aluette-edge-best-button")
        self.result = w.HTML()
        self.result.add_class("aluette-edge-best")
        self.message = MessageArea()
        head = w.HTML("<b>" + escape(_("Best play, all hands open")) + "</b><br><small>" + escape(_(
            "Every hand is open in this builder by design, so this shows nothing hidden. It is hindsight: best play "
            "when everyone sees every card, not what a player at the table could know.")) + "</small>")
        self.button.on_click(self._solve)
        super().__init__([head, self.button, self.message, self.result])
        self.add_class("aluette-edge-best-panel")

    def clear(self) -> None:
        self.result.value = ""
        self.message.clear()

    @friendly()
    def _solve(self, button=None) -> None:
        deal = self._deal()
        if deal.is_over:
            self.result.value = ""
            self.message.ok(_("The deal is over: {result}.").format(
                result=result_text(deal.result.points['NS'] - deal.result.points['EW'])))
            return
        if deal.phase is not Phase.PLAY:
            raise AluetteError(_("best play searches the play only: answer the {phase} question first (a move, or "
                                 "Bot move)").format(phase=phase_name(deal.phase)))
        try:
            answer = best_play(deal, max_nodes=self.BUDGET)
        except SearchBudgetError:
            self.result.value = ""
            self.message.error(_("Not worked out: the search tried {count} card plays without deciding (the first "
                                 "tricks are the dearest). Play a trick or two and ask again.").format(
                count=number(self.BUDGET)))
            return
        rows = "".join(f"<tr><td>{escape(card_label(card))}</td><td>{escape(result_text(value))}</td>"
                       f"<td>{escape(_verdict(cost))}</td></tr>"
                       for card, value, cost in answer.cards)
        answers = "".join(f"<li>{escape(text)}</li>" for text in answer.answers())
        caption = _("{seat} to play: each card's result with best play after it").format(
            seat=seat_name(deal.to_move))
        heads = "".join(f"<th>{escape(text)}</th>" for text in (_("card"), _("result"), _("verdict")))
        self.result.value = (f"<table><caption>{escape(caption)}</caption><tr>{heads}</tr>{rows}</table>"
                             "<p>" + _("<b>Line of best play:</b> {line}").format(line=escape(answer.line_text()))
                             + f"</p><ul>{answers}</ul>")
        self.message.ok(_("Worked out: {result} with best play by both sides.").format(
            result=result_text(answer.value)))


class ScenarioBuilder(w.VBox):
    """Build a deal from some or all hands, play it out by bots or step by hand, export and load it.

    Controls (CSS classes for browser tests): ``hand_boxes`` — a text box per seat (``aluette-edge-hand`` and
    ``aluette-edge-hand-N``...; blank or short hands are filled from the seed's shuffle), ``seed``
    (``aluette-edge-seed``), ``leader`` (``aluette-edge-leader``; the dealer is the leader's right), options
    ``mordienne``, ``chant``, ``surrender`` (``aluette-edge-mordienne``, ``aluette-edge-chant``,
    ``aluette-edge-surrender``) and ``recipients`` (``aluette-edge-recipients``), ``players``
    (``aluette-edge-players``); buttons ``deal_button`` (``aluette-edge-deal``), ``bots_button``
    (``aluette-edge-bots``: the bots play to the end), ``bot_step_button`` (``aluette-edge-bot-step``: the bot of
    the seat to move makes one move), ``move`` (``aluette-edge-move``: the legal moves of the seat to move; in play,
    its legal cards) with ``play_button`` (``aluette-edge-play``), ``export_button`` (``aluette-edge-export``: the
    deal as JSON), ``recipe_button`` (``aluette-edge-recipe``: the seed, hands and options as a short recipe),
    ``load_button`` (``aluette-edge-load``: reads ``json`` back, a saved deal or a recipe), ``card_buttons``
    (``aluette-edge-card``: in the play phase, the pictures of the legal cards of the seat to move; a click plays
    the card, as :meth:`play_card`; a button drawn for each card, which ignores the pointer for its first 0.4 s, so
    that a double click plays one card, not the next seat's too), ``undo_button`` (``aluette-edge-undo``: takes
    back the last move, a bot's or yours, as :func:`aluette.scenario.undone`), ``trick`` (``aluette-edge-trick``:
    the tricks started so far) with ``replay_button`` (``aluette-edge-replay``: the deal as it stood before that
    trick's first card, the later moves taken back, as :func:`aluette.scenario.replayed_from_trick`: play it another
    way), ``json``
    (``aluette-edge-json``). Views: ``table`` (``aluette-edge-table``), ``tricks`` (``aluette-edge-tricks``),
    ``message`` (``aluette-message``). Read-only: ``deal``.

    Bad input (an unknown card, a card given twice, ten cards, options that do not go together, malformed or
    tampered JSON) shows a message naming the problem and leaves the deal as it was.

    Raises:
        AluetteError: a bad ``seed``, ``players`` or starting recipe.
    """

    def __init__(self, hands: Optional[Mapping] = None, *, seed: int = 1, leader: Union[Seat, str] = Seat.E,
                 options: Optional[Options] = None, players: str = "heuristic"):
        check_seed(seed)
        check_choice(players, BOT_KINDS, "players")
        options = Options.coerce(options)
        given = parse_partial_hands(hands)
        self.hand_boxes = {}
        for seat in SEATS:
            box = LimitedText(limit=CARDS_TEXT, what=_cards_of(seat), message=lambda: self.message,
                              value=" ".join(map(str, given[seat])), description=seat_name(seat),
                              placeholder=_("blank: dealt from the seed"), layout=w.Layout(width="34em"))
            box.add_class("aluette-edge-hand")
            box.add_class(f"aluette-edge-hand-{seat}")
            self.hand_boxes[seat] = box
        self.seed = SeedBox(seed, "aluette-edge-seed", message=lambda: self.message)
        self.leader = w.Dropdown(options=[(f"{s} ({seat_name(s)})", s.value) for s in SEATS],
                                 value=Seat.parse(leader).value, description=_("Leader"))
        self.leader.add_class("aluette-edge-leader")
        self.mordienne = w.Checkbox(value=options.mordienne, description=_("mordienne scores 2"))
        self.mordienne.add_class("aluette-edge-mordienne")
        self.chant = w.Checkbox(value=options.chant, description=_("chant offered"))
        self.chant.add_class("aluette-edge-chant")
        self.surrender = w.Checkbox(value=options.surrender, description=_("surrender allowed"))
        self.surrender.add_class("aluette-edge-surrender")
        self.recipients = w.Dropdown(options=[(_("dealer's left and dealer"), ChantRecipients.LEFT_AND_DEALER.value),
                                              (_("dealer's left and partner"),
                                               ChantRecipients.LEFT_AND_PARTNER.value)],
                                     value=options.chant_recipients.value, description=_("Stock to"))
        self.recipients.add_class("aluette-edge-recipients")
        self.players = w.Dropdown(options=[(_(label), key) for key, label in BOT_KINDS.items()], value=players,
                                  description=_("Bots"))
        self.players.add_class("aluette-edge-players")
        self.deal_button = w.Button(description=_("Deal"), icon="random", tooltip=_("build the deal from the boxes"),
                                    layout=w.Layout(width="auto"))
        self.deal_button.add_class("aluette-edge-deal")
        self.bots_button = w.Button(description=_("Bots play to the end"), icon="fast-forward",
                                    layout=w.Layout(width="auto"))
        self.bots_button.add_class("aluette-edge-bots")
        self.bot_step_button = w.Button(description=_("Bot move"), icon="step-forward", layout=w.Layout(width="auto"),
                                        tooltip=_("the bot of the seat to move makes one move"))
        self.bot_step_button.add_class("aluette-edge-bot-step")
        self.move = w.Dropdown(options=[], description=_("Move"), layout=w.Layout(width="30em"))
        self.move.add_class("aluette-edge-move")
        self.play_button = w.Button(description=_("Play it"), icon="play", layout=w.Layout(width="auto"))
        self.play_button.add_class("aluette-edge-play")
        self.undo_button = w.Button(description=_("Undo"), icon="undo", layout=w.Layout(width="auto"),
                                    tooltip=_("take back the last move"))
        self.undo_button.add_class("aluette-edge-undo")
        self.trick = w.Dropdown(options=[], description=_("From trick"), layout=w.Layout(width="14em"))
        self.trick.add_class("aluette-edge-trick")
        self.replay_button = w.Button(description=_("Replay from here"), icon="history", layout=w.Layout(width="auto"),
                                      tooltip=_("go back to just before this trick's first card, to play it another "
                                                "way"))
        self.replay_button.add_class("aluette-edge-replay")
        self.export_button = w.Button(description=_("Export deal (JSON)"), icon="download",
                                      layout=w.Layout(width="auto"))
        self.export_button.add_class("aluette-edge-export")
        self.recipe_button = w.Button(description=_("Export recipe (seed)"), icon="share",
                                      layout=w.Layout(width="auto"))
        self.recipe_button.add_class("aluette-edge-recipe")
        self.load_button = w.Button(description=_("Load pasted JSON"), icon="upload", layout=w.Layout(width="auto"))
        self.load_button.add_class("aluette-edge-load")
        self.json = LimitedTextarea(limit=SAVE_TEXT, what=_("the pasted text"), message=lambda: self.message,
                                    placeholder=_("exported JSON appears here; paste a deal or a recipe and press "
                                                  "Load"),
                                    layout=w.Layout(width="60em", height="7em"))
        self.json.add_class("aluette-edge-json")
        self.table = w.HTML()
        self.table.add_class("aluette-edge-table")
        self.tricks = w.HTML()
        self.tricks.add_class("aluette-edge-tricks")
        self.message = MessageArea()
        self._cards_head = styled(w.HTML(), "aluette-edge-cards-head")  # "N to play: click a card..."
        # the legal cards of the seat to move, as a seat's hand is drawn (seat_table.HandCard: a slot whose card
        # changes gets a new button, paused 0.4 s in the page): after a card is played the next seat's cards take
        # the same places, and the second click of a double click played one of them too
        self._card_parts = CardParts()
        self.card_buttons: list[HandCard] = []  # made when a seat first has that many legal cards
        self._card_row = styled(w.HBox(layout=w.Layout(flex_flow="row wrap")), "aluette-card-pairs",
                                "aluette-edge-cards")
        self.best_play = BestPlayPanel(lambda: self.deal)
        self.deal: Deal = scenario_deal(given, seed, leader=leader, options=options)
        self._seats_bots: Optional[tuple] = None  # (kind, seed, bots) of this deal
        self.deal_button.on_click(self._deal)
        self.bots_button.on_click(self._bots)
        self.bot_step_button.on_click(self._bot_step)
        self.play_button.on_click(self._play)
        self.undo_button.on_click(self._undo)
        self.replay_button.on_click(self._replay)
        self.export_button.on_click(self._export)
        self.recipe_button.on_click(self._recipe)
        self.load_button.on_click(self._load)
        super().__init__([
            w.VBox(list(self.hand_boxes.values())),
            w.HBox([self.seed, self.leader, self.players]),
            w.HBox([self.mordienne, self.chant, self.surrender, self.recipients]),
            w.HBox([self.deal_button, self.bots_button, self.bot_step_button]),
            card_size_control(),
            w.HBox([self.move, self.play_button, self.undo_button]),
            w.HBox([self.trick, self.replay_button]),
            self._cards_head, self._card_row,
            self.message, self.table, self.tricks, self.best_play,
            w.HBox([self.export_button, self.recipe_button, self.load_button]), self.json])
        self.children = (card_style(), *self.children)
        self.add_class("aluette-edge-builder")
        self.add_class("aluette-sized")
        self.message.ok(_("Seed {seed}: {deal}").format(seed=seed, deal=self._describe()))
        self._show()
        no_null_tooltips(self)

    # ------------------------------------------------------------------ reading the controls
    def _options(self) -> Options:
        return Options(mordienne=self.mordienne.value, chant=self.chant.value, surrender=self.surrender.value,
                       chant_recipients=self.recipients.value)

    def _given(self) -> dict:
        return parse_partial_hands({seat: limited_text(box.value, CARDS_TEXT, _cards_of(seat))
                                    for seat, box in self.hand_boxes.items()})

    def _describe(self) -> str:
        deal = self.deal
        phase = phase_name(deal.phase)
        if deal.to_move:
            return _("{dealer} deals, {leader} leads; {phase} phase, {seat} to move.").format(
                dealer=seat_name(deal.dealer), leader=seat_name(deal.dealer.left), phase=phase, seat=deal.to_move)
        return _("{dealer} deals, {leader} leads; {phase} phase.").format(
            dealer=seat_name(deal.dealer), leader=seat_name(deal.dealer.left), phase=phase)

    # ------------------------------------------------------------------ callbacks
    @friendly()
    def _deal(self, button=None) -> None:
        given = self._given()  # raises on a bad card, a card twice, ten cards: nothing changed yet
        seed = self.seed.seed_value
        deal = scenario_deal(given, seed, leader=self.leader.value, options=self._options())
        self.deal, self._seats_bots = deal, None
        filled = [f"{s} {9 - len(c)}" for s, c in given.items() if len(c) < 9]
        note = " " + (_("Cards dealt from seed {seed}: {filled}.").format(seed=seed, filled=", ".join(filled))
                      if filled else _("All four hands given."))
        self.message.ok(self._describe() + note)
        self._show()

    @friendly()
    def _bots(self, button=None) -> None:
        if self._refuse_if_over():
            return
        work = self.deal.copy()  # a bot error leaves the shown deal as it was
        play_deal(work, self._seated())
        self.deal = work
        self.message.ok(work.result.reason)
        self._show()

    @friendly()
    def _bot_step(self, button=None) -> None:
        if self._refuse_if_over():
            return
        seat = self.deal.to_move
        decision = play_turn(self.deal, self._seated()[seat])
        self.message.ok(_("{seat}: {move} ({reason}).").format(seat=seat, move=move_label(decision.move),
                                                                reason=decision.reason))
        self._show()

    @friendly()
    def _play(self, button=None) -> None:
        if self._refuse_if_over():
            return
        moves = self._moves()
        if self.move.value is None or not 0 <= self.move.value < len(moves):
            raise AluetteError(_("choose a move in the Move list first"))
        move = moves[self.move.value]
        self.deal.apply(move)
        text = f"{move.seat}: {move_label(move)}."
        if isinstance(move, Play) and len(self.deal.current_trick) == 0 and self.deal.tricks:
            text += " " + self.deal.tricks[-1].explain()
        if self.deal.is_over:
            text += " " + self.deal.result.reason
        self.message.ok(text)
        self._show()

    @friendly()
    def _undo(self, button=None) -> None:
        last = self.deal.moves[-1] if self.deal.moves else None
        deal = undone(self.deal)  # raises "nothing to undo" before the first move: the deal unchanged
        self.deal, self._seats_bots = deal, None  # the bots start again from the seed, as for a new deal
        self.message.ok(_("Took back {seat}: {move}. {deal}").format(seat=last.seat, move=move_label(last),
                                                                     deal=self._describe()))
        self._show()

    @friendly()
    def _replay(self, button=None) -> None:
        if self.trick.value is None:
            raise AluetteError(_("no trick to replay from yet: play a card first"))
        trick = self.trick.value
        deal = replayed_from_trick(self.deal, trick)
        taken = len(self.deal.moves) - len(deal.moves)
        self.deal, self._seats_bots = deal, None
        self.message.ok(_("Back to just before trick {trick} ({taken} moves taken back): {seat} leads. Play it "
                          "another way, by hand or with the bots.").format(trick=trick, taken=taken,
                                                                          seat=deal.to_move))
        self._show()

    @friendly()
    def play_card(self, card) -> None:
        """The seat to move plays ``card`` (as a click on its picture in :attr:`card_buttons`).

        Raises (shown as a message, the deal unchanged): the engine's errors (not the play phase, not that seat's
        card...)."""
        if self._refuse_if_over():
            return
        seat = self.deal.to_move
        self.deal.play(seat, card)
        text = f"{seat}: {move_label(self.deal.moves[-1])}."
        if len(self.deal.current_trick) == 0 and self.deal.tricks:
            text += " " + self.deal.tricks[-1].explain()
        if self.deal.is_over:
            text += " " + self.deal.result.reason
        self.message.ok(text)
        self._show()
        shown = [b for b in self.card_buttons if b.card is not None]
        if shown:  # WCAG 2.4.3: the clicked card's button went; the keyboard goes on from the next seat's cards
            shown[0].button.focus()

    @friendly()
    def _export(self, button=None) -> None:
        self.json.value = self.deal.to_json(indent=1)
        self.message.ok(_("The deal as JSON (its deck, options and every move so far): copy it, paste it back "
                          "and press Load."))

    @friendly()
    def _recipe(self, button=None) -> None:
        self.json.value = scenario_to_json(self._given(), self.seed.seed_value,
                                           leader=self.leader.value, options=self._options())
        self.message.ok(_("The recipe: the seed, the leader, the hands you typed and the options. A classmate who "
                          "types them (or pastes this and presses Load) gets the same deal."))

    @friendly()
    def _load(self, button=None) -> None:
        text = limited_text(self.json.value, SAVE_TEXT, _("the pasted text"))
        data = load_json(text, N_("the pasted text"))
        if isinstance(data, dict) and "format" not in data and {"seed", "leader", "hands"} & set(data) \
                and not {"deck", "moves"} & set(data):
            data = {"format": SCENARIO_FORMAT, **data}  # a recipe typed by hand, without its format line
            text = json.dumps(data)
        if isinstance(data, dict) and data.get("format") == SCENARIO_FORMAT:
            recipe = scenario_from_json(text)
            # decision: a recipe whose seed the seed box cannot hold is refused (else the box would keep the old
            # seed and "Export recipe" would export another deal)
            _check_box_seed(recipe["seed"], "recipe")
            deal = scenario_deal(recipe["hands"], recipe["seed"], leader=recipe["leader"], options=recipe["options"])
            _check_shown_options(deal.options, "recipe")
            self._set_controls(deal, {s: " ".join(recipe["hands"].get(s, "").split()) for s in SEATS},
                               seed=recipe["seed"])
            what = _("Loaded the recipe with seed {seed}.").format(seed=recipe['seed'])
        else:
            deal = Deal.from_json(text)  # raises MalformedSaveError naming the problem; nothing changed yet
            if deal.seed is not None:
                _check_box_seed(deal.seed, "saved deal")  # as for a recipe: the seed box must show the deal's seed
            _check_shown_options(deal.options, "saved deal")
            self._set_controls(deal, {s: str(deal.dealt_hand(s)) for s in SEATS}, seed=deal.seed)
            what = _("Loaded the saved deal ({count} moves replayed).").format(count=len(deal.moves))
        self.deal, self._seats_bots = deal, None
        self.message.ok(f"{what} {self._describe()}")
        self._show()

    # ------------------------------------------------------------------ helpers
    def _seated(self) -> dict:
        """The bots of the deal shown, made once per deal, kind and seed (so "Bot move" then "Bots play to the end"
        continue one seeded game)."""
        key = (self.players.value, self.seed.seed_value)
        if self._seats_bots is None or self._seats_bots[:2] != key:
            self._seats_bots = (*key, bots_for(*key))
        return self._seats_bots[2]

    def _set_controls(self, deal: Deal, hands: Mapping[Seat, str], seed: Optional[int]) -> None:
        for seat, box in self.hand_boxes.items():
            box.value = hands[seat]
        if seed is not None and seed <= MAX_SEED:
            self.seed.seed_value = seed
        self.leader.value = deal.dealer.left.value
        options = deal.options
        self.mordienne.value, self.chant.value = options.mordienne, options.chant
        self.surrender.value, self.recipients.value = options.surrender, options.chant_recipients.value

    def _refuse_if_over(self) -> bool:
        if self.deal.is_over:
            self.message.error(_("The deal is over ({reason}) Press Deal to start again.").format(
                reason=self.deal.result.reason))
            return True
        return False

    def _moves(self) -> list:
        """The moves the Move list offers: the legal moves, but in the discard phase only the engine's suggested
        discard (keeping the nine highest, the rules sheet, "setup") instead of all 5005."""
        deal = self.deal
        if deal.phase is Phase.DISCARD:
            return [Discard(deal.to_move, deal.suggested_discard(deal.to_move))]
        return deal.legal_moves()

    def _show(self) -> None:
        deal = self.deal
        self.best_play.clear()  # the answers were for the deal as it stood
        self.table.value = view_html(deal.view(None))
        self.tricks.value = (table_html(deal.tricks_table()) if deal.tricks
                             else "<i>" + escape(_("No trick played yet.")) + "</i>")
        moves = self._moves()
        self.move.options = [(move_label(m), i) for i, m in enumerate(moves)]
        self.move.value = 0 if moves else None
        self.move.description = _("{seat} plays").format(seat=deal.to_move) if deal.to_move else _("Over")
        cards = [m.card for m in moves if isinstance(m, Play)]
        action = _("{seat} plays it").format(seat=deal.to_move)
        more = cards[len(self.card_buttons):]
        self.card_buttons.extend(HandCard(self.play_card, self._card_parts, card, action, "aluette-edge")
                                 for card in more)
        for i, button in enumerate(self.card_buttons):
            if i < len(cards):
                button.show(cards[i], action)
            else:
                button.hide()
        fill_hand(self._card_row, self.card_buttons, again=bool(more))
        self._cards_head.value = (_("<b>{seat} to play:</b> click a card (the legal ones are shown)").format(
            seat=deal.to_move) if cards else "")
        over = deal.is_over
        for button in (self.bots_button, self.bot_step_button, self.play_button):
            button.disabled = over
        self.undo_button.disabled = not deal.moves
        started = tricks_to_replay(deal)
        self.trick.options = [(_("trick {number}").format(number=t), t) for t in started]
        self.trick.value = started[-1] if started else None
        self.replay_button.disabled = not started
