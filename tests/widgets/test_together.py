"""The "play together" page (notebook 10), driven without a browser: each student is a
:class:`PlayTogether` widget on its own :class:`TableService` (its own "kernel") over one SQLite file.

The claims of notebook 10's "What stays secret" (each page holds its own hand only, with that hand as the positive
control; a seat comes back with its code) are checked here, by
``test_four_pages_play_a_whole_match_each_seeing_its_own_hand_only`` and
``test_a_reload_comes_back_to_the_same_seat_with_the_code``; the notebook no longer runs hidden copies of them
(issue 17, §5)."""

from __future__ import annotations

import asyncio
import html
import re
import time
import zlib
from urllib.parse import parse_qs

import pytest

from aluette.players.bots import HeuristicBot
from aluette.deal import Phase
from aluette.errors import BadSeatCodeError, SeatTakenError, TableError
from aluette.secrecy import secrecy_problems
from aluette.seats import SEATS, Seat
from aluette.store import TableService, open_store
from aluette.together import SeatController
from aluette.widgets.common import state_text
from aluette.store import watch
from aluette.widgets import together
from aluette.widgets.together import PlayTogether
from tests.coroutines import run as run_coroutine


@pytest.fixture
def kernels(tmp_path):
    """Makes a new session on one database per call (each student's kernel); closes them all after the test."""
    made = []

    def kernel() -> TableService:
        service = TableService(open_store(path=tmp_path / "tables.sqlite3"))
        made.append(service)
        return service
    yield kernel
    for service in made:
        service.close()


def page(kernels) -> PlayTogether:
    return PlayTogether(SeatController(kernels()), poll=False)


def seated(kernels, table: str, seat: str, name: str) -> PlayTogether:
    """A page seated at ``table`` (created first with a seed of its name, so every run deals the same cards)."""
    p = page(kernels)
    if table.casefold() not in {t.casefold() for t in p.controller.table_names()}:
        p.controller.service.create_table(table, seed=zlib.crc32(table.encode()))
    p.table_box.value = table
    p.name_box.value = name
    p.seat_buttons[Seat.parse(seat)].click()
    assert p.controller.seat is Seat.parse(seat), p.message.value
    return p


def audit(p: PlayTogether) -> list[str]:
    """The secrecy audit of a page's whole widget state against the table's real deal (kernel side only)."""
    deal = p.controller.service.replay(p.controller.table).current
    return secrecy_problems(state_text(p), deal, p.controller.seat, where=f"{p.controller.seat}'s page")


def act(p: PlayTogether) -> bool:
    """What the student at ``p`` does by clicking when it is their turn (the heuristic bot chooses the card);
    returns whether they clicked."""
    state = p.controller.state
    view = state.view
    if state.awaiting_next_deal:
        p.next_button.click()
        return True
    if view.to_move is not state.seat:
        return False
    if view.phase is Phase.CHANT:  # agree in odd deals (so some discards are chosen by clicking), decline in even
        p.chant_buttons[state.deal_number % 2 == 1].click()
        return True
    decision = HeuristicBot(signals=False).choose(view)
    if view.phase is Phase.PLAY:
        next(b for b in p._slots if b.card is decision.move.card).button.click()
        return True
    if view.phase is Phase.DISCARD:
        for card in decision.move.cards:
            next(b for b in p._slots if b.card is card).button.click()
        p.discard_button.click()
        return True
    p.controller.submit(decision.move)
    return True


class TestLobby:
    def test_open_sit_and_see_who_is_missing(self, kernels):
        ann = seated(kernels, "Blue", "N", "Ann")
        assert ann.controller.ticket.code in ann.code_view.value
        assert "3 seats missing" in ann.seats_view.value
        bob = seated(kernels, "blue", "E", "Bob")
        assert bob.controller.table == "Blue"
        ann.refresh()
        assert "2 seats missing" in ann.seats_view.value and "Bob" in ann.seats_view.value
        assert ann.controller.is_host and not bob.controller.is_host
        assert ann.fill_button.layout.display is None and bob.fill_button.layout.display == "none"

    def test_a_held_seat_cannot_be_taken(self, kernels):
        seated(kernels, "Blue", "N", "Ann")
        eve = page(kernels)
        eve.table_box.value, eve.name_box.value = "Blue", "Eve"
        eve.seat_buttons[Seat.N].click()
        assert eve.controller.seat is None
        assert "held by 'Ann'" in eve.message.last_error

    def test_long_and_bad_names_are_refused_before_anything_is_read(self, kernels):
        p = page(kernels)
        p.table_box.value = "x" * 100_000
        p.open_button.click()
        assert "at most 40" in p.message.last_error and p.controller.table is None
        p.table_box.value = "<script>"
        p.open_button.click()
        assert "'<'" in p.message.last_error and p.controller.table is None
        p.table_box.value, p.name_box.value = "Blue", "y" * 5000
        p.seat_buttons[Seat.S].click()
        assert "at most 30" in p.message.last_error and p.controller.seat is None

    def test_only_the_host_fills_the_empty_seats(self, kernels):
        ann = seated(kernels, "Blue", "N", "Ann")
        bob = seated(kernels, "Blue", "E", "Bob")
        bob.fill_with_bots()
        assert "only the table's first player" in bob.message.last_error
        ann.fill_button.click()
        assert ann.controller.state.info.ready
        assert ann._playing.layout.display is None and ann.fill_button.layout.display == "none"

    def test_the_host_may_seat_expert_bots(self, kernels, monkeypatch):
        # issue 18 §5: the expert is offered at the shared tables (notebook 10's "Sit down"), beside the heuristic
        from aluette.store import service as service_module
        kinds = []
        real = service_module._table_bot
        monkeypatch.setattr(service_module, "_table_bot",
                            lambda *args, **kwargs: kinds.append(args) or real(*args, **kwargs))
        ann = seated(kernels, "Blue", "N", "Ann")
        assert [kind for _, kind in ann.bot_kind.options] == ["heuristic", "expert"]
        ann.bot_kind.value = "expert"
        ann.fill_button.click()
        assert ann.controller.state.info.ready and "Expert bots sit at" in ann.message.value, ann.message.value
        for _ in range(20):  # bounded: the bots' first steps (the chant's answers, signals) build them
            if kinds:
                break
            ann.controller.service.step_bots("Blue")
        assert kinds and {args[0] for args in kinds} == {"expert"}

    def test_a_reload_comes_back_to_the_same_seat_with_the_code(self, kernels):
        ann = seated(kernels, "Blue", "N", "Ann")
        ann.fill_button.click()
        act(ann)  # N answers the chant (E deals first? whoever: act clicks only at N's turn)
        code, before = ann.controller.ticket.code, ann.controller.state
        ann.close()
        again = page(kernels)  # a reload: a new kernel, a new page
        again.table_box.value, again.code_box.value = "blue", code.lower().replace("-", " ")
        again.rejoin_button.click()
        assert again.controller.seat is Seat.N, again.message.value
        assert again.controller.state.view == before.view and again.controller.state.seq >= before.seq
        wrong = page(kernels)
        wrong.table_box.value, wrong.code_box.value = "Blue", "ABCDE-FGHJK"
        wrong.rejoin_button.click()
        assert wrong.controller.seat is None and "not the code" in wrong.message.last_error

    def test_a_seat_given_to_a_bot_and_back_shows_what_to_do_then_the_seats_page(self, kernels):
        # the teacher gave W to a bot and back: David's page kept the warning beside "Your turn", with no box to type
        # the code the warning told him to bring back (README, "the teacher's page": the code works again)
        from aluette.store import TeacherDesk
        ann = seated(kernels, "Blue", "N", "Ann")
        david = seated(kernels, "Blue", "W", "David")
        ann.fill_button.click()
        david.refresh()
        assert david._playing.layout.display is None and david.stood_in_view.layout.display == "none"
        code = david.controller.ticket.code
        desk = TeacherDesk(kernels())
        desk.replace_with_bot("Blue", "W")

        def seats_changed() -> bool:  # what the watcher's TableChange(seats=True) has the page do
            return david.controller.refresh(force=True)
        assert seats_changed() and david.controller.stood_in
        assert david.stood_in_view.layout.display is None and "gave your seat W" in david.stood_in_view.value
        assert david._playing.layout.display == "none"  # no "Your turn" while the bot plays the seat
        assert david._lobby.layout.display is None and david.code_box.value == code
        assert [row.layout.display for row in david._lobby.children] == ["none", "none", "none", None]
        david.rejoin_button.click()  # the bot still holds it: said, and the page as it was
        assert "give it back" in david.message.last_error and david.controller.stood_in
        desk.give_back("Blue", "W")
        assert seats_changed() and not david.controller.stood_in  # given back: the seat's normal page, by itself
        assert david.stood_in_view.layout.display == "none" and david.stood_in_view.value == ""
        assert david._playing.layout.display is None and david._lobby.layout.display == "none"
        assert "bot" not in david.message.value
        desk.replace_with_bot("Blue", "W")
        seats_changed()
        desk.give_back("Blue", "W")
        david.rejoin_button.click()  # or back with the button the warning names
        assert not david.controller.stood_in and david.controller.seat is Seat.W, david.message.value
        assert "Welcome back, David" in david.message.value and david._playing.layout.display is None

    def test_the_controller_refuses_a_second_seat_and_moves_before_sitting(self, kernels):
        c = SeatController(kernels())
        with pytest.raises(TableError, match="take a seat first"):
            c.next_deal()
        c.open_table("Blue")
        c.take_seat("N", "Ann")
        with pytest.raises(TableError, match="already"):
            c.take_seat("E", "Ann")
        rival = SeatController(kernels())
        rival.open_table("blue")
        with pytest.raises(SeatTakenError):
            rival.take_seat("N", "Eve")
        other = SeatController(kernels())
        other.open_table("Blue")
        with pytest.raises(BadSeatCodeError):
            other.rejoin("ABCDE-FGHJK")


class TestPlayingTogether:
    def test_four_pages_play_a_whole_match_each_seeing_its_own_hand_only(self, kernels):
        """Four students, one table, the whole match by clicking. Each page's whole widget state is audited against
        the real deal (its own hand must be there, no hidden card of another seat) twice a deal: when it first sees
        the cards being played (hands final, signals made, last deal's messages gone) and, for the pages that see it
        before another player starts the next deal, when the deal is over."""
        pages = [seated(kernels, "Green", s, name) for s, name in zip("NESW", ("Ann", "Bob", "Cat", "Dan"))]
        for p in pages:
            p.refresh()
        assert all(p.controller.state.info.ready for p in pages)
        clicks, audited = 0, set()

        def check(p):
            p.refresh()
            state = p.controller.state
            key = (state.seat, state.deal_number, state.view.phase)
            if state.view.phase in (Phase.PLAY, Phase.OVER) and key not in audited:
                audited.add(key)
                problems = audit(p)
                assert problems == [], problems

        while not pages[0].controller.state.is_over:
            moved = False
            for p in pages:
                check(p)
                if not p.controller.state.is_over and act(p):
                    moved, clicks = True, clicks + 1
                    assert p.message.last_error is None, p.message.last_error
            assert moved, "nobody could move"
            for p in pages:
                check(p)
            assert clicks < 2000
        deals = len(pages[0].controller.state.deal_points)
        assert sum(1 for key in audited if key[2] is Phase.PLAY) == 4 * deals  # every page, every deal
        assert {key[1] for key in audited if key[2] is Phase.OVER} == set(range(1, deals + 1))
        match = pages[0].controller.service.replay("Green")
        assert match.is_over and pages[0].controller.state.scores == match.scores
        assert all(p.controller.state.scores == match.scores for p in pages)
        assert "Match over" in pages[2].status.value
        discarded = sum(len(d.view(None, events=False).discards) for d in match.deals)
        assert discarded > 0  # some chants were agreed, and the discards chosen by clicking

    def test_a_move_out_of_turn_and_a_stale_move_are_refused_with_a_message(self, kernels):
        pages = [seated(kernels, "Red", s, n) for s, n in zip("NESW", "ABCD")]
        for p in pages:
            p.refresh()
        waiting = next(p for p in pages if p.controller.state.view.to_move is not p.controller.seat)
        waiting.answer_chant(True)
        assert "turn" in waiting.message.last_error
        mover = next(p for p in pages if p.controller.state.view.to_move is p.controller.seat)
        twin = PlayTogether(SeatController(kernels()), poll=False)  # the same seat in a second kernel
        twin.table_box.value, twin.code_box.value = "Red", mover.controller.ticket.code
        twin.rejoin_button.click()
        seq = twin.controller.state.seq
        mover.chant_buttons[False].click()  # the older device: the seat is the twin's now, refused, nothing written
        assert "another device" in mover.message.last_error and mover.controller.seat is None
        assert twin.controller.service.seq("Red") == seq
        twin.chant_buttons[False].click()  # the newest device holds the seat (tests/store/test_seat_devices.py)
        assert twin.message.last_error is None and twin.controller.service.seq("Red") == seq + 1

    def test_a_signal_reaches_the_partner_only(self, kernels):
        """The rules sheet, "signals": only the partner sees a signal. The first page offered a signal clicks it; its
        partner's page lists it, the opponents' pages do not."""
        pages = {s: seated(kernels, "Signals", s, f"player {s}") for s in "NESW"}
        for _ in range(40):  # the chant (declined by everyone), then the hands are final
            for p in pages.values():
                p.refresh()
            if pages["N"].controller.state.view.phase is Phase.PLAY:
                break
            for p in pages.values():
                act(p)
        signaller = next((s for s, p in pages.items() if p.visible_signal_keys), None)
        assert signaller is not None, "nobody may signal in this deal"
        page_ = pages[signaller]
        button = page_.signal_buttons[0]
        button.click()
        assert page_.message.last_error is None, page_.message.last_error
        partner, opponents = Seat.parse(signaller).partner, [s for s in "NESW" if Seat.parse(s).team
                                                              is not Seat.parse(signaller).team]
        for p in pages.values():
            p.refresh()
        assert f"{signaller} signals" in pages[str(partner)].signals_view.value
        for seat in opponents:
            assert f"{signaller} signals" not in state_text(pages[seat])

    def test_bots_and_a_student_play_through_the_log(self, kernels):
        ann = seated(kernels, "Solo", "S", "Ann")
        ann.fill_button.click()
        for _ in range(400):
            if ann.controller.state.is_over:
                break
            ann.refresh()
            act(ann)
        assert ann.controller.state.is_over
        assert audit(ann) == []

    def test_the_watcher_wakes_the_page_on_the_event_loop_and_stops_when_it_closes(self, kernels):
        """Issue 17 §2: the page does not poll; its process's watcher of the table wakes it on the kernel's event
        loop when another kernel changes the table, and stops (no thread left) when the table's last page closes."""
        async def scenario():
            ann = PlayTogether(SeatController(kernels()), poll=True)
            assert ann.polling and not ann.watching  # no table yet, nothing to watch
            ann.table_box.value, ann.name_box.value = "Loop", "Ann"
            ann.seat_buttons[Seat.N].click()
            assert ann.watching and not ann.controller.drive_bots  # the watcher drives the bots now
            reads = []
            ann.controller.refresh = lambda *a, _r=ann.controller.refresh, **k: reads.append(k) or _r(*a, **k)
            watcher, = watch.watchers()
            bob = seated(kernels, "Loop", "E", "Bob")
            for _ in range(100):
                await asyncio.sleep(0.05)
                if "Bob" in ann.seats_view.value:
                    break
            assert "Bob" in ann.seats_view.value
            assert reads and all("seq" in k for k in reads)  # every read was a wake's, none a poll's
            del bob
            ann.close()
            watcher.thread.join(5)
            assert not ann.polling and not watcher.thread.is_alive() and watch.watchers() == []
            assert ann.internal_errors == [] and watcher.errors == []
        run_coroutine(scenario())

    def test_the_watcher_drives_the_bots_of_a_watched_page_once_per_step(self, kernels, monkeypatch):
        """A student and three bots: the page does not drive the bots (the watcher does, once per step, each call
        writing), and the student's page is woken to their turn every time."""
        calls = []
        step_bots = TableService.step_bots
        monkeypatch.setattr(TableService, "step_bots",
                            lambda self, name: calls.append(len(written := step_bots(self, name))) or written)

        async def scenario():
            ann = PlayTogether(SeatController(kernels()), poll=True)
            ann.choose_box.value = True
            ann.table_box.value, ann.name_box.value = "Watched bots", "Ann"
            ann.seat_buttons[Seat.N].click()
            ann.fill_button.click()
            assert ann.watching and not ann.controller.drive_bots
            clicks = 0
            for _ in range(600):
                if clicks >= 3:
                    break
                await asyncio.sleep(0.02)
                if ann.controller.state is not None and ann.seat_table is not None and act(ann):
                    clicks += 1
            assert clicks >= 3, ann.message.value
            assert calls and all(calls), calls  # every call wrote
            assert ann.internal_errors == [] and watch.watchers()[0].errors == []
            ann.close()
        run_coroutine(scenario())

    def test_without_an_event_loop_the_page_refreshes_through_the_servers_runner(self, kernels, monkeypatch):
        """Solara's server runs a page with no event loop in it: the watcher's wakes go through the page runner the
        server set (``set_page_runner``), which runs the page's step in the page; the page going stops them."""
        calls, runs = [], []

        def runner(step, closed):
            calls.append((step, closed))
            return lambda: runs.append(step)
        monkeypatch.setattr(together, "_page_runner", None)
        assert not PlayTogether(SeatController(kernels()), poll=True).polling  # no loop, no runner: no updates
        together.set_page_runner(runner)
        ann = PlayTogether(SeatController(kernels()), poll=True)
        (step, closed), = calls
        assert ann.polling and not ann.listen()  # one runner at a time
        ann.table_box.value, ann.name_box.value = "Thread", "Ann"
        ann.seat_buttons[Seat.N].click()
        watcher, = watch.watchers()
        seated(kernels, "Thread", "E", "Bob")
        assert "Bob" not in ann.seats_view.value  # the positive control: nothing changes until the server runs it
        deadline = time.monotonic() + 20
        while "Bob" not in ann.seats_view.value and time.monotonic() < deadline:
            if runs:
                runs.pop(0)()  # the server runs the step in the page
            else:
                time.sleep(0.02)
        assert "Bob" in ann.seats_view.value
        closed()  # the server closed the page
        watcher.thread.join(5)
        assert not ann.polling and not watcher.thread.is_alive() and watch.watchers() == []
        assert ann.internal_errors == [] and watcher.errors == []



class TestComingBack:
    def test_the_page_address_brings_the_student_back_to_the_seat(self, kernels, monkeypatch):
        """Voilà gives the kernel the page's query string: ``?table=...&code=...`` sits the student again."""
        ann = seated(kernels, "Blue", "W", "Ann")
        monkeypatch.setenv("QUERY_STRING", f"table=blue&code={ann.controller.ticket.code}")
        again = page(kernels)
        assert again.controller.seat is Seat.W and "Welcome back, Ann" in again.message.value
        monkeypatch.setenv("QUERY_STRING", "table=blue&code=" + "Z" * 800)  # too long: not read at all
        refused = page(kernels)
        assert refused.controller.seat is None and refused.table_box.value == ""
        assert "816 characters long" in refused.message.last_error and "ZZZZZ" not in refused.message.last_error

    def test_the_seats_link_is_the_pages_own_address_with_its_table_and_code(self, kernels):
        ann = seated(kernels, "Blue Moon", "W", "Ann")
        code = ann.controller.ticket.code
        link = re.search(r'class="aluette-together-link" href="([^"]*)"', ann.code_view.value).group(1)
        assert html.unescape(link) == f"?table=Blue+Moon&code={code}"  # relative: the page's own path, any server
        assert parse_qs(html.unescape(link)[1:]) == {"table": ["Blue Moon"], "code": [code]}

    def test_the_link_of_the_longest_table_name_is_read_back(self, kernels, monkeypatch):
        """Each of a table name's characters may take 12 in the address (four UTF-8 bytes, percent-encoded): the
        link of the longest name the tables take is within what the page reads."""
        name = "\U00020000" * together.TABLE_NAME_LIMIT
        ann = seated(kernels, name, "S", "Ann")
        link = html.unescape(re.search(r'href="([^"]*)"', ann.code_view.value).group(1))
        assert len(link) > 500
        monkeypatch.setattr(together, "_page_query", lambda: link[1:])
        again = page(kernels)
        assert again.controller.seat is Seat.S and again.table_box.value == name

    def test_a_server_of_many_pages_gives_each_page_its_own_query(self, kernels, monkeypatch):
        """Solara's server has no ``QUERY_STRING``: the app sets a reader of the page's query
        (:func:`~aluette.widgets.together.set_page_query`, ``aluette/classroom/solara_app.py``), which wins over the
        process's environment; ``None`` (no page) falls back to ``QUERY_STRING``."""
        ann = seated(kernels, "Blue", "W", "Ann")
        code = ann.controller.ticket.code
        queries = iter([f"table=blue&code={code}", "table=Green", "", None, "code=" + "Z" * 1000,
                        f"table={'B' * 60}&code={'C' * 60}"])
        monkeypatch.setattr(together, "_page_query", lambda: next(queries))
        monkeypatch.setenv("QUERY_STRING", "table=Environment")
        assert page(kernels).controller.seat is Seat.W  # the page's own query, not the environment's
        assert page(kernels).table_box.value == "Green"
        assert page(kernels).table_box.value == ""
        assert page(kernels).table_box.value == "Environment"
        assert "1,005 characters long" in page(kernels).message.last_error
        assert together.page_query() == {"table": "B" * together.TABLE_NAME_LIMIT,
                                         "code": "C" * 2 * together.SEAT_CODE_LENGTH}  # cut to the boxes' limits

    def test_a_wrong_code_in_the_address_is_the_clear_error_and_no_seat(self, kernels, monkeypatch):
        seated(kernels, "Blue", "W", "Ann")
        monkeypatch.setattr(together, "_page_query", lambda: "table=blue&code=ABCDE-FGHJK")
        wrong = page(kernels)
        assert wrong.controller.seat is None and wrong.table_box.value == "blue"
        assert wrong.message.last_error.startswith("that seat code is not the code of a player's seat at table")

    def test_set_page_query_sets_and_clears_the_reader(self, monkeypatch):
        monkeypatch.setattr(together, "_page_query", None)
        together.set_page_query(lambda: "table=Red")
        try:
            assert together.page_query() == {"table": "Red"}
        finally:
            together.set_page_query(None)
        monkeypatch.delenv("QUERY_STRING", raising=False)
        assert together.page_query() == {}

    def test_a_huge_text_from_the_browser_is_refused_in_each_box(self, kernels):
        p = page(kernels)
        for box, limit in ((p.table_box, together.TABLE_NAME_LIMIT), (p.name_box, together.PLAYER_NAME_LIMIT),
                           (p.code_box, 2 * together.SEAT_CODE_LENGTH)):
            box.set_state({"value": "x" * (limit + 1)})
            assert box.value == "" and f"{limit + 1} characters long; this box takes at most {limit}" in \
                p.message.last_error
            box.set_state({"value": "x" * limit})
            assert box.value == "x" * limit



class TestStaleClicks:
    """Issue 22 §6: a double click played a card never chosen (the first card won the trick, its slot was refilled,
    the second click played the new card). A card button stands for the card it was drawn for: the second click of
    a double click finds that card gone and is ignored, with no move and no error."""

    def test_a_double_click_plays_one_card_only(self, kernels):
        pages = {s: seated(kernels, "Red", s, name) for s, name in zip("NESW", ("Ann", "Bob", "Cat", "Dan"))}
        for p in pages.values():
            p.refresh()
        service = pages["N"].controller.service
        doubled = 0
        while doubled < 6:  # six double clicks, some of them on a trick's fourth card
            for other in pages.values():
                other.refresh()
            p = next(p for p in pages.values() if p.controller.state.view.to_move is p.controller.seat)
            view = p.controller.state.view
            if view.phase is not Phase.PLAY:
                act(p)
                continue
            card = HeuristicBot(signals=False).choose(view).move.card
            button = p.button_for(card).button
            before = service.replay("Red").current.moves
            button.click()
            said = p.message.value
            button.click()  # the second click of a double click, on the same button
            after = service.replay("Red").current.moves
            assert len(after) == len(before) + 1 and after[-1].card is card
            assert p.message.last_error is None and p.message.value == said
            assert card not in p.controller.state.view.hand and audit(p) == []
            doubled += 1
            if service.replay("Red").current.is_over:
                break

    def test_a_click_as_the_stock_cards_arrive_chooses_the_card_clicked(self, kernels):
        """Issue 22 (abuse lane, the browser's suspicion): when the chant is agreed, the first and second players
        receive six stock cards each (rules sheet, "setup"; pagat) and their hand is drawn again, sorted, with 15
        cards. A click made on the hand as drawn before (its message on its way) names the card it was drawn for:
        that card, still in the hand, is chosen for the discard. Before, 7 of the 9 buttons were renewed at that
        moment and such a click was ignored."""
        pages = {s: seated(kernels, "Stock", s, name) for s, name in zip("NESW", ("Ann", "Bob", "Cat", "Dan"))}
        service = pages["N"].controller.service
        deal = service.replay("Stock").current
        first = pages[str(deal.dealer.left)]  # the dealer's left receives the first six stock cards
        for answered in range(4):  # everyone agrees to the chant; the last agreement brings the stock
            for p in pages.values():
                p.refresh()
            mover = next(p for p in pages.values() if p.controller.state.view.to_move is p.controller.seat)
            assert mover.controller.state.view.phase is Phase.CHANT
            drawn = {slot.card: slot.button for slot in first._slots if slot.card is not None}  # the hand of 9
            mover.chant_buttons[True].click()
            assert mover.message.last_error is None, mover.message.value
        first.refresh()
        view = first.controller.state.view
        assert view.phase is Phase.DISCARD and view.to_move is first.controller.seat and len(view.hand) == 15
        assert len(drawn) == 9 and set(drawn) <= set(view.hand)
        slots = first.seat_table._slot_cards
        moved = [card for card in drawn if slots.index(card) != list(drawn).index(card)][:6]
        assert moved  # cards the sorted hand of 15 draws elsewhere (at most six: the discard)
        for card in moved:
            drawn[card].click()  # a click made on the hand of 9, on a card drawn elsewhere now
        assert set(first.picked) == set(moved), first.message.value
        assert first.message.last_error is None
        assert audit(first) == []
