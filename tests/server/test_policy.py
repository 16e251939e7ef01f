"""One refusal policy for both servers of the students' app (aluette.classroom.policy, issue 17 §3): Solara's door
and Voilà's identity provider refuse by the same caps with the same words, and a French lesson's refusal is French
(issue 21), on either server."""

from __future__ import annotations

import html
from types import SimpleNamespace

import pytest

from aluette.classroom.admission import Admission
from aluette.classroom.policy import RoomPolicy, language_of
from tests.coroutines import run as run_coroutine

FRENCH_FULL = "La salle est pleine, réessayez dans une minute"


def call(door, path, address="10.0.0.1", query=b""):
    sent = []

    async def receive():
        return {"type": "http.request"}

    async def send(message):
        sent.append(message)
    scope = {"type": "http", "path": path, "method": "GET", "client": (address, 5), "query_string": query,
             "headers": []}
    run_coroutine(door(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent[1:]).decode()
    return sent[0]["status"], dict(sent[0]["headers"]), html.unescape(body)


async def solara(scope, receive, send):  # a stand-in for Solara's app: every page served
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"page"})


def test_the_caps_in_order_and_a_replaced_page_counted_as_gone():
    """The rule both servers apply (policy.RoomPolicy.refusal): the pages of the minute first, then the cap per
    computer (the operator's larger), then the room's; a reload or a link from a lesson counts the page it replaces
    as gone, per computer and in all, never against the minute."""
    policy = RoomPolicy(max_sessions=10, per_address=2, per_minute=5, operator_per_address=6,
                        operators=frozenset({"10.0.0.99"}))
    assert policy.refusal("10.0.0.1", pages=5, held=0, in_all=0).kind == "minute"
    assert policy.refusal("10.0.0.1", pages=5, held=0, in_all=0, page=False) is None  # a websocket: no page
    assert policy.refusal("10.0.0.1", pages=0, held=2, in_all=2).kind == "address"
    assert policy.refusal("10.0.0.1", pages=0, held=2, in_all=2, replacing=True) is None
    assert policy.refusal("10.0.0.1", pages=5, held=2, in_all=2, replacing=True).kind == "minute"
    assert policy.refusal("10.0.0.99", pages=0, held=5, in_all=5) is None  # the operator's six
    assert policy.refusal("10.0.0.1", pages=0, held=1, in_all=10).kind == "room"
    assert policy.refusal("10.0.0.1", pages=0, held=1, in_all=10, replacing=True) is None
    assert policy.refusal("10.0.0.1", pages=0, held=0, in_all=10, replacing=True).kind == "room"  # nothing to replace
    refusal = policy.refusal("10.0.0.1", pages=0, held=2, in_all=2)
    assert refusal.status == 503 and refusal.headers == {"Cache-Control": "no-store", "Retry-After": "60"}
    assert "2 pages of the tutorial open" in refusal.texts()[1]


def test_an_address_says_its_language():
    assert [language_of(p) for p in ("/fr/08_play_a_match", "/fr/", "/voila/render/fr/08_play_a_match.ipynb")] == [
        "fr"] * 3
    assert [language_of(p) for p in ("/08_play_a_match", "/", "/voila/render/08_play_a_match.ipynb", "/frx")] == [
        "en"] * 4
    assert language_of("/", b"lang=fr") == "fr" and language_of("/", b"lang=xx") == "en"


def test_solaras_door_refuses_a_french_lesson_in_french():
    """Issue 21: "the room is full" and the token's page of a French lesson (/fr/...) are French; an English
    lesson's stay English, word for word as before."""
    door = Admission(solara, lessons=lambda: {"08_play_a_match", "fr/08_play_a_match"}, live=set, per_address=1)
    assert call(door, "/fr/08_play_a_match")[0] == 200
    status, headers, body = call(door, "/fr/08_play_a_match")
    assert status == 503 and headers[b"retry-after"] == b"60" and '<html lang="fr">' in body
    assert FRENCH_FULL in body and "Cet ordinateur a déjà 1 page du tutoriel ouverte" in body
    assert "room is full" not in body and "Aluette, l'application de la classe." in body
    status, _, body = call(door, "/08_play_a_match")
    assert status == 503 and '<html lang="en">' in body and "The room is full, try again in a minute" in body
    assert "This computer already has 1 page of the tutorial open" in body
    door = Admission(solara, lessons=lambda: {"fr/08_play_a_match"}, live=set, token="class-7B-aluette")
    status, _, body = call(door, "/fr/08_play_a_match", query=b"token=wrong-token")
    assert status == 403 and "Cette application demande son jeton" in body


class Kernels(set):
    """A stand-in kernel manager: the kernels it holds, and voila.json's culling."""
    cull_idle_timeout, cull_interval = 90, 30


def voila_page(provider, path: str, address: str = "10.0.0.1"):
    """Voilà's notebook page ``path`` (``fr/08_play_a_match.ipynb``) asked of ``provider`` by a stand-in handler:
    what it answered (status, headers, body), or None when admitted."""
    answer = {}
    handler = SimpleNamespace(
        path_args=[path], kernel_manager=Kernels(), xsrf_token="x",
        request=SimpleNamespace(remote_ip=address, headers={}, path=f"/voila/render/{path}", method="GET"),
        set_status=lambda status: answer.__setitem__("status", status),
        set_header=lambda name, value: answer.setdefault("headers", {}).__setitem__(name, value),
        finish=lambda body: answer.__setitem__("body", body))
    provider._admit(handler)
    if "body" in answer:
        answer["body"] = html.unescape(answer["body"])
    return answer or None


def test_voilas_provider_refuses_by_the_same_policy_and_in_french():
    """Voilà's ClassroomIdentityProvider decides by the same RoomPolicy as Solara's door, with the same words but
    for how soon a closed tab's place is freed (Voilà's culler: within about two minutes), in the notebook's
    language."""
    pytest.importorskip("voila")
    from aluette.classroom.server import ClassroomIdentityProvider
    provider = ClassroomIdentityProvider(max_sessions_per_address=1, max_pages_per_minute=12, max_sessions=40)
    assert provider.policy == RoomPolicy(40, 1, 12, 1, frozenset(), frees_at_once=False)
    assert voila_page(provider, "fr/08_play_a_match.ipynb") is None
    refused = voila_page(provider, "fr/08_play_a_match.ipynb")
    expected = provider.policy.refusal("10.0.0.1", pages=1, held=1, in_all=1)
    assert refused["status"] == 503 and refused["headers"]["Retry-After"] == "60"
    assert refused["body"] == html.unescape(expected.page("fr")) and FRENCH_FULL in refused["body"]
    assert "en deux minutes environ" in refused["body"]
    english = voila_page(provider, "08_play_a_match.ipynb")
    assert english["body"] == html.unescape(expected.page("en")) and "freed within about two minutes" in english["body"]
    teacher = voila_page(provider, "fr/07_teachers_guide.ipynb", address="10.0.0.2")
    assert teacher["status"] == 404 and "Cette page est réservée à l'enseignant" in teacher["body"]
