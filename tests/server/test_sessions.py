"""What a browser session keeps across a reload, on any worker of the server (:mod:`aluette.classroom.sessions`;
issue 23 §5: notebook 08 resumes its match after a reload, and with several workers a reload may reach another one).
Two stores on one file stand for two workers."""

from __future__ import annotations

import pytest

from aluette import Match
from aluette.classroom.ledger import door_folder
from aluette.classroom.sessions import VALUE_LIMIT, SessionStore


def test_a_value_written_by_one_worker_is_read_by_another(tmp_path):
    first, second = SessionStore(tmp_path / "s.sqlite"), SessionStore(tmp_path / "s.sqlite")
    match = Match(7)
    first.session("cookie-1")["aluette.match.08"] = {"match": match.to_dict(), "opponents": "heuristic"}
    kept = second.session("cookie-1")
    assert Match.from_dict(kept["aluette.match.08"]["match"]).to_dict() == match.to_dict()
    assert "aluette.match.08" not in second.session("cookie-2")  # another student's session holds nothing
    assert kept.pop("aluette.match.08")["opponents"] == "heuristic"
    assert first.session("cookie-1").get("aluette.match.08") is None


def test_the_least_recently_written_sessions_are_forgotten(tmp_path):
    store = SessionStore(tmp_path / "s.sqlite", most=3)
    for i in range(5):
        store.session(f"c{i}")["v"] = i
    assert [store.session(f"c{i}").get("v") for i in range(5)] == [None, None, 2, 3, 4]


def test_a_value_too_long_is_refused_and_changes_nothing(tmp_path):
    session = SessionStore(tmp_path / "s.sqlite").session("c")
    session["v"] = "short"
    with pytest.raises(ValueError, match=f"at most {VALUE_LIMIT} bytes"):
        session["v"] = "x" * (VALUE_LIMIT + 1)
    assert session["v"] == "short" and list(session) == ["v"] and len(session) == 1


def test_the_workers_of_one_server_find_one_folder(tmp_path):
    assert door_folder(1, tmp_path) is None  # one worker: memory
    assert door_folder(2, tmp_path) == door_folder(2, tmp_path) and door_folder(2, tmp_path).is_dir()
