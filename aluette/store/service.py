"""Shared tables: four students on four devices play one match that lives in a database (:mod:`aluette.store.db`).

A table has a name, a match (seed, first dealer, :class:`~aluette.options.Options`) and four seats. A student takes a
free seat with a player name and gets a **seat code** (:func:`new_seat_code`): ten letters and digits shown to them
once, kept in the database only as a salted SHA-256 hash. With the code the same student comes back to the seat
after a reload or a crashed kernel (:meth:`TableService.rejoin`); without it nobody can take a held seat, read its
hand or move for it. The table's first player (its host) may fill the empty seats with bots; the teacher
(:class:`TeacherDesk`) may replace an absent student with a bot and close a table.

**The log.** A table's match is an append-only log of entries, numbered 1, 2, 3... per table (``UNIQUE(table,
seq)``): the engine's moves in their JSON form (:meth:`Move.to_json <aluette.moves.Move.to_json>`), and two entries of
the table itself: ``["next_deal", seat, n]`` (a player, or a bot at a table without players, starts deal ``n``) and
``["bot_signals", null, n]`` (the bots made their signals of deal ``n``). Every entry is checked by the engine against
the match rebuilt from the log, then written with the next number in the same transaction, which holds the table's
write lock: when two kernels race for one seat, the first is written and the second is checked against the state
that includes it, and refused with the engine's error (``NotYourTurnError``...). The unique key refuses any second
entry with one number even if the lock were lost. Bots' moves go through the same path as people's.

Every session (kernel) keeps each table's match in memory and replays only the entries it has not seen yet; a new
session, or one whose write failed, rebuilds the match from the whole log (:meth:`TableService.replay`).

**What a seat sees**: :meth:`TableService.seat_state` gives the seat's :class:`~aluette.deal.View` (its own hand,
never another seat's hidden cards) and the public state of the match; the table's seed is never shown to a player,
since it deals every hand. The teacher's :meth:`TeacherDesk.summary` gives seats, who is connected, the deal, the
phase and the scores: never a card.

**Bots** are :class:`~aluette.bots.HeuristicBot` s (signalling when the table's setting ``signals`` is on), driven by
whichever session calls :meth:`TableService.step_bots` (the sessions of the table call it after every move). As in
notebook 08, bots make their signals once per deal, as soon as the hands are final (after the chant and discards),
before any other bot move.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
import unicodedata
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Union

from ..bots import HeuristicBot
from ..chance import check_seed
from ..deal import Phase, View
from ..errors import (AluetteError, BadSeatCodeError, IllegalMoveError, InputTooLongError, MalformedSaveError,
                      NoSuchTableError, SeatTakenError, StaleStateError, StoreError, TableClosedError, TableError,
                      TableNotReadyError, quoted)
from ..match import Match
from ..moves import Move, checked_move, move_from_json
from ..options import Options
from ..seats import SEATS, Seat, Team
from .db import Store, Transaction, open_store

__all__ = ["TableService", "TeacherDesk", "SeatTicket", "SeatInfo", "SeatState", "TableInfo", "TableSummary",
           "new_seat_code", "clean_table_name", "clean_player_name", "TABLE_NAME_LIMIT", "PLAYER_NAME_LIMIT",
           "SEAT_CODE_LENGTH", "CONNECTED_WITHIN"]

#: At most this many characters in a table name.
TABLE_NAME_LIMIT = 40
#: At most this many characters in a player's name.
PLAYER_NAME_LIMIT = 30
#: Letters and digits in a seat code (shown as two groups of five, ``"K7QMX-2HDRP"``).
SEAT_CODE_LENGTH = 10
#: A seat code's letters: no 0/O, 1/I/L, so a code copied by hand is read back.
SEAT_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: A seat seen within this many seconds counts as connected in the teacher's summary.
CONNECTED_WITHIN = 30.0
#: A session writes a seat's "last seen" at most this often (seconds), so polling writes little.
SEEN_INTERVAL = 5.0

_NAME_PUNCTUATION = frozenset(" -_'.")
_HANDS_FINAL = (Phase.SURRENDER, Phase.ANNOUNCE, Phase.PLAY)
_SETTINGS = {"signals": True, "hints": True}


# ---------------------------------------------------------------------- names and codes
def _clean_name(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise TableError(f"{what} must be text, got {quoted(value)}")
    if len(value) > limit:  # refused before it is read
        raise InputTooLongError(f"{what} is at most {limit} characters, got {quoted(value)}")
    text = " ".join(unicodedata.normalize("NFKC", value).split())
    if not text:
        raise TableError(f"{what} is empty: type a few letters")
    if len(text) > limit:
        raise InputTooLongError(f"{what} is at most {limit} characters, got {quoted(text)}")
    for char in text:
        if not (char.isalnum() or char in _NAME_PUNCTUATION):
            raise TableError(f"{what} may hold letters, digits, spaces and - _ ' . only; {quoted(char)} in "
                             f"{quoted(text)} is not allowed")
    return text


def clean_table_name(value: Any) -> str:
    """A table name as stored and shown: NFKC-normalised, spaces collapsed, 1 to :data:`TABLE_NAME_LIMIT` letters,
    digits, spaces and ``- _ ' .``. Two names that differ only in case name the same table.

    Raises:
        InputTooLongError: too long. TableError: not text, empty, or another character.
    """
    return _clean_name(value, "a table name", TABLE_NAME_LIMIT)


def clean_player_name(value: Any) -> str:
    """A player's name, checked like a table name (:func:`clean_table_name`) with :data:`PLAYER_NAME_LIMIT`."""
    return _clean_name(value, "a player's name", PLAYER_NAME_LIMIT)


def new_seat_code() -> str:
    """A fresh seat code from the operating system's secret generator (:mod:`secrets`): ten characters of
    :data:`SEAT_CODE_ALPHABET` (50 bits), written ``"ABCDE-FGHJK"``."""
    raw = "".join(secrets.choice(SEAT_CODE_ALPHABET) for _ in range(SEAT_CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def _read_code(code: Any) -> str:
    """The code's ten characters (case, spaces and dashes ignored). Raises BadSeatCodeError."""
    if not isinstance(code, str) or len(code) > 2 * SEAT_CODE_LENGTH:
        raise BadSeatCodeError(f"a seat code is {SEAT_CODE_LENGTH} letters and digits such as ABCDE-FGHJK, got "
                               f"{quoted(code, 24)}")
    raw = code.upper().replace("-", "").replace(" ", "")
    if len(raw) != SEAT_CODE_LENGTH or any(c not in SEAT_CODE_ALPHABET for c in raw):
        raise BadSeatCodeError(f"a seat code is {SEAT_CODE_LENGTH} letters and digits such as ABCDE-FGHJK, got "
                               f"{quoted(code, 24)}")
    return raw


def _code_hash(salt: str, raw: str) -> str:
    return hashlib.sha256(f"{salt}:{raw}".encode()).hexdigest()


# ---------------------------------------------------------------------- values handed out
@dataclass(frozen=True)
class SeatTicket:
    """A seat taken (or found again with its code).

    Attributes:
        table: the table's name. seat: the seat. player: the player's name.
        code: the seat code, to show to its player only (they need it to come back).
    """

    table: str
    seat: Seat
    player: str
    code: str

    def __repr__(self) -> str:  # the code stays out of logs and tracebacks
        return f"SeatTicket(table={self.table!r}, seat={self.seat!r}, player={self.player!r}, code=...)"


@dataclass(frozen=True)
class SeatInfo:
    """One seat as everybody may see it.

    Attributes:
        seat: the seat. kind: ``"person"``, ``"bot"``, or ``None`` while empty. player: the name, or ``None``.
        last_seen: when its player last read or moved (seconds since the epoch), ``None`` for bots and empty seats.
        connected: seen within :data:`CONNECTED_WITHIN` seconds (bots always are).
    """

    seat: Seat
    kind: Optional[str]
    player: Optional[str]
    last_seen: Optional[float]
    connected: bool


@dataclass(frozen=True)
class TableInfo:
    """A table as the lobby shows it: who sits where and who is missing.

    Attributes:
        name: the table's name. seats: ``{seat: SeatInfo}``. host: the first player's seat, or ``None``.
        ready: all four seats are held. closed: the teacher closed it. settings: ``{"signals": bool, "hints": bool}``.
        options: the match's rule options.
    """

    name: str
    seats: Mapping[Seat, SeatInfo]
    host: Optional[Seat]
    ready: bool
    closed: bool
    settings: Mapping[str, bool]
    options: Options

    @property
    def free_seats(self) -> tuple[Seat, ...]:
        return tuple(s for s in SEATS if self.seats[s].kind is None)


@dataclass(frozen=True)
class SeatState:
    """What one seat may see of its table's match.

    Attributes:
        info: the :class:`TableInfo`. seat: whose state. seq: the number of the last log entry included.
        deal_number: 1 for the first deal. deal_points: ``({Team: points}, ...)`` of each finished deal.
        scores: ``{Team: points}`` so far. is_over: the match is over. winner: the winning partnership (``None``
        while playing or when drawn). awaiting_next_deal: the deal is over and the match is not.
        view: the current deal as this seat sees it (:meth:`Deal.view <aluette.deal.Deal.view>`).
        legal_signals: the keys of the signals this seat may make now (:meth:`Deal.legal_signals
        <aluette.deal.Deal.legal_signals>`).
    """

    info: TableInfo
    seat: Seat
    seq: int
    deal_number: int
    deal_points: tuple[Mapping[Team, int], ...]
    scores: Mapping[Team, int]
    is_over: bool
    winner: Optional[Team]
    awaiting_next_deal: bool
    view: View
    legal_signals: tuple[str, ...]


@dataclass(frozen=True)
class TableSummary:
    """A table as the teacher's page shows it: never a card.

    Attributes:
        name, seats, host, ready, closed: as :class:`TableInfo`. seq: log entries so far. deal_number: the deal.
        phase: the current deal's phase (``"play"``...). to_move: whose turn, or ``None``. scores: ``{Team: points}``.
        is_over: the match is over. winner: the winning partnership, ``None`` while playing or when drawn.
    """

    name: str
    seats: Mapping[Seat, SeatInfo]
    host: Optional[Seat]
    ready: bool
    closed: bool
    seq: int
    deal_number: int
    phase: str
    to_move: Optional[Seat]
    scores: Mapping[Team, int]
    is_over: bool
    winner: Optional[Team]

    def to_dict(self) -> dict:
        """JSON-ready (for a page): seats as ``{"N": {...}}``, scores as ``{"NS": p, "EW": q}``."""
        return {"name": self.name, "host": _str(self.host), "ready": self.ready, "closed": self.closed,
                "seq": self.seq, "deal_number": self.deal_number, "phase": self.phase, "to_move": _str(self.to_move),
                "scores": {str(t): p for t, p in self.scores.items()}, "is_over": self.is_over,
                "winner": _str(self.winner),
                "seats": {str(s): {"kind": i.kind, "player": i.player, "last_seen": i.last_seen,
                                   "connected": i.connected} for s, i in self.seats.items()}}


def _str(value) -> Optional[str]:
    return None if value is None else str(value)


# ---------------------------------------------------------------------- a table held in memory
class _Table:
    """A session's copy of one table: its fixed settings, and its match replayed up to ``seq``."""

    def __init__(self, table_id: int, name: str, seed: int, first_dealer: Seat, options: Options, settings: dict):
        self.id, self.name, self.seed = table_id, name, seed
        self.first_dealer, self.options, self.settings = first_dealer, options, settings
        self.match = Match(seed, first_dealer=first_dealer, options=options)
        self.seq = 0
        self.bot_signalled: set[int] = set()
        self.pending = 0  # entries applied in the open write transaction (the copy is dropped if it rolls back)

    def apply(self, body: Any, seat: Optional[Seat]) -> None:
        """Apply one log entry (raises before changing anything)."""
        if not isinstance(body, list) or len(body) != 3:
            raise MalformedSaveError(f"a log entry is [kind, seat, value], got {quoted(body)}")
        kind, match = body[0], self.match
        if kind == "next_deal":
            if body[2] != match.deal_number + 1:
                raise IllegalMoveError(f"deal {quoted(body[2])} cannot start: this is deal {match.deal_number}")
            match.next_deal()
        elif kind == "bot_signals":
            if body[2] != match.deal_number or match.deal_number in self.bot_signalled:
                raise IllegalMoveError(f"the bots' signals of deal {quoted(body[2])} are not due")
            self.bot_signalled.add(match.deal_number)
        else:
            move = move_from_json(body)
            if move.seat is not seat:
                raise IllegalMoveError(f"a move of {move.seat} logged for seat {seat}", seat=seat, move=move)
            match.apply(move)


def _bot(settings: Mapping[str, bool], seat: Seat) -> HeuristicBot:
    return HeuristicBot(signals=settings["signals"], name=str(seat))


class TableService:
    """The shared tables of one database, for one session (a student's kernel).

    Args:
        store: the database (default: :func:`~aluette.store.db.open_store`, chosen by the environment).
        clock: seconds since the epoch (for "last seen"); tests may pass their own.

    Tables are named by their name (any case). Every method that acts for a seat takes the seat and its code. All
    errors are :class:`~aluette.errors.AluetteError` s: :class:`~aluette.errors.TableError` s for the table's own
    refusals, the engine's :class:`~aluette.errors.IllegalMoveError` s for moves the rules refuse; the database and
    this session's copy are left as they were.
    """

    def __init__(self, store: Optional[Store] = None, *, clock: Callable[[], float] = time.time):
        self.store = store if store is not None else open_store()
        self._clock = clock
        self._lock = threading.RLock()
        self._tables: dict[int, _Table] = {}
        self._ids: dict[str, int] = {}
        self._seen: dict[tuple[int, Seat], float] = {}

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ tables
    def create_table(self, name: str, *, seed: Optional[int] = None, options: Optional[Options] = None,
                     first_dealer: Union[Seat, str] = Seat.N, signals: bool = True, hints: bool = True) -> TableInfo:
        """Create a table.

        Args:
            name: its name (see :func:`clean_table_name`).
            seed: the match's seed; by default a fresh one from :mod:`secrets` (players must not know it: it deals
                every hand).
            options, first_dealer: the match's (see :class:`~aluette.match.Match`).
            signals: bots make signals. hints: the table allows hints (read by the page).

        Raises:
            TableError: a bad name, or a table of that name exists. BadSeedError, AluetteError: bad seed or options.
        """
        name = clean_table_name(name)
        seed = secrets.randbits(63) if seed is None else check_seed(seed)
        options = Options.coerce(options)
        first_dealer = Seat.parse(first_dealer)
        settings = {"signals": _yes_no(signals, "signals"), "hints": _yes_no(hints, "hints")}

        def create(tx: Transaction):
            if tx.one("SELECT id FROM aluette_tables WHERE name_key = ?", (name.casefold(),)) is not None:
                raise TableError(f"a table named {quoted(name)} already exists: join it, or choose another name")
            tx.run("INSERT INTO aluette_tables (name_key, name, seed, first_dealer, options, settings, created_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (name.casefold(), name, str(seed), str(first_dealer), json.dumps(options.to_dict()),
                    json.dumps(settings), self._clock()))
        with self._lock:
            try:
                with self.store.write() as tx:
                    create(tx)
            except AluetteError:
                raise
            except Exception as error:  # two sessions created it at once: the unique name decided
                if self.store.is_conflict(error):
                    raise TableError(f"a table named {quoted(name)} already exists: join it, or choose another "
                                     f"name") from None
                raise
        return self.table_info(name)

    def table_names(self) -> list[str]:
        """The names of the open tables, oldest first."""
        with self._lock, self.store.read() as tx:
            return [r[0] for r in tx.rows("SELECT name FROM aluette_tables WHERE closed_at IS NULL ORDER BY id")]

    def table_info(self, name: str) -> TableInfo:
        """Who sits where at table ``name``. Raises NoSuchTableError."""
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            return self._info(tx, table)

    # ------------------------------------------------------------------ seats
    def take_seat(self, name: str, seat: Union[Seat, str], player: str) -> SeatTicket:
        """Take a free seat at table ``name`` as ``player``; the ticket holds the seat code to show to the player.
        The first player to sit becomes the table's host.

        Raises:
            SeatTakenError: the seat is held. TableClosedError, NoSuchTableError. TableError: a bad player name.
        """
        seat = Seat.parse(seat)
        player = clean_player_name(player)
        code = new_seat_code()
        salt = secrets.token_hex(16)

        def take(tx: Transaction, table: _Table) -> SeatTicket:
            held = tx.one("SELECT player FROM aluette_seats WHERE table_id = ? AND seat = ?", (table.id, str(seat)))
            if held is not None:
                raise SeatTakenError(f"seat {seat} at table {quoted(table.name)} is held by {quoted(held[0])}; "
                                     f"choose a free seat (or come back to yours with its seat code)")
            now = self._clock()
            tx.run("INSERT INTO aluette_seats (table_id, seat, kind, player, code_salt, code_hash, joined_at, "
                   "last_seen) VALUES (?, ?, 'person', ?, ?, ?, ?, ?)",
                   (table.id, str(seat), player, salt, _code_hash(salt, _read_code(code)), now, now))
            tx.run("UPDATE aluette_tables SET host_seat = ? WHERE id = ? AND host_seat IS NULL", (str(seat), table.id))
            self._seen[(table.id, seat)] = now
            return SeatTicket(table.name, seat, player, code)
        return self._write(name, take, conflict=lambda: SeatTakenError(f"seat {seat} at table {quoted(name)} was "
                                                                       f"just taken; choose a free seat"))

    def rejoin(self, name: str, code: str) -> SeatTicket:
        """Come back to one's seat at table ``name`` with its seat code.

        Raises:
            BadSeatCodeError: the code is no seat's of this table (or its seat was given to a bot).
        """
        raw = _read_code(code)
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            self._check_open(tx, table)
            for seat_text, player, salt, digest in tx.rows(
                    "SELECT seat, player, code_salt, code_hash FROM aluette_seats WHERE table_id = ? AND "
                    "kind = 'person'", (table.id,)):
                if hmac.compare_digest(_code_hash(salt, raw), digest):
                    seat = Seat(seat_text)
                    break
            else:
                raise BadSeatCodeError(f"that seat code is not the code of a player's seat at table "
                                       f"{quoted(table.name)}")
        self._touch(table.id, seat, force=True)
        return SeatTicket(table.name, seat, player, f"{raw[:5]}-{raw[5:]}")

    def fill_with_bots(self, name: str, seat: Union[Seat, str], code: str) -> tuple[Seat, ...]:
        """The host (the table's first player, at ``seat`` with its ``code``) fills every empty seat with a bot;
        returns the seats filled.

        Raises:
            BadSeatCodeError: not the seat's code. TableError: ``seat`` is not the host's.
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)

        def fill(tx: Transaction, table: _Table) -> tuple[Seat, ...]:
            self._check_code(tx, table, seat, raw)
            host = tx.one("SELECT host_seat FROM aluette_tables WHERE id = ?", (table.id,))[0]
            if host != str(seat):
                raise TableError(f"only the table's first player ({host}) may fill the empty seats with bots")
            taken = {r[0] for r in tx.rows("SELECT seat FROM aluette_seats WHERE table_id = ?", (table.id,))}
            filled = tuple(s for s in SEATS if str(s) not in taken)
            for s in filled:
                self._insert_bot(tx, table, s)
            return filled
        return self._write(name, fill)

    # ------------------------------------------------------------------ moves
    def submit(self, name: str, seat: Union[Seat, str], code: str, move: Union[Move, list], *,
               after: Optional[int] = None) -> int:
        """Make ``move`` for ``seat`` (holding its ``code``) at table ``name``; returns the move's number in the log.

        ``after`` is the log number of the state the move was chosen on (:attr:`SeatState.seq`): the move is then
        refused if anything but another seat's signal was logged since. Pages pass it, so that a seat sending a move
        from two kernels at once has exactly one accepted, even when the rules would take both in turn (a seat that
        wins a trick leads the next).

        Raises:
            BadSeatCodeError: not the seat's code. TableNotReadyError: a seat is still empty.
            IllegalMoveError (and its subclasses): a move of another seat, or one the rules refuse now (a second
            kernel's move for a seat whose move was just made gets ``NotYourTurnError`` or the like).
            MalformedSaveError: a JSON list that is not a move.
            StaleStateError: with ``after``, the table changed since.
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)
        after = _check_after(after)
        move = move_from_json(move) if isinstance(move, list) else checked_move(move)
        if move.seat is not seat:
            raise IllegalMoveError(f"seat {seat} cannot make a move for {move.seat} ({move})", seat=seat, move=move)

        def make(tx: Transaction, table: _Table) -> tuple[int, int]:
            self._check_code(tx, table, seat, raw)
            self._check_ready(tx, table)
            self._check_fresh(tx, table, seat, after)
            return table.id, self._append(tx, table, seat, "person", move.to_json())
        table_id, seq = self._write(name, make)
        self._touch(table_id, seat)
        return seq

    def next_deal(self, name: str, seat: Union[Seat, str], code: str) -> int:
        """A player (``seat`` with its ``code``) starts the next deal once the current one is over; returns the log
        number.

        Raises:
            WrongPhaseError: the deal is not over (another player may have started the next one just now).
            DealOverError: the match is over.
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)

        def start(tx: Transaction, table: _Table) -> int:
            self._check_code(tx, table, seat, raw)
            self._check_ready(tx, table)
            return self._append(tx, table, seat, "person", ["next_deal", str(seat), table.match.deal_number + 1])
        return self._write(name, start)

    def step_bots(self, name: str) -> list[int]:
        """Make the bots' next step at table ``name``, if one is due: the bots' signals of this deal once the hands
        are final, or the move of the bot whose turn it is, or (at a table of bots only) the next deal. Returns the
        log numbers written (empty when no bot has anything to do)."""
        def step(tx: Transaction, table: _Table) -> list[int]:
            bots = {Seat(r[0]) for r in tx.rows("SELECT seat FROM aluette_seats WHERE table_id = ? AND kind = 'bot'",
                                                (table.id,))}
            if not bots or not self._is_ready(tx, table):
                return []
            match = table.match
            deal = match.current
            written = []
            if (table.settings["signals"] and deal.phase in _HANDS_FINAL
                    and match.deal_number not in table.bot_signalled):
                for seat in deal.dealer.left.clockwise_from():
                    if seat in bots:
                        legal = deal.legal_signals(seat)
                        for decision in _bot(table.settings, seat).signals(deal.view(seat, events=False), legal):
                            written.append(self._append(tx, table, seat, "bot", decision.move.to_json()))
                written.append(self._append(tx, table, None, "table", ["bot_signals", None, match.deal_number]))
                return written
            if match.awaiting_next_deal and len(bots) == 4:
                return [self._append(tx, table, None, "bot", ["next_deal", None, match.deal_number + 1])]
            seat = match.to_move
            if seat in bots:
                decision = _bot(table.settings, seat).choose(deal.view(seat, events=False), deal.legal_moves())
                written.append(self._append(tx, table, seat, "bot", decision.move.to_json()))
            return written
        return self._write(name, step)

    def run_bots(self, name: str, limit: int = 1000) -> int:
        """:meth:`step_bots` until no bot has anything to do (at most ``limit`` steps); returns the entries
        written."""
        count = 0
        for _ in range(limit):
            written = self.step_bots(name)
            if not written:
                break
            count += len(written)
        return count

    # ------------------------------------------------------------------ reads
    def seq(self, name: str) -> int:
        """The number of the table's last log entry: a cheap read to poll for changes."""
        with self._lock:
            key = clean_table_name(name).casefold()
            if key not in self._ids:
                with self.store.read() as tx:
                    self._table_id(tx, name)
            return int(self.store.read_one("SELECT last_seq FROM aluette_tables WHERE id = ?", (self._ids[key],))[0])

    def wait(self, name: str, since: int, timeout: float = 10.0, interval: float = 0.02) -> int:
        """Wait until the table's log passes ``since`` or ``timeout`` seconds pass; returns the last number. SQLite:
        polls every ``interval`` seconds; PostgreSQL: polls again on each NOTIFY (and every half second)."""
        deadline = time.monotonic() + timeout
        self.store.listen()
        while True:
            seq = self.seq(name)
            left = deadline - time.monotonic()
            if seq > since or left <= 0:
                return seq
            self.store.pause(min(left, 0.5), interval, self._ids.get(clean_table_name(name).casefold()))

    def seat_state(self, name: str, seat: Union[Seat, str], code: str) -> SeatState:
        """What ``seat`` (holding its ``code``) may see of table ``name``: its own view of the current deal, and the
        public state of the match. Marks the seat as seen.

        Raises:
            BadSeatCodeError: not the seat's code.
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            rows = tx.rows(_SEAT_COLUMNS, (table.id,))
            mine = next((r for r in rows if r[0] == str(seat)), None)
            self._check_code(tx, table, seat, raw, None if mine is None else (mine[1], mine[4], mine[5]))
            info = self._info(tx, table, rows)
            match = table.match
            state = SeatState(
                info=info, seat=seat, seq=table.seq, deal_number=match.deal_number,
                deal_points=tuple(MappingProxyType(dict(d.result.points)) for d in match.deals
                                  if d.result is not None),
                scores=MappingProxyType(match.scores), is_over=match.is_over, winner=match.winner,
                awaiting_next_deal=match.awaiting_next_deal, view=match.view(seat),
                legal_signals=tuple(match.current.legal_signals(seat)))
        self._touch(table.id, seat)
        return state

    def replay(self, name: str) -> Match:
        """Table ``name``'s match rebuilt from its whole log, apart from this session's copy: every hand in it
        (for tests and the teacher's tools; never send it to a player's page).

        Raises:
            StoreError: an entry of the log does not replay (the database was edited).
        """
        with self._lock, self.store.read() as tx:
            table_id = self._table_id(tx, name)
            return self._load(tx, table_id).match

    # ------------------------------------------------------------------ inside
    def _table_id(self, tx: Transaction, name: Any) -> int:
        key = clean_table_name(name).casefold()
        if key in self._ids:
            return self._ids[key]
        row = tx.one("SELECT id FROM aluette_tables WHERE name_key = ?", (key,))
        if row is None:
            raise NoSuchTableError(f"there is no table named {quoted(name)}")
        self._ids[key] = int(row[0])
        return int(row[0])

    def _load(self, tx: Transaction, table_id: int) -> _Table:
        row = tx.one("SELECT name, seed, first_dealer, options, settings FROM aluette_tables WHERE id = ?",
                     (table_id,))
        if row is None:
            raise NoSuchTableError(f"there is no table number {table_id}")
        name, seed, first_dealer, options, settings = row
        try:
            table = _Table(table_id, name, check_seed(int(seed)), Seat.parse(first_dealer),
                           Options.from_dict(json.loads(options)), {**_SETTINGS, **json.loads(settings)})
        except (AluetteError, ValueError, TypeError) as error:
            raise StoreError(f"table {quoted(name)}: its settings in the database do not read ({error})") from None
        self._replay(tx, table)
        return table

    def _replay(self, tx: Transaction, table: _Table) -> None:
        for seq, seat, body in tx.rows("SELECT seq, seat, body FROM aluette_moves WHERE table_id = ? AND seq > ? "
                                       "ORDER BY seq", (table.id, table.seq)):
            if seq != table.seq + 1:
                raise StoreError(f"table {quoted(table.name)}: log entry {table.seq + 1} is missing (found {seq})")
            try:
                table.apply(json.loads(body), None if seat is None else Seat(seat))
            except (AluetteError, ValueError) as error:
                raise StoreError(f"table {quoted(table.name)}: log entry {seq} does not replay ({error}); the "
                                 f"database was edited or damaged") from None
            table.seq = seq

    def _refreshed(self, tx: Transaction, table_id: int) -> _Table:
        table = self._tables.get(table_id)
        if table is None:
            table = self._tables[table_id] = self._load(tx, table_id)
        else:
            try:
                self._replay(tx, table)
            except StoreError:
                self._tables.pop(table_id, None)
                raise
        return table

    def _write(self, name: str, action: Callable[[Transaction, _Table], Any],
               conflict: Optional[Callable[[], AluetteError]] = None) -> Any:
        """Run ``action(tx, table)`` in a write transaction holding the table's lock, the table refreshed. On a
        unique-key conflict (another session wrote first without the lock) retry once from the database; if the
        transaction fails, this session's copy of the table is dropped (rebuilt from the log when next needed)."""
        with self._lock:
            for attempt in range(3):
                table = None
                try:
                    with self.store.write() as tx:
                        table_id = self._table_id(tx, name)
                        locked = tx.lock_table(table_id)
                        if locked is None:
                            raise NoSuchTableError(f"there is no table named {quoted(name)}")
                        table = self._refreshed(tx, table_id)
                        table.pending = 0
                        if locked[1] is not None:
                            raise TableClosedError(f"table {quoted(table.name)} is closed")
                        result = action(tx, table)
                    return result
                except Exception as error:
                    if table is not None and table.pending:
                        self._tables.pop(table.id, None)
                    if not isinstance(error, AluetteError) and self.store.is_conflict(error):
                        if conflict is not None:
                            raise conflict() from None
                        continue
                    raise
            raise StoreError(f"table {quoted(name)}: another session kept writing at the same time; try again")

    def _append(self, tx: Transaction, table: _Table, seat: Optional[Seat], actor: str, body: list) -> int:
        """Check ``body`` against the table's match, apply it and write it with the next number."""
        table.apply(body, seat)  # raises before changing anything
        table.pending += 1
        seq = table.seq + 1
        tx.run("INSERT INTO aluette_moves (table_id, seq, seat, actor, body, at) VALUES (?, ?, ?, ?, ?, ?)",
               (table.id, seq, _str(seat), actor, json.dumps(body), self._clock()))
        tx.run("UPDATE aluette_tables SET last_seq = ? WHERE id = ?", (seq, table.id))
        self.store.notify(tx, table.id, seq)
        table.seq = seq
        return seq

    def _insert_bot(self, tx: Transaction, table: _Table, seat: Seat) -> None:
        tx.run("INSERT INTO aluette_seats (table_id, seat, kind, player, joined_at) VALUES (?, ?, 'bot', ?, ?)",
               (table.id, str(seat), f"bot {seat.full_name}", self._clock()))

    def _check_open(self, tx: Transaction, table: _Table) -> None:
        if tx.one("SELECT closed_at FROM aluette_tables WHERE id = ?", (table.id,))[0] is not None:
            raise TableClosedError(f"table {quoted(table.name)} is closed")

    def _check_code(self, tx: Transaction, table: _Table, seat: Seat, raw: str,
                    row: Optional[tuple] = None) -> None:
        """Raises unless ``raw`` is the code of ``seat``; ``row`` is the seat's ``(kind, salt, hash)`` when already
        read."""
        if row is None:
            row = tx.one("SELECT kind, code_salt, code_hash FROM aluette_seats WHERE table_id = ? AND seat = ?",
                         (table.id, str(seat)))
        if row is None or row[0] is None:
            raise BadSeatCodeError(f"seat {seat} at table {quoted(table.name)} is empty: take it first")
        if row[0] != "person":
            raise BadSeatCodeError(f"seat {seat} at table {quoted(table.name)} is played by a bot")
        if not hmac.compare_digest(_code_hash(row[1], raw), row[2]):
            raise BadSeatCodeError(f"that is not the seat code of {seat} at table {quoted(table.name)}")

    def _check_fresh(self, tx: Transaction, table: _Table, seat: Seat, after: Optional[int]) -> None:
        if after is None or after >= table.seq:
            if after is not None and after > table.seq:
                raise StaleStateError(f"table {quoted(table.name)} has {table.seq} log entries, not {after}")
            return
        for seq, by, body in tx.rows("SELECT seq, seat, body FROM aluette_moves WHERE table_id = ? AND seq > ? "
                                     "ORDER BY seq", (table.id, after)):
            kind = json.loads(body)[0]
            if kind != "signal" or by == str(seat):
                raise StaleStateError(f"table {quoted(table.name)} changed since your move was chosen (entry {seq}: "
                                      f"{'a signal' if kind == 'signal' else kind.replace('_', ' ')} by "
                                      f"{by or 'the table'}); look again")

    def _is_ready(self, tx: Transaction, table: _Table) -> bool:
        return tx.one("SELECT COUNT(*) FROM aluette_seats WHERE table_id = ?", (table.id,))[0] == 4

    def _check_ready(self, tx: Transaction, table: _Table) -> None:
        if not self._is_ready(tx, table):
            raise TableNotReadyError(f"table {quoted(table.name)} waits for players: every seat must be taken (the "
                                     f"first player may fill the empty ones with bots)")

    def _info(self, tx: Transaction, table: _Table, rows: Optional[list] = None) -> TableInfo:
        host, closed = tx.one("SELECT host_seat, closed_at FROM aluette_tables WHERE id = ?", (table.id,))
        seats = _seat_infos(tx, table.id, self._clock(), rows)
        return TableInfo(name=table.name, seats=seats, host=None if host is None else Seat(host),
                         ready=all(i.kind is not None for i in seats.values()), closed=closed is not None,
                         settings=MappingProxyType(dict(table.settings)), options=table.options)

    def _touch(self, table_id: int, seat: Seat, force: bool = False) -> None:
        """Write the seat's "last seen", at most every :data:`SEEN_INTERVAL` seconds from this session."""
        now = self._clock()
        key = (table_id, seat)
        if not force and now - self._seen.get(key, float("-inf")) < SEEN_INTERVAL:
            return
        with self._lock, self.store.write() as tx:
            tx.run("UPDATE aluette_seats SET last_seen = ? WHERE table_id = ? AND seat = ? AND kind = 'person'",
                   (now, table_id, str(seat)))
        self._seen[key] = now


_SEAT_COLUMNS = "SELECT seat, kind, player, last_seen, code_salt, code_hash FROM aluette_seats WHERE table_id = ?"


def _seat_infos(tx: Transaction, table_id: int, now: float, rows: Optional[list] = None) -> Mapping[Seat, SeatInfo]:
    """The four seats' :class:`SeatInfo` from ``rows`` of :data:`_SEAT_COLUMNS` (read when ``None``)."""
    rows = {Seat(r[0]): r[1:4] for r in (tx.rows(_SEAT_COLUMNS, (table_id,)) if rows is None else rows)}
    infos = {}
    for seat in SEATS:
        kind, player, seen = rows.get(seat, (None, None, None))
        connected = kind == "bot" or (seen is not None and now - seen <= CONNECTED_WITHIN)
        infos[seat] = SeatInfo(seat, kind, player, seen, connected)
    return MappingProxyType(infos)


def _check_after(after: Any) -> Optional[int]:
    if after is not None and (after.__class__ is not int or after < 0):
        raise TableError(f"after is a log number (a whole number from 0), got {quoted(after)}")
    return after


def _yes_no(value: Any, what: str) -> bool:
    if value.__class__ is not bool:
        raise TableError(f"{what} is True or False, got {quoted(value)}")
    return value


class TeacherDesk:
    """The teacher's view of every table of a database: summaries without cards, bots for absent students, closing
    tables. Used by the teacher's page only (never reachable from the students' pages).

    Args:
        service: the :class:`TableService` to read through (default: one on :func:`~aluette.store.db.open_store`).
    """

    def __init__(self, service: Optional[TableService] = None):
        self.service = service if service is not None else TableService()

    def summary(self, *, closed: bool = False) -> list[TableSummary]:
        """Every open table (and the closed ones with ``closed=True``), oldest first: seats and who is connected,
        the deal, the phase, whose turn, the scores; never a card."""
        service = self.service
        out = []
        with service._lock, service.store.read() as tx:
            rows = tx.rows("SELECT id, host_seat, closed_at FROM aluette_tables ORDER BY id")
            now = service._clock()
            for table_id, host, closed_at in rows:
                if closed_at is not None and not closed:
                    continue
                table = service._refreshed(tx, int(table_id))
                seats = _seat_infos(tx, table.id, now)
                match = table.match
                out.append(TableSummary(
                    name=table.name, seats=seats, host=None if host is None else Seat(host),
                    ready=all(i.kind is not None for i in seats.values()), closed=closed_at is not None,
                    seq=table.seq, deal_number=match.deal_number, phase=match.current.phase.value,
                    to_move=match.to_move, scores=MappingProxyType(match.scores), is_over=match.is_over,
                    winner=match.winner))
        return out

    def replace_with_bot(self, name: str, seat: Union[Seat, str]) -> None:
        """Give ``seat`` of table ``name`` to a bot (an absent student's, or an empty seat): its seat code stops
        working. The sessions of the table then drive the bot (:meth:`TableService.step_bots`).

        Raises:
            TableError: the seat is already a bot's.
        """
        seat = Seat.parse(seat)
        service = self.service

        def replace(tx: Transaction, table: _Table) -> None:
            row = tx.one("SELECT kind FROM aluette_seats WHERE table_id = ? AND seat = ?", (table.id, str(seat)))
            if row is not None and row[0] == "bot":
                raise TableError(f"seat {seat} at table {quoted(table.name)} is already played by a bot")
            if row is None:
                service._insert_bot(tx, table, seat)
            else:
                tx.run("UPDATE aluette_seats SET kind = 'bot', player = ?, code_salt = NULL, code_hash = NULL, "
                       "last_seen = NULL WHERE table_id = ? AND seat = ?",
                       (f"bot {seat.full_name}", table.id, str(seat)))
        service._write(name, replace)

    def close_table(self, name: str) -> None:
        """Close table ``name``: it takes no seat and no move any more; its log stays.

        Raises:
            TableClosedError: it is closed already.
        """
        def close(tx: Transaction, table: _Table) -> None:
            tx.run("UPDATE aluette_tables SET closed_at = ? WHERE id = ?", (self.service._clock(), table.id))
        self.service._write(name, close)
