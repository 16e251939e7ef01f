"""nbval runs the French notebooks as it runs the English ones (``notebooks/conftest.py`` applies here too: a fresh
data folder for the play-together pages), every one of them: :data:`AWAITING_FRENCH_CHECKS` is empty, and a French
notebook whose checks cannot yet run in French would be listed there, with why.

``07_teachers_guide.ipynb`` was, until its checks read the guide's phrases through the catalogue
(:mod:`aluette.guide`: the same code finds the English phrases in the English guide and the French ones in this
one)."""

#: French notebooks nbval leaves out, each with its reason above; this list only shrinks.
AWAITING_FRENCH_CHECKS: list[str] = []

collect_ignore = AWAITING_FRENCH_CHECKS
