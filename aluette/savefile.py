"""Saving and loading: a deal as JSON (:func:`deal_to_dict`, :func:`deal_from_dict`), and reading saved games
strictly: any problem with the JSON text itself becomes a :class:`MalformedSaveError`.

Used by :meth:`Deal.to_json <aluette.deal.Deal.to_json>`, :meth:`Deal.from_json <aluette.deal.Deal.from_json>` and
:meth:`Match.from_json <aluette.match.Match.from_json>`. Besides invalid JSON this refuses a key given twice in one
object (parsers differ on which value wins, so the file is ambiguous), numbers too long for Python to read, and
nesting too deep to read. A saved deal is its deck (or seed and cut) and its moves: loading replays every move, so
a save cannot hold a position the rules would not reach.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .cards import parse_cards
from .chance import check_seed
from .errors import AluetteError, MalformedSaveError, quoted
from .i18n import N_, _
from .moves import move_from_json, move_sentence
from .options import Options

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["load_json", "check_header", "deal_to_dict", "deal_from_dict", "DEAL_FORMAT", "DEAL_VERSION"]

#: The ``"format"`` and ``"version"`` of a saved deal.
DEAL_FORMAT = "aluette-deal"
DEAL_VERSION = 1


def check_header(data: Any, *, format: str, what: str, fields: tuple[str, ...], required: tuple[str, ...] = (),
                 version: Any = None) -> dict:
    """``data`` if it is a saved object of this ``format``: a JSON object whose ``"format"`` is ``format``, whose
    ``"version"`` is the int ``version`` (when one is given: not ``true``, not ``1.0``), with no field outside
    ``fields`` and every field of ``required``. The one check of every save header (deals, matches, scenarios).

    Raises:
        MalformedSaveError: the first of these that fails; ``what`` names the thing (``"a saved deal"``, marked for
            the catalogue where it is written: the message is in the page's language, :mod:`aluette.i18n`).
    """
    what = _(what)
    if not isinstance(data, dict):
        raise MalformedSaveError(_("{what} is a JSON object, got {kind}").format(what=what, kind=_json_kind(data)))
    if data.get("format") != format:
        raise MalformedSaveError(_("not {what}: format is {got}, expected {format}").format(
            what=what, got=quoted(data.get("format")), format=repr(format)))
    if version is not None and (type(data.get("version")) is not int or data["version"] != version):
        raise MalformedSaveError(_("unsupported version {got} of {what}; this aluette reads version {version}").format(
            got=quoted(data.get("version")), what=what, version=version))
    unknown = [key for key in data if key not in fields]
    if unknown:
        names = ", ".join(quoted(key, 20) for key in sorted(unknown)[:5]) + (" …" if len(unknown) > 5 else "")
        raise MalformedSaveError(_("unknown field(s) in {what}: {names}").format(what=what, names=names))
    for key in required:
        if key not in data:
            raise MalformedSaveError(_("{what} lacks the field {key}").format(what=what, key=repr(key)))
    return data


def _json_kind(value: Any) -> str:
    """What JSON calls ``value``'s kind, in the page's language: "a list", "a text"... (not Python's type name)."""
    if isinstance(value, bool) or value is None:
        return _("true, false or null")
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, str):
        return _("a text")
    return _("a list") if isinstance(value, list) else type(value).__name__


def _object(pairs: list) -> dict:
    data: dict = {}
    for key, value in pairs:
        if key in data:
            raise MalformedSaveError(_("the key {key} appears twice in one object: the file is ambiguous").format(
                key=quoted(key)))
        data[key] = value
    return data


def load_json(text: Any, what: str) -> Any:
    """Parse ``text`` (str, bytes or bytearray) as JSON; a byte-order mark before it is read past, in text as in
    bytes.

    Raises:
        MalformedSaveError: not JSON text (``what`` names the thing expected, e.g. ``"a saved deal"``, marked for the
            catalogue where it is written), a key twice in one object, a number with more digits than Python reads,
            or nesting deeper than Python recurses. The message is in the page's language, and says where the text
            stops being JSON (its line and column).
    """
    what = _(what)
    if not isinstance(text, (str, bytes, bytearray)):
        raise MalformedSaveError(_("{what} must be JSON text, got {kind}").format(what=what, kind=_json_kind(text)))
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark, as a file read with the wrong codec keeps it: json reads it in bytes only
    try:
        return json.loads(text, object_pairs_hook=_object)
    except MalformedSaveError as error:
        raise MalformedSaveError(_("{what}: {error}").format(what=what, error=error)) from None
    except json.JSONDecodeError as error:  # where the text stops being JSON, in the page's language
        raise MalformedSaveError(_("{what} must be JSON text: it stops being JSON at line {line}, column {column} "
                                   "(paste the whole text that Export gave)").format(
            what=what, line=error.lineno, column=error.colno)) from None
    except UnicodeDecodeError:  # bytes that are not UTF-8 (nor UTF-16 or 32, which json reads too)
        raise MalformedSaveError(_("{what} must be JSON text in UTF-8").format(what=what)) from None
    except RecursionError:
        raise MalformedSaveError(_("{what} is nested deeper than a saved file ever is").format(what=what)) from None
    except ValueError:  # a number with more digits than Python reads (its limit, 4,300)
        raise MalformedSaveError(_("{what} holds a number too long to read").format(what=what)) from None


def deal_to_dict(deal: Deal) -> dict:
    """A JSON-ready description of ``deal``: format, version, options, dealer, the cut deck, seed and cut when
    known, the moves, and the result (checked again on load)."""
    data: dict[str, Any] = {"format": DEAL_FORMAT, "version": DEAL_VERSION, "options": deal.options.to_dict(),
                            "dealer": str(deal.dealer), "deck": " ".join(map(str, deal.deck))}
    if deal.seed is not None:
        data["seed"], data["cut"] = deal.seed, deal.cut
    data["moves"] = [m.to_json() for m in deal.moves]
    if deal.result is not None:
        data["result"] = {"notation": deal.notation if deal.result.score else None,
                          "points": {str(t): p for t, p in deal.result.points.items()}}
    return data


def deal_from_dict(cls: type[Deal], data: Any) -> Deal:
    """Rebuild a deal (of class ``cls``) from :func:`deal_to_dict` output by replaying every move.

    Raises:
        MalformedSaveError: wrong format or version, a missing or unknown field, a deck that is not the 48 cards
            or does not match its seed, an illegal move (named by its number), or a result that differs from the
            replay.
    """
    check_header(data, format=DEAL_FORMAT, version=DEAL_VERSION, what=N_("a saved deal"),
                 fields=("format", "version", "options", "dealer", "deck", "seed", "cut", "moves", "result"),
                 required=("options", "dealer", "deck", "moves"))
    try:
        options = Options.from_dict(data["options"])
        if not isinstance(data["deck"], str):
            raise AluetteError(_("deck must be a string of 48 card codes"))
        deal = cls(parse_cards(data["deck"]), dealer=data["dealer"], options=options)
    except AluetteError as error:
        raise MalformedSaveError(_("saved deal: {error}").format(error=error)) from None
    if "seed" in data or "cut" in data:
        seed, cut = data.get("seed"), data.get("cut")
        try:
            check_seed(seed)
        except AluetteError as error:
            raise MalformedSaveError(_("saved deal: {error}").format(error=error)) from None
        if type(cut) is not int:  # a float cut of 40.0 would be re-saved and shown as "cut 40.0 cards"
            raise MalformedSaveError(_("saved deal: cut must be a whole number, got {cut}").format(cut=quoted(cut)))
        seeded = cls.from_seed(seed, dealer=deal.dealer, options=options)
        if seeded.deck != deal.deck or seeded.cut != cut:
            raise MalformedSaveError(_("saved deal: the deck and cut do not match seed {seed}; the file was edited or "
                                       "is damaged").format(seed=seed))
        deal = seeded  # the same deck, with its seed and cut known
    if not isinstance(data["moves"], list):
        raise MalformedSaveError(_("saved deal: moves must be a list"))
    for number, raw in enumerate(data["moves"], start=1):
        move = move_from_json(raw, where=_("saved deal, move {number}").format(number=number))
        try:
            deal.apply(move)
        except AluetteError as error:
            raise MalformedSaveError(_("saved deal, move {number} ({move}) is illegal: {error}").format(
                number=number, move=move_sentence(move), error=error)) from None
    if "result" in data:
        if deal.result is None:
            raise MalformedSaveError(_("saved deal claims a result but its moves do not finish the deal"))
        replayed = deal_to_dict(deal)["result"]
        if data["result"] != replayed:
            raise MalformedSaveError(_("saved deal: the stored result {stored} differs from the replayed one "
                                       "{replayed}").format(stored=quoted(data["result"]), replayed=repr(replayed)))
    return deal
