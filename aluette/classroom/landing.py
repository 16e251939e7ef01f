"""The students' landing page and the teacher's page, as data for Voilà's tree template.

Voilà renders its landing page (the "tree") from a Jinja template; ``aluette/classroom/voila/templates/.../aluette/tree.html``
replaces the bare file list with one entry per notebook, read here from each notebook: its first markdown cell
starts with ``# Title`` followed by a paragraph whose first sentence describes it. :func:`page_config_hook` (named
in ``aluette/classroom/voila/voila.py``) adds those entries to the tree page's ``page_config``; the students' page leaves out the
teacher's notebooks, the teacher's page lists them first and offers the one-page rules summary of
``07_teachers_guide`` as a file to download and print (:func:`summary_html`, one A4 page).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from . import TEACHER_NOTEBOOKS

__all__ = ["Entry", "entries", "page_config_hook", "summary_html", "SUMMARY_HEADING"]

#: The markdown cell of the teacher's guide that holds the printable summary starts with this line, in each language
#: (the English guide in ``notebooks/``, the French one in ``notebooks/fr/``).
SUMMARY_HEADINGS = {"en": "## Aluette on one page", "fr": "## L'Aluette en une page"}
SUMMARY_HEADING = SUMMARY_HEADINGS["en"]

#: The card shown beside each notebook's entry (decoration: the entry's text says everything).
PICTURES = {"00": "2C", "01": "3O", "02": "3C", "03": "2O", "04": "9C", "05": "9O", "06": "2B", "07": "2E",
            "08": "1O", "09": "1C", "10": "12O", "11": "12C", "13": "1E"}

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
#: A notebook title's own number ("8. Play a match"): left out on the landing page, whose list is the order, since the
#: students' numbers would jump where a teacher's notebook is left out (6, then 8).
_NUMBER = re.compile(r"^\d+\.\s+")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")


def plain(markdown: str) -> str:
    """Markdown inline text as plain text: links keep their text, emphasis and code marks go."""
    return " ".join(_EMPHASIS.sub("", _LINK.sub(r"\1", markdown)).split())


def first_sentence(paragraph: str) -> str:
    """The first sentence of a plain-text paragraph (up to the first full stop followed by a space or the end)."""
    match = re.search(r"[.!?](\s|$)", paragraph)
    return paragraph[: match.end()].strip() if match else paragraph


@dataclass(frozen=True)
class Entry:
    """One notebook on the landing page."""

    file: str  # file name, e.g. "01_ranking.ipynb"
    title: str  # the first heading without its leading "# " and its number ("8. ")
    description: str  # the first sentence after the heading
    picture: str  # inline SVG of a card (decorative)


def read_entry(path: Path) -> Entry:
    """The landing-page entry of one notebook. Raises ValueError naming the file if its first markdown cell does not
    start with ``# Title`` followed by a paragraph."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    markdown = next(("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"), "")
    lines = markdown.strip().splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ValueError(f"{path.name}: the first markdown cell must start with '# Title'")
    paragraph = " ".join(markdown.strip().split("\n\n")[1:2][0].split()) if "\n\n" in markdown.strip() else ""
    if not paragraph:
        raise ValueError(f"{path.name}: the first markdown cell needs a paragraph after its title")
    from aluette.cards import Card
    from aluette.pictures import card_svg
    from aluette.i18n import in_language
    with in_language(summary_language(path)):  # the picture's name in its lesson's language (« trois de deniers »)
        picture = card_svg(Card.parse(PICTURES.get(path.name[:2], "1B")), width=48)
    return Entry(path.name, _NUMBER.sub("", plain(lines[0][2:])), first_sentence(plain(paragraph)), picture)


def entries(folder: Path, audience: str = "students") -> list[Entry]:
    """The notebooks of ``folder`` in teaching order (their file names start with the number). Students' entries
    leave out :data:`~aluette.classroom.TEACHER_NOTEBOOKS`; the teacher's list them first."""
    paths = sorted(folder.glob("*.ipynb"))
    teacher = [p for p in paths if p.name in TEACHER_NOTEBOOKS]
    students = [p for p in paths if p.name not in TEACHER_NOTEBOOKS]
    return [read_entry(p) for p in (teacher + students if audience == "teacher" else students)]


def summary_language(guide: Path) -> str:
    """The language of a notebook (a lesson, a teacher's guide): ``"fr"`` in a ``fr`` folder (``notebooks/fr/``), else
    ``"en"``."""
    return "fr" if guide.parent.name == "fr" else "en"


def summary_markdown(guide: Path) -> str:
    """The printable summary: the markdown cell of the teacher's guide starting with its language's heading
    (:data:`SUMMARY_HEADINGS`)."""
    heading = SUMMARY_HEADINGS[summary_language(guide)]
    cells = json.loads(guide.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and source.startswith(heading):
            return source
    raise ValueError(f"{guide.name}: no markdown cell starts with {heading!r}")


SUMMARY_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>
@page {{ size: A4; margin: 12mm 14mm; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9.5pt; line-height: 1.3; color: #000;
        max-width: 182mm; margin: 0 auto; }}
h1, h2 {{ font-size: 14pt; margin: 0 0 0.4em; }}
p {{ margin: 0 0 0.45em; }}
a.anchor-link {{ display: none; }}
</style></head>
<body><main>
{body}
</main></body></html>
"""


def summary_html(guide: Path) -> str:
    """The one-page rules summary of the teacher's guide as a stand-alone HTML file (prints on one A4 page)."""
    from nbconvert.filters.markdown import markdown2html
    source = summary_markdown(guide)
    # the notebook's own print styling and page break are for printing the whole notebook; this file is one page
    source = re.sub(r"<style>.*?</style>|<div style=\"page-break-after: always\"></div>", "", source, flags=re.S)
    language = summary_language(guide)
    return SUMMARY_PAGE.format(body=markdown2html(source), lang=language, title=SUMMARY_HEADINGS[language][3:])


def page_config_hook(page_config, base_url, settings, log, voila_configuration, notebook_path=""):
    """Voilà's ``VoilaConfiguration.page_config_hook``: on the landing page (a folder), add ``aluette`` to the
    page config: the audience, the entries and, for the teacher, the rules summary. Notebook pages are left as
    they are. Returns the page config (Voilà's tree handler uses the dict changed in place)."""
    if str(notebook_path).endswith(".ipynb"):
        return page_config
    app = settings.get("voila")
    folder = str(notebook_path or "").strip("/")  # Voilà's tree gives "/fr" for /voila/tree/fr
    top = Path(app.root_dir if app is not None else ".")
    root = top / folder
    audience = getattr(settings.get("identity_provider"), "audience", "students")
    listed = entries(root, audience)
    if folder:  # a folder below the root (the French edition, notebooks/fr/): its pages' addresses are in it
        listed = [replace(e, file=f"{folder}/{e.file}") for e in listed]
    guide = root / TEACHER_NOTEBOOKS[0]
    language = summary_language(guide)  # the folder's language, as for its guide's summary
    data = {"audience": audience, "entries": listed, "language": language,
            "texts": landing_texts(audience, language), "other": other_edition(top, language)}
    if audience == "teacher" and guide.exists():
        data["summary"] = summary_html(guide)
    page_config["aluette"] = data
    return page_config


def landing_texts(audience: str, language: str) -> dict[str, str]:
    """The words of Voilà's landing page (the students' on ``make app SERVER=voila``, the teacher's on ``make
    teacher``) in ``language`` (``"en"``, or ``"fr"`` for the French edition at ``/voila/tree/fr``)."""
    from aluette.i18n import _, in_language, pgettext
    with in_language(language):
        if audience == "teacher":
            return {"title": _("Aluette: the teacher's page"), "heading": _("Aluette: the teacher's page"),
                    "lead": _("The teacher's guide and the printable summary; below them, the pages your students see."),
                    "download": _("Download the one-page rules summary"),
                    # TRANSLATORS: the downloaded summary's file name, without .html: no space, no accent
                    "download_name": pgettext("file name", "aluette-rules-summary") + ".html",
                    "download_note": _("(an HTML file: open it and print it, it fits one A4 page)."),
                    "pages": _("Pages"),
                    "footer": _("Each page runs on the teacher's computer; close the tab when you are done with a page.")}
        return {"title": _("Aluette: learn the card game"), "heading": "Aluette",
                "lead": _("Learn Aluette (la Vache), the old card game of the west of France, by playing with it. "
                          "Start with the first page and go down the list, one page at a time."),
                "pages": _("The lessons, in order"),
                "footer": _("Each page runs on the teacher's computer; close the tab when you are done with a page.")}


def other_edition(root: Path, language: str) -> dict[str, str] | None:
    """The link from one edition's landing page to the other's (``voila/tree/fr`` from the English, ``voila/tree``
    back), or ``None`` where the folder has no French edition."""
    if language == "fr":
        return {"href": "voila/tree", "label": "In English", "lang": "en"}
    if (root / "fr").is_dir():
        return {"href": "voila/tree/fr", "label": "En français", "lang": "fr"}
    return None
