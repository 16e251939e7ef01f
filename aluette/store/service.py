"""Shared tables: four students on four devices play one match that lives in a database (:mod:`aluette.store.db`).

A table has a name, a match (seed, first dealer, :class:`~aluette.options.Options`) and four seats. A student takes a
free seat with a player name and gets a **seat code** (:func:`new_seat_code`): ten letters and digits shown to them
once, kept in the database only as a salted SHA-256 hash. With the code the same student comes back to the seat
after a reload or a crashed kernel (:meth:`TableService.rejoin`); without it nobody can take a held seat, read its
hand or move for it. The table's first player (its host) may fill the empty seats with bots; the teacher
(:class:`TeacherDesk`) may replace an absent student with a bot, give the seat back (the student's code works again,
or the teacher reads out a new one), and close a table.

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

**The partnership draw.** A table of four people starts with the draw, as the sources' players do (rules sheet,
"setup"; pagat: « Pour choisir les équipes et le premier donneur, tout joueur les distribue une à la fois … »):
:func:`~aluette.draw.partnership_draw` from the table's draw seed (its own, never the match's: the draw's face-up
cards must say nothing of the first deal), over the four players in the order of the seats they took (N first, who
deals the face-up cards). It is written in the log as its first entry, ``["draw", null, {"seed": s, "names":
[...]}]``, in the transaction that takes the fourth seat, and the players are seated as it says (each keeps their
seat code; Madame's holder is at N, who deals first). Every page shows it (:attr:`TableInfo.draw`).

Decision of this project (the sources are silent) [partners-chosen-option]: a group that wants to choose its
partners may open its table without the draw (on the page, a box it ticks; ``draw=False`` here, the default of
:meth:`TableService.create_table`); the seats are then the ones the players take, and N deals first. A table with a
bot has no draw either: its seats are as taken.

**Bots** are :class:`~aluette.players.bots.HeuristicBot` s or, as the host or the teacher chooses when seating them,
:class:`~aluette.analysis.expert.ExpertBot` s (both signalling when the table's setting ``signals`` is on; each
seat's kind is kept in the table's settings, ``"bots"``), driven by
whichever session calls :meth:`TableService.step_bots`: the watcher of the table in each process that shows it
(:mod:`aluette.store.watch`, once per move for the process however many pages it serves), or, without one, the
seat's session after every move; the log decides the order. They
follow the one bot policy of every driver, :func:`aluette.players.drivers.next_bot_step`: their signals once per deal, as soon
as the hands are final (after the chant and discards), before any other bot move; the table writes those decisions
to its log. A bot chooses outside the table's write transaction, on a copy of the state it read, and its choice is
written only if the log has not moved on since (else it chooses again): an expert's second of thought never holds
up the other pages' writes, and never lands on a state it did not see.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Union

from ..players.protocol import Bot
from ..players.drivers import make_bot, next_bot_step
from ..chance import check_seed
from ..deal import View
from ..draw import DrawResult, partnership_draw
from ..i18n import N_, _
from ..errors import (AluetteError, BadSeatCodeError, IllegalMoveError, InputTooLongError, LostMovesError,
                      MalformedSaveError, NoSuchTableError, SeatElsewhereError, SeatStoodInError, SeatTakenError,
                      StaleStateError,
                      StoreError,
                      TableClosedError, TableError, TableNotReadyError, quoted)
from ..match import MATCH_VERSION, Match
from ..moves import Move, checked_move, move_from_json
from ..options import Options
from ..seats import SEATS, Seat, Team
from .db import Store, Transaction, open_store
from .names import check_not_like, clean_name, skeleton

__all__ = ["TableService", "TeacherDesk", "SeatTicket", "SeatInfo", "SeatState", "TableInfo", "TableSummary",
           "new_seat_code", "clean_table_name", "clean_player_name", "TABLE_NAME_LIMIT", "PLAYER_NAME_LIMIT",
           "SEAT_CODE_LENGTH", "CONNECTED_WITHIN", "TABLE_BOT_KINDS", "TABLE_IDLE", "MAX_OPEN_TABLES",
           "TABLES_PER_MINUTE", "SEAT_IDLE", "STUDENT_LIMIT"]

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
#: An open table with no move and no player seen for this many seconds closes itself (when a table is created).
TABLE_IDLE = 3600.0
#: At most this many open tables in the whole class.
MAX_OPEN_TABLES = 200
#: One page (one session) creates at most this many tables a minute.
TABLES_PER_MINUTE = 5
#: A person's seat not seen for this many seconds may be taken by another player (a decision of this project, the
#: sources being silent: 20 minutes, longer than a break between two deals or a lost connection, shorter than a
#: lesson). Its old code then tells its player so (:func:`_freed_text`).
SEAT_IDLE = 1200.0
#: How many freed seats a table remembers, to tell their old players why their code stopped.
_FREED_KEPT = 16

_SETTINGS = {"signals": True, "hints": True, "draw": False, "face_down": False}  # a table of a database written before the draw: none
#: What a bot's seat is called (:meth:`TableService._insert_bot`) and how a page may write it: no player's name.
_BOT_LABELS = tuple(label for s in SEATS for label in (f"bot {s.full_name}", f"bot {s}"))


# ---------------------------------------------------------------------- names and codes
def clean_table_name(value: Any) -> str:
    """A table name as stored and shown: NFKC-normalised, spaces collapsed, 1 to :data:`TABLE_NAME_LIMIT` letters,
    digits, spaces and ``- _ ' .``. Two names that differ only in case name the same table.

    Raises:
        InputTooLongError: too long. TableError: not text, empty, or another character.
    """
    return clean_name(value, N_("a table name"), TABLE_NAME_LIMIT)


def clean_player_name(value: Any) -> str:
    """A player's name, checked like a table name (:func:`clean_table_name`) with :data:`PLAYER_NAME_LIMIT`."""
    return clean_name(value, N_("a player's name"), PLAYER_NAME_LIMIT)


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


# A seat's session: the device that holds the seat now. Taking a seat, or coming back to it with its code, gives the
# page a new session (in its SeatTicket) and makes it the seat's, so the newest device holds the seat; a page whose
# session is no longer the seat's is refused (SeatElsewhereError) and says so. Kept in aluette_meta under the seat
# code's salted hash, which follows the player wherever the partnership draw seats them (no change of schema).
_SESSION_KEY = "seat_session:"


def _new_session() -> str:
    return secrets.token_hex(12)


def _hold_seat(tx: Transaction, digest: str, session: str) -> None:
    """Make ``session`` the seat's (the seat whose code hashes to ``digest``)."""
    _set_meta(tx, _SESSION_KEY + digest, session)


# A seat's student: who took the seat (or came back to it last), so that one student holds one seat of a table
# (issue 22: one student could hold all four). "Student" is what the app knows of a person: the browser session a page
# belongs to (Solara's session cookie, the same for every tab of one browser and across a reload; a Jupyter or Voilà
# kernel's own identity where there is no such cookie), passed by the page as ``student``; kept in aluette_meta
# under the seat code's hash, as the seat's session is, salted and hashed (the meta table never holds the
# identity itself). The sources are silent (they know no devices): a decision of this project. What it cannot
# stop: a student who opens a private window or a second browser is another student to the app (the idle seat's
# rule, SEAT_IDLE, then frees what they leave).
_STUDENT_KEY = "seat_student:"
#: The seats freed at a table (SEAT_IDLE): ``[[seat, salt, hash, freed_at], ...]``, the newest last, so that a code
#: of a freed seat is told why it stopped.
_FREED_KEY = "seats_freed:"
#: The longest student identity a page may pass.
STUDENT_LIMIT = 128


def _student_digest(student: Any) -> Optional[str]:
    """The stored form of a page's student identity (``None``: a caller without one, a script).

    Raises:
        TableError: not text of 8 to :data:`STUDENT_LIMIT` characters.
    """
    if student is None:
        return None
    if not isinstance(student, str) or not 8 <= len(student) <= STUDENT_LIMIT:
        raise TableError(f"a student's identity is text of 8 to {STUDENT_LIMIT} characters, got "
                         f"{quoted(student, 24)}")
    return hashlib.sha256(f"aluette-student:{student}".encode()).hexdigest()


def _one_seat_text(seat: Seat, table: str, player: str) -> str:
    """What a student reads who tries a second seat of a table: one seat per student (a decision of this project)."""
    return _("you already sit at {seat} at table {table} as {player}: one seat per student at a table (a rule of "
             "this app). Come back to your seat with its seat code; the table's first player may fill the empty "
             "seats with bots.").format(seat=seat, table=quoted(table), player=quoted(player))


def _freed_text(seat: Seat, table: str) -> str:
    """What the player of a freed seat reads when they come back with its old code."""
    return _("your seat {seat} at table {table} was freed: nobody saw your page there for {minutes} minutes, and "
             "another student took it (a rule of this app, so that a seat left is not lost to the table). Your seat "
             "code no longer works: take a free seat, or ask the teacher.").format(
        seat=seat, table=quoted(table), minutes=int(SEAT_IDLE // 60))


def _check_student(tx: Transaction, table: "_Table", mine: Optional[str], digests: dict) -> None:
    """Raises unless the student whose digest is ``mine`` holds none of the seats ``{seat: (code hash, player)}``."""
    if mine is None or not digests:
        return
    keys = {_STUDENT_KEY + digest: seat for seat, (digest, _player) in digests.items()}
    for key, value in tx.rows(f"SELECT key, value FROM aluette_meta WHERE key IN ({', '.join('?' * len(keys))})",
                              tuple(keys)):
        if hmac.compare_digest(value, mine):
            seat = keys[key]
            raise SeatTakenError(_one_seat_text(seat, table.name, digests[seat][1]))


def _set_meta(tx: Transaction, key: str, value: str) -> None:
    tx.run("INSERT INTO aluette_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
           (key, value))


def _freed_seat(tx: Transaction, table: "_Table", raw: str) -> Optional[Seat]:
    """The seat freed at ``table`` whose old code is ``raw``, or ``None``."""
    row = tx.one("SELECT value FROM aluette_meta WHERE key = ?", (f"{_FREED_KEY}{table.id}",))
    for seat, salt, digest, _at in json.loads(row[0]) if row is not None else ():
        if hmac.compare_digest(_code_hash(salt, raw), digest):
            return Seat(seat)
    return None


def _check_session(tx: Transaction, digest: str, session: Optional[str], seat: Seat, table: str) -> None:
    """Raises unless ``session`` (``None``: a caller without sessions, a script) is the seat's session."""
    if session is None:
        return
    held = tx.one("SELECT value FROM aluette_meta WHERE key = ?", (_SESSION_KEY + digest,))
    if held is not None and not hmac.compare_digest(held[0], str(session)[:64]):
        raise SeatElsewhereError(f"your seat {seat} at table {quoted(table)} was opened on another device with its "
                                 f"seat code: that device plays it now, and this page makes no more moves. To play "
                                 f"here again, come back to your seat with its seat code.")


# ---------------------------------------------------------------------- values handed out
@dataclass(frozen=True)
class SeatTicket:
    """A seat taken (or found again with its code).

    Attributes:
        table: the table's name. seat: the seat. player: the player's name.
        code: the seat code, to show to its player only (they need it to come back).
        session: the device's hold on the seat: the newest device to take the seat or come back to it holds it
            (pass it with each move; an older device's is refused with SeatElsewhereError).
    """

    table: str
    seat: Seat
    player: str
    code: str
    session: Optional[str] = None

    def __repr__(self) -> str:  # the code stays out of logs and tracebacks
        return f"SeatTicket(table={self.table!r}, seat={self.seat!r}, player={self.player!r}, code=...)"


@dataclass(frozen=True)
class SeatInfo:
    """One seat as everybody may see it.

    Attributes:
        seat: the seat. kind: ``"person"``, ``"bot"``, or ``None`` while empty. player: the name (a bot's is
        ``"bot North"``...), or ``None``.
        last_seen: when its player last read or moved (seconds since the epoch), ``None`` for bots and empty seats.
        connected: seen within :data:`CONNECTED_WITHIN` seconds (bots always are).
        stands_in_for: a bot the teacher put in a student's seat: that student's name (the teacher may give the
            seat back, :meth:`TeacherDesk.give_back`); ``None`` otherwise.
    """

    seat: Seat
    kind: Optional[str]
    player: Optional[str]
    last_seen: Optional[float]
    connected: bool
    stands_in_for: Optional[str] = None


@dataclass(frozen=True)
class TableInfo:
    """A table as the lobby shows it: who sits where and who is missing.

    Attributes:
        name: the table's name. seats: ``{seat: SeatInfo}``. host: the first player's seat, or ``None``.
        ready: all four seats are held. closed: the teacher closed it. settings: ``{"signals": bool, "hints": bool,
        "draw": bool, "face_down": bool}`` (``draw``: four people are seated by the partnership draw; ``face_down``:
        the pages stack the completed tricks face down). options: the match's rule options.
        draw: the partnership draw that seated the players (:class:`~aluette.draw.DrawResult`: every face-up card,
        public), or ``None`` (not yet, or none at this table).
    """

    name: str
    seats: Mapping[Seat, SeatInfo]
    host: Optional[Seat]
    ready: bool
    closed: bool
    settings: Mapping[str, bool]
    options: Options
    draw: Optional[DrawResult] = None

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
    target: Optional[int] = None


@dataclass(frozen=True)
class TableSummary:
    """A table as the teacher's page shows it: never a card.

    Attributes:
        name, seats, host, ready, closed: as :class:`TableInfo`. seq: log entries so far (the draw, each new deal
        and the bots' signals among them). moves: the moves made so far (what the teacher's page counts).
        deal_number: the deal.
        phase: the current deal's phase (``"play"``...). to_move: whose turn, or ``None``. scores: ``{Team: points}``.
        is_over: the match is over. winner: the winning partnership, ``None`` while playing or when drawn.
        problem: why the table cannot be read (its log does not replay: a damaged or edited database), else ``None``;
            such a table is listed with its seats and no match, so that it never hides the others.
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
    problem: Optional[str] = None
    moves: int = 0

    def to_dict(self) -> dict:
        """JSON-ready (for a page): seats as ``{"N": {...}}``, scores as ``{"NS": p, "EW": q}``."""
        return {"name": self.name, "host": _str(self.host), "ready": self.ready, "closed": self.closed,
                "seq": self.seq, "deal_number": self.deal_number, "phase": self.phase, "to_move": _str(self.to_move),
                "scores": {str(t): p for t, p in self.scores.items()}, "is_over": self.is_over,
                "winner": _str(self.winner), "problem": self.problem, "moves": self.moves,
                "seats": {str(s): {"kind": i.kind, "player": i.player, "last_seen": i.last_seen,
                                   "connected": i.connected, "stands_in_for": i.stands_in_for}
                          for s, i in self.seats.items()}}


def _str(value) -> Optional[str]:
    return None if value is None else str(value)


# ---------------------------------------------------------------------- a table held in memory
class _Table:
    """A session's copy of one table: its fixed settings, and its match replayed up to ``seq``."""

    def __init__(self, table_id: int, name: str, seed: int, first_dealer: Seat, options: Options, settings: dict):
        self.id, self.name, self.seed = table_id, name, seed
        self.first_dealer, self.options, self.settings = first_dealer, options, settings
        # a table opened before deal k came from the seed and k (MATCH_VERSION 2) has no "match_version": it goes on
        # dealing as it began
        self.match = Match(seed, first_dealer=first_dealer, options=options,
                           version=settings.get("match_version", 1))
        self.seq = 0
        self.moves = 0  # the players' and bots' moves among the log's entries (not the draw, a new deal, ...)
        self.draw: Optional[DrawResult] = None
        self.bot_signalled: set[int] = set()
        self.pending = 0  # entries applied in the open write transaction (the copy is dropped if it rolls back)

    def apply(self, body: Any, seat: Optional[Seat]) -> None:
        """Apply one log entry (raises before changing anything)."""
        if not isinstance(body, list) or len(body) != 3:
            raise MalformedSaveError(f"a log entry is [kind, seat, value], got {quoted(body)}")
        kind, match = body[0], self.match
        if kind == "draw":
            self.draw = _checked_draw(body, self)
        elif kind == "next_deal":
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
            self.moves += 1


def _bot(settings: Mapping[str, bool], seat: Seat) -> Bot:
    return make_bot("heuristic", seat, signals=settings["signals"])


#: The kinds of bot a table seats (:data:`aluette.players.drivers.BOT_KINDS`): a seat filled without a kind has a heuristic.
TABLE_BOT_KINDS = ("heuristic", "expert")
#: Choices of a bots' step made again when the table moved on while the bots chose (:meth:`TableService.step_bots`).
_BOT_ATTEMPTS = 5


def _bot_kinds(settings: Mapping[str, Any]) -> dict[str, str]:
    """``{seat: kind}`` of a table's bots from its settings in the database (``"bots"``; heuristic when absent)."""
    kinds = settings.get("bots")
    return {str(k): str(v) for k, v in kinds.items() if v in TABLE_BOT_KINDS} if isinstance(kinds, dict) else {}


def _check_bot_kind(kind: Any) -> str:
    if not isinstance(kind, str) or kind not in TABLE_BOT_KINDS:
        raise TableError(f"unknown kind of bot {quoted(kind)}; a table seats {' or '.join(TABLE_BOT_KINDS)} bots")
    return kind


def _set_bot_kind(tx: Transaction, table: "_Table", seats, kind: str) -> None:
    """Record in the table's settings that the bots at ``seats`` are of ``kind`` (in the transaction seating them)."""
    settings = json.loads(tx.one("SELECT settings FROM aluette_tables WHERE id = ?", (table.id,))[0])
    kinds = _bot_kinds(settings)
    kinds.update({str(s): kind for s in seats})
    settings["bots"] = kinds
    tx.run("UPDATE aluette_tables SET settings = ? WHERE id = ?", (json.dumps(settings), table.id))


def _bot_seed(seed: int, seq: int, seat: Seat) -> int:
    """The seed of the bot at ``seat`` choosing at log number ``seq`` of a table whose match has ``seed``: a one-way
    hash (as :func:`_draw_seed`), so that the bot's draws are reproducible but say nothing of the deal's cards."""
    return int.from_bytes(hashlib.sha256(f"aluette-bot:{seed}:{seq}:{seat}".encode()).digest()[:8], "big") >> 1


def _table_bot(kind: str, seat: Seat, seed: int, signals: bool) -> Bot:
    """The bot of ``kind`` at a table's ``seat``: a heuristic bot, or an expert
    (:class:`~aluette.analysis.expert.ExpertBot`, from :func:`aluette.players.drivers.make_bot`) seeded by ``seed``."""
    if kind == "expert":
        return make_bot("expert", seat, seed, signals=signals)
    return make_bot("heuristic", seat, signals=signals)


def _checked_draw(body: list, table: _Table) -> DrawResult:
    """The partnership draw a ``["draw", null, {"seed": s, "names": [...]}]`` entry records (raises before anything
    changes: a draw is the table's first entry, once)."""
    if table.seq != 0 or table.draw is not None:
        raise IllegalMoveError("the partnership draw is the table's first entry, once")
    given = body[2]
    if not isinstance(given, dict) or set(given) != {"seed", "names"}:
        raise MalformedSaveError(f"a draw entry is {{'seed': s, 'names': [...]}}, got {quoted(given)}")
    return partnership_draw(given["names"], check_seed(given["seed"]))


def _draw_seed(seed: int) -> int:
    """The draw's seed of a table whose match has ``seed``: its own (the draw's face-up cards say nothing of the
    deals), the same on every machine."""
    return int.from_bytes(hashlib.sha256(f"aluette-draw:{seed}".encode()).digest()[:8], "big") >> 1




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
        self._created: list[float] = []  # when this session created its tables of the last minute

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ tables
    def create_table(self, name: str, *, seed: Optional[int] = None, options: Optional[Options] = None,
                     first_dealer: Union[Seat, str] = Seat.N, signals: bool = True, hints: bool = True,
                     draw: bool = False, draw_seed: Optional[int] = None, face_down: bool = False) -> TableInfo:
        """Create a table.

        Args:
            name: its name (see :func:`clean_table_name`).
            seed: the match's seed; by default a fresh one from :mod:`secrets` (players must not know it: it deals
                every hand).
            options, first_dealer: the match's (see :class:`~aluette.match.Match`).
            signals: bots make signals. hints: the table allows hints (read by the page).
            draw: four people are seated by the partnership draw (see the module; the students' page opens its
                tables with it), else as they sit ([partners-chosen-option]). draw_seed: the draw's seed (default:
                one drawn from ``seed``).
            face_down: the completed tricks are stacked face down on every seat's page, as at a real table where
                remembering them is the skill (rules sheet, "gameplay": the trick won is stacked face down; pagat:
                « l'empile face cachée »): each page shows the last trick, the counts and who reached two and three
                tricks first (pagat's face-up cards), and the deal's history once it is over. One setting for the
                table, so that no player sees more than the others.

        Bounds, so that one page cannot fill the class's list (issue 22, §3): an open table with no move and no
        player seen for :data:`TABLE_IDLE` seconds closes itself; the name of a closed table, or of one whose
        match is over, may be given to a new table (the old one keeps its log, under a name no one can type); at
        most :data:`MAX_OPEN_TABLES` open tables in all and :data:`TABLES_PER_MINUTE` created a minute by one
        session (one page). A name that looks like an open table's (:func:`~aluette.store.names.skeleton`: "Salle
        А" with a Cyrillic "А" beside "Salle A") is refused, so that no table draws another's players.

        Raises:
            TableError: a bad name, an open table of that name whose match is not over, or a bound is reached. BadSeedError,
            AluetteError: bad seed or options.
        """
        name = clean_table_name(name)
        seed = secrets.randbits(63) if seed is None else check_seed(seed)
        options = Options.coerce(options)
        first_dealer = Seat.parse(first_dealer)
        settings = {"signals": _yes_no(signals, "signals"), "hints": _yes_no(hints, "hints"),
                    "draw": _yes_no(draw, "draw"), "face_down": _yes_no(face_down, "face_down"),
                    "match_version": MATCH_VERSION}
        if draw:
            settings["draw_seed"] = _draw_seed(seed) if draw_seed is None else check_seed(draw_seed)
        now = self._clock()
        recent = [t for t in self._created if now - t < 60.0]
        if len(recent) >= TABLES_PER_MINUTE:
            raise TableError(f"this page opened {TABLES_PER_MINUTE} tables in the last minute: join one of them, or "
                             f"wait a minute")

        def create(tx: Transaction):
            self._close_idle(tx, now)
            held = tx.one("SELECT id, closed_at FROM aluette_tables WHERE name_key = ?", (name.casefold(),))
            if held is not None:
                if held[1] is None and not self._refreshed(tx, int(held[0])).match.is_over:
                    raise TableError(f"a table named {quoted(name)} already exists: join it, or choose another "
                                     f"name")
                # over or closed: the old table keeps its log under a key no name reads to ("#" is never in one)
                tx.run("UPDATE aluette_tables SET name_key = ?, closed_at = COALESCE(closed_at, ?) WHERE id = ?",
                       (f"{name.casefold()}#{int(held[0])}", now, int(held[0])))
            looks = skeleton(name)
            for (other,) in tx.rows("SELECT name FROM aluette_tables WHERE closed_at IS NULL AND name_key <> ?",
                                    (name.casefold(),)):  # at most MAX_OPEN_TABLES
                if skeleton(other) == looks:
                    raise TableError(f"a table named {quoted(name)} would look like the open table {quoted(other)}: "
                                     f"join it, or choose a name the others can tell apart")
            if tx.one("SELECT COUNT(*) FROM aluette_tables WHERE closed_at IS NULL")[0] >= MAX_OPEN_TABLES:
                raise TableError(f"the class already has {MAX_OPEN_TABLES} open tables, as many as it keeps: join "
                                 f"one, or ask the teacher to close the old ones")
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
            self._created = [*recent, now]
        return self.table_info(name)

    def _close_idle(self, tx: Transaction, now: float) -> None:
        """Close the open tables with no move and no player seen for :data:`TABLE_IDLE` seconds."""
        since = now - TABLE_IDLE
        tx.run("UPDATE aluette_tables SET closed_at = ? WHERE closed_at IS NULL AND created_at < ? AND NOT EXISTS "
               "(SELECT 1 FROM aluette_moves m WHERE m.table_id = aluette_tables.id AND m.at >= ?) AND NOT EXISTS "
               "(SELECT 1 FROM aluette_seats s WHERE s.table_id = aluette_tables.id AND s.last_seen >= ?)",
               (now, since, since, since))

    def table_names(self) -> list[str]:
        """The names of the open tables, oldest first."""
        with self._lock, self.store.read() as tx:
            return [r[0] for r in tx.rows("SELECT name FROM aluette_tables WHERE closed_at IS NULL ORDER BY id")]

    def table_info(self, name: str) -> TableInfo:
        """Who sits where at table ``name``. Raises NoSuchTableError."""
        self._forget_name(name)
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            return self._info(tx, table)

    # ------------------------------------------------------------------ seats
    def take_seat(self, name: str, seat: Union[Seat, str], player: str, *,
                  student: Optional[str] = None) -> SeatTicket:
        """Take a free seat at table ``name`` as ``player``; the ticket holds the seat code to show to the player.
        The first player to sit becomes the table's host.

        Decisions of this project (the sources, which know no devices, are silent), so that one student cannot keep
        a table from the others (issue 22):

        * **One seat per student at a table.** ``student`` is what the page knows of its student: its browser
          session (see ``_STUDENT_KEY``); a student who holds a seat of the table (or whose seat a bot stands in
          for) is refused a second one, and told to come back to theirs. The table's first player fills the empty
          seats with bots (:meth:`fill_with_bots`), the one way to play with fewer than four. ``None`` (a script,
          a test): no check.
        * **A seat left is freed.** A seat whose player has not been seen for :data:`SEAT_IDLE` seconds (20
          minutes) may be taken by another student; its old seat code stops working, and tells its player why when
          they come back (:meth:`rejoin`, :meth:`seat_state`).

        Raises:
            SeatTakenError: the seat is held, or ``student`` holds another seat of the table. TableClosedError,
            NoSuchTableError. TableError: a bad player name or student identity.
        """
        seat = Seat.parse(seat)
        player = clean_player_name(player)
        mine = _student_digest(student)
        self._forget_name(name)
        code = new_seat_code()
        salt = secrets.token_hex(16)
        session = _new_session()

        def take(tx: Transaction, table: _Table) -> SeatTicket:
            now = self._clock()
            seated = {seat: (kind, player, seen, osalt, digest) for seat, kind, player, seen, osalt, digest in tx.rows(
                "SELECT seat, kind, player, COALESCE(last_seen, joined_at), code_salt, code_hash FROM aluette_seats "
                "WHERE table_id = ?", (table.id,))}
            idle = None
            if str(seat) in seated:
                kind, holder, seen, osalt, digest = seated.pop(str(seat))
                if kind == "person" and seen is not None and now - float(seen) > SEAT_IDLE:
                    idle = (osalt, digest)
                else:
                    who = "a bot" if kind == "bot" else quoted(holder)
                    raise SeatTakenError(f"seat {seat} at table {quoted(table.name)} is held by {who}; "
                                         f"choose a free seat (or come back to yours with its seat code)")
            _check_student(tx, table, mine, {Seat(s): (d, p) for s, (_k, p, _s, _o, d) in seated.items()
                                             if d is not None})
            check_not_like(player, [p for k, p, *_ in seated.values() if k == "person"], _BOT_LABELS)
            if idle is not None:  # its player has not been seen for SEAT_IDLE seconds: the seat is free, the old code
                self._free_seat(tx, table, seat, *idle, now)  # stops (and says why)
            tx.run("INSERT INTO aluette_seats (table_id, seat, kind, player, code_salt, code_hash, joined_at, "
                   "last_seen) VALUES (?, ?, 'person', ?, ?, ?, ?, ?)",
                   (table.id, str(seat), player, salt, _code_hash(salt, _read_code(code)), now, now))
            tx.run("UPDATE aluette_tables SET host_seat = ? WHERE id = ? AND host_seat IS NULL", (str(seat), table.id))
            _hold_seat(tx, _code_hash(salt, _read_code(code)), session)
            if mine is not None:
                _set_meta(tx, _STUDENT_KEY + _code_hash(salt, _read_code(code)), mine)
            self._seen[(table.id, seat)] = now
            return SeatTicket(table.name, self._draw_if_due(tx, table, seat), player, code, session)
        return self._write(name, take, conflict=lambda: SeatTakenError(f"seat {seat} at table {quoted(name)} was "
                                                                       f"just taken; choose a free seat"))

    def rejoin(self, name: str, code: str, *, student: Optional[str] = None) -> SeatTicket:
        """Come back to one's seat at table ``name`` with its seat code. This device then holds the seat (a new
        session in the ticket): a page of the seat open elsewhere is refused from its next read or move on.
        ``student`` (see :meth:`take_seat`): the seat is that student's from now on; a student who holds another
        seat of the table is refused (one seat per student).

        Raises:
            BadSeatCodeError: the code is no seat's of this table (or its seat was given to a bot, or freed after
            :data:`SEAT_IDLE` seconds unseen: the message says so). SeatTakenError: ``student`` holds another seat.
        """
        raw = _read_code(code)
        mine = _student_digest(student)
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            self._check_open(tx, table)
            for seat_text, kind, player, salt, digest in tx.rows(
                    "SELECT seat, kind, player, code_salt, code_hash FROM aluette_seats WHERE table_id = ? AND "
                    "code_hash IS NOT NULL", (table.id,)):
                if hmac.compare_digest(_code_hash(salt, raw), digest):
                    seat = Seat(seat_text)
                    if kind == "bot":
                        raise SeatStoodInError(_stood_in(seat, table.name))
                    break
            else:
                freed = _freed_seat(tx, table, raw)
                if freed is not None:
                    raise BadSeatCodeError(_freed_text(freed, table.name))
                raise BadSeatCodeError(f"that seat code is not the code of a player's seat at table "
                                       f"{quoted(table.name)}")
            others = {Seat(s): (d, p) for s, p, d in tx.rows(
                "SELECT seat, player, code_hash FROM aluette_seats WHERE table_id = ? AND code_hash IS NOT NULL",
                (table.id,)) if d != digest}
            _check_student(tx, table, mine, others)
        session = _new_session()
        with self._lock, self.store.write() as tx:
            _hold_seat(tx, digest, session)
            if mine is not None:
                _set_meta(tx, _STUDENT_KEY + digest, mine)
        self._touch(table.id, seat, force=True)
        return SeatTicket(table.name, seat, player, f"{raw[:5]}-{raw[5:]}", session)

    def fill_with_bots(self, name: str, seat: Union[Seat, str], code: str, *, kind: str = "heuristic",
                       session: Optional[str] = None) -> tuple[Seat, ...]:
        """The host (the table's first player, at ``seat`` with its ``code``) fills every empty seat with a bot of
        ``kind`` (:data:`TABLE_BOT_KINDS`: ``"heuristic"``, or ``"expert"``, the
        :class:`~aluette.analysis.expert.ExpertBot`); returns the seats filled.

        Raises:
            BadSeatCodeError: not the seat's code. TableError: ``seat`` is not the host's, or an unknown ``kind``.
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)
        kind = _check_bot_kind(kind)

        def fill(tx: Transaction, table: _Table) -> tuple[Seat, ...]:
            self._check_code(tx, table, seat, raw, session=session)
            host = tx.one("SELECT host_seat FROM aluette_tables WHERE id = ?", (table.id,))[0]
            if host != str(seat):
                raise TableError(f"only the table's first player ({host}) may fill the empty seats with bots")
            taken = {r[0] for r in tx.rows("SELECT seat FROM aluette_seats WHERE table_id = ?", (table.id,))}
            filled = tuple(s for s in SEATS if str(s) not in taken)
            for s in filled:
                self._insert_bot(tx, table, s)
            if filled:
                _set_bot_kind(tx, table, filled, kind)
            return filled
        return self._write(name, fill)

    # ------------------------------------------------------------------ moves
    def submit(self, name: str, seat: Union[Seat, str], code: str, move: Union[Move, list], *,
               after: Optional[int] = None, session: Optional[str] = None) -> int:
        """Make ``move`` for ``seat`` (holding its ``code``) at table ``name``; returns the move's number in the log.

        ``after`` is the log number of the state the move was chosen on (:attr:`SeatState.seq`): the move is then
        refused if anything but another seat's signal was logged since. Pages pass it, so that a seat sending a move
        from two kernels at once has exactly one accepted, even when the rules would take both in turn (a seat that
        wins a trick leads the next). ``session`` (the ticket's): the move is refused with SeatElsewhereError
        once the seat was opened on another device since (the newest device holds the seat).

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
            self._check_code(tx, table, seat, raw, session=session)
            self._check_ready(tx, table)
            self._check_fresh(tx, table, seat, after)
            return table.id, self._append(tx, table, seat, "person", move.to_json())
        table_id, seq = self._write(name, make)
        self._touch(table_id, seat)
        return seq

    def next_deal(self, name: str, seat: Union[Seat, str], code: str, *, session: Optional[str] = None) -> int:
        """A player (``seat`` with its ``code``) starts the next deal once the current one is over; returns the log
        number.

        Raises:
            WrongPhaseError: the deal is not over (another player may have started the next one just now).
            DealOverError: the match is over.
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)

        def start(tx: Transaction, table: _Table) -> int:
            self._check_code(tx, table, seat, raw, session=session)
            self._check_ready(tx, table)
            return self._append(tx, table, seat, "person", ["next_deal", str(seat), table.match.deal_number + 1])
        return self._write(name, start)

    def step_bots(self, name: str) -> list[int]:
        """Make the bots' next step at table ``name``, if one is due: the bots' signals of this deal once the hands
        are final, or the move of the bot whose turn it is, or (at a table of bots only) the next deal. Returns the
        log numbers written (empty when no bot has anything to do).

        The step is chosen outside the table's write transaction (an expert bot may think for a second): on a copy
        of the table's deal as this session read it, log number ``n``; then it is written in a transaction that
        first checks the log still ends at ``n``. If anything was logged meanwhile (a person's signal, a move of
        another session's bot, the next deal), the choice is dropped and made again on the new state, at most
        :data:`_BOT_ATTEMPTS` times (then nothing is written: the next change read tries again). So other pages'
        writes never wait for a bot's thinking, and no bot plays on a state older than the table's."""
        for _ in range(_BOT_ATTEMPTS):
            plan = self._bot_plan(name)
            if plan is None:
                return []
            seq, entries = plan

            def write(tx: Transaction, table: _Table) -> Optional[list[int]]:
                if table.seq != seq:
                    return None  # the table moved on while the bots chose: choose again on the new state
                return [self._append(tx, table, seat, actor, body) for seat, actor, body in entries]
            written = self._write(name, write)
            if written is not None:
                return written
        return []

    def _bot_plan(self, name: str) -> Optional[tuple[int, list[tuple[Optional[Seat], str, list]]]]:
        """``(n, entries)``: the bots' next step (:meth:`step_bots`) chosen on the table as read at log number ``n``,
        as the log entries to write, or ``None`` when no bot has anything to do. Only the read holds this session's
        lock and a read transaction; the bots choose on a copy of the deal, each from its own seat's view."""
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            bots = {Seat(r[0]) for r in tx.rows("SELECT seat FROM aluette_seats WHERE table_id = ? AND kind = 'bot'",
                                                (table.id,))}
            if not bots or not self._is_ready(tx, table):
                return None
            row = tx.one("SELECT settings FROM aluette_tables WHERE id = ?", (table.id,))
            kinds = _bot_kinds(json.loads(row[0]) if row is not None else {})
            match, seq = table.match, table.seq
            number, offered = match.deal_number, match.deal_number in table.bot_signalled
            awaiting, signals = match.awaiting_next_deal, table.settings["signals"]
            if awaiting:
                return (seq, [(None, "bot", ["next_deal", None, number + 1])]) if len(bots) == 4 else None
            players = {seat: _table_bot(kinds.get(str(seat), "heuristic"), seat, _bot_seed(table.seed, seq, seat),
                                        signals) for seat in bots}
            if any(kinds.get(str(seat)) == "expert" for seat in bots):
                deal = match.current.copy()  # an expert may think a while: on this copy, outside the lock
            else:  # heuristic bots choose at once: on the table's deal, under the lock
                step = next_bot_step(match.current, players, signals_offered=offered, signals=signals)
                deal = None
        if deal is not None:
            step = next_bot_step(deal, players, signals_offered=offered, signals=signals)
        if step is None:
            return None
        entries = [(d.seat, "bot", d.move.to_json()) for d in step.decisions]
        if step.signals:
            entries.append((None, "table", ["bot_signals", None, number]))
        return seq, entries

    def bots_due(self, name: str) -> bool:
        """Whether :meth:`step_bots` would write now, read without taking the table's write lock (so that the
        watcher of a table, :mod:`aluette.store.watch`, takes it only when a bot has something to do): the same
        policy, :func:`aluette.players.drivers.next_bot_step`, on this session's copy of the table."""
        with self._lock, self.store.read() as tx:
            table = self._refreshed(tx, self._table_id(tx, name))
            bots = {Seat(r[0]) for r in tx.rows("SELECT seat FROM aluette_seats WHERE table_id = ? AND kind = 'bot'",
                                                (table.id,))}
            if not bots or not self._is_ready(tx, table):
                return False
            match = table.match
            step = next_bot_step(match.current, {seat: _bot(table.settings, seat) for seat in bots},
                                 signals_offered=match.deal_number in table.bot_signalled,
                                 signals=table.settings["signals"])
            return step is not None or (match.awaiting_next_deal and len(bots) == 4)

    def touch_seats(self, table_id: int, seats) -> None:
        """Mark the people's ``seats`` of table number ``table_id`` as seen now (one write for all: the pages a
        process's watcher serves, :mod:`aluette.store.watch`)."""
        seats = sorted(str(Seat.parse(s)) for s in seats)
        if not seats:
            return
        now = self._clock()
        with self._lock, self.store.write() as tx:
            tx.run(f"UPDATE aluette_seats SET last_seen = ? WHERE table_id = ? AND kind = 'person' AND seat IN "
                   f"({', '.join('?' * len(seats))})", (now, int(table_id), *seats))

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

    def seat_state(self, name: str, seat: Union[Seat, str], code: str, *, known_seq: Optional[int] = None,
                   session: Optional[str] = None) -> SeatState:
        """What ``seat`` (holding its ``code``) may see of table ``name``: its own view of the current deal, and the
        public state of the match. Marks the seat as seen.

        ``known_seq``: the table's last log number as just read from the database (by the process's watcher,
        :mod:`aluette.store.watch`): not read again.

        Raises:
            BadSeatCodeError: not the seat's code. SeatElsewhereError: ``session`` is no longer the seat's (it was
            opened on another device since).
        """
        seat = Seat.parse(seat)
        raw = _read_code(code)
        with self._lock, self.store.read() as tx:
            table_id = self._table_id(tx, name)
            copy = self._tables.get(table_id)
            known = (known_seq if known_seq.__class__ is int and copy is not None and known_seq >= copy.seq
                     else None)
            table = self._refreshed(tx, table_id, known)
            rows = tx.rows(_SEAT_COLUMNS, (table.id,))
            mine = next((r for r in rows if r[0] == str(seat)), None)
            self._check_code(tx, table, seat, raw, None if mine is None else (mine[1], mine[4], mine[5]), session)
            info = self._info(tx, table, rows)
            match = table.match
            state = SeatState(
                info=info, seat=seat, seq=table.seq, deal_number=match.deal_number,
                deal_points=tuple(MappingProxyType(dict(d.result.points)) for d in match.deals
                                  if d.result is not None),
                scores=MappingProxyType(match.scores), is_over=match.is_over, winner=match.winner,
                awaiting_next_deal=match.awaiting_next_deal, view=match.view(seat),
                legal_signals=tuple(match.current.legal_signals(seat)), target=match.target)
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
    def _forget_name(self, name: Any) -> None:
        """Read ``name``'s table afresh at the next lookup: the lobby's calls, since a name once over may belong to a
        newer table (a seat's page keeps the table it plays at)."""
        with self._lock:
            self._ids.pop(clean_table_name(name).casefold(), None)

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

    def _refreshed(self, tx: Transaction, table_id: int, last_seq: Optional[int] = None) -> _Table:
        """This session's copy of the table, brought up to the database's log. ``last_seq`` is the table's log
        number when the caller read it already (a write reads it with the table's lock).

        The database's number is checked against the copy's before anything is written on it: a database that
        holds fewer entries than this session saw lost its last moves (a crashed server, a restored copy). The
        session then drops its copy, rebuilds the table from what the database holds, and says so once
        (:class:`~aluette.errors.LostMovesError`); it never writes past the gap.

        Raises:
            LostMovesError: the database lost entries this session had seen. StoreError: an entry does not replay.
        """
        table = self._tables.get(table_id)
        if table is None:
            table = self._tables[table_id] = self._load(tx, table_id)
            return table
        if last_seq is None:
            row = tx.one("SELECT last_seq FROM aluette_tables WHERE id = ?", (table_id,))
            if row is None:
                self._tables.pop(table_id, None)
                raise NoSuchTableError(f"there is no table number {table_id}")
            last_seq = int(row[0])
        if last_seq < table.seq:
            self._tables.pop(table_id, None)
            durable = self._tables[table_id] = self._load(tx, table_id)
            raise LostMovesError(
                f"table {quoted(table.name)}: the database lost the last {table.seq - durable.seq} move(s) (its "
                f"server stopped before saving them); the table is back at its last saved move ({durable.seq}): "
                f"look again and play on from there")
        if last_seq == table.seq:
            return table  # nothing new (the log is append-only, numbered without gaps)
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
                        table = self._refreshed(tx, table_id, int(locked[0]))
                        table.pending = 0
                        if locked[1] is not None:
                            raise TableClosedError(f"table {quoted(table.name)} is closed")
                        result = action(tx, table)
                        self.store.notify(tx, table.id, table.seq)  # seats too: the watchers read the table
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

    def _draw_if_due(self, tx: Transaction, table: _Table, seat: Seat) -> Seat:
        """At a table with the draw, once four people sit: the draw in the log, and everyone seated as it says (in
        the transaction of the fourth seat). Returns where the player who sat at ``seat`` sits now."""
        rows = tx.rows("SELECT seat, kind, player, code_salt, code_hash, joined_at, last_seen FROM aluette_seats "
                       "WHERE table_id = ?", (table.id,))
        if (not table.settings["draw"] or table.seq != 0 or len(rows) != 4
                or any(r[1] != "person" for r in rows)):
            return seat
        by_seat = {Seat(r[0]): r for r in rows}
        names = [by_seat[s][2] for s in SEATS]  # clockwise from N, who deals the face-up cards
        if len({n.casefold() for n in names}) != 4:  # two players of one name: the draw tells them apart by seat
            names = [f"{by_seat[s][2]} ({s})" for s in SEATS]
        self._append(tx, table, None, "table", ["draw", None, {"seed": table.settings["draw_seed"], "names": names}])
        moved = {old: table.draw.seat_of(names[SEATS.index(old)]) for old in SEATS}
        host = tx.one("SELECT host_seat FROM aluette_tables WHERE id = ?", (table.id,))[0]
        tx.run("DELETE FROM aluette_seats WHERE table_id = ?", (table.id,))
        for old, row in by_seat.items():
            tx.run("INSERT INTO aluette_seats (table_id, seat, kind, player, code_salt, code_hash, joined_at, "
                   "last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (table.id, str(moved[old]), *row[1:]))
        if host is not None:
            tx.run("UPDATE aluette_tables SET host_seat = ? WHERE id = ?", (str(moved[Seat(host)]), table.id))
        for old in SEATS:
            seen = self._seen.pop((table.id, old), None)
            if seen is not None:
                self._seen[(table.id, moved[old])] = seen
        return moved[seat]

    def _free_seat(self, tx: Transaction, table: _Table, seat: Seat, salt: str, digest: str, now: float) -> None:
        """Free a person's seat left for :data:`SEAT_IDLE` seconds: its row and its device and student go, and its
        code is remembered (the last :data:`_FREED_KEPT` of the table) to tell its player why it stopped."""
        tx.run("DELETE FROM aluette_seats WHERE table_id = ? AND seat = ?", (table.id, str(seat)))
        tx.run("DELETE FROM aluette_meta WHERE key IN (?, ?)", (_SESSION_KEY + digest, _STUDENT_KEY + digest))
        key = f"{_FREED_KEY}{table.id}"
        row = tx.one("SELECT value FROM aluette_meta WHERE key = ?", (key,))
        freed = [*(json.loads(row[0]) if row is not None else ()), [str(seat), salt, digest, now]]
        _set_meta(tx, key, json.dumps(freed[-_FREED_KEPT:]))

    def _insert_bot(self, tx: Transaction, table: _Table, seat: Seat) -> None:
        tx.run("INSERT INTO aluette_seats (table_id, seat, kind, player, joined_at) VALUES (?, ?, 'bot', ?, ?)",
               (table.id, str(seat), _bot_name(seat), self._clock()))

    def _check_open(self, tx: Transaction, table: _Table) -> None:
        if tx.one("SELECT closed_at FROM aluette_tables WHERE id = ?", (table.id,))[0] is not None:
            raise TableClosedError(f"table {quoted(table.name)} is closed")

    def _check_code(self, tx: Transaction, table: _Table, seat: Seat, raw: str,
                    row: Optional[tuple] = None, session: Optional[str] = None) -> None:
        """Raises unless ``raw`` is the code of ``seat`` (and ``session``, when given, the seat's session:
        SeatElsewhereError); ``row`` is the seat's ``(kind, salt, hash)`` when already read."""
        if row is None:
            row = tx.one("SELECT kind, code_salt, code_hash FROM aluette_seats WHERE table_id = ? AND seat = ?",
                         (table.id, str(seat)))
        if row is None or row[0] is None:
            raise BadSeatCodeError(f"seat {seat} at table {quoted(table.name)} is empty: take it first")
        if row[0] != "person":
            if row[2] is not None and hmac.compare_digest(_code_hash(row[1], raw), row[2]):
                raise SeatStoodInError(_stood_in(seat, table.name))
            raise BadSeatCodeError(f"seat {seat} at table {quoted(table.name)} is played by a bot")
        if not hmac.compare_digest(_code_hash(row[1], raw), row[2]):
            if _freed_seat(tx, table, raw) is not None:
                raise BadSeatCodeError(_freed_text(seat, table.name))
            raise BadSeatCodeError(f"that is not the seat code of {seat} at table {quoted(table.name)}")
        _check_session(tx, row[2], session, seat, table.name)

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
                         settings=MappingProxyType({k: v for k, v in table.settings.items() if k in _SETTINGS}),
                         options=table.options, draw=table.draw)

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
    """The four seats' :class:`SeatInfo` from ``rows`` of :data:`_SEAT_COLUMNS` (read when ``None``). A bot's row
    that keeps a seat code stands in for the student named in it (:meth:`TeacherDesk.replace_with_bot`)."""
    rows = {Seat(r[0]): (r[1], r[2], r[3], r[5]) for r in (tx.rows(_SEAT_COLUMNS, (table_id,)) if rows is None
                                                          else rows)}
    infos = {}
    for seat in SEATS:
        kind, player, seen, digest = rows.get(seat, (None, None, None, None))
        connected = kind == "bot" or (seen is not None and now - seen <= CONNECTED_WITHIN)
        stand_in = player if kind == "bot" and digest is not None else None
        if stand_in is not None:
            player = _bot_name(seat)
        infos[seat] = SeatInfo(seat, kind, player, seen, connected, stand_in)
    return MappingProxyType(infos)


def _bot_name(seat: Seat) -> str:
    return f"bot {seat.full_name}"


def _stood_in(seat: Seat, table: str) -> str:
    """What a student reads whose seat the teacher gave to a bot."""
    return _("the teacher gave your seat {seat} at table {table} to a bot, which plays it now; ask the teacher to "
             "give it back, then come back with this same seat code").format(seat=seat, table=quoted(table))


def _check_after(after: Any) -> Optional[int]:
    if after is not None and (after.__class__ is not int or after < 0):
        raise TableError(f"after is a log number (a whole number from 0), got {quoted(after)}")
    return after


def _yes_no(value: Any, what: str) -> bool:
    if value.__class__ is not bool:
        raise TableError(f"{what} is True or False, got {quoted(value)}")
    return value


class TeacherDesk:
    """The teacher's view of every table of a database: summaries without cards, bots for absent students and the
    seats given back, closing tables. Used by the teacher's page only (never reachable from the students' pages).

    Args:
        service: the :class:`TableService` to read through (default: one on :func:`~aluette.store.db.open_store`).
    """

    def __init__(self, service: Optional[TableService] = None):
        self.service = service if service is not None else TableService()

    def summary(self, *, closed: bool = False, finished: bool = True) -> list[TableSummary]:
        """Every open table (and the closed ones with ``closed=True``; without the finished matches with
        ``finished=False``), oldest first: seats and who is connected, the deal, the phase, whose turn, the scores;
        never a card."""
        service = self.service
        out = []
        with service._lock, service.store.read() as tx:
            rows = tx.rows("SELECT id, host_seat, closed_at, name, last_seq FROM aluette_tables ORDER BY id")
            now = service._clock()
            for table_id, host, closed_at, name, last_seq in rows:
                if closed_at is not None and not closed:
                    continue
                try:
                    table = service._refreshed(tx, int(table_id))
                except StoreError as error:  # one damaged table never hides the others
                    seats = _seat_infos(tx, int(table_id), now)
                    out.append(TableSummary(
                        name=name, seats=seats, host=None if host is None else Seat(host),
                        ready=all(i.kind is not None for i in seats.values()), closed=closed_at is not None,
                        seq=int(last_seq), deal_number=0, phase="damaged", to_move=None,
                        scores=MappingProxyType({Team.NS: 0, Team.EW: 0}), is_over=False, winner=None,
                        problem=str(error)))
                    continue
                match = table.match
                if match.is_over and not finished:
                    continue
                seats = _seat_infos(tx, table.id, now)
                out.append(TableSummary(
                    name=table.name, seats=seats, host=None if host is None else Seat(host),
                    ready=all(i.kind is not None for i in seats.values()), closed=closed_at is not None,
                    seq=table.seq, deal_number=match.deal_number, phase=match.current.phase.value,
                    to_move=match.to_move, scores=MappingProxyType(match.scores), is_over=match.is_over,
                    winner=match.winner, moves=table.moves))
        return out

    def replace_with_bot(self, name: str, seat: Union[Seat, str], *, kind: str = "heuristic") -> None:
        """Give ``seat`` of table ``name`` to a bot of ``kind`` (``"heuristic"`` or ``"expert"``, as
        :meth:`TableService.fill_with_bots`): an absent student's seat, or an empty one. The student's seat code
        stops working until the teacher gives the seat back (:meth:`give_back`); the sessions of the table drive the
        bot meanwhile (:meth:`TableService.step_bots`).

        Raises:
            TableError: the seat is already a bot's, or an unknown ``kind``.
        """
        seat = Seat.parse(seat)
        kind = _check_bot_kind(kind)
        service = self.service

        def replace(tx: Transaction, table: _Table) -> None:
            row = tx.one("SELECT kind FROM aluette_seats WHERE table_id = ? AND seat = ?", (table.id, str(seat)))
            if row is not None and row[0] == "bot":
                raise TableError(f"seat {seat} at table {quoted(table.name)} is already played by a bot")
            if row is None:
                service._insert_bot(tx, table, seat)
            else:  # the student's name and code stay in the row, for give_back
                tx.run("UPDATE aluette_seats SET kind = 'bot', last_seen = NULL WHERE table_id = ? AND seat = ?",
                       (table.id, str(seat)))
            _set_bot_kind(tx, table, [seat], kind)
        service._write(name, replace)

    def give_back(self, name: str, seat: Union[Seat, str], *, new_code: bool = False) -> Optional[SeatTicket]:
        """Undo :meth:`replace_with_bot`: the bot leaves ``seat`` of table ``name``.

        * A bot standing in for a student (:attr:`SeatInfo.stands_in_for`): the seat is that student's again and
          their seat code works again (returns ``None``); with ``new_code``, a new code replaces it (the student lost
          theirs) and the returned ticket holds it, for the teacher to give to that student only.
        * A bot in a seat no student held (the host's or the teacher's filling): the seat is free again, for a
          student to take on their page (returns ``None``).
        * A student's seat with ``new_code``: a new code for it (the old one stops working), in the returned ticket.

        The match goes on from where it is: the moves the bot made stay.

        Raises:
            TableError: the seat is empty, or a student's and ``new_code`` is false. TableClosedError,
            NoSuchTableError.
        """
        seat = Seat.parse(seat)
        new_code = _yes_no(new_code, "new_code")
        service = self.service

        def give(tx: Transaction, table: _Table) -> Optional[SeatTicket]:
            row = tx.one("SELECT kind, player, code_hash FROM aluette_seats WHERE table_id = ? AND seat = ?",
                         (table.id, str(seat)))
            where = f"seat {seat} at table {quoted(table.name)}"
            if row is None:
                raise TableError(f"{where} is empty: a student takes it on their page")
            kind, player, digest = row
            if kind == "person" and not new_code:
                raise TableError(f"{where} is {quoted(player)}'s already")
            if kind == "bot" and digest is None:
                if new_code:
                    raise TableError(f"{where} was never a student's: give it back to free it, then a student "
                                     f"takes it and gets a code")
                tx.run("DELETE FROM aluette_seats WHERE table_id = ? AND seat = ?", (table.id, str(seat)))
                return None
            tx.run("UPDATE aluette_seats SET kind = 'person' WHERE table_id = ? AND seat = ?", (table.id, str(seat)))
            if not new_code:
                return None
            code, salt = new_seat_code(), secrets.token_hex(16)
            tx.run("UPDATE aluette_seats SET code_salt = ?, code_hash = ? WHERE table_id = ? AND seat = ?",
                   (salt, _code_hash(salt, _read_code(code)), table.id, str(seat)))
            return SeatTicket(table.name, seat, player, code)
        return service._write(name, give)

    def close_table(self, name: str) -> None:
        """Close table ``name``: it takes no seat and no move any more; its log stays.

        Raises:
            TableClosedError: it is closed already.
        """
        def close(tx: Transaction, table: _Table) -> None:
            tx.run("UPDATE aluette_tables SET closed_at = ? WHERE id = ?", (self.service._clock(), table.id))
        self.service._write(name, close)
