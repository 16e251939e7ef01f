"""Reading saved games strictly: any problem with the JSON text itself becomes a :class:`MalformedSaveError`.

Used by :meth:`Deal.from_json <aluette.deal.Deal.from_json>` and :meth:`Match.from_json
<aluette.match.Match.from_json>`. Besides invalid JSON this refuses a key given twice in one object (parsers differ on
which value wins, so the file is ambiguous), numbers too long for Python to read, and nesting too deep to read.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import MalformedSaveError, quoted

__all__ = ["load_json", "check_header"]


def check_header(data: Any, *, format: str, what: str, fields: tuple[str, ...], required: tuple[str, ...] = (),
                 version: Any = None) -> dict:
    """``data`` if it is a saved object of this ``format``: a JSON object whose ``"format"`` is ``format``, whose
    ``"version"`` is the int ``version`` (when one is given: not ``true``, not ``1.0``), with no field outside
    ``fields`` and every field of ``required``. The one check of every save header (deals, matches, scenarios).

    Raises:
        MalformedSaveError: the first of these that fails; ``what`` names the thing (``"a saved deal"``).
    """
    if not isinstance(data, dict):
        raise MalformedSaveError(f"{what} is a JSON object, got {type(data).__name__}")
    if data.get("format") != format:
        raise MalformedSaveError(f"not {what}: format is {quoted(data.get('format'))}, expected {format!r}")
    if version is not None and (type(data.get("version")) is not int or data["version"] != version):
        raise MalformedSaveError(f"unsupported version {quoted(data.get('version'))} of {what}; this aluette reads "
                                 f"version {version}")
    unknown = [key for key in data if key not in fields]
    if unknown:
        names = ", ".join(quoted(key, 20) for key in sorted(unknown)[:5]) + (" …" if len(unknown) > 5 else "")
        raise MalformedSaveError(f"unknown field(s) in {what}: {names}")
    for key in required:
        if key not in data:
            raise MalformedSaveError(f"{what} lacks the field {key!r}")
    return data


def _object(pairs: list) -> dict:
    data: dict = {}
    for key, value in pairs:
        if key in data:
            raise MalformedSaveError(f"the key {key!r} appears twice in one object: the file is ambiguous")
        data[key] = value
    return data


def load_json(text: Any, what: str) -> Any:
    """Parse ``text`` (str, bytes or bytearray) as JSON.

    Raises:
        MalformedSaveError: not JSON text (``what`` names the thing expected, e.g. ``"a saved deal"``), a key twice
            in one object, a number with more digits than Python reads, or nesting deeper than Python recurses.
    """
    try:
        return json.loads(text, object_pairs_hook=_object)
    except MalformedSaveError as error:
        raise MalformedSaveError(f"{what}: {error}") from None
    except (TypeError, ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise MalformedSaveError(f"{what} must be JSON text: {str(error)[:200]}") from None
