"""The teacher's guide (notebook 07) in the page's language: its exit tickets' questions and their answers, computed by
the engine, and the phrases of its one-page summary that its checks find there, each beside the engine's fact it
states (notebooks/07_teachers_guide.ipynb and its French twin run the same code: the words are the catalogue's).

The exercises' answers come from the engine (:func:`~aluette.tricks.explain_trick`, :func:`~aluette.score_tricks`,
:class:`~aluette.Deal` for the surrender, :class:`~aluette.Match`; the rules sheet, pagat.com; a tie after five deals
is a drawn match, decision ``drawn-match``); this module only words them.
"""

from __future__ import annotations

from .cards import Card
from .deal import Deal
from .players.drivers import play_out, play_out_match
from .i18n import N_, _
from .match import Match
from .options import Options
from .seats import Team
from .signals import SIGNALS
from .tricks import explain_trick

__all__ = ["SURRENDER_HANDS", "surrender_position", "surrender_refused", "match_verdict", "nines_equal",
           "gesture_meaning", "QUESTIONS", "PHRASES", "phrase", "signal_line"]


#: The hands of :func:`surrender_position` (dealer N, so E leads and speaks first). E holds the top four and low
#: cards; S holds the next eight and a king; N and W hold middling cards. Played highest card first, E wins tricks
#: 1-4 and S tricks 5-9 (mordienne for S); played lowest card first, S wins tricks 1-5 and E tricks 6-9 (no mordienne).
SURRENDER_HANDS = {"E": "3O 3C 2O 2C 3E 3B 4O 4C 4B", "S": "9C 9O 2B 2E 1O 1C 1B 1E 12O",
                   "N": "5O 5C 5B 5E 6O 6C 6B 6E 7O", "W": "7C 7B 7E 8O 8C 8B 8E 9E 9B"}


def surrender_position() -> Deal:
    """A built deal for the surrender demo: :data:`SURRENDER_HANDS`, dealer N, ``Options(surrender=True,
    chant=False)``, in the surrender phase with E (the dealer's left, speaking first for E–W) to speak."""
    return Deal.from_hands(SURRENDER_HANDS, dealer="N", options=Options(surrender=True, chant=False))


def surrender_refused():
    """Exercise 6's deal: E–W offers to surrender in :func:`surrender_position`, N refuses for N–S, and everyone
    plays their highest card (S loses tricks 1-4 and wins tricks 5-9)."""
    deal = surrender_position()
    deal.offer_surrender("E")
    deal.answer_surrender("N", False)
    return play_out(deal, "highest")


def match_verdict(seed: int) -> str:
    """The score of the match of ``seed`` played by everyone's highest card, and who wins it (or a drawn match)."""
    match = play_out_match(Match(seed))
    scores = match.scores
    verdict = (_("nobody wins, it is a drawn match") if match.is_drawn
               else _("{team} wins").format(team=match.winner))
    return _("N–S {ns}, E–W {ew} after five deals: {verdict}.").format(ns=scores[Team.NS], ew=scores[Team.EW],
                                                                        verdict=verdict)


def nines_equal() -> str:
    """Exercise 2: are the 9 of swords, the 9 of batons and the 9 of coins equal? Then who wins the trick."""
    nine_e, nine_b, nine_o = (Card.parse(code) for code in ("9E", "9B", "9O"))
    plain = _("equal (both are plain nines)") if nine_e.ties(nine_b) else _("not equal")
    coins = (_("the 9 of coins is {nickname}, a named card above both").format(nickname=nine_o.nickname)
             if nine_o.beats(nine_e) else "")
    return _("No. The 9 of swords and the 9 of batons are {plain}, but {coins}.").format(plain=plain, coins=coins) \
        + " " + explain_trick(["9E", "9B", "9O", "2E"])


def gesture_meaning(gesture: str) -> str:
    """What the signal of ``gesture`` (its English key, :data:`~aluette.signals.SIGNALS`) says, in the page's
    language."""
    return _(next(s.what for s in SIGNALS if s.gesture == gesture))


#: The exit tickets' eight questions, in the order printed (the guide's ``EXERCISES``), each with where its rule comes
#: from; translated where shown (:class:`~aluette.widgets.exercises.ExerciseSheet`).
QUESTIONS = (
    (N_("North leads the ace of coins, East plays the king of swords, South the ace of swords, West the 4 of cups. "
        "Who wins the trick, and who leads next?"), N_("the rules sheet, gameplay")),
    (N_("The four cards of a trick are the 9 of swords, the 9 of batons, the 9 of coins and the 2 of swords. Are the "
        "three nines equal?"), N_("the rules sheet, card rankings")),
    (N_("Score the deal NSENSEWWX (pagat notation: the seat that won each trick, X for spoiled)."),
     N_("the rules sheet, scoring; pagat.com")),
    (N_("Score EEENSNSNE. North and South won five tricks together, East four: who scores?"),
     N_("the rules sheet, scoring: partners do not pool tricks")),
    (N_("Score EWXEWSSSS, playing with mordienne."), N_("the rules sheet and pagat.com")),
    (N_("East–West offers to surrender; North–South refuses; then South loses tricks 1-4 and wins tricks 5-9. What "
        "does each side score?"), N_("pagat.com")),
    (N_("Your partner sticks out the little finger. What are they telling you?"),
     N_("the rules sheet's signal table; trictrac.net")),
    (N_("A match (seed 16, everyone playing their highest card) ends 3 points to 3 after five deals. Who wins?"),
     N_("⚖ Our decision: a tie after the last deal is a drawn match")),
)

#: The phrases of the guide's one-page summary (and of its lesson plans and exit tickets) that its checks look for,
#: by a short key; each language's guide says them in the catalogue's words.
PHRASES = {
    "ranking": N_("**Ranking"), "partners": N_("**Partners.**"),
    "stock": N_("Twelve cards are left over"),
    "chant": N_("alternately to the dealer's left and the dealer"),
    "spoiled leader": N_("same leader leads again"),
    "first dealer": N_("Madame's holder deals first"),
    "pairs": N_("Monsieur's holder partners Madame's"),
    "single player": N_("single player who won the most tricks"),
    "first": N_("reached that number first"),
    "twice": N_("twice or more"),
    "mordienne": N_("scores **2**"),
    "monsieur": N_("Monsieur is the *trois de carreau*"),
    "queen": N_("queen = cavalière"),
    "example": N_("**North–South scores 1**"),
    "example five": N_("though East–West took five"),
    "five deals": N_("**five deals**"),
    "five points": N_("**the first side to 5 points**"),
    "box": N_("In this app"),
    "all spoiled": N_("all nine tricks are spoiled, nobody scores"),
    "run of one": N_("a run of one, the ninth trick, counts"),
    "all nine": N_("winning all nine does not"),
    "spoiled before": N_("counts as a trick before it"),
    "spoiled breaks": N_("a spoiled trick breaks a run"),
    "drawn": N_("A tie after the last deal is a drawn match"),
    "decision": N_("Our decision"),
    "plans": N_("## Lesson plans"),
    "lesson": N_("Lesson"),
    "tickets": N_("## Exit tickets (to print)"),
}


def phrase(key: str) -> str:
    """The phrase ``key`` of :data:`PHRASES` in the page's language, its spaces as the checks read the summary (runs
    of white space, no-break spaces included, as one space)."""
    return " ".join(_(PHRASES[key]).split())


def signal_line(signal) -> str:
    """A signal's line in the summary's table: ``"<b>Monsieur (3 of coins)</b>: look upwards..."``, in the page's
    language, its spaces as :func:`phrase`'s."""
    return " ".join(_("{what}: {gesture}").format(what=f"<b>{_(signal.what)}</b>", gesture=_(signal.gesture)).split())
