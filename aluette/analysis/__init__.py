"""Analyses of a deal that stand beside the rules engine, never inside it: the game modules (:mod:`aluette.deal`,
:mod:`aluette.scoring`...) never import this package.

* :mod:`aluette.analysis.solver`: best play with every hand open (:func:`solve`, exposed as ``aluette.solve``).
* :mod:`aluette.analysis.best_play`: the solver's answers in words (:func:`best_play`: each card's result, the line,
  "can North make mordienne from here?", "is this deal won for N-S whatever E-W do?"), for notebook 09's builder.
* :mod:`aluette.analysis.expert`: the expert bot (:class:`ExpertBot`), perfect-information Monte Carlo from its own
  seat's view over the solver.
"""

from .solver import Solution, can_make_mordienne, solve
from .expert import ExpertBot, HiddenCards
from .best_play import BestPlay, best_play

__all__ = ["Solution", "solve", "can_make_mordienne", "BestPlay", "best_play", "ExpertBot", "HiddenCards"]
