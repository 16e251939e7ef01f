"""The room's policy, one for both servers of the students' app (issue 17 §3): how many pages a computer and the
room may hold and open, and what a refused student reads, in the page's language (issue 21: a French lesson's
address, ``/fr/...`` on Solara's server, ``/voila/render/fr/...`` on Voilà, gets the French page).

The servers count (Solara's door, :class:`aluette.classroom.admission.Admission`, in the ledger its workers share;
Voilà's :class:`aluette.classroom.server.ClassroomIdentityProvider`, in its process); :meth:`RoomPolicy.refusal`
decides from their counts, and :class:`Refusal` words the answer (:meth:`Refusal.page`, through
:mod:`aluette.i18n`).

>>> policy = RoomPolicy(max_sessions=40, per_address=4, per_minute=12)
>>> policy.refusal("10.0.0.7", pages=3, held=4, in_all=20).status
503
>>> policy.refusal("10.0.0.7", pages=3, held=4, in_all=20, replacing=True) is None  # a reload replaces its page
True
>>> policy.refusal("10.0.0.7", pages=3, held=4, in_all=20).texts("fr")[0]
'La salle est pleine, réessayez dans une minute'
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs

from aluette import i18n

from . import split_language
from .pages import refusal_page

__all__ = ["RoomPolicy", "Refusal", "OPERATOR_ADDRESSES", "TEACHER_ONLY", "NEEDS_TOKEN", "NOT_THIS_COMPUTER",
           "NOT_FOR_STUDENTS", "NOT_THIS_APP", "language_of"]

#: Who may read Solara's ``/resourcez`` (the server's CPU, memory and connections): the computer that runs it; it also
#: holds ``operator_per_address`` pages.
OPERATOR_ADDRESSES = frozenset({"127.0.0.1", "::1"})


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: its ``kind`` (one of :data:`KINDS`), its HTTP ``status``, the cap it met
    (``count``) and, for the caps per address and in all, whether a closed tab frees its place at once
    (``at_once``: Solara's server, told by the tab's close request) or within about two minutes (Voilà's culler)."""

    kind: str
    status: int
    count: int = 0
    at_once: bool = True

    def texts(self, language: str = "en") -> tuple[str, str]:
        """The page's title and its paragraph (``""`` for none) in ``language`` (a code of
        :data:`aluette.i18n.LANGUAGES`; anything else is English)."""
        catalogue = i18n.translations(language if language in i18n.LANGUAGES else "en")
        _, ngettext, count = catalogue.gettext, catalogue.ngettext, self.count
        if self.kind == "minute":
            return _("The room is full, try again in a minute"), ngettext(
                "This computer opened {count} page in the last minute, as many as the server prepares for one "
                "computer. Wait a minute before opening or reloading another.",
                "This computer opened {count} pages in the last minute, as many as the server prepares for one "
                "computer. Wait a minute before opening or reloading another.", count).format(count=count)
        if self.kind == "address":
            freed = (_("Close the tabs you no longer use: their places are freed at once (or within two minutes if "
                       "the browser could not say so).") if self.at_once else
                     _("Close the tabs you no longer use: their places are freed within about two minutes."))
            return _("The room is full, try again in a minute"), ngettext(
                "This computer already has {count} page of the tutorial open.",
                "This computer already has {count} pages of the tutorial open.", count).format(count=count) + " " + freed
        if self.kind == "room":
            freed = (_("A place is freed when someone closes a tab.") if self.at_once else
                     _("A place is freed within about two minutes of someone closing a tab."))
            return _("The room is full, try again in a minute"), ngettext(
                "The server already serves {count} open page, as many as it can hold.",
                "The server already serves {count} open pages, as many as it can hold.", count).format(
                count=count) + " " + freed
        if self.kind == "teacher":
            return _("This page is for the teacher"), _(
                "The teacher's guide is served on the teacher's own page, not in the students' app.")
        if self.kind == "token":
            return _("This app needs its token"), _("Open the address your teacher gave, with its ?token=... part.")
        if self.kind == "host":
            return _("Not this computer's address"), _(
                "This app answers only at this computer's own address, such as http://127.0.0.1 (start it with "
                "HOST=0.0.0.0 for the network).")
        if self.kind == "figures":
            return _("Not in the students' app"), _(
                "The server's figures are for the teacher, on the computer that runs it.")
        return _("Not a page of this app"), ""

    def page(self, language: str = "en") -> str:
        """The refusal page in ``language``: a small HTML page (:func:`aluette.classroom.pages.refusal_page`)."""
        title, reason = self.texts(language)
        _ = i18n.translations(language if language in i18n.LANGUAGES else "en").gettext
        return refusal_page(title, *filter(None, [reason]), _("Aluette, the classroom app."),
                            language=language if language in i18n.LANGUAGES else "en")

    @property
    def headers(self) -> dict[str, str]:
        """The answer's headers besides its type: never cached, and for "the room is full" (503) when to retry."""
        return {"Cache-Control": "no-store", **({"Retry-After": "60"} if self.status == 503 else {})}


#: The kinds of :class:`Refusal`: the three caps, then the refusals that are no cap.
KINDS = ("minute", "address", "room", "teacher", "token", "host", "figures", "origin")
#: The teacher's notebooks asked of the students' app (HTTP 404, as on either server).
TEACHER_ONLY = Refusal("teacher", 404)
#: A request without the app's token (HTTP 403).
NEEDS_TOKEN = Refusal("token", 403)
#: Without a token, a request addressed to another name than this computer's loopback ones (DNS rebinding, 403).
NOT_THIS_COMPUTER = Refusal("host", 403)
#: The server's figures (Solara's ``/resourcez``) asked from another computer than the one running it (404).
NOT_FOR_STUDENTS = Refusal("figures", 404)
#: A websocket from a page of another address (403; a websocket is refused before it is accepted: no page shown).
NOT_THIS_APP = Refusal("origin", 403)


@dataclass(frozen=True)
class RoomPolicy:
    """The room's caps: a computer holds at most ``per_address`` open pages (``operator_per_address`` for the
    computer that runs the app and the teacher's, ``operators``) and opens at most ``per_minute`` pages a minute;
    the room holds at most ``max_sessions``. ``frees_at_once``: a closed tab's place is freed at once (Solara's
    server) or within about two minutes (Voilà), as the refusal says."""

    max_sessions: int = 40
    per_address: int = 4
    per_minute: int = 12
    operator_per_address: int = 8
    operators: frozenset = OPERATOR_ADDRESSES
    frees_at_once: bool = True

    def cap(self, address: str) -> int:
        """The pages ``address`` may hold at once: ``operator_per_address`` (never fewer than ``per_address``) for
        :attr:`operators`, ``per_address`` for the others."""
        return max(self.operator_per_address, self.per_address) if address in self.operators else self.per_address

    def refusal(self, address: str, pages: int, held: int, in_all: int, replacing: bool = False,
                page: bool = True) -> Refusal | None:
        """Why a new page (or a websocket opening a kernel) from ``address`` is refused, or ``None`` to admit it.

        ``pages``: the pages ``address`` opened in the last minute (counted when ``page``); ``held``: the pages it
        holds now; ``in_all``: the room's. ``replacing``: the new page replaces one this address holds (a reload, a
        link from a lesson: :func:`aluette.classroom.pages.replaces_a_page`), which then counts as gone, per address
        and in all, never against the pages of the minute."""
        gone = 1 if replacing and held > 0 else 0
        if page and pages >= self.per_minute:
            return Refusal("minute", 503, self.per_minute, self.frees_at_once)
        cap = self.cap(address)
        if held - gone >= cap:
            return Refusal("address", 503, cap, self.frees_at_once)
        if in_all - gone >= self.max_sessions:
            return Refusal("room", 503, self.max_sessions, self.frees_at_once)
        return None


def language_of(path: str, query: bytes | str = b"") -> str:
    """The language a request's address asks for: a translation's prefix (``/fr/01_ranking``,
    ``/voila/render/fr/01_ranking.ipynb``), else ``?lang=fr``, else English.

    >>> language_of("/fr/02_setup"), language_of("/voila/render/fr/02_setup.ipynb"), language_of("/", b"lang=fr")
    ('fr', 'fr', 'fr')
    """
    path = path[:2000]
    for prefix in ("/voila/render/", "/voila/tree/"):
        if path.startswith(prefix):
            path = "/" + path[len(prefix):]
    code = split_language(path)[0]
    if code:
        return code
    text = query.decode("latin-1") if isinstance(query, bytes) else query
    asked = parse_qs(text[:2000]).get("lang", [])
    return next((code for code in asked if code in i18n.LANGUAGES), "en")
