"""The notebooks' share of the catalogue: the phrases their code prints or draws, marked ``gettext("...")``.

The French notebooks (``notebooks/fr/``) run the English notebooks' code, cell for cell (``tests/test_translations.py``),
so a phrase that code prints (a sentence, a table's heading, a chart's label or its text for screen readers) is
worded in the page's language through :func:`aluette.i18n.gettext`, as the package's own texts are. Babel has no
reader for notebooks: :func:`extract` is one, for ``make messages`` (Babel's ``[extractors]``, :data:`MAPPING`) and
for the test that the catalogue is up to date. It reads the English notebooks' code cells with Babel's own Python
reader; the French notebooks hold the same code.

    python -m tools.messages     # what ``make messages`` runs: extract the package and the notebooks, update each .po
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from babel.messages.extract import extract_python

ROOT = Path(__file__).resolve().parent.parent
#: Babel's method map: the package's Python, the English notebooks (not ``fr/``: the same code) with :func:`extract`.
METHOD_MAP = [("aluette/**.py", "python"), ("notebooks/*.ipynb", "tools.messages:extract")]


def extract(fileobj, keywords, comment_tags, options):
    """Babel's extractor for a notebook: the messages of its code cells, each with the line it has in the notebook's
    code read as one file (the cells in order, each cell's lines, no blank line between them)."""
    import tokenize

    name = getattr(fileobj, "name", "a notebook")
    notebook = json.load(io.TextIOWrapper(fileobj, encoding="utf-8"))
    offset = 0
    for number, cell in enumerate(notebook.get("cells", ())):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source") or ""
        source = source if isinstance(source, str) else "".join(source)
        try:
            for line, *rest in extract_python(io.BytesIO(source.encode("utf-8")), keywords, comment_tags, options):
                yield (offset + (line or 1), *rest)  # Babel gives no line for some calls (an f-string's)
        except (tokenize.TokenError, SyntaxError) as error:
            raise SystemExit(f"{name}, code cell {number}: Babel cannot read it as Python ({error})") from None
        offset += source.count("\n") + 1


def main(argv: list[str]) -> int:
    import tempfile

    from babel.messages.frontend import CommandLineInterface
    pot = "aluette/locale/aluette.pot"
    cli = CommandLineInterface()
    with tempfile.TemporaryDirectory() as folder:  # Babel reads its method map from a file
        mapping = Path(folder) / "babel.cfg"
        # a method "module:function" is named in the [extractors] section (a section's name is "method: pattern")
        mapping.write_text("[extractors]\nnotebook = tools.messages:extract\n" + "".join(
            f"[{method.replace('tools.messages:extract', 'notebook')}: {pattern}]\n" for pattern, method in METHOD_MAP),
            encoding="utf-8")
        cli.run(["pybabel", "extract", "--project=aluette", "--add-comments=TRANSLATORS:", "--sort-by-file",
                 "--no-wrap", "--keywords=N_", f"--mapping-file={mapping}", "-o", pot, "."])
    cli.run(["pybabel", "update", "--domain=aluette", f"--input-file={pot}", "--output-dir=aluette/locale",
             "--no-wrap", "--ignore-obsolete"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
