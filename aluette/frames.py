"""pandas DataFrames (``frames``, not "tables": in this project a table is where four play a match): the ranking, a
deal's tricks, a match's score sheet, the signals.

pandas is imported here only, when a table is asked for.
"""

from __future__ import annotations

import pandas as pd

from .cards import RANKING
from .i18n import N_
from .seats import SEATS, Team

__all__ = ["ranking_table", "ranking_columns", "tricks_table", "score_sheet", "signals_table", "shown",
           "TABLE_COLUMNS"]

#: The column names of the frames of a deal and a match (:func:`tricks_table`, :func:`score_sheet`, the running
#: counts of :func:`aluette.widgets.scoring.running_counts`) and of a simulation's results by seat, as a page shows
#: them (:func:`shown`); a seat's letter, NS and EW are the same in every language.
TABLE_COLUMNS = {"deal": N_("deal"), "dealer": N_("dealer"), "tricks": N_("tricks"), "winner": N_("winner"),
                 "mordienne": N_("mordienne"), "NS total": N_("NS total"), "EW total": N_("EW total"),
                 "note": N_("note"), "trick": N_("trick"), "leader": N_("leader"), "N tricks": N_("N tricks"),
                 "E tricks": N_("E tricks"), "S tricks": N_("S tricks"), "W tricks": N_("W tricks"),
                 "won by": N_("won by"),
                 # the results by seat of a simulation (aluette.simulation.Summary.by_seat)
                 "seat": N_("seat"), "won": N_("deals won on tricks"), "won_share": N_("share of the deals won"),
                 "side_points": N_("points of its side"), "per_deal_dealt": N_("its side's points per deal it dealt")}


def shown(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame of a deal or a match as a page prints it, in the page's language (:mod:`aluette.i18n`): its column
    names and its index's (:data:`TABLE_COLUMNS`), and a score sheet's ``mordienne`` column "yes" or empty rather
    than ``True``/``False``; in another language than English, its decimal numbers written as that language writes
    them (:func:`aluette.i18n.number`: « 0,25 »; English keeps pandas' own printing). A copy: the frame itself keeps
    the English names a program reads (``sheet["NS total"]``), whatever the page's language."""
    from .i18n import _, language, number
    copy = frame.copy()
    if "mordienne" in copy.columns and copy.columns.is_unique and copy["mordienne"].dtype == bool:
        copy["mordienne"] = copy["mordienne"].map({True: _("yes"), False: ""})
    if language() != "en":
        for place, dtype in enumerate(copy.dtypes):
            if dtype.kind == "f":
                copy.isetitem(place, copy.iloc[:, place].map(number))
    copy = copy.rename(columns=lambda name: _(TABLE_COLUMNS[name]) if name in TABLE_COLUMNS else name)
    if copy.index.name in TABLE_COLUMNS:
        copy.index.name = _(TABLE_COLUMNS[copy.index.name])
    return copy


def ranking_columns() -> dict[str, str]:
    """The ranking's column names (and its index's, ``order``) as a page shows them, in its language
    (:mod:`aluette.i18n`): ``{"strength": "force", ...}`` on a French page, the names themselves in English."""
    from .i18n import pgettext
    return {"order": pgettext("ranking column", "order"), "strength": pgettext("ranking column", "strength"),
            "class": pgettext("ranking column", "class"), "nickname": pgettext("ranking column", "nickname"),
            "cards": pgettext("ranking column", "cards"), "count": pgettext("ranking column", "count")}


def ranking_table(shown: bool = False) -> pd.DataFrame:
    """The 19 ranking classes, high to low: columns ``strength`` (19-1), ``class``, ``nickname`` (or empty),
    ``cards`` (codes) and ``count``; indexed 1-19 by rank order. Source: :data:`aluette.cards.RANKING`.

    ``shown``: the frame as a page prints it, the column names (:func:`ranking_columns`) and the classes
    (:func:`aluette.card_names.class_name`: « as », « rois ») in the page's language; the default keeps the
    English names a program reads (``table["strength"]``) whatever the page's language."""
    rows = [{"strength": len(RANKING) - i, "class": name, "nickname": nick or "", "cards": " ".join(codes),
             "count": len(codes)} for i, (name, nick, codes) in enumerate(RANKING)]
    frame = pd.DataFrame(rows, index=pd.RangeIndex(1, len(rows) + 1, name="order"))
    if not shown:
        return frame
    from .card_names import class_name
    from .cards import Card
    frame["class"] = [class_name(Card.parse(codes[0])) for _name, _nick, codes in RANKING]
    names = ranking_columns()
    frame.index.name = names["order"]
    return frame.rename(columns=names)


def tricks_table(deal) -> pd.DataFrame:
    """One row per completed trick of ``deal``: ``trick`` (1-9), ``leader``, the card of each seat (columns N, E,
    S, W), ``winner`` (a seat, or ``"X"`` when spoiled) and the running trick counts (``N tricks``...)."""
    counts = {s: 0 for s in SEATS}
    rows = []
    for record in deal.tricks:
        if record.winner is not None:
            counts[record.winner] += 1
        row = {"trick": record.number, "leader": str(record.leader)}
        row.update({str(s): str(record.card_of(s)) for s in SEATS})
        row["winner"] = "X" if record.winner is None else str(record.winner)
        row.update({f"{s} tricks": counts[s] for s in SEATS})
        rows.append(row)
    columns = ["trick", "leader", *map(str, SEATS), "winner", *(f"{s} tricks" for s in SEATS)]
    return pd.DataFrame(rows, columns=columns).set_index("trick")


def score_sheet(match) -> pd.DataFrame:
    """One row per deal of ``match``: ``deal`` (1-...), ``dealer``, ``tricks`` (pagat notation), ``winner`` (seat
    or empty), ``mordienne``, ``NS``/``EW`` points for the deal, running ``NS total``/``EW total`` and a ``note``."""
    from .i18n import pgettext
    totals = {Team.NS: 0, Team.EW: 0}
    rows = []
    for number, deal in enumerate(match.deals, start=1):
        result = deal.result
        row = {"deal": number, "dealer": str(deal.dealer), "tricks": deal.notation}
        if result is None:
            row.update({"winner": "", "mordienne": False, "NS": 0, "EW": 0,
                        "note": pgettext("score sheet note", "in progress")})
        else:
            for team, points in result.points.items():
                totals[team] += points
            score = result.score
            row.update({"winner": str(score.winner) if score and score.winner else "",
                        "mordienne": bool(score and score.mordienne),
                        "NS": result.points[Team.NS], "EW": result.points[Team.EW], "note": result.reason})
        row["NS total"], row["EW total"] = totals[Team.NS], totals[Team.EW]
        rows.append(row)
    columns = ["deal", "dealer", "tricks", "winner", "mordienne", "NS", "EW", "NS total", "EW total", "note"]
    return pd.DataFrame(rows, columns=columns).set_index("deal")


def signals_table() -> pd.DataFrame:
    """The signal table (:data:`aluette.signals.SIGNALS`): columns ``what``, ``gesture``, ``card``, ``source``, worded
    in the page's language (:mod:`aluette.i18n`; the columns keep their names, which code reads)."""
    from .card_names import card_name
    from .i18n import _
    from .signals import SIGNALS
    return pd.DataFrame([{"key": s.key, "what": _(s.what), "gesture": _(s.gesture),
                          "card": card_name(s.card) if s.card else "", "source": _(s.source)}
                         for s in SIGNALS]).set_index("key")
