"""The language of what a reader sees: gettext catalogues, looked up by the page's language (issue 21).

The strings students see (the widgets' labels, buttons, statuses and errors, the engine's explanations of tricks,
the card names, the classroom's landing and refusal pages) are written in English in the code and wrapped in
:func:`_` (or :func:`ngettext`, :func:`pgettext`; :func:`N_` marks a string kept in a table and translated where it
is shown). Babel extracts them (``make messages``) into ``aluette/locale/aluette.pot``; each language has its
``aluette/locale/<code>/LC_MESSAGES/aluette.po`` in the repository, written by a translator, with comments on the
game's terms. English is the code's own text: its output is the untranslated string, byte for byte.

**The catalogue is compiled** (``.po`` to ``.mo``, by Babel, pure Python: no compiler needed) by the set-up
(``make .venv/.aluette-installed``) and, if the ``.mo`` file is missing or older than its ``.po`` (a fresh clone
before set-up, a ``.po`` just edited), here, the first time the language is used: written beside the ``.po`` if the
folder is writable, else kept in memory. So a fresh clone's ``make test`` and an edited ``.po`` both work.

**The language is per page, not per process.** Solara's server runs many pages in one process, each in a *virtual
kernel* of its own (``solara.server.kernel_context``: a ``VirtualKernelContext`` per page, found for the running
code by ``get_current_context()``, which is keyed by the thread or task that serves the page's message, and which
holds ``user_dicts``, a dict per page freed with it). A module-level language, or a plain ``ContextVar`` set in one
message's handler, would leak to the next student's page served by the same thread, or be lost at that page's next
message. So the language is kept where the page's other settings are (its card size, its card pictures): in the
page's own dict, given by the server with :func:`set_page_storage` (``aluette/classroom/solara_app.py`` gives Solara's
``user_dicts``, as it does for the widgets' settings). In a Jupyter kernel (JupyterLab, Voilà: one page per kernel)
nothing is set and the language is the kernel's, a module variable. Every lookup asks for the current page's
language, so a widget drawn (or redrawn by a poll thread inside its page's context) is worded for its own page.

>>> set_language("en"); _("Hint")
'Hint'
>>> language()
'en'
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import io
import os
import re
import threading
from pathlib import Path
from typing import Callable, Optional

from .errors import AluetteError, quoted

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "UnknownLanguageError", "set_language", "language", "check_language",
           "set_page_storage", "kernel_language", "in_language", "translations", "_", "gettext", "ngettext", "pgettext", "npgettext", "N_",
           "number", "percent", "SIGNED", "LOCALE_DIR", "DOMAIN", "compile_catalogue"]

#: The languages the tutorial is written in: English (the code's own strings) and French.
LANGUAGES = ("en", "fr")
#: Each language's name in itself, for a language choice.
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
#: Where the catalogues are: ``<LOCALE_DIR>/<code>/LC_MESSAGES/<DOMAIN>.po``.
LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "aluette"

_KEY = "aluette.language"
_kernel_language = "en"  # a Jupyter kernel's (one page per kernel)
_page_storage: Callable[[], Optional[dict]] = lambda: None
_lock = threading.Lock()
_thread = threading.local()  # in_language's override, this thread's own
_loaded: dict[str, _gettext.NullTranslations] = {}


class UnknownLanguageError(AluetteError):
    """A language code the tutorial has no catalogue for (it is written in :data:`LANGUAGES`)."""


def check_language(code) -> str:
    """``code`` if it is one of :data:`LANGUAGES` (spaces around it and its case ignored: ``" FR"`` is ``"fr"``).

    Raises:
        UnknownLanguageError: anything else (the message quotes a short prefix of it and names the languages).
    """
    if isinstance(code, str) and len(code) <= 20 and code.strip().lower() in LANGUAGES:
        return code.strip().lower()
    raise UnknownLanguageError(f"unknown language {quoted(code, 20)}: the tutorial is written in "
                               f"{', '.join(map(repr, LANGUAGES))}")


def set_page_storage(storage: Callable[[], Optional[dict]]) -> None:
    """For a server that runs many pages in one process (Solara's virtual kernels): ``storage()`` returns a dict
    private to the current page, or ``None`` outside any page; the page's language is kept there (module
    docstring). In a Jupyter kernel nothing needs setting."""
    global _page_storage
    _page_storage = storage


def set_language(code: str) -> None:
    """Show this page (this kernel, in JupyterLab) in ``code``'s language, one of :data:`LANGUAGES`, from the next
    string looked up on (widgets already drawn change when they are next drawn).

    Raises:
        UnknownLanguageError: ``code`` is not one of :data:`LANGUAGES`; the language is left as it was.
    """
    global _kernel_language
    code = check_language(code)
    storage = _page_storage()
    if storage is None:
        _kernel_language = code
    else:
        storage[_KEY] = code


@contextlib.contextmanager
def kernel_language(code: str = "en"):
    """Inside: the kernel's language (outside any page) is ``code``; after, it is what it was. For a server that runs
    notebooks outside any page (the classroom app's template run of each lesson): a French notebook's
    ``set_language("fr")`` then does not leave the next notebook's run in French.

    Raises:
        UnknownLanguageError: ``code`` is not one of :data:`LANGUAGES`.
    """
    global _kernel_language
    code, kept = check_language(code), _kernel_language
    _kernel_language = code
    try:
        yield
    finally:
        _kernel_language = kept


@contextlib.contextmanager
def in_language(code: str):
    """Inside: every lookup made by this thread is in ``code``'s language, whatever the page's or the kernel's; after,
    as before. For a text written for another language than the page's own: the landing page lists the French
    lessons, their card pictures' names in French, from a server thread serving no page or an English one. Only
    this thread is affected (another page served at once by another thread keeps its language).

    Raises:
        UnknownLanguageError: ``code`` is not one of :data:`LANGUAGES`.
    """
    code, kept = check_language(code), getattr(_thread, "code", None)
    _thread.code = code
    try:
        yield
    finally:
        _thread.code = kept


def language() -> str:
    """The current page's language (``"en"`` unless :func:`set_language` said otherwise; inside
    :func:`in_language`, its language)."""
    override = getattr(_thread, "code", None)
    if override is not None:
        return override
    storage = _page_storage()
    if storage is None:
        return _kernel_language
    return storage.get(_KEY, "en")


def compile_catalogue(code: str, write: bool = True) -> bytes:
    """The compiled (``.mo``) catalogue of ``code``, from its ``.po`` file by Babel; written beside it if ``write``
    and the folder is writable. Fuzzy entries are left out, as ``pybabel compile`` does.

    Raises:
        UnknownLanguageError: ``code`` has no catalogue.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    code = check_language(code)
    po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po.exists():
        raise UnknownLanguageError(f"no catalogue for {code!r} (expected {po.name} in {po.parent})")
    with po.open("rb") as handle:
        catalogue = read_po(handle, locale=code, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue, use_fuzzy=False)
    data = buffer.getvalue()
    if write:  # atomically: another process (a test worker, a server's worker) may be reading it
        temporary = po.with_name(f".{po.stem}.{os.getpid()}.{threading.get_ident()}.mo")
        try:
            temporary.write_bytes(data)
            os.replace(temporary, po.with_suffix(".mo"))
        except OSError:  # a read-only install: the catalogue is kept in memory only
            temporary.unlink(missing_ok=True)
    return data


def translations(code: Optional[str] = None) -> _gettext.NullTranslations:
    """The gettext translations of ``code`` (default: the page's language); English is the code's own strings.
    Loaded once per process, compiled first when the ``.mo`` file is missing or older than its ``.po``."""
    code = language() if code is None else check_language(code)
    found = _loaded.get(code)
    if found is not None:
        return found
    with _lock:
        if code not in _loaded:
            if code == "en":
                _loaded[code] = _gettext.NullTranslations()
            else:
                po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
                mo = po.with_suffix(".mo")
                if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
                    data = mo.read_bytes()
                else:
                    data = compile_catalogue(code)
                _loaded[code] = _gettext.GNUTranslations(io.BytesIO(data))
        return _loaded[code]


def gettext(message: str) -> str:
    """``message`` in the page's language (an empty one stays empty: gettext would give the catalogue's header)."""
    return translations().gettext(message) if message else message


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n``, in the page's language (French: 0 and 1 are singular)."""
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the page's language, in ``context`` (a word that translates differently by its use: a rank
    name, a suit after "of")."""
    return translations().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` in ``context``."""
    return translations().npgettext(context, singular, plural, n)


#: The :func:`number` pattern of a signed number with three decimals: ``+0.174`` / « +0,174 », ``-0.017``.
SIGNED = "+0.000;-0.000"


#: The CLDR number patterns :func:`number` takes: digits (``#``, ``0``, ``,`` grouping) with optional decimals, a sign
#: before, and an optional negative part after ``;``.
_PATTERN = re.compile(r"[+\-]?[#,]*0(\.0*#*)?(;[+\-][#,]*0(\.0*#*)?)?")


def number(value, pattern: Optional[str] = None) -> str:
    """``value`` as the page's language writes a number (Babel's CLDR data): ``100,000`` / « 100 000 » (a narrow
    no-break space), ``+0.174`` / « +0,174 ». ``pattern``: a CLDR number pattern, such as ``"+0.000;-0.000"`` (a
    sign always, three decimals); the default groups the thousands and keeps up to three decimals."""
    import decimal
    import math
    import numbers

    from babel.numbers import format_decimal
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise AluetteError(f"number() writes a real number, got {quoted(value)}")
    if pattern is not None and not (isinstance(pattern, str) and _PATTERN.fullmatch(pattern)):
        raise AluetteError(f"number() takes a number pattern such as '0.000' or '+0.000;-0.000', got {quoted(pattern)}")
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("∞" if value > 0 else "−∞")
    try:
        return format_decimal(value, format=pattern, locale=language())
    except (decimal.InvalidOperation, ValueError):  # more digits than Babel's decimal context holds
        return str(value)


def percent(share, decimals: int = 0) -> str:
    """``share`` (0 to 1) as a percentage with ``decimals`` decimals, as the page's language writes it:
    ``"27.23%"`` / « 27,23 % »."""
    return _("{percent}%").format(percent=number(100 * share, "0." + "0" * decimals if decimals else "0"))


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it (a table's entry, translated with :func:`_`
    where it is shown)."""
    return message
