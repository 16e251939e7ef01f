"""Card pictures: inline SVG faces and small HTML layouts for notebooks and widgets.

The core imports this module only when a picture is asked for (``_repr_html_``/``_repr_svg_``). Colours live in one
table, :data:`COLOURS`, that a notebook may change. Every face shows the rank index in both corners, the suit as a
drawn sign and its initial (O, C, B, E), and, under the top eight, their traditional nickname.

French-suited faces are a display option (``deck="french"`` on every function that draws a face): the same card
drawn as on an ordinary 52-card deck without its 10s, which plays Aluette too (:mod:`aluette.cards`): coins as
diamonds, cups as hearts, batons as clubs, swords as spades, the jack a valet (V), the cavalière a dame (D), the king
a roi (R), the ace A. The default, ``deck="spanish"``, draws the Spanish deck; the card itself never changes.
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Mapping, Optional, Sequence

from .cards import Card, Suit
from .card_names import card_name, french_name as _french_name
from .i18n import _, ngettext, pgettext
from .seats import SEATS, Seat

__all__ = ["COLOURS", "DECKS", "card_svg", "french_name", "back_svg", "cards_html", "trick_html", "view_html",
           "match_html",
           "round_table_html", "PlotImage",
           "plot_image"]

#: Colours used by the pictures; change entries to restyle every card. Contrast (WCAG 2): each suit's
#: colour on the face is at least 5:1 (coins #8a6400: 5.3:1; it was #b8860b, 3.2:1); the winner's mark is a gold
#: border (4.5:1 on the table's green felt #2e6b3f) inside a dark ring (17:1 on white), so it shows on both; "spoiled"
#: is dark text (#424242) on a white badge, 10:1.
COLOURS = {
    Suit.COINS: "#8a6400", Suit.CUPS: "#c0392b", Suit.BATONS: "#2e7d32", Suit.SWORDS: "#1f4e9c",
    "face": "#fffdf5", "edge": "#444444", "back": "#7b2d26", "back_pattern": "#e8c170", "nickname": "#000000",
    "winner": "#ffd54f", "winner_ring": "#1a1a1a", "spoiled": "#424242", "badge": "#ffffff",
    "french_red": "#c0392b", "french_black": "#1a1a1a",
}

#: The two ways to draw a face: the Spanish deck (default) and the ordinary French-suited deck without its 10s.
DECKS = ("spanish", "french")

_SYMBOLS = {
    # drawn in a 20x20 box centred on (0, 0)
    Suit.COINS: '<circle r="8" fill="{c}"/><circle r="4.5" fill="none" stroke="#fff" stroke-width="1.5"/>',
    Suit.CUPS: '<path d="M-7,-8 H7 Q7,2 1.5,3 V6 H5 V8 H-5 V6 H-1.5 V3 Q-7,2 -7,-8 Z" fill="{c}"/>',
    Suit.BATONS: '<path d="M-3,9 L-1.5,-6 Q0,-10 1.5,-6 L3,9 Z" fill="{c}"/>'
                 '<circle cx="0" cy="-6" r="3.2" fill="{c}"/>',
    Suit.SWORDS: '<path d="M-1.3,-10 L1.3,-10 L1.3,4 L-1.3,4 Z" fill="{c}"/>'
                 '<path d="M-6,4 H6 V6 H-6 Z M-1.2,6 H1.2 V10 H-1.2 Z" fill="{c}"/>',
}


#: The French suits drawn in the same 20x20 box: diamonds (coins), hearts (cups), clubs (batons), spades (swords).
_FRENCH_SYMBOLS = {
    Suit.COINS: '<path d="M0,-9 L7,0 L0,9 L-7,0 Z" fill="{c}"/>',
    Suit.CUPS: '<path d="M0,8 C-9,1 -8,-7 -4,-7 C-1.5,-7 0,-5 0,-3.5 C0,-5 1.5,-7 4,-7 C8,-7 9,1 0,8 Z" fill="{c}"/>',
    Suit.BATONS: '<g fill="{c}"><circle cx="0" cy="-4.5" r="3.6"/><circle cx="-4.2" cy="1.5" r="3.6"/>'
                 '<circle cx="4.2" cy="1.5" r="3.6"/><path d="M-1.2,1 L1.2,1 L2.5,8.5 L-2.5,8.5 Z"/></g>',
    Suit.SWORDS: '<path d="M0,-9 C-3,-4 -8,-1 -8,2.5 C-8,5.5 -4.5,6.5 -1.5,4.5 L-3,8.5 L3,8.5 L1.5,4.5 C4.5,6.5 8,5.5 '
                 '8,2.5 C8,-1 3,-4 0,-9 Z" fill="{c}"/>',
}
#: The French suits' names (English, French) and the French index of each rank (the names a reader sees:
#: :func:`aluette.card_names.french_name`).
_FRENCH_SUIT = {Suit.COINS: ("diamonds", "carreau"), Suit.CUPS: ("hearts", "cœur"), Suit.BATONS: ("clubs", "trèfle"),
                Suit.SWORDS: ("spades", "pique")}
_FRENCH_INDEX = {1: "A", 10: "V", 11: "D", 12: "R"}


def _check_deck(deck: str) -> None:
    if deck not in DECKS:
        from .errors import AluetteError
        raise AluetteError(f"unknown deck {str(deck)[:20]!r}: expected one of {', '.join(map(repr, DECKS))}")


def french_name(card: Card) -> str:
    """The card's name on an ordinary French-suited deck: ``"3 of diamonds"`` (Monsieur), ``"queen of hearts"``; in
    the page's language (:func:`aluette.card_names.french_name`: « trois de carreau »)."""
    return _french_name(card)


def _symbol(suit: Suit, x: float, y: float, scale: float, deck: str = "spanish") -> str:
    if deck == "french":
        colour = COLOURS["french_red"] if suit in (Suit.COINS, Suit.CUPS) else COLOURS["french_black"]
        inner = _FRENCH_SYMBOLS[suit].format(c=colour)
    else:
        inner = _SYMBOLS[suit].format(c=COLOURS[suit])
    return f'<g transform="translate({x},{y}) scale({scale})">{inner}</g>'


def card_svg(card: Card, width: int = 72, deck: str = "spanish") -> str:
    """One card face as an SVG string, ``width`` pixels wide (height 1.5 × width); ``deck="french"`` draws it as on an
    ordinary French-suited deck (module docstring).

    The SVG carries ``<title>`` (the English name and nickname, and on a French face its French-suited name) and
    ``data-card`` (the code) so tests and screen readers can find it.

    Raises:
        AluetteError: ``deck`` is not one of :data:`DECKS`."""
    _check_deck(deck)
    w, h = 72, 108
    french = deck == "french"
    if french:
        colour = COLOURS["french_red"] if card.suit in (Suit.COINS, Suit.CUPS) else COLOURS["french_black"]
    else:
        colour = COLOURS[card.suit]
    label = (card_name(card) + (f" ({card.nickname})" if card.nickname else "")
             + (f": {french_name(card)}" if french else ""))
    index = _FRENCH_INDEX.get(card.rank, str(card.rank)) if french else str(card.rank)
    corner = (_symbol(card.suit, 10, 26, 0.45, deck) if french else
              f'<text x="6" y="29" font-family="sans-serif" font-size="10" fill="{colour}">{card.suit.value}</text>')
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="aluette-card" data-card="{card.code}" '
        f'width="{width}" height="{width * 1.5:g}" viewBox="0 0 {w} {h}" role="img">',
        f"<title>{escape(label)}</title>",
        f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6" fill="{COLOURS["face"]}" '
        f'stroke="{COLOURS["edge"]}" stroke-width="1.5"/>',
        f'<text x="6" y="17" font-family="sans-serif" font-size="15" font-weight="bold" fill="{colour}">{index}</text>',
        corner,
        f'<g transform="rotate(180 {w / 2} {h / 2})"><text x="6" y="17" font-family="sans-serif" font-size="15" '
        f'font-weight="bold" fill="{colour}">{index}</text></g>',
        _symbol(card.suit, w / 2, h / 2 - (12 if card.nickname else 0), 1.6, deck),
    ]
    if card.nickname:
        # above the bottom corner index, so the two never overlap
        size = 10 if len(card.nickname) <= 10 else 8.5
        parts.append(f'<text x="{w / 2}" y="{h - 27}" text-anchor="middle" font-family="serif" font-style="italic" '
                     f'font-size="{size}" fill="{COLOURS["nickname"]}">{escape(card.nickname)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def back_svg(width: int = 72) -> str:
    """The back of a card (for hidden cards: it carries no information about the card)."""
    w, h = 72, 108
    hidden = escape(_("hidden card"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="aluette-back" width="{width}" height="{width * 1.5:g}" '
            f'viewBox="0 0 {w} {h}" role="img"><title>{hidden}</title>'
            f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6" fill="{COLOURS["back"]}" '
            f'stroke="{COLOURS["edge"]}" stroke-width="1.5"/><rect x="8" y="8" width="{w - 16}" height="{h - 16}" '
            f'rx="4" fill="none" stroke="{COLOURS["back_pattern"]}" stroke-width="2"/></svg>')


def cards_html(cards: Iterable[Card], width: int = 60, caption: Optional[str] = None, deck: str = "spanish") -> str:
    """A row of card faces as HTML (an optional caption above), drawn from ``deck`` (:func:`card_svg`)."""
    faces = "".join(f'<span style="margin:2px">{card_svg(c, width, deck)}</span>' for c in cards)
    head = f'<div style="font-weight:bold">{escape(caption)}</div>' if caption else ""
    return f'<div class="aluette-cards">{head}<div style="display:flex;flex-wrap:wrap">{faces}</div></div>'


def trick_html(plays: Sequence, title: Optional[str] = None, winner=None, spoiled: bool = False, width: int = 54,
               deck: str = "spanish") -> str:
    """A trick: each seat's card with the seat letter under it; the winner outlined and its letter marked "wins", or
    "spoiled" noted (the meaning is in words too, not in colour alone); ``title`` defaults to "Trick"; the words in the
    page's language (:mod:`aluette.i18n`)."""
    title = _("Trick") if title is None else title
    cells = []
    for seat, card in plays:
        won = seat == winner
        style = (f"border:4px solid {COLOURS['winner']};box-shadow:0 0 0 2px {COLOURS['winner_ring']};"
                 f"border-radius:6px" if won else "border:4px solid transparent")
        # TRANSLATORS: under the winning card of a trick; {seat} is a seat's letter (N, E, S, W)
        label = _("{seat} wins").format(seat=seat) if won else f"{seat}"
        cells.append(f'<div style="text-align:center;margin:3px;{style}">{card_svg(card, width, deck)}'
                     f'<div>{escape(label)}</div></div>')
    badge = f"background:{COLOURS['badge']};color:{COLOURS['spoiled']};padding:0 4px;border-radius:4px"
    # TRANSLATORS: a badge after a trick's title ("The trick", "Trick 3"), so « pourri » alone (« Le pli pourri »)
    spoiled_word = escape(pgettext("after a trick's title", "spoiled"))
    note = (f'<span class="aluette-spoiled" style="{badge}">{spoiled_word}</span>' if spoiled
            else escape(_("won by {seat}").format(seat=winner)) if winner is not None else "")
    return (f'<div class="aluette-trick"><div><b>{escape(title)}</b> {note}</div>'
            f'<div style="display:flex">{"".join(cells)}</div></div>')


def view_html(view, deck: str = "spanish") -> str:
    """A deal as one view sees it: hands (faces for visible hands, backs for hidden ones), the trick in progress,
    completed tricks and the result; faces drawn from ``deck`` (:func:`card_svg`)."""
    rows = []
    for seat in SEATS:
        if seat in view.hands:
            hand = view.hands[seat]
            body = cards_html(hand, width=44, deck=deck)
        else:
            body = "".join(back_svg(30) for card in range(view.hand_sizes[seat]))
        marks = (_(" (dealer)") if seat == view.dealer else "") + (_(" ← to move") if seat == view.to_move else "")
        won = view.trick_counts[seat]
        tricks = ngettext("{count} tricks", "{count} tricks", won).format(count=won)
        rows.append(f"<tr><td><b>{seat}</b>{escape(marks)}<br>{tricks}</td>"
                    f"<td>{body}</td></tr>")
    parts = [f'<div class="aluette-deal"><table>{"".join(rows)}</table>']
    if view.trick:
        parts.append(trick_html(view.trick, title=_("Trick in progress"), deck=deck))
    if view.tricks:
        notation = "".join("X" if t.winner is None else str(t.winner) for t in view.tricks)
        parts.append("<div>" + _("Tricks so far (pagat notation): {notation}").format(
            notation=f"<code>{notation}</code>") + "</div>")
    if view.result is not None:
        parts.append("<div>" + _("<b>Result:</b> {reason}").format(reason=escape(view.result.reason)) + "</div>")
    parts.append("</div>")
    return "".join(parts)


def match_html(match, deck: str = "spanish") -> str:
    """A match: the score so far and the current deal (omniscient)."""
    s = match.scores
    head = "<div>" + _("<b>Match</b>, deal {number}: NS {ns} – EW {ew}").format(
        number=match.deal_number, ns=s['NS'], ew=s['EW']) + "</div>"
    return head + view_html(match.view(None), deck)


class PlotImage:
    """A matplotlib figure shown as a PNG ``<img>`` with a text alternative (``alt``), for readers who cannot see it
    (WCAG 1.1.1; a notebook's plain figure output has none). Built by :func:`plot_image`."""

    def __init__(self, png: bytes, alt: str):
        self.png, self.alt = png, alt

    def _repr_html_(self) -> str:
        import base64
        data = base64.b64encode(self.png).decode("ascii")
        return f'<img class="aluette-plot" src="data:image/png;base64,{data}" alt="{escape(self.alt)}">'

    def __repr__(self) -> str:
        return f"<PlotImage: {self.alt}>"


def _decimal_marks(figure) -> None:
    """The plain numbers of ``figure``'s axes written with the page's decimal mark (« 0,05 » on a French page):
    each axis whose ticks matplotlib writes with its ScalarFormatter (not a log scale's) gets the same formatter,
    its decimal point replaced. Nothing changes in English."""
    from babel.numbers import get_decimal_symbol
    from matplotlib.ticker import ScalarFormatter

    from .i18n import language
    mark = get_decimal_symbol(language())
    if mark == ".":
        return

    class Marked(ScalarFormatter):
        def __call__(self, x, pos=None):
            return super().__call__(x, pos).replace(".", mark)

        def get_offset(self):
            return super().get_offset().replace(".", mark)

    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            old = axis.get_major_formatter()
            if type(old) is ScalarFormatter:  # the same settings, the page's mark
                new = Marked(useOffset=old.get_useOffset(), useMathText=old.get_useMathText())
                new.set_scientific(old._scientific)
                new.set_powerlimits(old._powerlimits)
                axis.set_major_formatter(new)


def plot_image(figure, alt: str, dpi: int = 80) -> PlotImage:
    """``figure`` (a matplotlib Figure) as a :class:`PlotImage` with the text alternative ``alt``, its axes' numbers
    with the page's decimal mark; the figure is closed, so the notebook shows it once."""
    import io

    if not isinstance(alt, str) or not alt.strip():
        from .errors import AluetteError
        _close(figure)  # not left open to show twice
        raise AluetteError("a plot needs a text alternative (alt) that says what it shows")
    _decimal_marks(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    _close(figure)
    return PlotImage(buffer.getvalue(), alt)


def _close(figure) -> None:
    """Close ``figure`` in pyplot, so that the notebook does not show it again."""
    try:
        import matplotlib.pyplot as plt
        plt.close(figure)
    except ImportError:  # pragma: no cover - matplotlib made the figure
        pass


_ROUND_TABLE_GRID = {Seat.N: "1 / 2", Seat.W: "2 / 1", Seat.E: "2 / 3", Seat.S: "3 / 2"}  # grid row / column


def round_table_html(cells: Mapping[Seat, str], centre: str = "",
                     css_class: str = "aluette-table") -> str:
    """Four HTML snippets placed round a table seen from above: N at the top, S at the bottom, E on the right, W on
    the left, so clockwise on the screen is N → E → S → W, the direction of play and of the deal (the rules sheet;
    pagat.com).
    ``cells`` maps seats to HTML (already escaped); ``centre`` goes on the table itself."""
    parts = []
    for seat in SEATS:
        row, col = _ROUND_TABLE_GRID[seat].split(" / ")
        parts.append(f'<div class="aluette-seat aluette-seat-{seat}" style="grid-row:{row};grid-column:{col};'
                     f'text-align:center;padding:4px">{cells.get(seat, "")}</div>')
    felt = (f'<div style="grid-row:2;grid-column:2;background:#2e6b3f;color:#fff;border-radius:18px;'
            f'padding:10px;text-align:center;min-width:150px">{centre}'
            '<div style="font-size:90%;opacity:.9">' + escape(_("clockwise: N → E → S → W ↻")) + '</div></div>')
    return (f'<div class="{css_class}" style="display:grid;grid-template-columns:auto auto auto;'
            f'align-items:center;justify-items:center;gap:6px">{"".join(parts)}{felt}</div>')
