"""The DataFrame of a simulation, one row per deal (:data:`COLUMNS`), and the :class:`Summary` that adds rows up
without keeping them. Both engines' per-deal arrays go through the same :func:`deals_frame`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..options import Options

__all__ = ["COLUMNS", "deals_frame", "dealer_margin", "Summary", "Edge"]

#: The columns of a simulation DataFrame, with their meaning.
COLUMNS = {
    "deal": "deal number, 0 to n_deals - 1 (int64)",
    "dealer": "the dealer's seat (category N, E, S, W)",
    "notation": "the nine trick winners in pagat notation (X = spoiled); empty when a surrender was accepted",
    "winner": "the seat that won the deal on tricks (most tricks, first to reach); missing if nobody won a trick "
              "or the deal was not played",
    "team": "the partnership that scores (category NS, EW); missing when nobody scores",
    "points_ns": "points scored by N-S (0, 1 or 2)",
    "points_ew": "points scored by E-W (0, 1 or 2)",
    "mordienne": "the winner made mordienne (always False when the mordienne option is off)",
    "spoiled": "number of spoiled tricks (0-9)",
    "first_to_reach": "several seats tied for most tricks, so the deal was decided by who reached it first",
    "chant": "all four agreed to the chant",
    "surrendered_by": "the partnership that offered to surrender (category NS, EW), else missing",
    "surrender_accepted": "an offer to surrender was accepted (so the tricks were not played)",
    "opt_mordienne": "option: mordienne scores 2",
    "opt_chant": "option: the chant is offered",
    "opt_chant_recipients": "option: who receives the stock in the chant",
    "opt_surrender": "option: surrender may be offered",
    "players": "the players, e.g. 'random' or 'N:heuristic E:random S:heuristic W:random'",
}

_SEAT_LETTERS = ["N", "E", "S", "W"]
_TEAM_LETTERS = ["NS", "EW"]
_NOTATION_BYTES = np.frombuffer(b"NESWX.", dtype=np.uint8)  # code -> letter; -1 reads the last, "."


def deals_frame(raw: dict, options: Options, players: str) -> pd.DataFrame:
    """The DataFrame of :data:`COLUMNS` from an engine's per-deal arrays (:func:`aluette.simulation.step.step_deals`,
    :func:`aluette.simulation.numpy_random.random_deals`) with ``deal`` and ``dealer`` added, the options they were played with
    and the players' label: the same code for every engine."""
    outcomes = raw["outcomes"]
    m = len(outcomes)
    notation = np.empty(m, dtype=object)
    for start in range(0, m, 65536):  # letters -> str, a slice at a time: a fixed-width copy of all rows is large
        part = outcomes[start:start + 65536]
        text = _NOTATION_BYTES[part].view("S9").ravel().astype(str)
        text[part[:, 0] < 0] = ""  # not played: a surrender was accepted
        notation[start:start + 65536] = text
    return pd.DataFrame({
        "deal": raw["deal"],
        "dealer": pd.Categorical.from_codes(raw["dealer"], categories=_SEAT_LETTERS),
        "notation": pd.array(notation, dtype="str"),
        "winner": pd.Categorical.from_codes(raw["winner"], categories=_SEAT_LETTERS),
        "team": pd.Categorical.from_codes(raw["team"], categories=_TEAM_LETTERS),
        "points_ns": raw["points_ns"],
        "points_ew": raw["points_ew"],
        "mordienne": raw["mordienne"],
        "spoiled": (outcomes == 4).sum(axis=1).astype(np.int8),
        "first_to_reach": raw["first_to_reach"],
        "chant": raw["chant"],
        "surrendered_by": pd.Categorical.from_codes(raw["surrendered_by"], categories=_TEAM_LETTERS),
        "surrender_accepted": raw["surrender_accepted"] == 1,
        "opt_mordienne": np.full(m, options.mordienne),
        "opt_chant": np.full(m, options.chant),
        "opt_chant_recipients": pd.Categorical.from_codes(np.zeros(m, dtype=np.int8),
                                                          categories=[options.chant_recipients.value]),
        "opt_surrender": np.full(m, options.surrender),
        "players": pd.Categorical.from_codes(np.zeros(m, dtype=np.int8), categories=[players]),
    })


_POSITIONS = ("dealer's left", "dealer's partner", "dealer's right", "dealer")


def dealer_margin(frame: pd.DataFrame) -> np.ndarray:
    """Per deal of a :func:`~aluette.simulation.simulate` DataFrame: the points of the dealer's partnership minus the
    other one's (-2 to 2; int64). Its mean is what dealing is worth, its change between two runs on one seed what a
    rule option is worth to the dealer's side, deal by deal on the same cards (the chance contract,
    :mod:`aluette.simulation.contract`)."""
    dealer_ns = frame["dealer"].cat.codes.to_numpy() % 2 == 0
    ns, ew = frame["points_ns"].to_numpy(np.int64), frame["points_ew"].to_numpy(np.int64)
    return np.where(dealer_ns, ns - ew, ew - ns)


@dataclass(frozen=True)
class Edge:
    """A mean per deal with its 95% interval (normal approximation, ``mean ± 1.96 * sd / sqrt(n)``): what
    :meth:`Summary.dealer_edge` and :meth:`Edge.of` return.

    Attributes:
        mean: the mean per deal. low, high: the 95% interval. deals: the deals it is out of.
    """

    mean: float
    low: float
    high: float
    deals: int

    @classmethod
    def of(cls, values: Any) -> "Edge":
        """The mean of per-deal ``values`` (e.g. :func:`dealer_margin`, or its change between two runs) with its
        interval. Raises AluetteError for no values."""
        values = np.asarray(values, dtype=np.float64)
        if values.size == 0:
            from ..errors import AluetteError
            raise AluetteError("no deals to average")
        mean = float(values.mean())
        half = 1.96 * float(values.std()) / np.sqrt(values.size)
        return cls(mean, mean - half, mean + half, int(values.size))

    @property
    def significant(self) -> bool:
        """Whether the 95% interval leaves out 0."""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        """``+0.174 (95% interval +0.168 to +0.180, 100,000 deals)``, in the page's language (:mod:`aluette.i18n`)."""
        from ..i18n import SIGNED, _, number
        return _("{mean} (95% interval {low} to {high}, {deals} deals)").format(
            mean=number(self.mean, SIGNED), low=number(self.low, SIGNED), high=number(self.high, SIGNED),
            deals=number(self.deals))


@dataclass(eq=False)
class Summary:
    """Counts added up over simulated deals (:func:`~aluette.simulation.simulate_summary`, or :meth:`add` on
    DataFrames of :func:`~aluette.simulation.simulate`), without keeping rows. Add two with ``+``.

    Attributes:
        deals: deals counted.
        played: deals whose tricks were played (not ended by an accepted surrender).
        points: ``{"NS": p, "EW": q}`` points scored.
        dealer_side_points, other_side_points: points of the dealer's partnership and of the other one.
        dealer_margins: deals whose dealer's side scored -2, -1, 0, 1 and 2 points more than the other side
            (:func:`dealer_margin`), so the mean and spread of the dealer's edge are exact.
        wins_by_position: deals won on tricks by the seat at each position from the dealer (dealer's left,
            dealer's partner, dealer's right, dealer).
        wins_by_seat, dealt_by_seat: deals won on tricks by N, E, S and W, and deals each dealt.
        points_by_seat: points scored by the partnership of N, E, S and W (N and S share theirs).
        dealing_points_by_seat: points of the dealer's side in the deals N, E, S and W dealt.
        spoiled_by_trick: spoiled tricks at each trick number 1-9 (among played deals).
        spoiled_histogram: played deals with 0, 1, ... 9 spoiled tricks.
        first_to_reach, all_spoiled, mordienne, chant, surrender_offered, surrender_accepted: deals counted so.
    """

    deals: int = 0
    played: int = 0
    points: dict = field(default_factory=lambda: {"NS": 0, "EW": 0})
    dealer_side_points: int = 0
    other_side_points: int = 0
    dealer_margins: np.ndarray = field(default_factory=lambda: np.zeros(5, dtype=np.int64))
    wins_by_position: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    wins_by_seat: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    dealt_by_seat: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    points_by_seat: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    dealing_points_by_seat: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    spoiled_by_trick: np.ndarray = field(default_factory=lambda: np.zeros(9, dtype=np.int64))
    spoiled_histogram: np.ndarray = field(default_factory=lambda: np.zeros(10, dtype=np.int64))
    first_to_reach: int = 0
    all_spoiled: int = 0
    mordienne: int = 0
    chant: int = 0
    surrender_offered: int = 0
    surrender_accepted: int = 0

    def add(self, frame: pd.DataFrame) -> "Summary":
        """Count the rows of a :func:`~aluette.simulation.simulate` DataFrame in; returns ``self``."""
        played = frame["notation"].str.len().to_numpy() == 9
        letters = np.frombuffer("".join(frame["notation"][played]).encode("ascii"), dtype=np.uint8).reshape(-1, 9)
        spoiled = letters == ord("X")
        dealer = frame["dealer"].cat.codes.to_numpy().astype(np.int64)
        winner = frame["winner"].cat.codes.to_numpy().astype(np.int64)
        won = winner >= 0
        ns, ew = frame["points_ns"].to_numpy(np.int64), frame["points_ew"].to_numpy(np.int64)
        dealer_ns = dealer % 2 == 0
        self.deals += len(frame)
        self.played += int(played.sum())
        self.points["NS"] += int(ns.sum())
        self.points["EW"] += int(ew.sum())
        self.dealer_side_points += int(np.where(dealer_ns, ns, ew).sum())
        self.other_side_points += int(np.where(dealer_ns, ew, ns).sum())
        self.wins_by_position += np.bincount((winner[won] - dealer[won] - 1) % 4, minlength=4)
        self.dealer_margins += np.bincount(dealer_margin(frame) + 2, minlength=5)
        self.wins_by_seat += np.bincount(winner[won], minlength=4)
        self.dealt_by_seat += np.bincount(dealer, minlength=4)
        ns_total, ew_total = int(ns.sum()), int(ew.sum())
        self.points_by_seat += np.array([ns_total, ew_total, ns_total, ew_total], dtype=np.int64)
        self.dealing_points_by_seat += np.bincount(dealer, weights=np.where(dealer_ns, ns, ew), minlength=4
                                                   ).astype(np.int64)
        self.spoiled_by_trick += spoiled.sum(axis=0)
        self.spoiled_histogram += np.bincount(spoiled.sum(axis=1), minlength=10)
        self.first_to_reach += int(frame["first_to_reach"].sum())
        self.all_spoiled += int(spoiled.all(axis=1).sum())
        self.mordienne += int(frame["mordienne"].sum())
        self.chant += int(frame["chant"].sum())
        self.surrender_offered += int(frame["surrendered_by"].notna().sum())
        self.surrender_accepted += int(frame["surrender_accepted"].sum())
        return self

    def to_dict(self) -> dict:
        """Every count as plain Python numbers and lists (JSON-ready)."""
        return {name: (value.tolist() if isinstance(value, np.ndarray) else dict(value) if isinstance(value, dict)
                       else int(value)) for name, value in vars(self).items()}

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Summary) and self.to_dict() == other.to_dict()

    def __add__(self, other: "Summary") -> "Summary":
        total = Summary()
        for s in (self, other):
            total.deals += s.deals
            total.played += s.played
            for team in ("NS", "EW"):
                total.points[team] += s.points[team]
            total.dealer_side_points += s.dealer_side_points
            total.other_side_points += s.other_side_points
            for name in ("dealer_margins", "wins_by_position", "wins_by_seat", "dealt_by_seat", "points_by_seat",
                         "dealing_points_by_seat"):
                setattr(total, name, getattr(total, name) + getattr(s, name))
            total.spoiled_by_trick += s.spoiled_by_trick
            total.spoiled_histogram += s.spoiled_histogram
            for name in ("first_to_reach", "all_spoiled", "mordienne", "chant", "surrender_offered",
                         "surrender_accepted"):
                setattr(total, name, getattr(total, name) + getattr(s, name))
        return total

    def dealer_edge(self) -> Edge:
        """What dealing is worth: the dealer's side's points minus the other side's, per deal, with its 95%
        interval (:class:`Edge`). Raises AluetteError before any deal is counted."""
        margins = np.arange(-2, 3)
        if self.deals == 0:
            from ..errors import AluetteError
            raise AluetteError("no deals counted yet")
        mean = float(self.dealer_margins @ margins) / self.deals
        sd = float(np.sqrt(max(float(self.dealer_margins @ margins ** 2) / self.deals - mean ** 2, 0.0)))
        half = 1.96 * sd / np.sqrt(self.deals)
        return Edge(mean, mean - half, mean + half, self.deals)

    def by_dealer_side(self) -> pd.DataFrame:
        """The points of the dealer's side and of the other side: in all, per deal and as a share of the points."""
        points = np.array([self.dealer_side_points, self.other_side_points], dtype=np.int64)
        total = max(int(points.sum()), 1)
        return pd.DataFrame({"points": points, "per_deal": points / max(self.deals, 1), "share": points / total},
                            index=pd.Index(["dealer's side", "other side"], name="side"))

    def by_seat(self) -> pd.DataFrame:
        """One row per seat N, E, S, W: deals won on tricks (and their share of the deals won), the points of the
        seat's partnership, the deals it dealt and the points its side scored in them (per deal dealt)."""
        won = max(int(self.wins_by_seat.sum()), 1)
        return pd.DataFrame({"won": self.wins_by_seat, "won_share": self.wins_by_seat / won,
                             "side_points": self.points_by_seat, "dealt": self.dealt_by_seat,
                             "points_when_dealing": self.dealing_points_by_seat,
                             "per_deal_dealt": self.dealing_points_by_seat / np.maximum(self.dealt_by_seat, 1)},
                            index=pd.Index(_SEAT_LETTERS, name="seat"))

    def table(self) -> pd.DataFrame:
        """Each frequency with its count, the deals it is out of, the rate and a 95% interval (normal
        approximation, ``rate ± 1.96 * sqrt(rate * (1 - rate) / n)``), one row per question."""
        rows = [("decided by first to reach", self.first_to_reach, self.played),
                ("nobody wins a trick (all nine spoiled)", self.all_spoiled, self.played),
                ("mordienne", self.mordienne, self.played),
                ("chant agreed", self.chant, self.deals),
                ("surrender offered", self.surrender_offered, self.deals),
                ("surrender accepted", self.surrender_accepted, self.deals)]
        rows += [(f"trick {t + 1} spoiled", int(c), self.played) for t, c in enumerate(self.spoiled_by_trick)]
        rows += [(f"deal won on tricks by the {p}", int(c), self.played)
                 for p, c in zip(_POSITIONS, self.wins_by_position)]
        table = pd.DataFrame(rows, columns=["question", "count", "out_of"]).set_index("question")
        n = table["out_of"].where(table["out_of"] > 0)
        table["rate"] = table["count"] / n
        half = 1.96 * np.sqrt(table["rate"] * (1 - table["rate"]) / n)
        table["low"], table["high"] = table["rate"] - half, table["rate"] + half
        return table
