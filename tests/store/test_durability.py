"""No move a page has shown is ever lost, and a database that lost moves never gets a gap in its log (issue 22, §4).

The break test of the store: PostgreSQL with ``synchronous_commit=off`` crashed, 18 moves that pages had already
shown were lost, the sessions went on writing past the gap (they trusted their own copy's move number), and the table
then opened for nobody. Here: the sessions commit durably whatever the server's default, and a session whose copy is
ahead of the database returns to the database's last move and says so (:class:`~aluette.errors.LostMovesError`).
"""

from __future__ import annotations

import psycopg
import pytest

from aluette.errors import LostMovesError
from aluette.seats import SEATS
from aluette.store import TableService
from aluette.store.db import PostgresStore

from .pgserver import PostgresServer, find_bin
from .players import BotPlayer
from .test_tables import seat_everyone


def _play_moves(players, count):
    """At least ``count`` log entries made by the players, round robin; returns the last log number."""
    last = 0
    while last < count:
        for player in players:
            made = player.act()
            if made:
                last = max(last, *made)
    return last


def _lose_tail(store, keep):
    """What a crash of the database does to a table's log: every entry after ``keep`` gone, ``last_seq`` with them."""
    with store.write() as tx:
        tx.run("DELETE FROM aluette_moves WHERE seq > ?", (keep,))
        tx.run("UPDATE aluette_tables SET last_seq = ?", (keep,))


class TestLostTail:
    def test_a_session_ahead_of_the_database_goes_back_and_never_writes_past_the_gap(self, backend):
        service = backend.service()
        tickets = seat_everyone(service, seed=11)
        players = [BotPlayer(service, tickets[seat]) for seat in SEATS]
        seen = _play_moves(players, 12)
        _lose_tail(backend.store(), keep=seen - 5)

        # The page's next read says what happened, once, and shows the database's last move.
        t = tickets[SEATS[0]]
        with pytest.raises(LostMovesError, match=r"lost the last 5 move\(s\).*back at its last saved move "
                                                 rf"\({seen - 5}\)"):
            service.seat_state(t.table, t.seat, t.code)
        assert service.seat_state(t.table, t.seat, t.code).seq == seen - 5

        # Play goes on from there without a gap; a fresh session replays the whole log.
        more = _play_moves(players, seen + 3)
        with backend.store().read() as tx:
            numbers = [row[0] for row in tx.rows("SELECT seq FROM aluette_moves ORDER BY seq")]
        assert numbers == list(range(1, more + 1))
        fresh = backend.service()
        assert fresh.replay(t.table).to_dict() == service.replay(t.table).to_dict()

    def test_a_write_on_a_copy_ahead_of_the_database_is_refused_and_writes_nothing(self, backend):
        service = backend.service()
        tickets = seat_everyone(service, seed=5)
        players = [BotPlayer(service, tickets[seat]) for seat in SEATS]
        seen = _play_moves(players, 10)
        state = next(s for s in (p.state() for p in players) if s.view.to_move is s.seat)
        move = players[SEATS.index(state.seat)].bot.choose(state.view).move
        _lose_tail(backend.store(), keep=seen - 3)
        t = tickets[state.seat]
        with pytest.raises(LostMovesError):
            service.submit(t.table, t.seat, t.code, move, after=state.seq)
        with backend.store().read() as tx:
            assert tx.one("SELECT MAX(seq), COUNT(*) FROM aluette_moves") == (seen - 3, seen - 3)


@pytest.mark.skipif(find_bin() is None, reason="needs PostgreSQL's binaries (.ci/run installs them)")
class TestPostgresCrash:
    def test_our_sessions_commit_durably_whatever_the_servers_default(self, postgres_server):
        # The tests' server runs with synchronous_commit=off (for speed); our sessions turn it on for themselves.
        store = PostgresStore(postgres_server.url("aluette_tests"))
        try:
            with store.read() as tx:
                assert tx.one("SHOW synchronous_commit")[0] == "on"
        finally:
            store.close()

    def test_every_move_a_session_was_told_of_survives_a_crash_of_the_server(self):
        # fsync on (a real flush), the server's own default off, and a WAL writer that waits 10 s: with commits that
        # do not wait for the flush, the moves of the last seconds die with the server.
        with PostgresServer(fsync=True, extra="-c synchronous_commit=off -c wal_writer_delay=10000") as server:
            url = server.create_database("crash")
            service = TableService(PostgresStore(url))
            tickets = seat_everyone(service, seed=3)
            players = [BotPlayer(service, tickets[seat]) for seat in SEATS]
            acknowledged = _play_moves(players, 20)
            service.close()
            server.crash_and_restart()
            with psycopg.connect(url) as conn:
                kept = conn.execute("SELECT COUNT(*) FROM aluette_moves").fetchone()[0]
            assert kept == acknowledged


def test_one_damaged_table_never_hides_the_others_on_the_teachers_page(backend):
    """Issue 22 §4: after the crash the table opened for nobody and the teacher's page showed no table at all."""
    from aluette.store import TeacherDesk
    service = backend.service()
    seat_everyone(service, name="Damaged", seed=4)
    seat_everyone(service, name="Fine", seed=5)
    store = backend.store()
    with store.write() as tx:  # a gap in one table's log, as a lost tail with later moves written past it would be
        table_id = tx.one("SELECT id FROM aluette_tables WHERE name = ?", ("Damaged",))[0]
        tx.run("INSERT INTO aluette_moves (table_id, seq, seat, actor, body, at) VALUES (?, 7, 'N', 'person', ?, 0)",
               (table_id, '["play", "N", "1O"]'))
        tx.run("UPDATE aluette_tables SET last_seq = 7 WHERE id = ?", (table_id,))
    summaries = {s.name: s for s in TeacherDesk(backend.service()).summary()}
    assert set(summaries) == {"Damaged", "Fine"}
    assert summaries["Fine"].problem is None and summaries["Fine"].ready
    assert summaries["Damaged"].phase == "damaged" and "log entry 1 is missing" in summaries["Damaged"].problem
