"""Every page build counts against the pages a minute, however it is asked for (issue 22, §7: 99 pages a minute of 09
and 212 of 08 from one address were built over websockets alone, never loading a page). The door
(:class:`~aluette.classroom.admission.Admission`) in front of a stand-in Solara, as in ``test_admission.py``."""

from __future__ import annotations

import json

from aluette.classroom.admission import Admission
from tests.coroutines import run as run_coroutine

from .test_admission import Clock, Door, run_socket


def run_message(comm="c1"):
    """What Solara's page sends to have its page built (``tests/server/student.py``, ``open_solara_page``)."""
    return json.dumps({"header": {"msg_type": "comm_msg", "msg_id": "m"}, "parent_header": {}, "metadata": {},
                       "content": {"comm_id": comm, "data": {"method": "run", "args": {"path": "/08_play_a_match"}}},
                       "channel": "shell"})


def test_websockets_that_open_kernels_without_a_page_count_as_pages():
    door = Door(per_minute=5, per_address=40)
    verdicts = []
    for i in range(8):
        verdicts.append(door.call(f"/jupyter/api/kernels/k{i}/channels", "websocket")[0])
        door.live.discard(f"k{i}")  # the attacker closes it and opens the next
    assert verdicts == ["accepted"] * 5 + ["refused"] * 3
    assert door.call("/08_play_a_match")[0] == 503  # and the minute's pages are spent for page loads too
    door.clock.now += 61
    assert door.call("/jupyter/api/kernels/k9/channels", "websocket")[0] == "accepted"


def test_a_page_load_and_its_websocket_count_once():
    door = Door(per_minute=2, per_address=40)
    assert door.student(kernel="a") == 200
    assert door.student(kernel="b") == 200
    assert door.call("/08_play_a_match")[0] == 503


def test_builds_asked_again_on_one_socket_count_and_the_socket_is_ended_beyond_the_cap():
    door = Admission(None, lessons=lambda: {"08_play_a_match"}, live=set, clock=Clock(), per_minute=4,
                     per_address=40)
    # the socket's kernel is the minute's first page; its first build is that page, three more fit, the fifth ends it
    assert run_socket(door, [run_message()] * 10, address="10.0.0.7") == 4
    assert "opened 4 pages in the last minute" in door.admit_page("10.0.0.7").texts()[1]  # the minute is spent


def test_a_frame_that_is_not_a_jupyter_message_ends_its_socket_before_solara_reads_it():
    """Issue 22: every malformed frame printed a ~7 KB traceback (Solara's ``json.loads`` failing in its loop)."""
    door = Admission(None, lessons=set, live=lambda: {"k1"})
    good = json.dumps({"header": {"msg_type": "comm_msg"}, "content": {}})
    for bad in ("not json", '{"header": 5}', '["a", "list"]', '{"header": {"msg_type": 7}}'):
        assert run_socket(door, [good, bad, good]) == 1, bad  # the good one before it, nothing after


def test_close_requests_are_answered_at_once_and_never_wait_on_the_page():
    """Issue 22: a client that never reads wedged its page (its lock held); 160 close requests for that page froze
    new pages' static files for ~15 s (each held a thread of the server's pool). The door answers each at once and
    closes the page once, on a thread of its own; another page's close is not held behind it."""
    import threading
    import time

    wedged, calls = threading.Event(), []

    def close_page(kernel_id, page_id):
        calls.append((kernel_id, page_id))
        if kernel_id == "stuck":
            wedged.wait(10)  # the page's lock, held by a page that never reads

    door = Door(per_address=40, close_page=close_page)
    door.live.update({"stuck", "fine"})
    started = time.monotonic()
    answers = [door.call("/_solara/api/close/stuck", method="POST", query=b"session_id=p1")[0] for _ in range(160)]
    assert answers == [200] * 160 and time.monotonic() - started < 5
    assert door.call("/_solara/api/close/fine", method="POST", query=b"session_id=p2")[0] == 200
    deadline = time.monotonic() + 5
    while ("fine", "p2") not in calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls.count(("stuck", "p1")) == 1 and ("fine", "p2") in calls
    assert door.reached == []  # none of them reached Solara's own close route
    wedged.set()
