"""The shared state machine of one hand, for every ruleset.

A `Game` is one hand (局). The engine asks; seats answer:

    game = new_game("sichuan", seed=7)
    while not game.finished:
        for seat, actions in game.pending().items():
            game.act(seat, choose(actions))
    game.ledger   # zero-sum transfers

`pending()` lists every seat that must answer now with its legal actions. In a claim window several
seats answer the same discard; the engine waits for all of them, then applies the priority rules
(win > kong/pung > chow; several winners where the ruleset allows). Everything automatic — draws,
kong replacements from the wall's tail, 补花, the discard a declared-ready (报听) player makes of a
non-winning draw, claim windows nobody can answer — happens inside `act`.

## The server-facing contract (docs/ENGINE.md has the whole of it)

- `step`: the id of the decision point open now; it grows by one each time the open set of
  questions closes. `act(seat, action, step=k)` raises `StaleActionError` for any other k and changes
  nothing. `view(seat)["step"]` carries it.
- `events(seat=None, since=0)`: the JSON events a seat may see from index `since` (None: all of
  them); one entry per engine event in every stream, hidden fields blanked (others' drawn tiles,
  concealed kong tiles, flower replacements, dealt hands). O(new events) per call.
- `default_action(seat)`: the timeout answer (PASS a claim; discard the drawn tile; ...).
- `clone()` / `copy.copy` / `copy.deepcopy` / pickle: independent games that play on identically.
- Actions may be given as Action objects, integer codes or their JSON form (`Action.to_json()`).
- `mahjong_core.game.replay(log)` verifies a log against the game its actions replay into
  (`ReplayError` names the first difference or the malformed field).

Rulesets subclass `Game` in their own package (`mahjong_core.rules.sichuan.flow.SichuanGame`,
`...changbai.flow.ChangbaiGame`, `...mcr.flow.MCRGame`) and fill in the hooks marked "ruleset hook"
below: who may win, who may claim what, which discards are legal, scoring and settlement, what a win
or the wall's end does to the hand, and the class-level facts the ruleset-blind game layer asks
(`rules_class`, `tiles`, `uses_flowers`, `random_dealer`, `next_dealer`, `_view_extras`). The engine
never compares a ruleset name.

## State (plain lists of ints, for speed)

`hands[s]` a 34-byte bytearray of concealed counts; `melds[s]` a list of `(kind, tile, marker,
from_seat)` tuples (MELD_* kinds; marker = the notation's claim marker); `rivers[s]` the tiles lying
in front of a seat (claimed tiles leave the river); `flowers[s]`; `won_tiles[s]` the tiles a winner
took (the winning tile of a self-draw, the discard or robbed kong tile; with several winners on one
discard the nearest takes the physical tile); `waits[s]` a bitmask of the tiles that would complete
seat s's hand, kept current whenever that hand is at waiting size (13 − 3·melds tiles) — every
"could anyone win this" question is one shift-and-mask. `_shown` holds what each seat shows (its
river, melds and won tiles) again as counts, for the observation encoder (`SHOWN_LAYOUT`): None
until an observer first asks for it (`_shown_record`), kept with the lists from then on.

The live wall is `wall[head:tail]`: draws take `wall[head]`, kong replacements and 补花 take
`wall[tail - 1]`.

## Decisions the rules leave to the engine (documented choices)

- After a chow or pung the claimer must discard (no kong, no 报听, no win on that turn).
- When the wall is empty, a discard can only be claimed for a win (no chow/pung/kong: no tile would
  follow). A kong needs a replacement tile: none is offered with an empty wall.
- False wins are impossible: WIN is offered only when the hand is complete and the ruleset accepts
  it (MCR: at least `min_fan`), so MCR's `false_win_penalty` never has to be charged.
- Passing a self-draw win is allowed (discard instead); passing a discard win is PASS.
"""

from __future__ import annotations

import copy as _copy
from enum import Enum
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mahjong_core import _core
from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidTypeError, StaleActionError
from mahjong_core.hand import Hand
from mahjong_core.model import Meld
from mahjong_core.rules.ledger import Ledger
from mahjong_core.tiles import Forms, as_tile

from .actions import (
    ADDED_KONG, ALL_ACTIONS, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, SPACES, WIN, Action,
    ActionKind,
)
from .constants import (
    AFTER_CLAIM, CHOOSE, CLAIM, DONE, LAST_DRAW, MELD_ADDED_KONG, MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG,
    MELD_NAMES, MELD_PUNG, OTHERS, PHASES, ROB, TURN,
)
from .log import event_json, game_log, seat_event_json
from .view import seat_view, visible_tile_counts
from .wall import seeded_dealer, shuffled_wall, standard_tiles, tile_name

__all__ = [
    "Game", "PHASES", "MELD_CHOW", "MELD_PUNG", "MELD_KONG", "MELD_ADDED_KONG", "MELD_CONCEALED_KONG",
    "MELD_NAMES", "CHOOSE", "TURN", "AFTER_CLAIM", "CLAIM", "ROB", "LAST_DRAW", "DONE",
]

_K_DISCARD = ActionKind.DISCARD
_K_WIN = ActionKind.WIN
_K_CONCEALED_KONG = ActionKind.CONCEALED_KONG
_K_ADDED_KONG = ActionKind.ADDED_KONG
_K_DECLARE = ActionKind.DECLARE
_K_CHOW = ActionKind.CHOW

_shanten = _core.shanten
_waits = _core.waits
_best_discards = _core.best_discards
_waits_mask = _core.waits_mask
# The hot calls with melds: waits_mask / shanten(h, f, melds=m) with every argument positional (from
# compiled code a keyword argument costs a dict per call, more than the rest of the call).
_waits_mask_melds = _core._waits_mask_melds
_shanten_melds = _core._shanten_melds

try:  # Compiled, `cython.compiled` is True and engine.pxd cimports the core's C entry points.
    import cython  # type: ignore[import-not-found,unused-ignore]
    _COMPILED = cython.compiled
except ImportError:  # a pure-Python build without Cython installed
    _COMPILED = False


# The C entries' "invalid input" (all 64 bits). A C integer when compiled (engine.pxd): compared
# with the literal, Cython boxed the result into a Python int and compared objects on every call.
_C_INVALID = 0xFFFFFFFFFFFFFFFF

# The phases the hot steps set and test (every answer, every drawn turn), as C integers when
# compiled (engine.pxd): through the exported names each use was a module lookup, a conversion
# and, for a test, a comparison of boxed ints.
_TURN, _AFTER_CLAIM, _LAST_DRAW = TURN, AFTER_CLAIM, LAST_DRAW
_DISCARDS = DISCARD  # (compiled: a typed tuple, indexed in C by `_discard_options`)
_TILE_INTS = tuple(range(34))  # tile t as its Python int (compiled: a typed tuple, indexed in C)
_NO_TILES = bytearray(34)  # an empty hand's counts, copied (never written to)

# `Game._shown`: what each seat shows, as counts — the observation encoder's view of the table
# (env/_encode.pyx reads it instead of walking twelve lists per observation; its import checks this
# layout against its own). Seat s's block starts at s * SHOWN_STRIDE; in it, 34 bytes per kind t:
_SHOWN_RIVER = 0         # copies of t in its river
_SHOWN_CHOW = 34         # its chows holding t
_SHOWN_PUNG = 68         # 1: it has a pung of t (not yet added to)
_SHOWN_KONG = 102        # 1: a melded or added kong of t
_SHOWN_HIDDEN_KONG = 136  # 1: a concealed kong of t (shown to its owner only)
_SHOWN_WON = 170         # copies of t it won with
# and single bytes:
_SHOWN_RIVER_LEN = 204   # the river's length
_SHOWN_LAST = 205        # three: the river's last three tiles, river tile i in slot i % 3 (255: none)
_SHOWN_HIDDEN_KONGS = 208  # the number of its concealed kongs
_SHOWN_STRIDE = 212
_SHOWN_SIZE = 4 * _SHOWN_STRIDE
SHOWN_LAYOUT = {"RIVER": _SHOWN_RIVER, "CHOW": _SHOWN_CHOW, "PUNG": _SHOWN_PUNG, "KONG": _SHOWN_KONG,
                "HIDDEN_KONG": _SHOWN_HIDDEN_KONG, "WON": _SHOWN_WON, "RIVER_LEN": _SHOWN_RIVER_LEN,
                "LAST": _SHOWN_LAST, "HIDDEN_KONGS": _SHOWN_HIDDEN_KONGS, "STRIDE": _SHOWN_STRIDE}
_NOTHING_SHOWN = bytes(255 if _SHOWN_LAST <= i % _SHOWN_STRIDE < _SHOWN_LAST + 3 else 0
                       for i in range(_SHOWN_SIZE))


def _c_input(hand: Any, melds: int) -> bool:
    """Whether the core's C entry points take `hand` and `melds` as they are: 34 counts in bytes or
    a bytearray (read in place), and a meld count 0..4."""
    if _COMPILED:  # (hot path: several calls a turn; the type and size read in place, engine.pxd)
        return mc_34_counts(hand) and 0 <= melds <= 4  # type: ignore[name-defined]  # noqa: F821
    return (type(hand) is bytearray or type(hand) is bytes) and len(hand) == 34 and 0 <= melds <= 4


def _held_kinds(hand: Any) -> int:
    """The kinds `hand` (34 counts) holds, as a bit mask: `Game._discard_mask`'s answer, and what the
    rulesets' own discard masks start from. Hot path (every turn): compiled, an engine hand's 34
    bytes are one vector compare (`mc_held_kinds34`, mahjong_core/_bits.pxd)."""
    if _COMPILED and mc_34_counts(hand):  # type: ignore[name-defined]  # noqa: F821 (engine.pxd)
        counts = hand
        return mc_held_kinds34(counts)  # type: ignore[name-defined]  # noqa: F821 (cimported)
    held = 0
    one = 1  # compiled: a 64-bit unsigned one (`1 << t` would be a C int shift)
    for t in range(34):
        if hand[t]:
            held |= one << t
    return held


def _waits_mask_m(hand: Any, forms: int, melds: int) -> int:
    """`_core.waits_mask(hand, forms, melds=melds)`, every argument positional. Hot path (every
    discard): compiled, 34 counts in a bytearray or bytes go to the core by a C call
    (`waits_of_counts`, mahjong_core/_core.pxd) instead of a Python call. The Python call remains
    for a pure-Python build and for any input the C entry refuses: it raises the error saying why."""
    if _COMPILED and _c_input(hand, melds):
        counts = hand
        w = waits_of_counts(counts, melds, forms)  # type: ignore[name-defined]  # noqa: F821 (cimported)
        if w != _C_INVALID:
            return w
    return _waits_mask_melds(hand, forms, melds)


def _shanten_m(hand: Any, forms: int, melds: int) -> int:
    """`_core.shanten(hand, forms, melds=melds)`, every argument positional: as `_waits_mask_m`
    (the bots' and the 报听 checks' hot call; `shanten_of_counts` compiled)."""
    if _COMPILED and _c_input(hand, melds):
        counts = hand
        value = shanten_of_counts(counts, melds, forms)  # type: ignore[name-defined]  # noqa: F821 (cimported)
        if value != -100:  # SHANTEN_INVALID
            return value
    return _shanten_melds(hand, forms, melds)


def _best_discards_m(hand: Any, forms: int, melds: int) -> Tuple[int, int]:
    """`_core.best_discards(hand, forms, melds=melds)` — (the lowest shanten a discard reaches, the
    34-bit mask of the discards reaching it) — as `_waits_mask_m` (GreedyBot's hot call)."""
    if _COMPILED and _c_input(hand, melds):
        counts = hand
        packed = best_discards_of_counts(counts, melds, forms)  # type: ignore[name-defined]  # noqa: F821
        if packed != _C_INVALID:  # (shanten + 1) << 34 | tiles
            return (packed >> 34) - 1, packed & 0x3FFFFFFFF
    return _best_discards(hand, forms, melds=melds)  # type: ignore[arg-type]  # (Forms or its int value)


_OTHERS = OTHERS
_ALL_ACTIONS = ALL_ACTIONS

def _chows_of(hand: Any, tile: int) -> int:
    """The chows a discard of `tile` completes for `hand` (34 counts), as bits in the order of
    `CHOW_PATTERNS[tile]` and of the actions CHOW[1..3]: 1 = the tile lowest of the three, 2 = in
    the middle, 4 = highest. Hot path (every discard of a chow ruleset): compiled, C reads of the
    hand's buffer (engine.pxd), each only of a tile in the discard's suit; the engine passes a legal
    discard and its own 34-count hands."""
    if tile >= 27:
        return 0
    h = hand
    r = tile % 9
    chows = 0
    if r <= 6 and h[tile + 1] and h[tile + 2]:
        chows |= 1
    if 1 <= r <= 7 and h[tile - 1] and h[tile + 1]:
        chows |= 2
    if r >= 2 and h[tile - 2] and h[tile - 1]:
        chows |= 4
    return chows


# The commonest records, made once (hot path: every discard and every draw appends one): the
# events ("discard", seat, tile, False) and ("draw", seat, tile) at index seat * 34 + tile, and the
# answer-history entries seat << 8 | uid (a Python int above 256 would be a new object each time).
# Tuples and ints are immutable, so a shared one is the same record as a new one.
_DISCARD_EVENTS = tuple(("discard", seat, tile, False) for seat in range(4) for tile in range(34))
_DRAW_EVENTS = tuple(("draw", seat, tile) for seat in range(4) for tile in range(34))
_ANSWER_IDS = tuple(range(4 << 8))
# The question table while an answer is applied (`_answer_only`, `_answer_one_of`, the native loop's
# plain discard): one shared empty dict, where a new one per answer was allocated only to be dropped
# (hot path: every answer). Every step replaces it (the next question, or a finished game's own
# table) and no question table is ever written to after it is built, so a reader sees what it would
# see with a fresh empty dict; a test checks that it stays empty.
_ANSWERING: Dict[int, List[Action]] = {}
# (class, flowers) -> the class's tile set as bytes, read once: `_from_seed` shuffles a copy of it
# for every seeded hand, and copying bytes is one memcpy where a list is read tile by tile.
_TILE_SETS: Dict[Tuple[Any, bool], bytes] = {}


def _seeded_wall(cls: Any, rules: Any, seed: int, hand_no: int) -> List[int]:
    """The wall that (seed, hand_no) deals for `rules` on the `Game` class `cls` — its tile set
    shuffled by `shuffled_wall`, which checks seed and hand_no — as `Game._from_seed` deals it and a
    replay checks it. The tile set is read once per class and flowers setting (`_TILE_SETS`)."""
    flowers = cls.uses_flowers(rules)
    return shuffled_wall(_TILE_SETS.get((cls, flowers)) or _tile_set_of(cls, flowers), seed, hand_no)


def _tile_set_of(cls: Any, flowers: bool) -> Sequence[int]:
    """`cls.tiles(flowers)`, kept in `_TILE_SETS` as bytes when every tile is an int that fits a
    byte; anything else goes to `shuffled_wall` as it is (which says what is wrong with it)."""
    tiles = cls.tiles(flowers)
    if all(type(t) is int and 0 <= t < 256 for t in tiles):
        return _TILE_SETS.setdefault((cls, flowers), bytes(tiles))
    return tiles


_MELDS: Dict[Tuple[int, int, int], Meld] = {}


def _core_meld(meld: Tuple[int, int, int, int]) -> Meld:
    """The core `Meld` of an engine meld tuple (cached: Meld objects are immutable)."""
    key = meld[:3]
    found = _MELDS.get(key)
    if found is None:
        kind, t, marker = key
        if kind == MELD_CHOW:
            found = Meld.chow(t, marker)
        elif kind == MELD_PUNG:
            found = Meld.pung(t, marker)
        elif kind == MELD_KONG:
            found = Meld.kong(t, marker)
        elif kind == MELD_ADDED_KONG:
            found = Meld.kong(t, marker, added=True)
        else:
            found = Meld.kong(t, concealed=True)
        _MELDS[key] = found
    return found


def _index_of(value: Any) -> Optional[int]:
    """`value` as an int when it is an integer — a Python or NumPy int, an int subclass — else None:
    a bool, a float, a NumPy array (its __index__ refuses all but 0-d integer arrays), anything else.
    How the engine's arguments take NumPy's integers (the slow path: plain ints are tested first)."""
    if value.__class__ is bool or not hasattr(value, "__index__"):
        return None
    try:
        return value.__index__()
    except TypeError:
        return None


def _seat_arg(seat: Any) -> int:
    """A seat argument as an int 0..3: NumPy integers are accepted (stored as int), bools and floats
    are not seats. Raises IllegalActionError."""
    index = _index_of(seat)
    if index is not None and 0 <= index < 4:
        return index
    raise IllegalActionError(f"seat must be 0..3 (an integer), got {repr(seat)[:60]}")


def _tile_or_none_arg(tile: Any) -> int:
    """A `win_tile` argument as an int: -1 (none), or a tile as `as_tile` takes one."""
    if _index_of(tile) == -1:
        return -1
    return int(as_tile(tile, "win_tile"))


class Game:
    """One hand of mahjong. Build with `mahjong_core.game.new_game`; see the module docstring."""

    # Slots, not an instance dict: the engine reads and writes these on every draw, discard and
    # answer, and a slot is several times cheaper to reach than a dict entry (~10% of self-play).
    # Ruleset subclasses keep a dict for their own state unless they declare slots too.
    __slots__ = (
        "options", "rules", "space", "seed", "hand_no", "dealer", "shuffled", "wall", "head", "tail", "hands",
        "melds", "n_melds", "pungs", "rivers", "flowers", "won_tiles", "waits", "declared", "won", "winners",
        "phase", "turn", "drawn", "replacement", "after_kong", "last_four", "kept", "discard", "discarder",
        "kong_seat", "kong_tile", "kongs", "interrupted", "reserve", "forced_last", "lock", "declares",
        "track_waits", "last_draws", "finished", "exhausted", "ledger", "_asked", "_answers", "_offers",
        "_next_draw", "_actions", "_events", "step", "_lazy_turn", "_forms", "_has_chow", "_ask_every_discard",
        "_shown",
    )

    ruleset: str = ""
    #: the core's winning-form flags for this ruleset (Forms.SICHUAN etc.)
    FORMS: Forms = Forms.STANDARD
    HAS_CHOW: bool = False
    #: several players may win on one discard
    MULTI_WIN: bool = False
    #: the hand goes on after a win (Sichuan 血战到底)
    CONTINUES_AFTER_WIN: bool = False
    #: call `_self_win_ok` / `_discard_win_ok` before offering a WIN (MCR: 8 fans; Changbai: 报听)
    CHECK_SELF_WIN: bool = False
    CHECK_DISCARD_WIN: bool = False
    #: every discard opens a claim window (`_open_claims` decides who is asked), even one nobody can
    #: use — Botzone's table, where every seat answers every discard (mahjong_core.botzone)
    ASK_EVERY_DISCARD: bool = False

    #: keyword options a ruleset accepts in new_game (e.g. MCR's prevalent_wind) -> default
    OPTIONS: Dict[str, Any] = {}
    #: the ruleset settles a player leaving the hand for good (`leave`; Sichuan's 逃跑/强退), so a
    #: server can ask before it calls `leave` on a permanent disconnect
    HAS_LEAVE_RULE: bool = False

    def __init__(self, rules: Any, wall: List[int], *, seed: Optional[int] = None, hand_no: int = 0,
                 dealer: int = 0, shuffled: bool = False, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.OPTIONS)) if options else None
        if unknown:
            raise InvalidTypeError(f"{self.ruleset} games take no option(s) {', '.join(unknown)}"
                            + (f" (options: {', '.join(self.OPTIONS)})" if self.OPTIONS else ""))
        self.options = {**self.OPTIONS, **options}
        self.rules = rules
        self.space = SPACES[self.ruleset]
        self.seed = seed
        self.hand_no = hand_no
        self.dealer = dealer
        self.shuffled = shuffled
        self.wall = wall
        self.head = 0
        self.tail = len(wall)
        self.hands = [_NO_TILES[:] for _ in range(4)]  # (a slice: calling bytearray(34) parses arguments)
        self.melds: List[List[Tuple[int, int, int, int]]] = [[], [], [], []]
        self.n_melds = [0, 0, 0, 0]
        self.pungs: List[List[int]] = [[], [], [], []]  # tiles of each seat's (not yet added-to) pungs
        self.rivers: List[List[int]] = [[], [], [], []]
        # What each seat shows — its river, melds and won tiles — again as counts (`SHOWN_LAYOUT`)
        # for the observation encoder, which reads all four seats' at every decision (env/_encode.pyx:
        # hot path, where walking twelve lists of 64 games in turn was most of an observation's
        # time). None until an observer asks for it (`_shown_record`); from then on kept with the
        # lists at every discard, claim, kong and win. A game nobody observes (self-play, a
        # simulation) pays nothing for it. Derived: `state()` leaves it out.
        self._shown: Optional[bytearray] = None
        self.flowers: List[List[int]] = [[], [], [], []]
        self.won_tiles: List[List[int]] = [[], [], [], []]
        self.waits = [0, 0, 0, 0]
        self.declared = [False, False, False, False]
        self.won = [False, False, False, False]
        self.winners: List[int] = []
        self.phase = CHOOSE
        self.turn = dealer
        self.drawn = -1            # the tile the turn seat drew this turn (-1 after a claim)
        self.replacement = False   # that tile was a kong replacement (杠上花)
        self.after_kong = False    # the current discard follows a kong replacement draw (杠上炮)
        self.last_four = False     # Changbai: the turn's tile is one of the last four
        self.kept = [-1, -1, -1, -1]  # Changbai: the last-four tile a seat kept (no discard)
        self.discard = -1
        self.discarder = -1
        self.kong_seat = -1        # ROB window: who is adding the kong
        self.kong_tile = -1
        self.kongs = 0
        self.interrupted = False   # a claim or kong happened (no more 天胡/地胡)
        # Ruleset switches read on the hot path (set by `_init_ruleset`):
        self.reserve = 0           # tiles at the tail that are never drawn (Changbai: 14 until a kong)
        self.forced_last = 0       # a win is forced while fewer tiles remain (Sichuan forced_win_last)
        self.lock: Optional[List[int]] = None  # Sichuan pass lock per seat (-1 = none)
        self.declares = False      # 报听 exists (Changbai; MCR with declared_ready_fan)
        self.track_waits = True    # keep wait masks current on every discard (Changbai: only declared seats win)
        self.last_draws = 0        # Changbai: the last N drawable tiles only allow a self-drawn win
        self.finished = False
        self.exhausted = False     # the hand ended because the wall ran out
        self.ledger = Ledger(4)
        self._asked: Optional[Dict[int, List[Action]]] = {}  # the question table (`_pending`)
        self._answers: Dict[int, Action] = {}
        self._offers: Dict[int, Any] = {}   # seat -> score computed when a WIN was offered
        self._next_draw = -1       # seat that draws next (the driver loop in `_run`)
        self._actions: List[int] = []  # seat << 8 | uid of every answer, in order
        self._events: List[tuple] = []
        self.step = 0              # the id of the decision point open now (see `act`)
        # Set while the native self-play loop (game/_selfplay.pyx) or the vector environment's step
        # kernel drives the hand: a plain turn (no win on offer) is then left unbuilt (`_asked`
        # None) for them to read as a bit mask (`_discard_mask`); `_pending` builds it on first read.
        self._lazy_turn = False
        self._init_ruleset()
        # The class-level switches the hot path reads on every discard, kept per game as C fields
        # when compiled (an attribute lookup through the type each time cost ~4 % of a hand); read
        # after `_init_ruleset`, which may set FORMS for this game (Changbai).
        self._forms = int(self.FORMS)
        self._has_chow = self.HAS_CHOW
        self._ask_every_discard = self.ASK_EVERY_DISCARD
        self._start()
        self._run()

    # ------------------------------------------------------------------------------------------
    # Public API

    @property
    def _pending(self) -> Dict[int, List[Action]]:
        """Every seat asked now -> its legal actions: the engine's own table (read it, never change
        it; an answer replaces it). A plain turn left unbuilt while `_lazy_turn` is set is built on
        this first read — exactly the question the engine would have asked."""
        return self._asked_table()

    @_pending.setter
    def _pending(self, table: Dict[int, List[Action]]) -> None:
        self._asked = table

    def _asked_table(self) -> Dict[int, List[Action]]:
        """`_pending`: the question table, the unbuilt turn of `turn` built first — after a chow or
        pung its legal discards (`_after_claim_turn`), after a draw `_turn_options` (`_open_turn`
        and `_discard_tile` leave a turn unbuilt only when it offers no win)."""
        asked = self._asked
        if asked is None:
            seat = self.turn
            if self.phase == _AFTER_CLAIM:
                asked = {seat: self._discard_options(seat)}
            else:
                asked = {seat: self._turn_options(seat)}
            self._asked = asked
        return asked

    def pending(self) -> Dict[int, List[Action]]:
        """Every seat that must answer now -> its legal actions (empty when the hand is over)."""
        answered = self._answers
        return {s: list(a) for s, a in self._asked_table().items() if s not in answered}

    def legal_actions(self, seat: int) -> List[Action]:
        """The legal actions of `seat` now (empty if it has nothing to answer)."""
        if type(seat) is not int:
            seat = _seat_arg(seat)
        if seat in self._answers:
            return []
        return list(self._asked_table().get(seat, ()))

    def legal_mask(self, seat: int) -> bytearray:
        """0/1 per action code of this ruleset's `ActionSpace` (length `space.size`)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        if seat in self._answers:
            return bytearray(self.space.size)
        return self.space.mask(self._asked_table().get(seat, ()))

    def act(self, seat: int, action: Any, step: Optional[int] = None) -> None:
        """Record `seat`'s answer; resolves once every pending seat answered.

        `action`: an Action, its integer code in this ruleset's `ActionSpace`, or its JSON form
        (`Action.to_json()`). `seat`: 0..3 (NumPy integers are accepted and stored as int; bools
        and floats are not seats). `step`: the id of the decision point the answer is for (`self.step`
        when the question was read); an answer for any other step raises `StaleActionError`.

        Raises IllegalActionError — and changes nothing — when the game is over, the seat has nothing
        to answer (or already answered), or the action is not among its legal actions.

        Step ids: `step` starts at 0 and grows by one each time the open set of questions is closed
        (every pending seat answered) — so it names the decision point `pending()` shows now.
        """
        # Hot path: one call per answer. Every check comes before the first change of state.
        # (`type(x) is` rather than `x.__class__ is`: compiled, the first is a pointer compare.)
        if type(seat) is not int:
            seat = _seat_arg(seat)
        if step is not None and (type(step) is not int or step != self.step):
            self._check_step(seat, action, step)  # (a NumPy integer equal to the step passes; 0.0 does not)
        pending = self._asked
        if pending is None:  # a plain turn left unbuilt (`_lazy_turn`): built now
            pending = self._asked_table()
        actions = pending.get(seat)
        if actions is None:
            raise self._not_pending_error(seat, action)
        if type(action) is not Action:
            action = self._decode(seat, action)
        # Actions are unique instances whose equality is identity (actions.py), so `in` is an
        # identity scan; written out, compiled, it is a C loop over the list without a rich compare
        # per entry it passes.
        for legal in actions:
            if legal is action:
                break
        else:
            raise IllegalActionError(
                f"{action!r} is not legal for seat {seat} now ({PHASES[self.phase]}); legal: "
                f"{', '.join(map(repr, actions))}")
        if len(pending) == 1:
            self._answer_only(seat, action, action.uid, pending)
        else:
            if seat in self._answers:
                raise self._not_pending_error(seat, action)
            self._answer_one_of(seat, action, action.uid, pending)

    # What `act` does once its checks pass; the native self-play loop (game/_selfplay.pyx) calls
    # these too, after the same checks, so an answer is applied in one place.

    def _answer_only(self, seat: int, action: Any, uid: int, pending: Any) -> None:
        """Apply the answer of the only seat asked (`pending`: the question's table; None for a
        turn the native loop read unbuilt, whose only answers there are discards)."""
        self._actions.append(_ANSWER_IDS[seat << 8 | uid])
        self._asked = _ANSWERING
        phase = self.phase
        if phase == _TURN or phase == _AFTER_CLAIM:
            if uid < 34:  # DISCARD[t] (uid t), the common case first
                if self.declared[seat]:
                    # 报听: a declared seat asked on its draw (it could win or kong) that lets the drawn
                    # tile go is recorded as the unasked one is ("auto", then the discard): a missing
                    # "auto" would tell every seat that the tile wins or makes a kong for it.
                    self._events.append(("auto", seat))
                self._discard_tile(seat, uid, False)
            else:
                self._turn_action(seat, action)
        elif phase == _LAST_DRAW:
            self._last_draw_action(seat, action)
        else:
            self._resolve_window(pending, {seat: action})
        self.step += 1
        if self._next_draw >= 0:
            self._run()

    def _answer_seen(self, seat: int, action: Any, uid: int, seen: Any, step: int) -> int:
        """The vector environment's answer (env/_encode.pyx, `StepKernel`), then its next question.

        `action` (its uid `uid`) is one the caller found among `seat`'s legal actions in the question
        it read: `seen`, the table `_asked` held then (its identity names the question), or None for
        a plain turn left unbuilt at step id `step`. While that question is still open, `seat` has
        not answered it and the action is in its list (a table) or is a legal DISCARD[uid] of
        `seat`'s turn (an unbuilt turn: `_discard_mask`), the answer is applied as `act` applies it
        once its checks pass; otherwise it goes through `act`, which checks everything (and raises,
        changing nothing). So a wrong claim of the caller never applies an illegal answer.

        Returns the next question as `_unbuilt_turn` does. Hot path: one call per decision of the
        environment; the turn's list of actions and `act`'s decoding and error paths are what it
        skips."""
        asked = self._asked
        if asked is None:
            if seen is not None or self.step != step or seat != self.turn or not 0 <= uid < 34 \
                    or action is not _DISCARDS[uid] or not (self._discard_mask(seat) >> uid) & 1:
                self.act(seat, action)
            else:
                self._answer_only(seat, action, uid, None)
            return self._unbuilt_turn()
        if asked is not seen or seat in self._answers:
            self.act(seat, action)
            return self._unbuilt_turn()
        for legal in asked.get(seat, ()):  # (an identity scan, as act's)
            if legal is action:
                break
        else:
            self.act(seat, action)
            return self._unbuilt_turn()
        if len(asked) == 1:
            self._answer_only(seat, action, uid, asked)
        else:
            self._answer_one_of(seat, action, uid, asked)
        return self._unbuilt_turn()

    def _unbuilt_turn(self) -> int:
        """The question open now, when it is a plain turn left unbuilt (`_lazy_turn`) that offers
        only discards: its seat, its legal discards as a bit mask (`_discard_mask`) and its step id,
        as `seat | mask << 2 | step << 36`. -1 for any other question, which `_pending` then holds
        (a turn with a kong or 报听 on offer is built here), or none (the hand is over)."""
        if self._asked is not None:
            return -1
        turn = self.turn
        if self.phase != _AFTER_CLAIM and (self._may_kong(turn) or (self.declares and self._declare_options(turn))):
            self._asked_table()  # a kong or 报听 on offer too: the question as the engine asks it
            return -1
        return turn | self._discard_mask(turn) << 2 | self.step << 36

    def _answer_one_of(self, seat: int, action: Any, uid: int, pending: Dict[int, List[Action]]) -> bool:
        """Record the answer of one of several seats asked (not answered yet); resolve the window
        once every seat has answered. True when it resolved."""
        answers = self._answers
        self._actions.append(_ANSWER_IDS[seat << 8 | uid])
        answers[seat] = action
        if len(answers) < len(pending):
            return False
        self._asked = _ANSWERING
        self._answers = {}
        self._resolve_window(pending, answers)
        self.step += 1
        if self._next_draw >= 0:
            self._run()
        return True

    def leave(self, seat: int) -> None:
        """`seat` leaves the hand for good (a permanent disconnect). Rulesets with a leaving rule
        (`HAS_LEAVE_RULE`) override this; here it raises IllegalActionError and changes nothing."""
        raise IllegalActionError(
            f"{self.ruleset or type(self).__name__} has no rule for a player leaving the hand "
            f"(HAS_LEAVE_RULE is False), so seat {seat!r} cannot leave; finish the hand (e.g. let a bot play "
            f"the seat) instead")

    @property
    def log(self) -> Dict[str, Any]:
        """The JSON-serialisable record of this hand (see `mahjong_core.game.log`)."""
        return game_log(self)

    def view(self, seat: int) -> Dict[str, Any]:
        """What `seat` may see (see `mahjong_core.game.view`); `view["step"]` is `self.step`."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)  # (NumPy's integers too, as every seat argument here)
        return seat_view(self, seat)

    def events(self, seat: Optional[int] = None, since: int = 0) -> List[Dict[str, Any]]:
        """The JSON events `seat` may see, from index `since` on (None: the omniscient stream).

        Every seat's stream has one entry per engine event, in order (so `since` is the same index
        for every seat and for `events(None)`: a client keeps `len(received)` and asks for the rest).
        What is hidden from a seat is blanked, never dropped: others' draws and kong replacements
        (`tile: null`), the tile drawn for another seat's flower (`replacement: null`), another seat's
        concealed kong (`tile: null`), and the tiles dealt to the others (`deal.hands[s]: null`).
        定缺 / 飘 appear when they are revealed (all four at once). Costs O(new events): nothing
        is rebuilt. See docs/ENGINE.md for the event types and docs/schema/event.schema.json.
        """
        if seat is not None:
            seat = _seat_arg(seat)
        if type(since) is not int:
            index = _index_of(since)  # NumPy's integers, as every seat argument takes them
            if index is not None:
                since = index
        if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= len(self._events):
            raise InvalidArgumentError(
                f"since must be an event index 0..{len(self._events)} (the number of events already "
                f"received), got {since!r}")
        events = self._events
        if seat is None:
            return [self._event_json(events[i], None) for i in range(since, len(events))]
        return [self._event_json(events[i], seat) for i in range(since, len(events))]

    def event_count(self) -> int:
        """How many events have happened (the `since` that returns nothing new)."""
        return len(self._events)

    def _event_json(self, event: tuple, seat: Optional[int]) -> Dict[str, Any]:
        if event[0] == "deal":
            out = event_json(event)
            out["hands"] = [[tile_name(t) for t in self.dealt_tiles(s)] if seat is None or s == seat else None
                            for s in range(4)]
            return out
        return event_json(event) if seat is None else seat_event_json(event, seat)

    def dealt_tiles(self, seat: int) -> List[int]:
        """The tiles dealt to `seat` in wall order (13, the dealer 14; flowers included — the flower
        events say what replaced them)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        k = (seat - self.dealer) % 4
        tiles = self.wall[13 * k: 13 * k + 13]
        return tiles + [self.wall[52]] if k == 0 else tiles

    def default_action(self, seat: int) -> Action:
        """The answer a server gives for `seat` when its time runs out (a legal action now).

        A claim or rob window: PASS (WIN only when it is the one action offered — Sichuan's forced
        win). A turn: discard the drawn tile when that is legal; otherwise (after a chow or pung, or
        when the drawn tile may not go, e.g. a void suit must go first) the legal discard of the kind
        the seat sees most copies of outside its hand (`visible_counts`: the safest against a win),
        ties to the highest tile (honours first). Never a declaration or a kong; a self-drawn win
        is not taken. Changbai's last draws: keep the tile (PASS). 定缺 / 飘: the first legal choice.
        Raises IllegalActionError when the seat has nothing to answer.
        """
        seat = _seat_arg(seat)
        actions = self.legal_actions(seat)
        if not actions:
            raise self._not_pending_error(seat, "default_action")
        if PASS in actions:
            return PASS
        discards = [a for a in actions if a.kind is _K_DISCARD]
        if not discards:
            return actions[0]
        drawn = self.drawn
        if drawn >= 0 and self.turn == seat and DISCARD[drawn] in discards:
            return DISCARD[drawn]
        seen = self.visible_counts(seat)
        return max(discards, key=lambda a: (seen[a.arg], a.arg))

    # Copies -------------------------------------------------------------------------------------

    def clone(self) -> "Game":
        """An independent copy that plays on identically (same pending questions, same answers ->
        same events, ledger and log). A slot-by-slot copy of the mutable state — rules, the wall's
        tile list and Action objects are immutable and shared — fast enough for search bots.
        `copy.copy`, `copy.deepcopy` and pickle give the same independent game."""
        # Hot for search bots: straight-line attribute copies (a loop over the slot names with
        # getattr / object.__setattr__ costs several times more). Every slot of Game.__slots__ is set
        # here (tests/test_engine_contracts.py checks it); immutable values are shared.
        cls = self.__class__
        new = cls.__new__(cls)
        new.options = dict(self.options)
        new.rules = self.rules
        new.space = self.space
        new.seed = self.seed
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.shuffled = self.shuffled
        new.wall = list(self.wall)
        new.head = self.head
        new.tail = self.tail
        new.hands = [bytearray(h) for h in self.hands]
        new.melds = [list(m) for m in self.melds]  # (meld tuples are immutable)
        new.n_melds = list(self.n_melds)
        new.pungs = [list(p) for p in self.pungs]
        new.rivers = [list(r) for r in self.rivers]
        new._shown = None if self._shown is None else bytearray(self._shown)
        new.flowers = [list(f) for f in self.flowers]
        new.won_tiles = [list(w) for w in self.won_tiles]
        new.waits = list(self.waits)
        new.declared = list(self.declared)
        new.won = list(self.won)
        new.winners = list(self.winners)
        new.phase = self.phase
        new.turn = self.turn
        new.drawn = self.drawn
        new.replacement = self.replacement
        new.after_kong = self.after_kong
        new.last_four = self.last_four
        new.kept = list(self.kept)
        new.discard = self.discard
        new.discarder = self.discarder
        new.kong_seat = self.kong_seat
        new.kong_tile = self.kong_tile
        new.kongs = self.kongs
        new.interrupted = self.interrupted
        new.reserve = self.reserve
        new.forced_last = self.forced_last
        new.lock = None if self.lock is None else list(self.lock)
        new.declares = self.declares
        new.track_waits = self.track_waits
        new.last_draws = self.last_draws
        new.finished = self.finished
        new.exhausted = self.exhausted
        new.ledger = self.ledger.copy()
        asked = self._asked  # (a turn left unbuilt stays so in both: each builds its own on read)
        new._asked = None if asked is None else {s: list(a) for s, a in asked.items()}  # (Actions are shared)
        new._answers = dict(self._answers)
        new._offers = dict(self._offers)  # (scores are immutable)
        new._next_draw = self._next_draw
        new._actions = list(self._actions)
        new._events = list(self._events)  # (event tuples are never mutated)
        new.step = self.step
        new._lazy_turn = False
        new._forms = self._forms
        new._has_chow = self._has_chow
        new._ask_every_discard = self._ask_every_discard
        self._clone_ruleset(new)
        return new

    def _reshow(self) -> bytearray:
        """Build `_shown` from the lists (its first observer; `determinize`, which rewrites others'
        concealed kongs); returns it."""
        shown = bytearray(_NOTHING_SHOWN)
        if not (any(self.rivers) or any(self.melds) or any(self.won_tiles)):  # (a hand's first observation)
            self._shown = shown
            return shown
        for s in range(4):
            b = s * _SHOWN_STRIDE
            river = self.rivers[s]
            for t in river:
                shown[b + _SHOWN_RIVER + t] += 1
            n = len(river)
            shown[b + _SHOWN_RIVER_LEN] = n
            for i in range(max(n - 3, 0), n):
                shown[b + _SHOWN_LAST + i % 3] = river[i]
            for kind, t, _, _ in self.melds[s]:
                if kind == MELD_CHOW:
                    for k in range(3):
                        shown[b + _SHOWN_CHOW + t + k] += 1
                elif kind == MELD_PUNG:
                    shown[b + _SHOWN_PUNG + t] = 1
                elif kind == MELD_CONCEALED_KONG:
                    shown[b + _SHOWN_HIDDEN_KONG + t] = 1
                    shown[b + _SHOWN_HIDDEN_KONGS] += 1
                else:
                    shown[b + _SHOWN_KONG + t] = 1
            for t in self.won_tiles[s]:
                shown[b + _SHOWN_WON + t] += 1
        self._shown = shown
        return shown

    def _clone_ruleset(self, new: "Game") -> None:
        """Ruleset hook: give `new` an independent copy of the ruleset's own state (called by `clone`
        once the engine's slots are copied). The default deep-copies every attribute a subclass adds
        (its slots and instance dict) except plain immutable values and modules, keeping `new.ledger`
        as the copy of `self.ledger` inside them (a settlement that writes into the game's ledger);
        one memo for all of them, so objects they share stay shared."""
        names = _ruleset_slots(type(self))
        memo = None
        for name in names:
            try:
                value = getattr(self, name)
            except AttributeError:
                continue
            if value is not None and not isinstance(value, _SHARED):
                if memo is None:
                    memo = {id(self.ledger): new.ledger, id(self.rules): self.rules}
                value = _copy.deepcopy(value, memo)
            object.__setattr__(new, name, value)
        extra = getattr(self, "__dict__", None)
        if extra:
            fresh = new.__dict__
            for name, value in extra.items():
                if value is not None and not isinstance(value, _SHARED):
                    if memo is None:
                        memo = {id(self.ledger): new.ledger, id(self.rules): self.rules}
                    value = _copy.deepcopy(value, memo)
                fresh[name] = value

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self.clone()

    def __getstate__(self) -> Dict[str, Any]:
        state = {name: getattr(self, name) for name in _STATE_NAMES}  # (`_pending`: the table, built)
        state["_lazy_turn"] = False  # (as clone: a copy builds every question)
        for name in _ruleset_slots(type(self)):
            if hasattr(self, name):
                state[name] = getattr(self, name)
        state.update(getattr(self, "__dict__", {}))
        for name, value in list(state.items()):
            if isinstance(value, ModuleType):  # the MCR scorer: found again on unpickling
                del state[name]
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        if "_forms" not in state:  # pickled by a version that had no per-game switches
            self._lazy_turn = False
            self._forms = int(self.FORMS)
            self._has_chow = self.HAS_CHOW
            self._ask_every_discard = self.ASK_EVERY_DISCARD
        if "_shown" not in state:  # pickled by a version that did not keep it: built when observed
            self._shown = None
        self._restore_unpickled()

    def _restore_unpickled(self) -> None:
        """Ruleset hook: rebuild what `__getstate__` left out (MCR: the scorer backend)."""

    def view_object(self, seat: int) -> Any:
        """`view(seat)` as a `mahjong_core.viz.View`: the same mapping, shown as a table in notebooks."""
        from mahjong_core.viz.view import View

        return View(seat_view(self, seat))

    def _repr_svg_(self) -> str:
        """The whole table as a picture (notebooks); see `mahjong_core.viz.table_svg`."""
        from mahjong_core.viz.svg import table_svg

        return table_svg(self)

    # Read-only records for logs, views and tools (the engine's public surface) ------------------

    def answer_of(self, seat: int) -> Optional[Action]:
        """The answer `seat` has already given in the window that is open now (None if none)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        return self._answers.get(seat)

    def answer_history(self) -> List[Tuple[int, Action]]:
        """Every answer given so far, in order: (seat, action)."""
        by_uid = _ALL_ACTIONS
        return [(a >> 8, by_uid[a & 255]) for a in self._actions]

    def event_history(self) -> List[tuple]:
        """Every event so far as engine tuples (`mahjong_core.game.log.event_json` names the fields)."""
        return list(self._events)

    def state(self) -> Dict[str, Any]:
        """The complete state (omniscient; for tests, debugging and replay checks). JSON-serialisable."""
        return {
            "phase": PHASES[self.phase], "turn": self.turn, "dealer": self.dealer,
            "head": self.head, "tail": self.tail,
            "hands": [list(h) for h in self.hands], "melds": [[list(m) for m in ms] for ms in self.melds],
            "rivers": [list(r) for r in self.rivers], "flowers": [list(f) for f in self.flowers],
            "won_tiles": [list(w) for w in self.won_tiles], "waits": list(self.waits),
            "declared": list(self.declared), "won": list(self.won), "winners": list(self.winners),
            "drawn": self.drawn, "replacement": self.replacement,
            "after_kong": self.after_kong, "last_four": self.last_four, "kept": list(self.kept),
            "discard": self.discard,
            "discarder": self.discarder, "kong_seat": self.kong_seat, "kong_tile": self.kong_tile,
            "kongs": self.kongs, "interrupted": self.interrupted, "finished": self.finished, "step": self.step,
            "pungs": [list(p) for p in self.pungs],
            "exhausted": self.exhausted,
            "pending": {str(s): [a.uid for a in acts] for s, acts in self._asked_table().items()},
            "answers": {str(s): a.uid for s, a in self._answers.items()},
            "actions": [[a >> 8, a & 255] for a in self._actions], "n_events": len(self._events),
            "reserve": self.reserve, "lock": None if self.lock is None else list(self.lock),
            "ledger": self.ledger.to_json(), **self._ruleset_state(),
        }

    # Read-only accessors of one seat's own information (fast; for bots) ------------------------

    def hand_bytes(self, seat: int) -> bytes:
        """The seat's concealed tiles as 34 counts (bytes)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        return bytes(self.hands[seat])

    def meld_count(self, seat: int) -> int:
        """How many melds (exposed, and concealed kongs) the seat has."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        return self.n_melds[seat]

    def wall_remaining(self) -> int:
        """Tiles left in the live wall (including any tiles a ruleset will not draw)."""
        return self.tail - self.head

    def _observation_fields(self) -> tuple:
        """What the observation encoder reads of every seat (env/_encode.pyx, `_source_fields`; the
        order is fixed there), the ruleset's own state last (`_observed_state`), in one call. Hot
        path: one call per observation instead of sixteen attribute reads, which cost the learning
        environments more than the encoding itself."""
        return (self.hands, self.rivers, self.melds, self.won_tiles, self.won, self.declared, self.turn,
                self.dealer, self.phase, self.drawn, self.discarder, self.discard, self.kong_tile, self.wall_remaining(),
                self._observed_state())

    def _observed_state(self) -> Any:
        """Ruleset hook: the ruleset's own state the observation encoder reads (docs/OBSERVATION.md:
        Sichuan the void suits, Changbai the 飘, MCR (prevalent wind, flowers)); None here."""
        return None

    def visible_counts(self, seat: int) -> bytearray:
        """Copies of each kind `seat` can see outside its own concealed hand: every river, every
        exposed meld (others' concealed kongs excluded, one's own included) and won tiles."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        return visible_tile_counts(self.rivers, self.melds, self.won_tiles, seat)

    def _visible_count(self, seat: int, tile: int) -> int:
        """`visible_counts(seat)[tile]` without counting the other 33 kinds (MCR's 绝张 test, at
        every win it weighs)."""
        # Hot path (every MCR win check): compiled, `t` is a C integer (engine.pxd), so each river
        # and won tile is compared as a C value instead of through list.count's method call and
        # rich compare per entry (the engine keeps tile ints 0..33 in these lists).
        n = 0
        for s in range(4):
            for t in self.rivers[s]:
                if t == tile:
                    n += 1
            for t in self.won_tiles[s]:
                if t == tile:
                    n += 1
            for kind, t, _, _ in self.melds[s]:
                if kind == MELD_CHOW:
                    if t <= tile <= t + 2:
                        n += 1
                elif t == tile:
                    if kind == MELD_PUNG:
                        n += 3
                    elif kind != MELD_CONCEALED_KONG or s == seat:  # others' concealed kongs are hidden
                        n += 4
        return n

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} hand {self.hand_no} {PHASES[self.phase]} turn={self.turn} "
                f"wall={self.tail - self.head} finished={self.finished}>")

    # ------------------------------------------------------------------------------------------
    # Ruleset facts the game layer asks before and after a hand (class-level hooks)

    @classmethod
    def rules_class(cls) -> Any:
        """Ruleset hook: the ruleset's `Rules` class."""
        raise NotImplementedError

    @classmethod
    def tiles(cls, flowers: bool = False) -> List[int]:
        """Ruleset hook: the full tile multiset in canonical order (default 136 tiles, 144 with flowers)."""
        return standard_tiles(honours=True, flowers=flowers)

    @classmethod
    def _from_seed(cls, rules: Any, seed: int, hand_no: int, dealer: Optional[int], **options: Any) -> "Game":
        """`new_game`'s seeded hand for `rules` resolved for this class: the wall shuffled by
        (seed, hand_no); `dealer` a seat, or None for the rules' own (drawn from the seed, or seat 0).
        `new_game` checks its arguments first; a run (`simulate`) calls this once per hand with what
        it resolved once."""
        wall = _seeded_wall(cls, rules, seed, hand_no)
        if dealer is None:
            dealer = cls._default_dealer(rules, seed, hand_no)
        return cls(rules, wall, seed=seed, hand_no=hand_no, dealer=dealer, shuffled=True, **options)

    @classmethod
    def _default_dealer(cls, rules: Any, seed: Optional[int], hand_no: int) -> int:
        """The dealer of a hand when none is given: drawn from (seed, hand_no) where the rules say
        the dealer is random and there is a seed, else seat 0."""
        return seeded_dealer(seed, hand_no) if seed is not None and cls.random_dealer(rules) else 0

    @classmethod
    def rules_for_wall(cls, rules: Any, wall: Any) -> Any:
        """Ruleset hook: the rules adjusted to an explicit wall (Botzone: 144 tiles = flowers)."""
        return rules

    @classmethod
    def uses_flowers(cls, rules: Any) -> bool:
        """Ruleset hook: do these rules play with the eight flowers (MCR `flowers=True`)?"""
        return False

    @classmethod
    def random_dealer(cls, rules: Any) -> bool:
        """Ruleset hook: is the (first) dealer drawn from the seed rather than seat 0?"""
        return False

    def next_dealer(self) -> int:
        """Ruleset hook: the dealer of the next hand, once this one is over (default: the same)."""
        return self.dealer

    def _view_extras(self, seat: int) -> Dict[str, Any]:
        """Ruleset hook: the ruleset's own fields of `view(seat)` (void suits, 飘, the prevalent wind)."""
        return {}

    # ------------------------------------------------------------------------------------------
    # Ruleset hooks (defaults: no special rule)

    def _init_ruleset(self) -> None:
        """Ruleset hook: extra state."""

    def _ruleset_state(self) -> Dict[str, Any]:
        """Ruleset hook: extra state for `state()`."""
        return {}

    def _start(self) -> None:
        """Ruleset hook: what happens first (default: deal, then the dealer's turn)."""
        self._deal()
        self._begin_dealer_turn()

    def _resolve_choice(self, answers: Dict[int, Action]) -> None:
        """Ruleset hook: every seat answered a CHOOSE window."""
        raise NotImplementedError

    def _discard_mask(self, seat: int) -> int:
        """Ruleset hook: the legal discards of a seat holding 14 − 3·melds tiles, as a bit mask over
        the 34 kinds (bit t: DISCARD[t] is legal). Default: every kind the seat holds."""
        return _held_kinds(self.hands[seat])  # (hot path, every turn: a vector compare, compiled)

    def _discard_options(self, seat: int) -> List[Action]:
        """The legal discards (`_discard_mask`) as actions, in tile order."""
        mask = self._discard_mask(seat)
        # Hot path (every turn a Python driver or an environment asks): the list is allocated once,
        # at its size, and compiled the loop visits the set bits only (C popcount and bit scan).
        if _COMPILED:
            out: List[Action] = [None] * mc_popcount64(mask)  # type: ignore[list-item,name-defined]  # noqa: F821
            k = 0
            while mask:
                out[k] = _DISCARDS[mc_lowest_bit64(mask)]  # type: ignore[name-defined]  # noqa: F821
                k += 1
                mask &= mask - 1
            return out
        return [DISCARD[t] for t in range(mask.bit_length()) if mask >> t & 1]

    def _can_claim_tile(self, seat: int, tile: int) -> bool:
        """Ruleset hook: may `seat` pung/kong `tile` (Sichuan: never a void-suit tile)."""
        return True

    def _self_win_ok(self, seat: int, tile: int) -> bool:
        """Ruleset hook: `seat` (whose hand is complete with the drawn `tile`) may declare 自摸."""
        return True

    def _discard_win_ok(self, seat: int, tile: int, robbing: bool) -> bool:
        """Ruleset hook: `seat` (whose waits include `tile`) may win on the discard / robbed kong."""
        return True

    def _declare_options(self, seat: int) -> Sequence[Action]:
        """Ruleset hook: 报听 discards available now (Changbai; MCR with declared_ready_fan): a list of
        DECLARE actions, or the empty tuple when there are none (hot path: asked on every turn where
        the rules have 报听, and nearly always empty; the empty tuple is shared, an empty list is not)."""
        return ()

    def _declared_kong_ok(self, seat: int, tile: int, kind: int) -> bool:
        """Ruleset hook: a declared-ready seat may make this kong (its wait must not change)."""
        return False

    def _on_declare(self, seat: int) -> None:
        """Ruleset hook: `seat` just declared ready (its hand is at waiting size)."""

    def _on_pass_win(self, seat: int, tile: int) -> None:
        """Ruleset hook: `seat` could have won on `tile` (discard or robbed kong) and did not."""

    def _settle_kong(self, seat: int, kind: int, tile: int, discarder: int) -> None:
        """Ruleset hook: a kong was made (pay 刮风下雨 / kong scores)."""

    def _settle_self_win(self, seat: int, tile: int) -> Any:
        """Ruleset hook: score and settle a self-drawn win; returns the score (for the log)."""
        raise NotImplementedError

    def _settle_discard_win(self, winners: List[int], discarder: int, tile: int, robbed: bool) -> Dict[int, Any]:
        """Ruleset hook: score and settle a win on a discard / robbed kong; returns {winner: score}."""
        raise NotImplementedError

    def _settle_exhausted(self) -> None:
        """Ruleset hook: the wall ran out (流局)."""

    def _score_summary(self, score: Any) -> Any:
        """Ruleset hook: a JSON-serialisable summary of a score for the log."""
        return None

    # ------------------------------------------------------------------------------------------
    # Dealing and turns

    def _deal(self) -> None:
        # Once per hand, 53 tiles: compiled, `hand` is the seat's buffer, written in place after
        # the tile is checked to be a kind (engine.pxd); a flower here would be a ruleset's error
        # (rulesets with flowers deal them themselves), raised as indexing the bytearray does.
        # Tiles 13k..13k+12 go to the k-th seat from the dealer; tile 52 (k = 4) to the dealer.
        wall, dealer, hands = self.wall, self.dealer, self.hands
        for i in range(53):
            t = wall[i]
            if not 0 <= t < 34:
                raise IndexError("bytearray index out of range")
            hand = hands[(dealer + i // 13) & 3]
            hand[t] += 1
        self.head = 53
        self._events.append(("deal", dealer))

    def _begin_dealer_turn(self) -> None:
        """The dealer acts on the dealt 14 tiles (its 14th tile counts as its first draw)."""
        dealer = self.dealer
        tile = self.wall[52] if self.drawn < 0 else self.drawn
        for seat in range(4):
            if seat != dealer:
                self._update_waits(seat)
        hand = self.hands[dealer]
        hand[tile] -= 1
        self._update_waits(dealer)
        hand[tile] += 1
        self._open_turn(dealer, tile, False)

    def _run(self) -> None:
        """Driver loop: perform the automatic draws until some seat must answer or the hand ends.

        The common draw — right after a discard nobody can claim — is made by `_discard_tile`'s fast
        path instead; this loop handles every other draw (after a claim window, a win, a kept tile) and
        every draw the fast path declines (wall end, flowers, a possible win, a special turn)."""
        while self._next_draw >= 0:
            seat = self._next_draw
            self._next_draw = -1
            head = self.head
            left = self.tail - head - self.reserve
            if left <= 0:
                self._end_exhausted()
                return
            if self.last_draws:
                self.last_four = left <= self.last_draws
            self.head = head + 1
            self._receive(seat, self.wall[head], "draw", False)

    def _next_seat(self, seat: int) -> int:
        """The next seat in turn order that is still in the hand."""
        won = self.won
        for k in range(1, 4):  # _OTHERS[seat], as C arithmetic when compiled
            s = (seat + k) & 3
            if not won[s]:
                return s
        return seat

    def _set_aside_flowers(self, seat: int, tile: int) -> int:
        """补花: set flowers aside and draw replacements from the tail; -1 if the wall ran out."""
        while tile >= 34:
            self.flowers[seat].append(tile)
            if self.tail <= self.head:
                self._events.append(("flower", seat, tile, -1))
                self._end_exhausted()
                return -1
            self.tail -= 1
            replacement = self.wall[self.tail]
            self._events.append(("flower", seat, tile, replacement))
            tile = replacement
        return tile

    def _replacement_draw(self, seat: int) -> None:
        """A kong's replacement tile from the wall's tail."""
        if self.last_draws:
            self.last_four = self.tail - self.head - self.reserve <= self.last_draws
        self.tail -= 1
        self._receive(seat, self.wall[self.tail], "replacement", True)

    def _receive(self, seat: int, tile: int, event: str, replacement: bool) -> None:
        """The shared end of a draw and a kong replacement: 补花, then the tile joins the hand and the
        seat's turn opens (`event`: "draw" or "replacement")."""
        if tile >= 34:
            tile = self._set_aside_flowers(seat, tile)
            if tile < 0:
                return
        if self.lock is not None:
            self.lock[seat] = -1
        self._events.append((event, seat, tile))
        self.hands[seat][tile] += 1
        self._open_turn(seat, tile, replacement)

    def _open_turn(self, seat: int, tile: int, replacement: bool) -> None:
        """`seat` holds 14 − 3·melds tiles after drawing `tile`: offer its turn actions."""
        # Hot path: one call per draw.
        self.turn = seat
        self.drawn = tile
        self.replacement = replacement
        self.phase = _TURN
        if self._offers:
            self._offers = {}
        w = self.waits[seat]  # (compiled: a C integer, engine.pxd)
        can_win = (w >> tile) & 1
        if can_win and self.CHECK_SELF_WIN:
            can_win = self._self_win_ok(seat, tile)
        if self.last_four:
            # Changbai's last four: only a self-drawn win; otherwise the tile is simply kept.
            if can_win:
                self.phase = LAST_DRAW
                self._asked = {seat: [WIN, PASS]}
            else:
                self.kept[seat] = tile
                self._events.append(("keep", seat))
                self._next_draw = self._next_seat(seat)
            return
        if can_win and self.forced_last and self.tail - self.head < self.forced_last:
            self._asked = {seat: [WIN]}
            return
        if self.declared[seat]:
            self._declared_turn(seat, tile, can_win)
            return
        if self._lazy_turn and not can_win:  # the native loop or the step kernel reads this turn itself
            self._asked = None  # (unbuilt: see _lazy_turn)
            return
        options = self._turn_options(seat)
        if can_win:
            options.insert(0, WIN)
        self._asked = {seat: options}

    def _turn_options(self, seat: int) -> List[Action]:
        """A plain turn's actions besides a win: the discards, kongs while the wall lasts, 报听."""
        options = self._discard_options(seat)
        if self._may_kong(seat):
            options.extend(self._kong_options(seat))
        if self.declares:
            options.extend(self._declare_options(seat))
        return options

    def _may_kong(self, seat: int) -> bool:
        """Whether `_kong_options` may offer anything on the seat's turn (a kind held four times, or a
        pung whose fourth tile is in hand, while the wall lasts); False means the turn offers no kong.
        Exact for added kongs: a seat with pungs but none of their fourth tiles (most turns of a
        seat with a pung) skips building an empty list of options."""
        if self.tail <= self.head:
            return False
        hand = self.hands[seat]
        if _COMPILED and _c_input(hand, 0):  # (hot path: every turn: `4 in hand` as a vector compare)
            counts = hand
            if mc_four_kinds34(counts):  # type: ignore[name-defined]  # noqa: F821 (cimported, _bits.pxd)
                return True
            for t in self.pungs[seat]:  # the buffer read in place; any other index as Python reads it
                if counts[t] if 0 <= t < 34 else hand[t]:
                    return True
            return False
        if 4 in hand:
            return True
        for t in self.pungs[seat]:
            if hand[t]:
                return True
        return False

    def _declared_turn(self, seat: int, tile: int, can_win: int) -> None:
        """报听: the drawn tile goes out unless it wins or makes a kong that keeps the wait."""
        options: List[Action] = [WIN] if can_win else []
        if self.tail > self.head:
            for action in self._kong_options(seat):
                kind = MELD_CONCEALED_KONG if action.kind is ActionKind.CONCEALED_KONG else MELD_ADDED_KONG
                if self._declared_kong_ok(seat, action.arg, kind):
                    options.append(action)
        if not options:
            self._events.append(("auto", seat))
            self._discard_tile(seat, tile, False)
            return
        options.append(DISCARD[tile])
        self._asked = {seat: options}

    def _kong_options(self, seat: int) -> List[Action]:  # noqa: D401
        """Concealed kongs (four in hand) and added kongs (a pung plus the fourth in hand)."""
        hand = self.hands[seat]
        out: List[Action] = []
        if _COMPILED and _c_input(hand, 0):  # (hot path: every turn with a pung or a quad)
            # the kinds held four times (a vector compare, mahjong_core/_bits.pxd), then the rules
            counts = hand
            quads = mc_four_kinds34(counts)  # type: ignore[name-defined]  # noqa: F821 (cimported)
            t = 0
            while quads:
                if quads & 1 and self._can_claim_tile(seat, t):
                    out.append(CONCEALED_KONG[t])
                quads >>= 1
                t += 1
        elif 4 in hand:
            for t in range(34):
                if hand[t] == 4 and self._can_claim_tile(seat, t):
                    out.append(CONCEALED_KONG[t])
        for t in self.pungs[seat]:
            if hand[t]:
                out.append(ADDED_KONG[t])
        return out

    def _after_claim_turn(self, seat: int) -> None:
        """After a chow or pung: the claimer discards."""
        self.turn = seat
        self.drawn = -1
        self.replacement = False
        self.phase = _AFTER_CLAIM
        if self._lazy_turn:  # the native loop or the step kernel reads this turn itself
            self._asked = None  # (unbuilt: see _lazy_turn)
            return
        self._asked = {seat: self._discard_options(seat)}

    # ------------------------------------------------------------------------------------------
    # Resolution

    def _turn_action(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind is _K_DISCARD:
            self._discard_tile(seat, action.arg, False)
        elif kind is _K_WIN:
            self._self_win(seat)
        elif kind is _K_CONCEALED_KONG:
            self._concealed_kong(seat, action.arg)
        elif kind is _K_ADDED_KONG:
            self._added_kong(seat, action.arg)
        elif kind is _K_DECLARE:
            self._discard_tile(seat, action.arg, True)
        else:  # pragma: no cover - never offered
            raise AssertionError(action)

    def _last_draw_action(self, seat: int, action: Action) -> None:
        if action is WIN:
            self._self_win(seat)
        else:
            self.kept[seat] = self.drawn
            self._events.append(("keep", seat))
            self._next_draw = self._next_seat(seat)

    def _resolve_window(self, pending: Dict[int, List[Action]], answers: Dict[int, Action]) -> None:
        phase = self.phase
        if phase == CLAIM:
            self._resolve_claims(pending, answers)
        elif phase == ROB:
            self._resolve_rob(pending, answers)
        elif phase == CHOOSE:
            self._resolve_choice(answers)
        else:  # pragma: no cover
            raise AssertionError(phase)

    def _discard_tile(self, seat: int, tile: int, declare: bool) -> None:
        # Hot path: one call per discard. Compiled, `hs` and `hn` are the hands' buffers, written in
        # place (engine.pxd): `tile` is a legal discard, so the seat holds it, and `drawn` below is
        # a tile kind < 34 that the drawing seat holds at most three of.
        shown = self._shown
        if shown is not None:  # (kept once observed: `_shown_record`)
            # Compiled, `record` is its buffer, written in place once its size is checked (a record
            # replaced from outside is rebuilt from the lists first); `tile` is a kind.
            if len(shown) != _SHOWN_SIZE:
                shown = self._shown_record()
            record = shown
            b = seat * _SHOWN_STRIDE
            n = record[b + _SHOWN_RIVER_LEN]
            record[b + tile] += 1  # (_SHOWN_RIVER is 0)
            record[b + _SHOWN_LAST + n % 3] = tile  # (river tile i lies in slot i % 3 of the last three)
            record[b + _SHOWN_RIVER_LEN] = n + 1
        hands = self.hands
        hs = hands[seat]
        hs[tile] -= 1
        self.rivers[seat].append(_TILE_INTS[tile])  # (the shared int: no conversion of the C tile)
        self.discard = tile
        self.discarder = seat
        self.after_kong = self.replacement
        self.replacement = False
        self.drawn = -1
        if declare is False:
            self._events.append(_DISCARD_EVENTS[seat * 34 + tile])
        else:
            self._events.append(("discard", seat, tile, declare))
        if self.track_waits:
            self._update_waits(seat)
        if declare:
            self.declared[seat] = True
            self._on_declare(seat)
        # Most discards interest nobody: decide that with a few shifts and count lookups before
        # building a claim window (won seats have empty wait masks and are skipped later).
        # Compiled, `w1`..`w3` are C integers and `h1`..`h3` the hands' buffers (engine.pxd): these
        # tests are a few C reads (`tile` is a legal discard, 0..33, inside every 34-count buffer).
        o1 = (seat + 1) & 3  # _OTHERS[seat], as C arithmetic when compiled
        o2 = (seat + 2) & 3
        o3 = (seat + 3) & 3
        waits = self.waits
        w1 = waits[o1]
        w2 = waits[o2]
        w3 = waits[o3]
        h1 = hands[o1]
        h2 = hands[o2]
        h3 = hands[o3]
        if (not ((w1 | w2 | w3) >> tile) & 1 and h1[tile] < 2 and h2[tile] < 2 and h3[tile] < 2
                and not self._ask_every_discard):
            if not self._has_chow or tile >= 27 or self.won[o1] or self.declared[o1]:
                nxt = o1 if not self.won[o1] else self._next_seat(seat)
            else:
                if _chows_of(h1, tile):  # a chow for the next seat
                    self._open_claims(seat, tile)
                    return
                nxt = o1
            # Fast path (nearly every discard): seat `nxt` draws right here, without the driver loop,
            # when the draw is the plain case — a live-wall tile (not a flower, not one of Changbai's
            # last-draw tiles) that cannot win, for a seat that has not declared ready. It does
            # exactly what one iteration of `_run` (→ `_receive` → `_open_turn`) does for that case
            # (draw bookkeeping, then `_turn_options`); every other draw is left to `_run` before
            # anything of it is done. Keep them in step.
            head = self.head
            if self.tail - head - self.reserve > self.last_draws and not self.last_four:
                drawn = self.wall[head]
                wn = waits[nxt]
                if drawn < 34 and not (wn >> drawn) & 1 and not self.declared[nxt]:
                    self.head = head + 1
                    lock = self.lock
                    if lock is not None:
                        lock[nxt] = -1
                    self._events.append(_DRAW_EVENTS[nxt * 34 + drawn])
                    hn = hands[nxt]
                    hn[drawn] += 1
                    self.turn = nxt
                    self.drawn = drawn
                    self.phase = _TURN  # (replacement is False already)
                    if self._lazy_turn:  # the native loop or the step kernel reads this turn itself
                        self._asked = None  # (unbuilt: see _lazy_turn)
                        return
                    self._asked = {nxt: self._turn_options(nxt)}
                    return
            self._next_draw = nxt
            return
        self._open_claims(seat, tile)

    def _open_claims(self, discarder: int, tile: int) -> None:
        """Ask every seat that can do something with the discard; skip the window if nobody can."""
        others = _OTHERS[discarder]
        o1 = others[0]
        hands, waits = self.hands, self.waits
        pending: Dict[int, List[Action]] = {}
        if self._offers:
            self._offers = {}
        wall_open = self.tail - self.head - self.reserve > 0
        kong_ok = wall_open and not self.last_four
        forced = self.forced_last and self.tail - self.head < self.forced_last
        won, declared, lock = self.won, self.declared, self.lock
        for s in others:
            if won[s]:
                continue
            options = None
            # (compiled, `w` is a C integer and `h` the hand's buffer: `tile` is a legal discard,
            # 0..33, inside every 34-count hand, as in `_discard_tile`)
            w = waits[s]
            h = hands[s]
            if (w >> tile) & 1 and (
                    (self._discard_win_ok(s, tile, False)) if self.CHECK_DISCARD_WIN or (lock and lock[s] >= 0)
                    else True):
                if forced:
                    pending[s] = [WIN]
                    continue
                options = [WIN]
            if wall_open:
                count = h[tile]
                if count >= 2 and self._can_claim_tile(s, tile):
                    if not declared[s]:
                        if options is None:
                            options = [PUNG]
                        else:
                            options.append(PUNG)
                        if count == 3 and kong_ok:
                            options.append(KONG)
                    elif count == 3 and kong_ok and self._declared_kong_ok(s, tile, MELD_KONG):
                        if options is None:
                            options = [KONG]
                        else:
                            options.append(KONG)
                if self._has_chow and s == o1 and not declared[s]:
                    chows = _chows_of(h, tile)
                    if chows:
                        if options is None:
                            options = []
                        for k in range(3):
                            if chows >> k & 1:
                                options.append(CHOW[k + 1])
            if options is not None:
                options.append(PASS)
                pending[s] = options
        if pending:
            self.phase = CLAIM
            self._asked = pending
        else:
            self._next_draw = self._next_seat(discarder)

    def _resolve_claims(self, pending: Dict[int, List[Action]], answers: Dict[int, Action]) -> None:
        # One pass over the seats in turn order after the discarder (every window of every hand):
        # the winners; each seat that passed an offered win (told first, in that order); the first
        # kong or pung; the first chow. Priority: wins, then a kong or pung, then a chow.
        discarder, tile = self.discarder, self.discard
        winners: List[int] = []
        claimer = chower = -1
        claim: Optional[Action] = None
        chow: Optional[Action] = None
        for s in _OTHERS[discarder]:
            offered = pending.get(s)
            if offered is None:  # not asked, so no answer either (answers' seats are pending's)
                continue
            action = answers.get(s)
            if action is WIN:
                winners.append(s)
                continue
            if offered[0] is WIN:
                self._on_pass_win(s, tile)
            if action is None or claimer >= 0:
                continue
            if action is KONG or action is PUNG:
                claimer, claim = s, action
            elif chower < 0 and action.kind is _K_CHOW:
                chower, chow = s, action
        if winners:
            if not self.MULTI_WIN:
                winners = winners[:1]
            self._discard_win(winners, discarder, tile, False)
        elif claim is KONG:
            self._melded_kong(claimer, discarder, tile)
        elif claim is PUNG:
            self._pung(claimer, discarder, tile)
        elif chow is not None:
            self._chow(chower, discarder, tile, chow.arg)
        else:
            self._next_draw = self._next_seat(discarder)

    def _resolve_rob(self, pending: Dict[int, List[Action]], answers: Dict[int, Action]) -> None:
        seat, tile = self.kong_seat, self.kong_tile
        order = _OTHERS[seat]
        winners = [s for s in order if answers.get(s) is WIN]
        for s in order:
            if s in pending and answers[s] is not WIN:
                self._on_pass_win(s, tile)
        self.kong_seat = -1
        self.kong_tile = -1
        if winners:
            if not self.MULTI_WIN:
                winners = winners[:1]
            self.hands[seat][tile] -= 1
            self.drawn = -1
            self.replacement = False
            self._update_waits(seat)
            self._events.append(("robbed", seat, tile))
            self._discard_win(winners, seat, tile, True)
            return
        self._complete_added_kong(seat, tile)

    # ------------------------------------------------------------------------------------------
    # Claims and kongs

    def _take_discard(self, discarder: int) -> None:
        self._pop_river(discarder)
        self.interrupted = True

    def _pop_river(self, seat: int) -> int:
        """Take the last tile out of `seat`'s river (a claim or a win on it), shown too: its slot of
        the last three takes the tile three before it (255: none)."""
        river = self.rivers[seat]
        if self._shown is None:
            return river.pop()
        self._shown_record()  # (a record replaced from outside: rebuilt before the tile leaves)
        tile = river.pop()
        n = len(river)
        before = river[n - 3] if n >= 3 else 255
        shown = self._shown
        if (shown is None or len(shown) != _SHOWN_SIZE or not 0 <= tile < 34
                or not (0 <= before < 34 or before == 255)):  # something changed from outside meanwhile
            self._reshow()
            return tile
        record = shown  # (compiled: its buffer, as in `_discard_tile`; no Python code runs after this)
        b = seat * _SHOWN_STRIDE
        record[b + tile] -= 1
        record[b + _SHOWN_RIVER_LEN] = n
        record[b + _SHOWN_LAST + n % 3] = before
        return tile

    def _shown_record(self) -> bytearray:
        """`_shown`, built from the lists first when there is none yet (its first observer: the
        engine keeps it from then on) or something outside the engine replaced it with anything but
        a record of its size (the engine writes into it in place)."""
        shown = self._shown
        if type(shown) is not bytearray or len(shown) != _SHOWN_SIZE:
            shown = self._reshow()
        return shown

    def _pung(self, seat: int, discarder: int, tile: int) -> None:
        self._take_discard(discarder)
        self.hands[seat][tile] -= 2
        self.melds[seat].append((MELD_PUNG, tile, (seat - discarder) % 4, discarder))
        if self._shown is not None:
            self._shown_record()[seat * _SHOWN_STRIDE + _SHOWN_PUNG + tile] = 1
        self.pungs[seat].append(tile)
        self.n_melds[seat] += 1
        self._events.append(("pung", seat, tile, discarder))
        self._after_claim_turn(seat)

    def _chow(self, seat: int, discarder: int, tile: int, position: int) -> None:
        self._take_discard(discarder)
        low = tile - (position - 1)
        hand = self.hands[seat]
        for t in range(low, low + 3):
            if t != tile:
                hand[t] -= 1
        if self._shown is not None:
            shown = self._shown_record()
            b = seat * _SHOWN_STRIDE + _SHOWN_CHOW
            for t in range(low, low + 3):
                shown[b + t] += 1
        self.melds[seat].append((MELD_CHOW, low, position, discarder))
        self.n_melds[seat] += 1
        self._events.append(("chow", seat, tile, discarder, position))
        self._after_claim_turn(seat)

    def _melded_kong(self, seat: int, discarder: int, tile: int) -> None:
        self._take_discard(discarder)
        self.hands[seat][tile] -= 3
        self.melds[seat].append((MELD_KONG, tile, (seat - discarder) % 4, discarder))
        if self._shown is not None:
            self._shown_record()[seat * _SHOWN_STRIDE + _SHOWN_KONG + tile] = 1
        self.n_melds[seat] += 1
        self.kongs += 1
        self._events.append(("kong", seat, tile, discarder))
        self._update_waits(seat)
        self._settle_kong(seat, MELD_KONG, tile, discarder)
        self._replacement_draw(seat)

    def _concealed_kong(self, seat: int, tile: int) -> None:
        if self._shown is not None:  # (before the meld: a record rebuilt here counts it once)
            shown = self._shown_record()
            b = seat * _SHOWN_STRIDE
            shown[b + _SHOWN_HIDDEN_KONG + tile] = 1
            shown[b + _SHOWN_HIDDEN_KONGS] += 1
        self.hands[seat][tile] -= 4
        self.melds[seat].append((MELD_CONCEALED_KONG, tile, 0, -1))
        self.n_melds[seat] += 1
        self.kongs += 1
        self.interrupted = True
        self._events.append(("concealed_kong", seat, tile))
        self._update_waits(seat)
        self._settle_kong(seat, MELD_CONCEALED_KONG, tile, -1)
        self._replacement_draw(seat)

    def _added_kong(self, seat: int, tile: int) -> None:
        """Adding to a pung: first the others may rob it (抢杠)."""
        self.interrupted = True
        pending: Dict[int, List[Action]] = {}
        self._offers = {}
        forced = self.forced_last and self.tail - self.head < self.forced_last
        for s in _OTHERS[seat]:
            if not self.won[s] and (self.waits[s] >> tile) & 1 and self._discard_win_ok(s, tile, True):
                pending[s] = [WIN] if forced else [WIN, PASS]
        # Announced whether or not anyone can rob it: an "adding_kong" written only when some seat
        # waits on the tile would tell every seat (and every log reader) that someone does.
        self._events.append(("adding_kong", seat, tile))
        if pending:
            self.phase = ROB
            self.kong_seat = seat
            self.kong_tile = tile
            self._asked = pending
            return
        self._complete_added_kong(seat, tile)

    def _complete_added_kong(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        melds = self.melds[seat]
        for i, (kind, t, marker, frm) in enumerate(melds):
            if kind == MELD_PUNG and t == tile:
                melds[i] = (MELD_ADDED_KONG, t, marker, frm)
                break
        if self._shown is not None:
            shown = self._shown_record()
            b = seat * _SHOWN_STRIDE
            shown[b + _SHOWN_PUNG + tile] = 0
            shown[b + _SHOWN_KONG + tile] = 1
        self.pungs[seat].remove(tile)
        self.kongs += 1
        self._events.append(("added_kong", seat, tile))
        self._update_waits(seat)
        self._settle_kong(seat, MELD_ADDED_KONG, tile, -1)
        self._replacement_draw(seat)

    # ------------------------------------------------------------------------------------------
    # Wins and the end of the hand

    def _self_win(self, seat: int) -> None:
        tile = self.drawn
        score = self._settle_self_win(seat, tile)
        if self._shown is not None:  # (before the list: a record rebuilt here counts the tile once)
            self._shown_record()[seat * _SHOWN_STRIDE + _SHOWN_WON + tile] += 1
        self.hands[seat][tile] -= 1
        self.won_tiles[seat].append(tile)
        self.won[seat] = True
        self.waits[seat] = 0
        self.winners.append(seat)
        self._events.append(("win", seat, tile, -1, self._score_summary(score)))
        self.drawn = -1
        self.replacement = False
        self._after_win(seat)

    def _discard_win(self, winners: List[int], discarder: int, tile: int, robbed: bool) -> None:
        scores = self._settle_discard_win(winners, discarder, tile, robbed)
        if not robbed:
            self._pop_river(discarder)
        if self._shown is not None:  # (before the list: a record rebuilt here counts the tile once)
            self._shown_record()[winners[0] * _SHOWN_STRIDE + _SHOWN_WON + tile] += 1
        self.won_tiles[winners[0]].append(tile)
        for s in winners:
            self.won[s] = True
            self.waits[s] = 0
            self.winners.append(s)
            self._events.append(("win", s, tile, discarder, self._score_summary(scores.get(s))))
        self._after_win(winners[-1])

    def _after_win(self, last_winner: int) -> None:
        if not self.CONTINUES_AFTER_WIN or len(self.winners) >= 3:
            self._end()
            return
        self._next_draw = self._next_seat(last_winner)

    def _end_exhausted(self) -> None:
        self.exhausted = True
        self._events.append(("exhausted",))
        self._settle_exhausted()
        self._end()

    def _end(self) -> None:
        self.finished = True
        self.phase = DONE
        self._asked = {}
        self._answers = {}
        self._next_draw = -1
        self._events.append(("end", list(self.winners), self.ledger.totals()))

    # ------------------------------------------------------------------------------------------
    # Waits and hands

    def _update_waits(self, seat: int) -> None:
        """Recompute `waits[seat]` for a hand at waiting size (hot: one core call, ~150 ns)."""
        # (the bytearray is read in place; the meld count is positional: see _waits_mask_m)
        self.waits[seat] = _waits_mask_m(self.hands[seat], self._forms, self.n_melds[seat])

    def core_melds(self, seat: int) -> Tuple[Meld, ...]:
        """The seat's melds as core `Meld` objects (claim markers relative to the seat)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        return tuple([_core_meld(m) for m in self.melds[seat]])

    def hand_of(self, seat: int, win_tile: int = -1, *, add: bool = True) -> Hand:
        """The seat's hand as a core `Hand` (melds included). With `win_tile` >= 0 it is the winning
        tile: added to the concealed tiles (unless `add=False`: already there)."""
        if type(seat) is not int or not 0 <= seat < 4:
            seat = _seat_arg(seat)
        if not (type(win_tile) is int and -1 <= win_tile < 34):
            win_tile = _tile_or_none_arg(win_tile)
        counts = bytearray(self.hands[seat])
        if win_tile >= 0:
            if add:
                counts[win_tile] += 1
            return Hand(bytes(counts), self.core_melds(seat), win_tile)
        return Hand(bytes(counts), self.core_melds(seat))

    # ------------------------------------------------------------------------------------------
    # Errors

    def _decode(self, seat: int, action: Any) -> Action:
        if action.__class__ is int:
            return self.space.action(action)
        if isinstance(action, ActionKind):
            raise IllegalActionError(
                f"seat {seat}: {action!r} is an action kind, not an action: pass the Action "
                f"(e.g. mahjong_core.game.actions.PASS), its integer code or its JSON form")
        if isinstance(action, dict):
            found = Action.from_json(action)
            if self.space.code_of_uid[found.uid] < 0:
                raise IllegalActionError(f"seat {seat}: {found!r} is not an action of {self.ruleset}")
            return found
        if not isinstance(action, (bool, Enum)) and hasattr(action, "__index__"):
            code = _index_of(action)  # a NumPy integer code, an int subclass
            if code is None:  # (a NumPy array: its __index__ refuses all but 0-d integer arrays)
                raise IllegalActionError(
                    f"seat {seat}: an action is one integer code, got {type(action).__name__} {repr(action)[:60]}: "
                    f"pass one element (e.g. int(codes[i])) of a batch of codes")
            return self.space.action(code)
        raise IllegalActionError(
            f"seat {seat}: an action is an Action (e.g. mahjong_core.game.actions.DISCARD[t]) or its integer code, "
            f"got {action!r}")

    def _check_step(self, seat: int, action: Any, step: Any) -> None:
        """`act`'s `step=` when it is not a plain int equal to `self.step`: an int-like value equal
        to it passes; anything else raises (nothing changed)."""
        index = _index_of(step)  # (a float has no __index__)
        if index == self.step:
            return
        raise self._stale_error(seat, action, step if index is None else index)

    def _stale_error(self, seat: int, action: Any, step: Any) -> IllegalActionError:
        if isinstance(step, bool) or not isinstance(step, int):
            return IllegalActionError(f"step must be an integer step id (Game.step), got {step!r}")
        if step < self.step:
            return StaleActionError(
                f"seat {seat}: {action!r} answers step {step}, which is closed; the game is at step {self.step}"
                + (" (the hand is over)" if self.finished else ""))
        return StaleActionError(f"seat {seat}: {action!r} answers step {step}, which has not come yet "
                                f"(the game is at step {self.step})")

    def _not_pending_error(self, seat: Any, action: Any) -> IllegalActionError:
        if self.finished:
            return IllegalActionError(f"the hand is over; {action!r} by seat {seat} is not accepted")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            return IllegalActionError(f"seat must be 0..3, got {seat!r}")
        if seat in self._answers:  # a duplicate: stale, as a late answer is (ENGINE.md)
            return StaleActionError(f"seat {seat} already answered this {PHASES[self.phase]} window (step "
                                    f"{self.step}): a duplicate answer")
        waiting = sorted(s for s in self._asked_table() if s not in self._answers)
        return IllegalActionError(
            f"seat {seat} has nothing to answer now ({PHASES[self.phase]}); waiting for seat(s) {waiting}")


_SLOTS = Game.__slots__
#: what `__getstate__` keeps: the slots, the question table under the name pickles have always used
#: (`_pending`, read through the property: an unbuilt turn is built first)
_STATE_NAMES = tuple("_pending" if name == "_asked" else name for name in _SLOTS)

#: values `clone` shares between the copies (immutable, or modules)
_SHARED = (int, float, str, bytes, tuple, frozenset, ModuleType, Enum)
_RULESET_SLOTS: Dict[type, List[str]] = {}


def _ruleset_slots(cls: type) -> List[str]:
    """The slots the Game subclasses between `cls` and Game declare (cached per class)."""
    found = _RULESET_SLOTS.get(cls)
    if found is None:
        found = [n for c in cls.__mro__ if c is not Game and issubclass(c, Game)
                 for n in c.__dict__.get("__slots__", ()) if n != "__weakref__"]
        _RULESET_SLOTS[cls] = found
    return found
