"""Sichuan 血战到底 settlement: a zero-sum `Ledger` built event by event as a hand unfolds.

The game engine owns one `SichuanSettlement` per hand and calls it at each paying event:

    settlement = SichuanSettlement(rules)
    settlement.kong(2, "concealed", tile="5p")                 # 下雨: seats 0, 1, 3 pay 2 base each
    settlement.kong(1, "direct", tile="7m", discarder=3)       # 刮风: seat 3 pays 2 base
    settlement.discard_win(3, {0: score_0})                    # 点炮: seat 3 pays seat 0
    settlement.self_drawn_win(2, score_2)                         # 自摸: seats 1 and 3 pay
    settlement.leave(0, wall_left=30)                          # 逃跑: seat 0 pays 16 base to 1 and 3
    settlement.drawn_hand({1: hand_1, 3: hand_3}, void_suits={1: "m", 3: "p"})  # 流局
    settlement.ledger                                          # every Transfer, in order

Rules (RULES.md §2):
- Kongs pay at once (刮风下雨). Direct kong (直杠): the discarder pays 2 base (`direct_kong="chengbao"`;
  "jiajiayou" adds 1 base from every other player still in the hand). Added kong (面下杠): every
  other player still in the hand pays 1 base. Concealed kong (暗杠/下雨): each of them pays 2 base.
- 抢杠胡: an added kong that is robbed never happened. The engine records an added kong with
  `kong()` only once the robbing window has closed with no robber; a robbery is recorded as
  `discard_win(robbed_player, wins)` with scores made with `robbed_kong=True` — the robbed player
  pays as a discarder, and no kong payment is ever made (nothing to reverse).
- A discard win (several winners allowed: each is settled separately, in turn order from the
  discarder): the discarder pays each winner `score.payment` (= points).
- 呼叫转移: when the winners' scores say `after_kong_discard` (杠上炮), the income of the discarder's
  kong — the last event recorded, as nobody else acts between a kong and the discard after its
  replacement draw — goes to the winners: for each winner and each payment of that kong, the discarder pays the
  winner the same amount (reason "call_transfer", `ref` = that payment). With several winners each
  receives the full income (胡家给多份). Such a kong is no longer the discarder's, so 退税 skips it.
- A self-draw: every other player still in the hand pays `score.payment` (points with `zimo_bonus`).
- Winners leave the hand: they neither pay nor receive for later kongs and wins, and take no part in
  the wall-end checks. The hand ends when all but one player have won, or at the wall's end.
- Wall end with two or more players not yet won (流局), in this order: 查花猪 — each flower pig (three
  suits) pays 16 base to every non-pig player still in the hand; 查大叫 — each non-ready, non-pig
  player pays each ready player that player's `best_ready_value` points; 退税 — each non-ready
  player (pigs included) refunds every payment of their (not transferred) kongs to its payer
  (`ref` = the payment), also to payers who have since won unless `refund_to_winners=False`, never
  to a player who left. `dead_waits_ready=False` drops waits every copy of which the player sees
  (`seen=`).
- 普通场 (`blood_battle=False`): the first win (one discard may have several winners) ends the hand.
- 逃跑/强退 (`leave`): a player leaves for good. What was paid stands; the leaver pays
  `escape_penalty` × base to each other player still in the hand ("escape"); when the leaver had not
  won and the wall holds `escape_ready_check_last` tiles or fewer, the others' 查大叫 against it (each
  ready player's best value, whether or not the leaver was ready) is computed too and the higher
  total is charged instead ("escape_not_ready"). A leaver neither pays nor receives afterwards
  and gets no 退税; a winner who leaves (血战) keeps what it won, but its credit is `deferred` —
  paid out only when the hand ends. The hand goes on for the others (`escape_ends_hand=False`) until
  fewer than two are still playing.

Every method validates its whole event before it records anything: a bad event raises
`IllegalActionError` (or InvalidHandError for a bad hand) and leaves the settlement unchanged.
`settle(events, rules)` replays a list of event objects (for tests and logs).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

from mahjong_core import _core
from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidHandError, RulesError
from mahjong_core.rules.records import frozen_record
from mahjong_core.tiles import Forms, Tile, tile_from_str

from ..ledger import Ledger, Transfer, wins_by_seat
from .hand import as_hand, check_void_suit, suits_held
from .rules import Rules
from .scoring import SichuanScore, best_ready_value

__all__ = [
    "KongKind", "KongRecord", "WallEndReport", "LeaveReport", "SichuanSettlement", "settle", "REASONS", "FLOWER_PIG_BASES",
    "KongEvent", "DiscardWinEvent", "SelfDrawEvent", "WallEndEvent", "LeaveEvent", "Event",
]

FLOWER_PIG_BASES = 16
"""查花猪: a flower pig pays this many base to each non-pig player still in the hand."""

# Transfer reasons (the `reason` of every Transfer written here) and their Chinese names.
REASONS: Dict[str, str] = {
    "discard_win": "点炮",
    "robbed_kong_win": "抢杠胡",
    "self_draw": "自摸",
    "direct_kong": "直杠",
    "added_kong": "面下杠",
    "concealed_kong": "暗杠",
    "call_transfer": "呼叫转移",
    "flower_pig": "查花猪",
    "not_ready": "查大叫",
    "kong_refund": "退税",
    "escape": "逃跑",
    "escape_not_ready": "逃跑查大叫",
}


class KongKind(Enum):
    """DIRECT 直杠 (on a discard), ADDED 面下杠 (to one's own pung), CONCEALED 暗杠 (下雨)."""

    DIRECT = "direct"
    ADDED = "added"
    CONCEALED = "concealed"

    @property
    def reason(self) -> str:
        return f"{self.value}_kong"


@dataclass(frozen=True)
class KongRecord:
    """A kong that was paid: who made it, what kind, the tile (if given), who fed it (direct kongs)
    and the ledger indices of its payments."""

    player: int
    kind: KongKind
    tile: Optional[Tile]
    discarder: Optional[int]
    payments: Tuple[int, ...]


@dataclass(frozen=True)
class WallEndReport:
    """What the wall-end checks found: the flower pigs, each ready player's best value (查大叫), the
    players who were not ready (pigs included), and the ledger indices written."""

    pigs: Tuple[int, ...]
    ready: Mapping[int, SichuanScore]
    not_ready: Tuple[int, ...]
    entries: Tuple[int, ...]

    def __reduce__(self) -> Any:
        # pickle and deepcopy (a finished game's clone): a read-only mapping cannot be pickled as is
        return _read_only_fields, (WallEndReport, (self.pigs, dict(self.ready), self.not_ready, self.entries), (1,))


@dataclass(frozen=True)
class LeaveReport:
    """What a player's leaving (逃跑/强退) charged: `penalty` — escape_penalty × base to each payee;
    `not_ready` — the others' 查大叫 values against the leaver ({seat: points}; empty when the
    check did not apply); `charged` — "escape" or "escape_not_ready", the one recorded (the higher
    total; "escape" on a tie); `deferred_credit` — a winner's net gain, paid out only at the hand's
    end; `entries` — the ledger indices written."""

    seat: int
    was_winner: bool
    penalty: Mapping[int, int]
    not_ready: Mapping[int, int]
    charged: str
    deferred_credit: int
    entries: Tuple[int, ...]

    def __reduce__(self) -> Any:
        # as WallEndReport's
        return _read_only_fields, (LeaveReport, (self.seat, self.was_winner, dict(self.penalty), dict(self.not_ready),
                                                 self.charged, self.deferred_credit, self.entries), (2, 3))


def _read_only_fields(cls: Any, values: Tuple[Any, ...], mappings: Tuple[int, ...]) -> Any:
    """`cls(*values)` with the fields at the positions `mappings` made read-only mappings again (the
    unpickling side of the reports' `__reduce__`)."""
    return cls(*[MappingProxyType(v) if i in mappings else v for i, v in enumerate(values)])


# ---------------------------------------------------------------------------------------------
# Events (for `settle` and `SichuanSettlement.apply`)

@dataclass(frozen=True)
class KongEvent:
    player: int
    kind: Union[KongKind, str]
    tile: Any = None
    discarder: Optional[int] = None


@dataclass(frozen=True)
class DiscardWinEvent:
    discarder: int
    wins: Mapping[int, SichuanScore]


@dataclass(frozen=True)
class SelfDrawEvent:
    winner: int
    score: SichuanScore


@dataclass(frozen=True)
class WallEndEvent:
    hands: Mapping[int, Any]
    void_suits: Optional[Mapping[int, Optional[str]]] = None
    seen: Optional[Mapping[int, Sequence[int]]] = None


@dataclass(frozen=True)
class LeaveEvent:
    seat: int
    hands: Optional[Mapping[int, Any]] = None
    void_suits: Optional[Mapping[int, Optional[str]]] = None
    wall_left: Optional[int] = None
    seen: Optional[Mapping[int, Sequence[int]]] = None


Event = Union[KongEvent, DiscardWinEvent, SelfDrawEvent, WallEndEvent, LeaveEvent]


# Hot-path helpers (each runs at every kong or at the end of most hands).

_KONG_KIND_OF: Dict[str, KongKind] = {k.value: k for k in KongKind}
_KONG_REASONS: Dict[KongKind, str] = {k: k.reason for k in KongKind}
_TILES: Tuple[Tile, ...] = tuple(Tile(i) for i in range(34))
_FIRST_HONOUR = int(Tile.EAST)
#: _OTHERS_IN_TURN[seats][start]: every other seat in turn order after `start`
_OTHERS_IN_TURN = {n: tuple(tuple((start + k) % n for k in range(1, n)) for start in range(n)) for n in (2, 3, 4)}
#: _TURN_RANKS[seats][start][seat] = (seat - start - 1) % seats
_TURN_RANKS = {n: tuple(tuple((s - start - 1) % n for s in range(n)) for start in range(n)) for n in (2, 3, 4)}


# ---------------------------------------------------------------------------------------------

class SichuanSettlement:
    """The running settlement of one Sichuan hand (see the module docstring for the rules).

    Attributes: `rules`, `seats`, `ledger` (a `Ledger`), `won` (seats in the order they won),
    `left` (seats that left, 逃跑), `in_hand` (seats not yet won and not left), `kongs` (every paid
    `KongRecord`), `deferred` ({seat: credit} of winners who left, paid at the end), `finished`.
    """

    def __init__(self, rules: Optional[Rules] = None, *, seats: int = 4) -> None:
        if rules is None or isinstance(rules, (str, dict)):
            rules = Rules.resolve(rules)
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a sichuan Rules or a preset name, got {type(rules).__name__}")
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
            raise InvalidArgumentError(f"seats must be 2..4, got {seats!r}")
        self.rules = rules
        self.seats = seats
        self.ledger = Ledger(seats)
        self._won: List[int] = []
        self._kongs: List[KongRecord] = []
        self._transferred: Set[int] = set()  # indices into _kongs whose income went to 杠上炮 winners
        self._last_kong_event: Optional[KongRecord] = None  # the kong recorded by the latest event
        self._wall_ended = False
        self._left: List[int] = []
        self._deferred: Dict[int, int] = {}
        self._ended_by_escape = False
        self._in_hand: Tuple[int, ...] = tuple(range(seats))  # seats not in _won nor _left (see _drop)
        self._turn_rank = _TURN_RANKS[seats]  # _turn_rank[start][seat]: seat's place in turn order after start

    # -- state ---------------------------------------------------------------------------------

    @property
    def won(self) -> Tuple[int, ...]:
        return tuple(self._won)

    @property
    def left(self) -> Tuple[int, ...]:
        return tuple(self._left)

    @property
    def deferred(self) -> Mapping[int, int]:
        return MappingProxyType(dict(self._deferred))

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_in_hand" not in state:  # pickled before `in_hand` was kept as a field: derive it
            self._turn_rank = _TURN_RANKS[self.seats]
            self._drop()

    @property
    def in_hand(self) -> Tuple[int, ...]:
        return self._in_hand

    def _drop(self) -> None:
        """Recompute `in_hand` after `_won` or `_left` changed (the only places that change them)."""
        won, left = self._won, self._left
        self._in_hand = tuple([s for s in range(self.seats) if s not in won and s not in left])

    @property
    def kongs(self) -> Tuple[KongRecord, ...]:
        return tuple(self._kongs)

    @property
    def finished(self) -> bool:
        """The wall-end checks ran, fewer than two players are still playing (血战), the first win
        was recorded (普通场, `blood_battle=False`), or a leave ended it (`escape_ends_hand`)."""
        if self._wall_ended or self._ended_by_escape or len(self._in_hand) < 2:
            return True
        return bool(self._won) and not self.rules.blood_battle

    def totals(self) -> List[int]:
        """Net result per seat so far (sums to zero)."""
        return self.ledger.totals()

    # -- events --------------------------------------------------------------------------------

    def kong(self, player: int, kind: Union[KongKind, str], *, tile: Any = None,
             discarder: Optional[int] = None) -> KongRecord:
        """Record a kong and its payments (刮风下雨); returns the `KongRecord`.

        `kind`: "direct" (直杠; `discarder` = the seat whose discard was konged), "added" (面下杠;
        call only after nobody robbed it) or "concealed" (暗杠). `tile`: optional, for the record.
        """
        return self._kong(player, kind, tile, discarder)

    def _kong(self, player: int, kind: Union[KongKind, str], tile: Any, discarder: Optional[int]) -> KongRecord:
        """`kong` with every argument positional: the game engine's call at each kong (from compiled
        code a keyword argument costs a dict per call)."""
        self._check_open()
        kind = _kong_kind(kind)
        self._check_in_hand(player, "the kong player")
        if kind == KongKind.DIRECT:
            if discarder is None:
                raise IllegalActionError("a direct kong (直杠) needs the discarder whose tile was konged")
            self._check_in_hand(discarder, "the discarder")
            if discarder == player:
                raise IllegalActionError(f"seat {player} cannot kong their own discard")
        elif discarder is not None:
            raise IllegalActionError(f"only a direct kong has a discarder; a {kind.value} kong is the player's own")
        kong_tile = None if tile is None else _as_tile(tile)
        dues = self._kong_dues(player, kind, discarder)
        reason = _KONG_REASONS[kind]
        transfers = [Transfer(payer, player, amount, reason) for payer, amount in dues]
        record = frozen_record(KongRecord, player, kind, kong_tile, discarder, self._commit(transfers))
        self._kongs.append(record)
        self._last_kong_event = record
        return record

    def discard_win(self, discarder: int, wins: Union[Mapping[int, SichuanScore], Iterable[Tuple[int, SichuanScore]]]
                       ) -> Tuple[int, ...]:
        """Record a win on `discarder`'s discard (or robbed kong) by one or more players.

        `wins`: {winner seat: SichuanScore}, each scored as a discard win; all made with the same
        `after_kong_discard` (杠上炮 → 呼叫转移) and `robbed_kong` (抢杠胡) flags. Returns the ledger
        indices written.
        """
        self._check_open()
        wins = wins_by_seat(wins)
        self._check_in_hand(discarder, "the discarder")
        if not wins:
            raise IllegalActionError("a discard win needs at least one winner")
        for seat, value in wins.items():
            self._check_in_hand(seat, "a winner")
            if seat == discarder:
                raise IllegalActionError(f"seat {seat} cannot win on their own discard")
            self._check_score(value, False)
        flags = {(v.after_kong_discard, v.robbed_kong) for v in wins.values()}
        if len(flags) > 1:
            raise IllegalActionError("winners on one discard must agree on after_kong_discard and robbed_kong")
        after_kong, robbed = flags.pop()
        if robbed:
            self._check_not_a_recorded_robbed_kong(discarder, wins)
        transferred = self._kong_for_call_transfer(discarder) if after_kong else None
        if not self.rules.call_transfer:
            transferred = None  # 呼叫转移 switched off: the kong player keeps the income
        reason = "robbed_kong_win" if robbed else "discard_win"
        transfers: List[Transfer] = []
        order = self._turn_order(discarder, wins)
        for seat in order:
            transfers.append(Transfer(discarder, seat, wins[seat].payment, reason))
            if transferred is not None:
                transfers.extend(Transfer(discarder, seat, self.ledger[e].amount, "call_transfer", e)
                                 for e in self._kongs[transferred].payments)
        entries = self._commit(transfers)
        if transferred is not None:
            self._transferred.add(transferred)
        self._won.extend(order)
        self._drop()
        self._last_kong_event = None
        return entries

    def self_drawn_win(self, winner: int, score: SichuanScore) -> Tuple[int, ...]:
        """Record a self-drawn win (自摸, 杠上花, 天胡, 地胡): every other player still in the hand pays
        `score.payment`. Returns the ledger indices written."""
        self._check_open()
        self._check_in_hand(winner, "the winner")
        self._check_score(score, True)
        payers = self._others_in_turn(winner)
        entries = self._commit([Transfer(payer, winner, score.payment, "self_draw") for payer in payers])
        self._won.append(winner)
        self._drop()
        self._last_kong_event = None
        return entries

    def drawn_hand(self, hands: Mapping[int, Any], void_suits: Optional[Mapping[int, Optional[str]]] = None,
                   *, seen: Optional[Mapping[int, Sequence[int]]] = None) -> WallEndReport:
        """The wall is empty with two or more players not yet won (流局): 查花猪, 查大叫, 退税.

        `hands`: {seat: hand} for exactly the seats still in the hand, each a waiting hand (13 −
        3·melds concealed tiles, melds included; anything `score` accepts). `void_suits`: {seat:
        "m" | "p" | "s"}, the players' 定缺 suits (a hand holding a void tile cannot be ready).
        `seen`: {seat: 34 counts} of the copies each player sees outside its own hand (rivers, other
        players' melds, won tiles); read only under `dead_waits_ready=False`, where a wait every
        copy of which is in the player's hand or seen does not make it ready.
        """
        self._check_open()
        players = self.in_hand
        _require_mapping(hands, "hands", "{seat: hand}")
        if set(hands) != set(players):
            raise IllegalActionError(
                f"drawn_hand needs the hands of exactly the seats still in the hand {list(players)}, "
                f"got seats {sorted(hands)}")
        voids = self._void_suits(void_suits)
        dead = self._dead_waits(players, hands, seen)
        # One pass over the players (this runs at the end of most hands): each hand is checked once
        # (_waiting_hand); the suits held decide 花猪 (is_flower_pig's test) and the cheap cases of
        # 查大叫 without scoring.
        parsed = [_waiting_hand(seat, hands[seat]) for seat in players]
        pigs_list: List[int] = []
        ready: Dict[int, SichuanScore] = {}
        for seat, hand in zip(players, parsed):
            suits = suits_held(hand)
            if len(suits) == 3:
                pigs_list.append(seat)
                continue
            value = _ready_value(hand, suits, voids.get(seat), self.rules, dead.get(seat, ()))
            if value is not None:
                ready[seat] = value
        return self._wall_end(players, tuple(pigs_list), ready)

    def _wall_end(self, players: Sequence[int], pigs: Tuple[int, ...], ready: Dict[int, SichuanScore]
                  ) -> WallEndReport:
        """The wall-end payments once 查花猪/查大叫 have found the `pigs` and the `ready` players'
        values (`players`: `in_hand`): `drawn_hand`'s second half. The game engine calls it directly
        with what it classified from its own checked state (`SichuanGame._settle_exhausted`), so the
        payments stay here, in one place."""
        not_ready = tuple([s for s in players if s not in ready])
        # (this ends most hands: each kind of payment is looked at only when it can be due)
        transfers = self._flower_pig_dues(players, pigs) if pigs else []
        if ready and len(ready) + len(pigs) < len(players):
            transfers += self._not_ready_dues(players, pigs, ready)
        if self._kongs:
            transfers += self._kong_refunds(not_ready)
        entries = self._commit(transfers) if transfers else ()
        self._wall_ended = True
        return frozen_record(WallEndReport, pigs, MappingProxyType(ready), not_ready, entries)

    def leave(self, seat: int, hands: Optional[Mapping[int, Any]] = None,
              void_suits: Optional[Mapping[int, Optional[str]]] = None, *, wall_left: Optional[int] = None,
              seen: Optional[Mapping[int, Sequence[int]]] = None) -> LeaveReport:
        """逃跑/强退: `seat` leaves the hand for good (see the module docstring for the rules).

        `wall_left`: tiles left in the live wall (None = not in the last tiles). When the leaver has
        not won and `wall_left <= escape_ready_check_last`, `hands` ({seat: hand} of exactly the
        other players still in the hand — a waiting hand, or a complete one mid-turn, valued at its
        best discard) and `void_suits` are needed for their 查大叫 values (`seen` as in
        `drawn_hand`). Returns a `LeaveReport`.
        """
        self._check_open()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalActionError(f"the leaving seat must be 0..{self.seats - 1}, got {seat!r}")
        if seat in self._left:
            raise IllegalActionError(f"seat {seat} has already left the hand")
        if wall_left is not None and (isinstance(wall_left, bool) or not isinstance(wall_left, int) or wall_left < 0):
            raise IllegalActionError(f"wall_left must be a number of tiles >= 0 or None, got {wall_left!r}")
        if hands is not None:
            _require_mapping(hands, "hands", "{seat: hand}")
        was_winner = seat in self._won
        payees = self._others_in_turn(seat)
        penalty = {s: self.rules.escape_penalty * self.rules.base for s in payees if self.rules.escape_penalty}
        not_ready: Dict[int, int] = {}
        last = self.rules.escape_ready_check_last
        if not was_winner and wall_left is not None and last and wall_left <= last:
            not_ready = self._not_ready_against_leaver(payees, hands, void_suits, seen)
        elif hands is not None and set(hands) - set(payees):
            raise IllegalActionError(f"hands given for seats {sorted(set(hands) - set(payees))}, which are not "
                                     f"other players still in the hand {payees}")
        if sum(not_ready.values()) > sum(penalty.values()):
            charged, dues = "escape_not_ready", not_ready
        else:
            charged, dues = "escape", penalty
        entries = self._commit([Transfer(seat, payee, amount, charged) for payee, amount in dues.items()])
        self._left.append(seat)
        self._drop()
        if was_winner:
            credit = self.ledger.totals()[seat]
            if credit > 0:
                self._deferred[seat] = credit
        self._last_kong_event = None
        if self.rules.escape_ends_hand and not was_winner:
            self._ended_by_escape = True
        return LeaveReport(seat, was_winner, MappingProxyType(penalty), MappingProxyType(not_ready), charged,
                           self._deferred.get(seat, 0), entries)

    def _not_ready_against_leaver(self, payees: Sequence[int], hands: Optional[Mapping[int, Any]],
                                  void_suits: Optional[Mapping[int, Optional[str]]],
                                  seen: Optional[Mapping[int, Sequence[int]]]) -> Dict[int, int]:
        """Each other player's 查大叫 value against the leaver ({seat: points}, ready players only)."""
        if hands is None or set(hands) != set(payees):
            raise IllegalActionError(
                f"in the wall's last {self.rules.escape_ready_check_last} tiles a leave needs the hands of exactly "
                f"the other players still in the hand {list(payees)} (for their 查大叫), got "
                f"{'none' if hands is None else sorted(hands)}")
        voids = self._void_suits(void_suits)
        dead = self._dead_waits(payees, hands, seen)
        out: Dict[int, int] = {}
        for seat in payees:
            value = _best_value_of(seat, hands[seat], voids.get(seat), self.rules, dead.get(seat, ()))
            if value is not None:
                out[seat] = value.points
        return out

    def _dead_waits(self, players: Sequence[int], hands: Mapping[int, Any],
                    seen: Optional[Mapping[int, Sequence[int]]]) -> Dict[int, Tuple[int, ...]]:
        """{seat: kinds every copy of which the player holds or sees}, under dead_waits_ready=False."""
        if self.rules.dead_waits_ready:
            return {}
        if seen is not None:
            _require_mapping(seen, "seen", "{seat: 34 counts}")
        if seen is None or not set(players) <= set(seen):
            raise IllegalActionError(
                "dead_waits_ready=False: pass seen={seat: 34 counts of the copies each player sees} for the seats "
                f"{list(players)}")
        out: Dict[int, Tuple[int, ...]] = {}
        for seat in players:
            counts = seen[seat]
            if not hasattr(counts, "__len__") or len(counts) != 34 or not all(_is_count(n) for n in counts):
                raise IllegalActionError(f"seen[{seat}] must be 34 non-negative counts")
            held = as_hand(hands[seat]).all_counts
            out[seat] = tuple(t for t in range(34) if held[t] + counts[t] >= 4)
        return out

    # The verbs' names before the rulesets shared one contract (deprecated; kept for one release).
    win_on_discard = discard_win
    self_draw = self_drawn_win
    wall_exhausted = drawn_hand

    def apply(self, event: Event) -> Any:
        """Apply one event object (KongEvent, DiscardWinEvent, SelfDrawEvent, WallEndEvent, LeaveEvent)."""
        if isinstance(event, KongEvent):
            return self.kong(event.player, event.kind, tile=event.tile, discarder=event.discarder)
        if isinstance(event, DiscardWinEvent):
            return self.discard_win(event.discarder, event.wins)
        if isinstance(event, SelfDrawEvent):
            return self.self_drawn_win(event.winner, event.score)
        if isinstance(event, WallEndEvent):
            return self.drawn_hand(event.hands, event.void_suits, seen=event.seen)
        if isinstance(event, LeaveEvent):
            return self.leave(event.seat, event.hands, event.void_suits, wall_left=event.wall_left, seen=event.seen)
        raise IllegalActionError(f"not a Sichuan settlement event: {event!r}")

    # -- payments ------------------------------------------------------------------------------

    def _kong_dues(self, player: int, kind: KongKind, discarder: Optional[int]) -> List[Tuple[int, int]]:
        """(payer, amount) of a kong's payments, in turn order from the kong player."""
        base = self.rules.base
        others = self._others_in_turn(player)
        if kind == KongKind.CONCEALED:
            return [(s, 2 * base) for s in others]
        if kind == KongKind.ADDED:
            return [(s, base) for s in others]
        assert discarder is not None
        dues = [(discarder, 2 * base)]
        if self.rules.direct_kong == "jiajiayou":
            dues += [(s, base) for s in others if s != discarder]
        return dues

    def _flower_pig_dues(self, players: Sequence[int], pigs: Sequence[int]) -> List[Transfer]:
        amount = FLOWER_PIG_BASES * self.rules.base
        return [Transfer(pig, other, amount, "flower_pig") for pig in pigs for other in players if other not in pigs]

    def _not_ready_dues(self, players: Sequence[int], pigs: Sequence[int], ready: Mapping[int, SichuanScore]
                        ) -> List[Transfer]:
        payers = [s for s in players if s not in pigs and s not in ready]
        payees = sorted(ready)
        return [Transfer(payer, seat, ready[seat].points, "not_ready") for payer in payers for seat in payees]

    def _kong_refunds(self, not_ready: Sequence[int]) -> List[Transfer]:
        refunds = []
        entries = self.ledger._entries
        left, won, to_winners = self._left, self._won, self.rules.refund_to_winners
        for number, record in enumerate(self._kongs):
            if record.player not in not_ready or number in self._transferred:
                continue
            for entry in record.payments:
                paid = entries[entry]
                payer = paid.payer
                if payer in left or (payer in won and not to_winners):
                    continue  # (seed: 刮风下雨的人若最后退税，则不再退给已经逃跑的胡家)
                refunds.append(Transfer(record.player, payer, paid.amount, "kong_refund", entry))
        return refunds

    def _kong_for_call_transfer(self, discarder: int) -> int:
        """Index of the kong whose income 呼叫转移 hands to the 杠上炮 winners.

        Between a kong and the discard after its replacement draw nobody else can act, so that kong
        is the last event recorded, and it is the discarder's.
        """
        last = self._last_kong_event
        if last is None or last.player != discarder:
            raise IllegalActionError(
                f"杠上炮 (after_kong_discard): the last event recorded must be seat {discarder}'s kong, "
                f"but it is not (no kong by the discarder since the last win)")
        return len(self._kongs) - 1

    # -- checks and bookkeeping ----------------------------------------------------------------

    def _commit(self, transfers: Sequence[Transfer]) -> Tuple[int, ...]:
        append = self.ledger.append
        return tuple([append(t) for t in transfers])

    def _turn_order(self, start: int, seats: Iterable[int]) -> List[int]:
        """`seats` (checked seats) in turn order starting after `start` (start itself last)."""
        return sorted(seats, key=self._turn_rank[start].__getitem__)  # rank = (s - start - 1) % self.seats

    def _others_in_turn(self, start: int) -> List[int]:
        """The seats in the hand other than `start`, in turn order after it:
        `[s for s in self._turn_order(start, self.in_hand) if s != start]`."""
        in_hand = self._in_hand
        return [s for s in _OTHERS_IN_TURN[self.seats][start] if s in in_hand]

    def _check_open(self) -> None:
        if self.finished:
            raise IllegalActionError("the hand is over: no further settlement events")

    def _check_in_hand(self, seat: Any, who: str) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalActionError(f"{who} must be a seat 0..{self.seats - 1}, got {seat!r}")
        if seat in self._won:
            raise IllegalActionError(f"{who} (seat {seat}) has already won and left the hand")
        if seat in self._left:
            raise IllegalActionError(f"{who} (seat {seat}) has left the table (逃跑)")

    def _check_score(self, value: Any, self_drawn: bool) -> None:
        if not isinstance(value, SichuanScore):
            raise IllegalActionError(f"a win needs a SichuanScore (from sichuan.score), got {type(value).__name__}")
        if value.self_drawn != self_drawn:
            kind = "self-drawn" if self_drawn else "discard"
            raise IllegalActionError(f"a {kind} win needs a score made with self_drawn={self_drawn}")
        if value.rules is not self.rules and value.rules != self.rules:  # (the engine's: one object)
            raise IllegalActionError(f"the score was made under {value.rules!r}, the settlement uses {self.rules!r}")

    def _check_not_a_recorded_robbed_kong(self, robbed: int, wins: Mapping[int, SichuanScore]) -> None:
        last = self._last_kong_event
        if (last is not None and last.player == robbed and last.kind == KongKind.ADDED
                and any(v.win_tile is not None and v.win_tile == last.tile for v in wins.values())):
            raise IllegalActionError(
                "this added kong was robbed, so it never happened: record an added kong with kong() only after "
                "nobody robbed it")

    def _void_suits(self, void_suits: Optional[Mapping[int, Optional[str]]]) -> Dict[int, Optional[str]]:
        if void_suits is not None:
            _require_mapping(void_suits, "void_suits", "{seat: 'm' | 'p' | 's'}")
        voids = dict(void_suits or {})
        for seat, suit in voids.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
                raise IllegalActionError(f"void_suits: {seat!r} is not a seat 0..{self.seats - 1}")
            check_void_suit(suit)
        return voids

    def __repr__(self) -> str:
        return (f"SichuanSettlement({self.rules!r}, won={list(self._won)}, kongs={len(self._kongs)}, "
                f"entries={len(self.ledger)}, totals={self.totals()})")

    def __str__(self) -> str:
        """The repr, then the ledger's transfers one a line and the totals."""
        return f"{self!r}\n{self.ledger}"

    def _repr_html_(self) -> str:
        """The ledger as an HTML table under the repr (notebooks)."""
        return self.ledger.to_html(repr(self))


def settle(events: Iterable[Event], rules: Optional[Rules] = None, *, seats: int = 4) -> Ledger:
    """The ledger of a whole hand from its events (see `SichuanSettlement`)."""
    settlement = SichuanSettlement(rules, seats=seats)
    try:
        iterator = iter(events)
    except TypeError:
        raise InvalidArgumentError(
            f"settle takes the hand's events in order (KongEvent, DiscardWinEvent, SelfDrawEvent, WallEndEvent, "
            f"LeaveEvent), got {type(events).__name__} {events!r}") from None
    for event in iterator:
        settlement.apply(event)
    return settlement.ledger


def _is_count(n: Any) -> bool:
    return not isinstance(n, bool) and isinstance(n, int) and n >= 0


def _require_mapping(value: Any, name: str, shape: str) -> None:
    """IllegalActionError unless `value` is a mapping (the `hands`, `void_suits` and `seen` of an event)."""
    if value.__class__ is not dict and not isinstance(value, Mapping):
        raise IllegalActionError(f"{name} must be a mapping {shape}, got {value!r}")


def _waiting_hand(seat: int, hand: Any) -> Any:
    parsed = as_hand(hand)
    if parsed.n_tiles != 13 - 3 * parsed.n_melds:
        raise InvalidHandError(
            f"seat {seat}: at the wall's end a hand with {parsed.n_melds} meld(s) holds {13 - 3 * parsed.n_melds} "
            f"concealed tiles, this one {parsed.n_tiles}")
    return parsed


def _ready_value(hand: Any, suits: Any, void_suit: Optional[str], rules: Rules,
                 dead: Sequence[int] = ()) -> Optional[SichuanScore]:
    """`best_ready_value` of a checked waiting hand that is not a 花猪 (`suits`: the suits it holds),
    without the `dead` wait kinds.

    Two cases are None without scoring, exactly as `best_ready_value` decides them: a hand holding a
    void-suit tile (no win can leave it; `_wins`), and a hand with no wait at all (its waits
    without exhausted kinds are a subset of these).
    """
    if void_suit in suits or not _core.waits_mask(hand, Forms.SICHUAN):
        return None
    return best_ready_value(hand, void_suit=void_suit, rules=rules, exclude=dead)


def _best_value_of(seat: int, hand: Any, void_suit: Optional[str], rules: Rules,
                   dead: Sequence[int]) -> Optional[SichuanScore]:
    """查大叫 value of a player's hand at any moment: a waiting hand as at the wall's end; a complete
    one (mid-turn, 14 − 3·melds tiles) at its best discard. None for a 花猪 or a hand not ready."""
    parsed = as_hand(hand)
    size = parsed.n_tiles + 3 * parsed.n_melds
    if size == 13:
        candidates = [parsed]
    elif size == 14:
        candidates = [parsed.without_tile(Tile(t)) for t in range(34) if parsed.counts[t]]
    else:
        raise InvalidHandError(f"seat {seat}: a hand with {parsed.n_melds} meld(s) holds {13 - 3 * parsed.n_melds} "
                               f"or {14 - 3 * parsed.n_melds} concealed tiles, this one {parsed.n_tiles}")
    best: Optional[SichuanScore] = None
    for candidate in candidates:
        suits = suits_held(candidate)
        if len(suits) == 3:
            continue
        value = _ready_value(candidate, suits, void_suit, rules, dead)
        if value is not None and (best is None or value.points > best.points):
            best = value
    return best


def _kong_kind(kind: Any) -> KongKind:
    if kind.__class__ is str:  # (the engine's call: a kind's value)
        found = _KONG_KIND_OF.get(kind)
        if found is not None:
            return found
    try:
        return kind if isinstance(kind, KongKind) else KongKind(kind)
    except ValueError:
        raise IllegalActionError(f"kong kind must be 'direct', 'added' or 'concealed', got {kind!r}") from None


def _as_tile(tile: Any) -> Tile:
    if tile.__class__ is int and 0 <= tile < _FIRST_HONOUR:  # (the engine's call: a suited tile index)
        return _TILES[tile]
    try:
        result = tile_from_str(tile) if isinstance(tile, str) else Tile(tile)
    except ValueError as exc:
        raise InvalidHandError(str(exc)) from None
    if result.is_honor:
        raise InvalidHandError(f"Sichuan is played without honours; got {result}")
    return result
