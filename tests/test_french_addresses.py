"""The French edition's addresses in the students' app (issue 21: « a lesson's address carries [the language] … and
links between lessons keep it »): the French lessons (``notebooks/fr/``) are served under ``/fr/``; the door
(:class:`aluette.classroom.admission.Admission`) treats ``/fr/NAME`` as it treats ``/NAME`` (a link by file name,
``/fr/02_setup.ipynb``, moved to ``/fr/02_setup``; the teacher's notebooks refused; made-up sub-paths moved to the
lesson), pages under ``/fr/`` say ``lang="fr"``, and each landing page offers the other language and links its
lessons in its own."""

from __future__ import annotations

import html

import re
from pathlib import Path

from aluette.classroom import TEACHER_NOTEBOOKS, lesson_names, split_language, student_notebooks
from aluette.classroom.admission import Admission, PageHtml
from tests.coroutines import run

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def call(app, path: str):
    sent = []
    scope = {"type": "http", "path": path, "method": "GET", "client": ("127.0.0.1", 5000), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1")]}

    async def receive():
        return {"type": "http.request"}

    async def send(message):
        sent.append(message)
    run(app(scope, receive, send))
    return sent[0]["status"], dict(sent[0].get("headers", [])), b"".join(m.get("body", b"") for m in sent[1:])


def solara_stand_in(reached):
    async def app(scope, receive, send):
        reached.append(scope["path"])
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html; charset=utf-8")]})
        await send({"type": "http.response.body", "body": b"<!doctype html><html><head></head><body></body></html>"})
    return app


def test_split_language():
    assert split_language("/fr/01_ranking") == ("fr", "/01_ranking")
    assert split_language("/fr/") == split_language("/fr") == ("fr", "/")
    assert split_language("/01_ranking") == ("", "/01_ranking")
    assert split_language("/france") == ("", "/france")  # a prefix is a whole path segment


def test_the_lessons_are_the_students_in_both_languages():
    names = lesson_names(NOTEBOOKS)
    english = {p.stem for p in student_notebooks(NOTEBOOKS)}
    assert english and {n for n in names if "/" not in n} == english
    assert {n.removeprefix("fr/") for n in names if n.startswith("fr/")} == english  # every lesson has its twin
    assert not {Path(n).name + ".ipynb" for n in names} & set(TEACHER_NOTEBOOKS)


def test_the_door_keeps_a_french_lesson_french():
    reached = []
    door = Admission(solara_stand_in(reached), lessons=lambda: lesson_names(NOTEBOOKS), live=set)
    status, headers, _ = call(door, "/fr/02_setup.ipynb")   # 01's link to 02, from /fr/01_ranking
    assert status == 301 and headers[b"location"] == b"/fr/02_setup"
    status, headers, _ = call(door, "/02_setup.ipynb")      # the English link stays English
    assert status == 301 and headers[b"location"] == b"/02_setup"
    status, headers, _ = call(door, "/fr/02_setup/made-up")
    assert status == 301 and headers[b"location"] == b"/fr/02_setup"
    for teacher in ("/fr/07_teachers_guide", "/fr/11_teachers_tables.ipynb"):  # refused in French (issue 21)
        status, _, body = call(door, teacher)
        assert status == 404 and '<html lang="fr">' in body.decode() and b"for the teacher" not in body, teacher
        assert "Cette page est réservée à l'enseignant" in html.unescape(body.decode()), teacher
    status, _, body = call(door, "/07_teachers_guide")
    assert status == 404 and b"for the teacher" in body and b'<html lang="en">' in body
    assert call(door, "/fr/02_setup")[0] == 200 and reached == ["/fr/02_setup"]


def test_pages_under_fr_say_they_are_french():
    page = PageHtml(solara_stand_in([]))
    assert b'<html lang="fr">' in call(page, "/fr/02_setup")[2]
    assert b'<html lang="fr">' in call(page, "/fr/")[2]
    assert b'<html lang="en">' in call(page, "/02_setup")[2]


def test_each_landing_page_offers_the_other_language_and_lists_its_own_lessons():
    from aluette.classroom.solara_app import landing_html
    english, french = landing_html(""), landing_html("fr")
    assert '<a href="/fr/" lang="fr" hreflang="fr">Français</a>' in english
    assert 'aria-current="page" lang="en"' in english
    assert '<a href="/" lang="en" hreflang="en">English</a>' in french and 'aria-current="page" lang="fr"' in french
    lessons = [p.stem for p in student_notebooks(NOTEBOOKS)]
    assert re.findall(r'<li><a href="/([\w/]+)"', english) == lessons
    assert re.findall(r'<li><a href="/([\w/]+)"', french) == [f"fr/{name}" for name in lessons]
    assert "Les leçons, dans l'ordre" in french and "Le classement" in french and "The ranking" not in french


def test_the_french_landing_entries_read_each_lesson_without_its_number():
    from aluette.classroom.landing import entries
    listed = entries(NOTEBOOKS / "fr")
    assert [e.file for e in listed] == [p.name for p in student_notebooks(NOTEBOOKS)]
    assert not [e.title for e in listed if re.match(r"\d", e.title)]
    assert any(e.title.startswith("Jouer une partie") for e in listed) and all(e.description for e in listed)


def test_the_french_teachers_page_lists_the_french_pages_and_offers_the_french_summary():
    # Voilà's tree at /voila/tree/fr calls the hook with the folder "/fr": its entries lead into it
    from types import SimpleNamespace

    from aluette.classroom.landing import page_config_hook
    settings = {"voila": SimpleNamespace(root_dir=str(NOTEBOOKS)),
                "identity_provider": SimpleNamespace(audience="teacher")}
    data = page_config_hook({}, "/", settings, None, None, notebook_path="/fr")["aluette"]
    assert [e.file for e in data["entries"]][:len(TEACHER_NOTEBOOKS)] == [f"fr/{name}" for name in TEACHER_NOTEBOOKS]
    assert '<html lang="fr">' in data["summary"] and "L'Aluette en une page" in data["summary"]
    english = page_config_hook({}, "/", settings, None, None, notebook_path="")["aluette"]
    assert english["entries"][0].file == TEACHER_NOTEBOOKS[0] and '<html lang="en">' in english["summary"]


def test_the_voila_landing_pages_speak_their_editions_language_and_link_to_the_other():
    """Issue 21 (a French teacher runs a lesson in French from the README) and a class-day trial: the teacher's page
    at /voila/tree/fr was in English and nothing led to it from /voila/tree. Each edition's landing page is in its
    language and links to the other."""
    from types import SimpleNamespace

    from aluette.classroom.landing import page_config_hook
    for audience in ("teacher", "students"):
        settings = {"voila": SimpleNamespace(root_dir=str(NOTEBOOKS)),
                    "identity_provider": SimpleNamespace(audience=audience)}
        english = page_config_hook({}, "/", settings, None, None, notebook_path="")["aluette"]
        french = page_config_hook({}, "/", settings, None, None, notebook_path="/fr")["aluette"]
        assert english["language"] == "en" and french["language"] == "fr"
        assert english["other"] == {"href": "voila/tree/fr", "label": "En français", "lang": "fr"}
        assert french["other"] == {"href": "voila/tree", "label": "In English", "lang": "en"}
        assert set(english["texts"]) == set(french["texts"])
        changed = [key for key in english["texts"] if english["texts"][key] != french["texts"][key]]
        same = {"teacher": {"pages"}, "students": {"heading"}}[audience]  # « Pages », « Aluette »: one word in both
        assert changed == [key for key in english["texts"] if key not in same]
        assert french["texts"]["title"].startswith("Aluette\u00a0: ")
    assert french["texts"]["pages"] == "Les leçons, dans l'ordre"
