"""The rules the practice tasks test, each with the lesson and section that teach it (as the notebooks' headings
read: ``tests/test_practice.py`` checks every one against its notebook) and its source."""

from __future__ import annotations

from ..i18n import N_
from .tasks import Rule

__all__ = ["RULES"]

_GAMEPLAY = "the rules sheet, \"gameplay\"; pagat.com"
_SCORING = "the rules sheet, \"scoring\"; pagat.com"
_SETUP = "the rules sheet, \"setup\"; pagat.com"

RULES: dict[str, Rule] = {rule.key: rule for rule in (
    Rule("highest-class-wins",
         N_("the highest class played wins the trick; suits matter for nothing (Monsieur, Madame, le Borgne, la Vache, "
         "Grand-neuf, Petit-neuf, Deux de chêne, Deux d'écrit, then aces, kings, cavalières, jacks ...)."),
         "01_ranking.ipynb", N_("Nineteen classes, best first"), _GAMEPLAY),
    Rule("equal-classes-spoil",
         N_("cards of one class are equal whatever their suit: when the highest class of a trick is played more than "
         "once, the trick is spoiled, nobody wins it and its leader leads again."),
         "01_ranking.ipynb", N_("Cards of one class are equal, whatever their suit"), _GAMEPLAY),
    Rule("ranking-order",
         N_("the nineteen classes rank from Monsieur down to the 3s of swords and batons; two cards of one class are "
         "equal, so either order of them is right."),
         "01_ranking.ipynb", N_("Exercise: put these cards in order"), "the rules sheet, \"card rankings\"; pagat.com"),
    Rule("most-tricks-first-to-reach",
         N_("the player who won the most tricks scores a point for their partnership; when several tie for the most, "
         "the one who reached that number first wins the deal."),
         "05_scoring.ipynb", N_("pagat's example 1: `SENWSEXNW`"), _SCORING),
    Rule("best-single-player",
         N_("partners do not pool their tricks: the deal goes to the best single player, not to the partnership with "
         "the most tricks together."),
         "05_scoring.ipynb", N_("\"Most tricks for your team\"? No: the best single player"), _SCORING),
    Rule("mordienne",
         N_("mordienne scores 2: the deal's winner won one unbroken run of tricks ending with trick 9, after at least "
         "one trick they did not win; a spoiled trick breaks a run and counts as a trick before it."),
         "05_scoring.ipynb", N_("pagat's example 4: `XSENXWSSS`"),
         "the rules sheet, \"scoring\"; pagat.com; decisions mordienne-spoiled-breaks-run, "
         "mordienne-spoiled-counts-before, one-trick-run-mordienne, all-nine-not-mordienne"),
    Rule("all-nine-spoiled",
         N_("a spoiled trick is won by nobody; when all nine are spoiled nobody scores."),
         "05_scoring.ipynb", N_("Spoiled tricks"), "decision all-nine-spoiled (the sources are silent)"),
    Rule("deal-roles",
         N_("everything goes clockwise, N, E, S, W: the player at the dealer's right cuts, the dealer deals three "
         "cards at a time starting at the dealer's left, the dealer's left leads the first trick, and the deal "
         "passes to the left."),
         "02_setup.ipynb", N_("The deal"), _SETUP),
    Rule("partnership-draw",
         N_("in the partnership draw Monsieur's and Madame's holders partner against le Borgne's and la Vache's, "
         "partners sit opposite, and Madame's holder deals first."),
         "02_setup.ipynb", N_("The partnership draw"), _SETUP),
    Rule("mordienne-still",
         N_("mordienne needs every trick the winner won to be in one unbroken run ending with trick 9, after at least "
         "one trick they did not win, and the most tricks at the end: a trick they won followed by one they did "
         "not win rules it out."),
         "09_edge_cases.ipynb", N_("Could North have made mordienne?"),
         "the rules sheet, \"scoring\"; pagat.com; the decisions of aluette.scoring"),
    Rule("chant-recipients",
         N_("the chant happens only if all four agree; then the twelve stock cards go one at a time alternately to the "
         "dealer's left and the dealer, six each, who hold fifteen until they discard six."),
         "03_chant.ipynb", N_("Who gets the extra cards, and how many go back"), _SETUP),
    Rule("chant-declined",
         N_("one refusal settles the chant: the stock stays unused and unseen, and every player keeps the nine cards "
         "they were dealt."),
         "03_chant.ipynb", N_("What happens when anyone declines"), _SETUP + "; decision chant-stops-at-first-refusal"),
    Rule("chant-partner-variant",
         N_("in the variant the second six stock cards go to the dealer's partner instead of the dealer."),
         "03_chant.ipynb", N_("A variant: the dealer's partner receives"), "some French descriptions (an option here)"),
    Rule("signal-table",
         N_("each signal has its gesture in the signal table: the eight named cards, the aces, a useless hand and "
         "going for mordienne."),
         "06_signals.ipynb", N_("The table"),
         "the rules sheet's signal table; trictrac.net; Jeux & Stratégie n° 2 (1980)"),
    Rule("play-last",
         N_("the last player to a trick sees every other card: beat the best card as cheaply as possible, or, when "
         "you cannot, spoil the trick by playing a card of the same class as the best card."),
         "04_play.ipynb", N_("Why playing last is strong"), "the rules sheet, \"gameplay\" (playing last); pagat.com"),
)}
