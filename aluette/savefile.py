"""Reading saved games strictly: any problem with the JSON text itself becomes a :class:`MalformedSaveError`.

Used by :meth:`Deal.from_json <aluette.deal.Deal.from_json>` and :meth:`Match.from_json
<aluette.match.Match.from_json>`. Besides invalid JSON this refuses a key given twice in one object (parsers differ on
which value wins, so the file is ambiguous), numbers too long for Python to read, and nesting too deep to read.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import MalformedSaveError

__all__ = ["load_json"]


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
