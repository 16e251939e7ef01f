"""The partnership draw at a shared table (issue 19 §1): a table of four people starts with the draw, which seats
them and picks the first dealer, recorded in the log from the table's own seed. On SQLite and on PostgreSQL.

Rule source: the rules sheet, "setup"; pagat.com (« Pour choisir les équipes et le premier donneur, tout joueur les
distribue une à la fois, face à face … Les joueurs qui reçoivent « monsieur » et « madame » sont des partenaires contre
les joueurs qui reçoivent « le borgne » et « la vache ». « Madame » est la première à traiter »)."""

from __future__ import annotations

import json

import pytest

from aluette import Seat
from aluette.cards import TOP_FOUR
from aluette.draw import partnership_draw
from aluette.errors import BadSeatCodeError, StoreError, TableError
from aluette.seats import SEATS
from aluette.store import TeacherDesk

NAMES = ("Ann", "Bob", "Cat", "Dan")


def sit_four(service, name="Drawn", seed=7, names=NAMES, **kwargs):
    """Four people sit at N, E, S, W in turn at a table with the draw; their tickets by name."""
    service.create_table(name, seed=seed, draw=True, **kwargs)
    return {n: service.take_seat(name, seat, n) for seat, n in zip(SEATS, names)}


class TestTheDraw:
    def test_four_people_are_seated_by_the_draw_and_madames_holder_deals_first(self, service):
        tickets = sit_four(service)
        info = service.table_info("Drawn")
        draw = info.draw
        assert draw == partnership_draw(list(NAMES), draw_seed_of(service, "Drawn"))  # the engine's draw
        assert draw.names == NAMES  # in the order of the seats taken: N deals the face-up cards
        holder = {card: name for name, card in draw.top_card.items()}
        monsieur, madame, borgne, vache = (holder[c] for c in TOP_FOUR)
        assert {info.seats[s].player: s for s in SEATS} == {madame: Seat.N, monsieur: Seat.S, borgne: Seat.E,
                                                              vache: Seat.W}
        assert service.replay("Drawn").current.dealer is Seat.N  # Madame's holder deals first
        for name, ticket in tickets.items():  # every code works at its player's new seat
            seat = service.rejoin("Drawn", ticket.code).seat
            assert seat is draw.seat_of(name)
            assert service.seat_state("Drawn", seat, ticket.code).view.seat is seat
        assert tickets["Dan"].seat is draw.seat_of("Dan")  # the fourth's ticket says the new seat at once

    def test_the_draw_is_the_logs_first_entry_and_replays(self, service, backend):
        sit_four(service)
        with service.store.read() as tx:
            seq, seat, actor, body = tx.one("SELECT seq, seat, actor, body FROM aluette_moves ORDER BY seq")
        entry = json.loads(body)
        assert (seq, seat, actor, entry[0], entry[2]["names"]) == (1, None, "table", "draw", list(NAMES))
        other = backend.service()  # another kernel rebuilds the table from the log
        try:
            assert other.table_info("Drawn").draw == service.table_info("Drawn").draw
        finally:
            other.close()

    def test_the_same_seed_draws_alike_and_the_draw_seed_is_not_the_matchs(self, backend):
        first, second = backend.service(), backend.service()
        try:
            sit_four(first, "One", seed=42)
            sit_four(second, "Two", seed=42)
            assert first.table_info("One").draw == second.table_info("Two").draw
            assert draw_seed_of(first, "One") != 42  # the draw's face-up cards say nothing of the deals
            sit_four(first, "Three", seed=42, draw_seed=5)
            assert first.table_info("Three").draw == partnership_draw(list(NAMES), 5)
        finally:
            first.close()
            second.close()

    def test_the_host_moves_with_the_draw_and_no_two_players_share_a_name(self, service):
        tickets = sit_four(service, names=("Ann", "Bea", "Cat", "Dan"))
        draw = service.table_info("Drawn").draw
        assert service.table_info("Drawn").host is draw.seat_of("Ann")
        assert service.rejoin("Drawn", tickets["Bea"].code).seat is draw.seat_of("Bea")
        service.create_table("Twins", seed=7, draw=True)
        service.take_seat("Twins", "N", "Ann")
        with pytest.raises(TableError, match="is already at this table"):  # the draw could not tell them apart
            service.take_seat("Twins", "E", "Ann")
        with pytest.raises(TableError, match="looks like 'Ann'"):
            service.take_seat("Twins", "E", "ann")

    def test_no_draw_when_the_group_chooses_its_partners_or_with_a_bot(self, service):
        service.create_table("Chosen", seed=7)  # the store's default: partners chosen by the seats taken
        for seat, name in zip(SEATS, NAMES):
            assert service.take_seat("Chosen", seat, name).seat is seat
        assert service.table_info("Chosen").draw is None and service.seq("Chosen") == 0
        service.create_table("Bot", seed=7, draw=True)
        for seat, name in zip(SEATS[:3], NAMES):
            service.take_seat("Bot", seat, name)
        TeacherDesk(service).replace_with_bot("Bot", "W")
        assert service.table_info("Bot").ready and service.table_info("Bot").draw is None

    def test_a_draw_entry_out_of_place_or_malformed_does_not_replay(self, service, backend):
        sit_four(service)
        with service.store.write() as tx:
            tx.run("UPDATE aluette_moves SET body = ? WHERE seq = 1",
                   (json.dumps(["draw", None, {"seed": 1, "names": ["Ann"]}]),))
        other = backend.service()
        try:
            with pytest.raises(StoreError, match="log entry 1 does not replay"):
                other.table_info("Drawn")
        finally:
            other.close()

    def test_a_seat_code_from_before_the_draw_finds_its_player_not_the_seat(self, service):
        tickets = sit_four(service)
        draw = service.table_info("Drawn").draw
        ann = tickets["Ann"]
        assert draw.seat_of("Ann") is Seat.E  # seed 7: Ann, who sat at N first, is at E now
        with pytest.raises(BadSeatCodeError):
            service.seat_state("Drawn", Seat.N, ann.code)
        assert service.rejoin("Drawn", ann.code).seat is draw.seat_of("Ann")


def draw_seed_of(service, name: str) -> int:
    with service.store.read() as tx:
        return json.loads(tx.one("SELECT settings FROM aluette_tables WHERE name = ?", (name,))[0])["draw_seed"]
