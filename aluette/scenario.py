"""Scenarios: a deal built from some or all of the hands, the rest filled from a seeded shuffle.

A scenario is a *recipe* a classmate can type: the cards given to some seats (any seat may be blank or given fewer
than nine cards), a seed, the leader of the first trick and the :class:`~aluette.options.Options`.

Decision of this project (the sources are silent) [scenario-fill]: how the gaps are filled, fixed so the same recipe
gives the same deal everywhere: the
seed's shuffle and cut give a deck exactly as :meth:`Deal.from_seed` draws it (:mod:`aluette.chance`), dealt by the
leader's right (the dealer: the player at the dealer's left leads, the rules sheet, "gameplay"). Each seat's given
cards take its first places in the deal; then every place still empty, in deck order (the hands' places first, then the
twelve of the stock), takes the next card of that deck that nobody was given. So a recipe with every seat blank is
exactly the deal of :meth:`Deal.from_seed` ``(seed, dealer=leader.right)``, and the twelve cards nobody holds are the
stock, in a seeded order, for the chant.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Union

from .cards import Card, parse_cards
from .chance import DEAL_POSITIONS, SeedLike, as_generator, check_seed, cut_deck, shuffled_deck
from .deal import Deal, Hand
from .moves import Play
from .errors import AluetteError, DuplicateCardError, MalformedSaveError, UnknownCardError, quoted
from .card_names import card_name, seat_name
from .i18n import N_, _
from .options import Options
from .savefile import check_header, load_json
from .seats import SEATS, Seat

__all__ = ["parse_partial_hands", "complete_deck", "complete_hands", "scenario_deal", "scenario_to_json",
           "scenario_from_json", "SCENARIO_FORMAT", "rewound", "undone", "trick_start", "replayed_from_trick",
           "tricks_to_replay"]

SCENARIO_FORMAT = "aluette-scenario"


def parse_partial_hands(partial: Optional[Mapping]) -> dict[Seat, tuple[Card, ...]]:
    """Read the given cards: ``{seat: cards}`` (card text such as ``"3O 2C, la vache"`` or a sequence; blank, ``None``
    or a missing seat means no card given). Returns the four seats in :data:`SEATS` order with their given cards.

    Raises:
        UnknownSeatError: a key that is not a seat.
        UnknownCardError: a card that is not one (the message names the seat).
        AluetteError: a seat given twice (``"N"`` and ``"north"``), more than nine cards for one seat, or a card
            given twice (the message names the card and the seats).
    """
    given: dict[Seat, tuple[Card, ...]] = {}
    for seat, cards in Seat.parse_mapping({} if partial is None else partial, "hand").items():
        try:
            given[seat] = () if cards is None else parse_cards(cards)
        except UnknownCardError as error:
            raise UnknownCardError(_("{seat}'s hand: {error}").format(seat=seat_name(seat), error=error)) from None
        if len(given[seat]) > 9:
            raise AluetteError(_("{seat} is given {count} cards; a hand holds nine").format(
                seat=seat_name(seat), count=len(given[seat])))
    holder: dict[Card, Seat] = {}
    for seat in SEATS:
        for card in given.get(seat, ()):
            if card in holder:
                name = card.nickname or card_name(card)
                if holder[card] is seat:
                    raise DuplicateCardError(_("{card} ({name}) is given twice in {seat}'s hand; there is one of "
                                               "each card in the deck").format(card=card, name=name,
                                                                               seat=seat_name(seat)))
                raise DuplicateCardError(_("{card} ({name}) is given to {first} and {second}; there is one of each "
                                           "card in the deck").format(card=card, name=name,
                                                                      first=seat_name(holder[card]),
                                                                      second=seat_name(seat)))
            holder[card] = seat
    return {seat: given.get(seat, ()) for seat in SEATS}


def complete_deck(partial: Optional[Mapping], seed: SeedLike, *, dealer: Union[Seat, str] = Seat.N
                  ) -> tuple[Card, ...]:
    """The cut deck (48 cards, top first, as :meth:`Deal.from_deck` takes it) of the scenario: the given cards in
    their seats' places, every other place filled from the seed's deck (module docstring).

    Raises:
        see :func:`parse_partial_hands`; BadSeedError: no explicit seed, or not a seed.
    """
    given = parse_partial_hands(partial)
    dealer = Seat.parse(dealer)
    order, cut = shuffled_deck(as_generator(seed))
    seeded = cut_deck(order, cut)
    deck: list[Optional[Card]] = [None] * 48
    taken = set()
    for position, seat in enumerate(dealer.left.clockwise_from()):
        for place, card in zip(DEAL_POSITIONS[position], given[seat]):
            deck[place] = card
            taken.add(card)
    rest = iter(card for card in seeded if card not in taken)
    return tuple(card if card is not None else next(rest) for card in deck)


def complete_hands(partial: Optional[Mapping], seed: SeedLike, *, dealer: Union[Seat, str] = Seat.N
                   ) -> dict[Seat, Hand]:
    """The four nine-card hands of the scenario, ``{seat: Hand}`` in :data:`SEATS` order: each seat's given cards
    plus cards from the seed's shuffle of the cards nobody was given (module docstring).

    >>> hands = complete_hands({"N": "3O 3C 2O 2C"}, seed=7)
    >>> str(hands[Seat.N])[:11], [len(h) for h in hands.values()]
    ('3O 3C 2O 2C', [9, 9, 9, 9])

    Raises:
        UnknownCardError: a card that is not one. AluetteError: a card given twice, or more than nine to a seat.
        BadSeedError: no explicit seed, or not a seed.
    """
    deal = Deal(complete_deck(partial, seed, dealer=dealer), dealer=dealer)
    return {seat: deal.dealt_hand(seat) for seat in SEATS}


def scenario_deal(partial: Optional[Mapping], seed: SeedLike, *, leader: Union[Seat, str] = Seat.E,
                  options: Optional[Options] = None) -> Deal:
    """The :class:`Deal` of a scenario: ``leader`` leads the first trick, so the dealer is the leader's right (the
    rules sheet, "gameplay": the player at the dealer's left leads). With every seat blank it is ``Deal.from_seed(seed,
    dealer=leader.right, options=options)`` itself (seed recorded); otherwise the deal of :func:`complete_deck`.

    Raises:
        UnknownSeatError: ``leader`` is not a seat. AluetteError: see :func:`parse_partial_hands`; ``options`` not
            an :class:`Options`. BadSeedError: no explicit seed, or not a seed.
    """
    dealer = Seat.parse(leader).right
    if not any(parse_partial_hands(partial).values()):
        return Deal.from_seed(seed, dealer=dealer, options=options)
    return Deal(complete_deck(partial, seed, dealer=dealer), dealer=dealer, options=options)


def scenario_to_json(partial: Optional[Mapping], seed: int, *, leader: Union[Seat, str] = Seat.E,
                     options: Optional[Options] = None) -> str:
    """The recipe as short JSON a classmate can type or paste: format, seed, leader, the given hands (blank seats
    left out) and the options. :func:`scenario_from_json` reads it back.

    Raises:
        AluetteError: ``seed`` is not a non-negative int; else as :func:`scenario_deal` (the recipe is checked by
            building its deal).
    """
    check_seed(seed, N_("a scenario's seed"))
    options = Options.coerce(options)
    scenario_deal(partial, seed, leader=leader, options=options)  # refuses a recipe that makes no deal
    given = parse_partial_hands(partial)
    data = {"format": SCENARIO_FORMAT, "seed": seed, "leader": str(Seat.parse(leader)),
            "hands": {str(s): " ".join(map(str, cards)) for s, cards in given.items() if cards},
            "options": options.to_dict()}
    return json.dumps(data)


def scenario_from_json(text: str) -> dict[str, Any]:
    """Read a recipe written by :func:`scenario_to_json`. Returns ``{"hands": {seat: cards}, "seed": int,
    "leader": Seat, "options": Options}``, ready for :func:`scenario_deal` (``scenario_deal(r["hands"], r["seed"],
    leader=r["leader"], options=r["options"])``).

    Raises:
        MalformedSaveError: not JSON, not a scenario, a missing or unknown field, or a field that is not valid
            (the message names it).
    """
    data = check_header(load_json(text, N_("a scenario")), format=SCENARIO_FORMAT, what=N_("an Aluette scenario"),
                        fields=("format", "seed", "leader", "hands", "options"))
    missing = [name for name in ("seed", "leader") if name not in data]
    if missing:
        raise MalformedSaveError(_("scenario: missing {names} (a recipe needs the seed, a whole number, and the "
                                   "leader, the seat that leads first: N, E, S or W, e.g. {example})").format(
            names=_(" and ").join(repr(m) for m in missing),
            example=f'{{"format": "{SCENARIO_FORMAT}", "seed": 5, "leader": "E"}}'))
    try:
        seed = check_seed(data.get("seed"), N_("the scenario's seed"))
        leader = Seat.parse(data.get("leader"))
        hands = data.get("hands", {})
        if not isinstance(hands, dict) or not all(isinstance(v, str) for v in hands.values()):
            raise AluetteError(_("hands must map seats to card text such as {example}").format(example='"3O 2C"'))
        options = Options.from_dict(data.get("options", {}))
        scenario_deal(hands, seed, leader=leader, options=options)
    except AluetteError as error:
        raise MalformedSaveError(_("scenario: {error}").format(error=error)) from None
    return {"hands": {Seat.parse(k): v for k, v in hands.items()}, "seed": seed, "leader": leader,
            "options": options}


# ---------------------------------------------------------------------------------------------- undo and replay
def rewound(deal: Deal, moves: int) -> Deal:
    """A new deal: ``deal`` as it stood after its first ``moves`` moves (its deck, dealer, options, seed and cut,
    those moves replayed by the engine). ``deal`` itself is not changed, so a "what if" never loses the original.

    >>> deal = Deal.from_seed(3, options=Options(chant=False))
    >>> for _ in range(5):
    ...     _ = deal.play_index(0)
    >>> rewound(deal, 2).moves == deal.moves[:2], len(deal.moves)
    (True, 5)

    Raises:
        AluetteError: ``moves`` is not a whole number from 0 to the number of moves made (the message names both).
    """
    made = len(deal.moves)
    if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= made:
        raise AluetteError(_("a deal can be taken back to 0 to {made} moves (the moves made so far), not "
                             "{value}").format(made=made, value=quoted(moves)))
    return deal._replayed(deal.moves[:moves])


def undone(deal: Deal, moves: int = 1) -> Deal:
    """A new deal: ``deal`` with its last ``moves`` moves taken back (a card, a chant answer, a discard, a signal:
    each is one move).

    Raises:
        AluetteError: no move to take back, or ``moves`` is not a whole number from 1 to the number of moves made.
    """
    made = len(deal.moves)
    if made == 0:
        raise AluetteError(_("no move has been made yet, so there is nothing to undo"))
    if isinstance(moves, bool) or not isinstance(moves, int) or not 1 <= moves <= made:
        raise AluetteError(_("undo takes back 1 to {made} moves (the moves made so far), not {value}").format(
            made=made, value=quoted(moves)))
    return rewound(deal, made - moves)


def tricks_to_replay(deal: Deal) -> tuple[int, ...]:
    """The trick numbers :func:`replayed_from_trick` accepts: every trick completed, and the one being played if
    its first card is down (none when the play has not started, or a surrender ended the deal before it)."""
    plays = sum(1 for move in deal.moves if isinstance(move, Play))
    return tuple(range(1, (plays + 3) // 4 + 1))


def trick_start(deal: Deal, trick: int) -> int:
    """How many of ``deal``'s moves were made before the first card of trick ``trick`` (1-9) was played.

    Raises:
        AluetteError: ``trick`` is not one of :func:`tricks_to_replay` (the message says which are).
    """
    started = tricks_to_replay(deal)
    if isinstance(trick, bool) or not isinstance(trick, int) or trick not in started:
        which = (_("tricks 1 to {last}").format(last=started[-1]) if len(started) > 1 else _("trick 1") if started
                 else _("no trick (no card has been played yet)"))
        raise AluetteError(_("this deal can be replayed from {which}, not from trick {value}").format(
            which=which, value=quoted(trick)))
    first_play = 4 * (trick - 1)  # every trick has four cards
    seen = 0
    for index, move in enumerate(deal.moves):
        if isinstance(move, Play):
            if seen == first_play:
                return index
            seen += 1
    raise AssertionError("unreachable: trick_start counted the plays")  # pragma: no cover


def replayed_from_trick(deal: Deal, trick: int) -> Deal:
    """A new deal: ``deal`` as it stood just before the first card of trick ``trick`` (the hands, the tricks before
    it and the seat to lead as they were), ready to be played another way. ``deal`` is not changed.

    >>> deal = Deal.from_seed(3, options=Options(chant=False))
    >>> for _ in range(12):
    ...     _ = deal.play_index(0)
    >>> again = replayed_from_trick(deal, 2)
    >>> len(again.tricks), again.to_move == deal.tricks[1].leader
    (1, True)

    Raises:
        AluetteError: see :func:`trick_start`.
    """
    return rewound(deal, trick_start(deal, trick))
