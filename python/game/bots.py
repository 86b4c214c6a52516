"""Reference bots: `RandomBot` (a uniformly random legal action) and `GreedyBot` (plays by shanten).

A bot is anything with `choose(game, seat, actions) -> Action` for one seat; `actions` is that seat's
legal list from `game.pending()`. Every other method is an optional hook, called when present:
`new_hand(rng)` before each hand (`start_hand`), `release()` after a run's task
(`simulate.release_bots`). Bots read only their own seat's information (`game.hand_bytes(seat)`,
`game.meld_count(seat)`) plus what every seat sees. Randomness comes from the `random.Random` given
to `new_hand(rng)` before each hand, so a simulation is reproducible game by game.

GreedyBot, in order of preference:
- WIN whenever offered (self-draw, discard, robbing, Changbai's last four).
- 定缺: the legal suit it holds fewest tiles of. 飘: 0.
- Claims: a kong when the hand's shanten does not get worse, a pung or chow when it improves the
  shanten (counting the best discard after the claim); otherwise pass.
- Its own turn: a concealed or added kong when the shanten does not get worse; 报听 (Changbai /
  MCR classic) whenever offered, choosing the declaration whose wait has most unseen copies;
  otherwise the discard that leaves the lowest shanten — with a ready hand, the one with most unseen
  winning tiles; otherwise the first in the order honours, terminals, 2/8, middle tiles. A drawn
  tile that does not lower the shanten goes straight out when it is isolated (no neighbour within
  two ranks) or the hand was ready already — the full search is skipped then.
"""

from __future__ import annotations

import _random
import random
from types import MethodType
from typing import Any, Dict, List, Sequence, Tuple, Type

from mahjong_core.errors import InvalidArgumentError

from .actions import DISCARD, PASS, PIAO, WIN, Action, ActionKind
# The core's hot calls, every argument positional (C calls when compiled: see engine._waits_mask_m).
from .engine import _best_discards_m, _shanten_m, _waits_mask_m

try:  # Compiled, `cython.compiled` is True and bots.pxd cimports the core's C entry points.
    import cython  # type: ignore[import-not-found,unused-ignore]
    _COMPILED = cython.compiled
except ImportError:  # a pure-Python build without Cython installed
    _COMPILED = False

__all__ = ["Bot", "RandomBot", "GreedyBot", "BOTS", "make_bot", "is_bot", "start_hand", "hand_stream"]


_K_DISCARD = ActionKind.DISCARD
_K_DECLARE = ActionKind.DECLARE
_K_CONCEALED_KONG = ActionKind.CONCEALED_KONG
_K_ADDED_KONG = ActionKind.ADDED_KONG
_K_PUNG = ActionKind.PUNG
_K_KONG = ActionKind.KONG
_K_CHOW = ActionKind.CHOW
_K_VOID = ActionKind.VOID
_K_PIAO = ActionKind.PIAO

#: Discard preference when several discards keep the same shanten: honours, terminals, 2/8, the rest.
_PREFERENCE_GROUPS = (tuple(range(27, 34)), (0, 8, 9, 17, 18, 26), (1, 7, 10, 16, 19, 25),
                      tuple(t for t in range(27) if t % 9 in (2, 3, 4, 5, 6)))
_ORDER = tuple(t for group in _PREFERENCE_GROUPS for t in group)
#: the groups as 34-bit masks: within a group the order is the tile order, so the tiles of a mask in
#: preference order are its bits group by group, lowest first (no sort, no rank lookup per tile;
#: compiled, a C array: bots.pxd)
_GROUP_MASKS = tuple(sum(1 << t for t in group) for group in _PREFERENCE_GROUPS)

#: `_lowest`'s multiplier (a de Bruijn sequence B(2, 6): each 6-bit window of it is distinct) and
#: its table (the index of bit i at the top 6 bits of (1 << i) * _DE_BRUIJN); `& _U64` is the
#: 64-bit wrap-around that C's unsigned arithmetic does by itself (compiled, bots.pxd: a C array)
_DE_BRUIJN = 0x03F79D71B4CB0A89
_U64 = 0xFFFFFFFFFFFFFFFF
_DE_BRUIJN_INDEX = tuple(sorted(range(64), key=lambda i: ((1 << i) * _DE_BRUIJN & _U64) >> 58))


def is_bot(obj: Any) -> bool:
    """Whether `obj` is a bot: an instance (not a class) with a callable `choose(game, seat, actions)`."""
    return not isinstance(obj, type) and callable(getattr(obj, "choose", None))


def hand_stream(key: int) -> random.Random:
    """`random.Random(key)` for an int `key`: the same generator in the same state (tests compare
    `getstate()`), made without `Random.__init__` and `Random.seed`, two Python frames around the C
    seeding (hot path: one stream per simulated hand; simulate's and the environments' convention
    `random.Random(seed * 2**32 + hand)` is built here)."""
    if type(key) is not int:
        return random.Random(key)
    rng = _new_random(random.Random)
    _seed_random(rng, key)  # what Random.seed does for an int (version 2): the C seeding
    rng.gauss_next = None  # type: ignore[attr-defined]  # and Random.__init__ after it
    return rng


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def start_hand(bots: Sequence[Any], rng: random.Random) -> None:
    """Give each bot that has the optional `new_hand(rng)` hook the hand's random stream."""
    for bot in bots:
        hook = getattr(bot, "new_hand", None)
        if type(hook) is MethodType and hook.__func__ is _KEEP_STREAM:
            owner: Any = hook.__self__
            owner.rng = rng  # the hook's (Bot.new_hand's) body, without the call (hot path: every hand)
        elif callable(hook):
            hook(rng)


class Bot:
    """Optional base class: override `choose`; `new_hand` keeps the hand's `rng` as `self.rng`.
    Any object with `choose(game, seat, actions)` plays as well (`is_bot`)."""

    name = "bot"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def new_hand(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        """`<GreedyBot 'greedy'>`: the class and its `name` (how results and matches list it)."""
        return f"<{type(self).__name__} {self.name!r}>"


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def choose(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        return actions[int(self.rng.random() * len(actions))]


#: Bot.new_hand, the hook RandomBot and any bot not overriding it keep: start_hand does what it
#: does in place when a bot's hook is this function
_KEEP_STREAM = Bot.new_hand


class GreedyBot(Bot):
    """Plays by shanten and effective tiles (see the module docstring)."""

    name = "greedy"

    def choose(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        first = actions[0]
        if first is WIN:
            return WIN
        kind = first.kind
        if kind is _K_DISCARD or kind is _K_CONCEALED_KONG or kind is _K_ADDED_KONG or kind is _K_DECLARE:
            return self._turn(game, seat, actions)
        if kind is _K_VOID:
            return self._void(game, seat, actions)
        if kind is _K_PIAO:
            return PIAO[0] if PIAO[0] in actions else actions[0]
        return self._claim(game, seat, actions)

    # -- choices ---------------------------------------------------------------------------------

    def _void(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        return _greedy_void(actions, _counts_arg(game.hand_bytes(seat)))

    def _claim(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        return _greedy_claim(actions, game.discard, _counts_arg(game.hand_bytes(seat)), game.meld_count(seat),
                             game.FORMS)

    def new_hand(self, rng: random.Random) -> None:
        self.rng = rng
        #: seat -> (game, its 13 - 3m tiles after its last discard, their shanten): lets a draw that
        #: cannot improve the hand go straight out without searching every discard again
        self._kept: Dict[int, Any] = {}

    def _turn(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        if actions[0].kind is _K_DISCARD and actions[-1].kind is _K_DISCARD:  # only discards
            mask = 0
            for action in actions:
                mask |= 1 << action.arg
            return DISCARD[self.discard_from(game, seat, mask)]
        hand = _counts_arg(game.hand_bytes(seat))
        melds = game.meld_count(seat)
        forms = game.FORMS
        discards = 0
        declares: List[Action] = []
        for action in actions:
            kind = action.kind
            if kind is _K_DISCARD:
                discards |= 1 << action.arg
            elif kind is _K_DECLARE:
                declares.append(action)
            elif kind is _K_CONCEALED_KONG:
                t = action.arg
                hand[t] -= 4
                after = _shanten_m(hand, forms, melds + 1)
                hand[t] += 4
                if after <= _shanten_m(hand, forms, melds):
                    return action
            elif kind is _K_ADDED_KONG:
                t = action.arg
                hand[t] -= 1
                after = _shanten_m(hand, forms, melds)
                hand[t] += 1
                if after <= _shanten_m(hand, forms, melds):
                    return action
        if declares:
            return max(declares, key=lambda a: self._ready_value(hand, a.arg, melds, forms))
        if not discards & (discards - 1):  # a single discard
            return DISCARD[discards.bit_length() - 1]
        return DISCARD[self._best_discard(hand, discards, melds, forms)[0]]

    def discard_from(self, game: Any, seat: int, discards: int) -> int:
        """The tile GreedyBot discards on a turn whose only actions are the discards of the tiles
        in the 34-bit mask `discards` (what `choose` answers for that list; the native self-play
        loop asks the same function, `_greedy_discard`, directly)."""
        return self._discard_of(game, seat, discards, bytearray(game.hand_bytes(seat)), game.meld_count(seat),
                                game.FORMS, game.drawn)

    def _discard_of(self, game: Any, seat: int, discards: int, hand: bytearray, melds: int, forms: int,
                    drawn: int) -> int:
        """`discard_from` with the seat's state given: a copy of its counts, its meld count, the
        game's forms and the tile it drew (-1: none). Checks the counts and the mask (a bad one
        raises InvalidArgumentError) and asks `_greedy_discard`, the function the native self-play
        loop calls directly."""
        counts = _counts_arg(hand)
        _check_discards(counts, discards)
        return _greedy_discard(self, game, seat, discards, counts, melds, forms,
                               drawn if 0 <= drawn < 34 else -1)

    @staticmethod
    def _ready_value(hand: bytearray, tile: int, melds: int, forms: int) -> int:
        """Unseen-by-me copies of the winning tiles after discarding `tile` (a ready hand)."""
        counts = _counts_arg(hand)
        counts[tile] -= 1
        try:
            return _unseen_winning(counts, forms, melds)
        finally:
            counts[tile] += 1

    def _best_discard(self, hand: bytearray, discards: int, melds: int, forms: int) -> Tuple[int, int]:
        """(tile to discard, shanten after it); `discards`: the legal discards as a 34-bit mask."""
        counts = _counts_arg(hand)
        _check_discards(counts, discards)
        if not discards:
            raise InvalidArgumentError("GreedyBot._best_discard: no legal discard")
        return _discard_search(counts, discards, melds, forms)


# -- GreedyBot's decisions, typed ----------------------------------------------------------------
# Hot path of greedy self-play: compiled, bots.pxd declares the functions below as C functions on C
# integers (tile masks as unsigned long long, indices as int) and a hand's 34 counts as a byte
# buffer, and the core's shanten / waits / best-discards as direct C calls (`_shanten_of` ...), so a
# decision builds no Python int, bytearray or list per candidate tile; the native self-play loop
# (_selfplay.pyx) calls `_greedy_discard` without a Python call. A pure-Python build runs the same
# code on bytearrays and ints. Their callers check the arguments first (`_counts_arg`,
# `_check_discards`): every index into the counts is a tile 0..33.

_ALL_KINDS = (1 << 34) - 1
_SHANTEN_INVALID = -100  # shanten_of_counts' "invalid input"
_C_INVALID = 0xFFFFFFFFFFFFFFFF  # waits_of_counts' and best_discards_of_counts' "invalid input"


def _counts_arg(hand: Any) -> bytearray:
    """`hand` (bytes or a bytearray) as a bytearray of 34 counts 0..4 — itself if it is one, else a
    copy; InvalidArgumentError for anything else."""
    counts = hand if type(hand) is bytearray else (bytearray(hand) if type(hand) is bytes else None)
    if counts is None or len(counts) != 34:
        raise InvalidArgumentError(f"GreedyBot: a hand is 34 counts in bytes or a bytearray, got {hand!r}")
    c = counts  # compiled: the bytearray's buffer (bots.pxd)
    for t in range(34):
        if c[t] > 4:
            raise InvalidArgumentError(f"GreedyBot: a hand holds 0..4 of each tile, got {bytes(counts)!r}")
    return counts


def _check_discards(counts: bytearray, discards: Any) -> None:
    """InvalidArgumentError unless `discards` is a 34-bit mask of tiles that `counts` holds."""
    if not isinstance(discards, int) or not 0 <= discards <= _ALL_KINDS:
        raise InvalidArgumentError(f"GreedyBot: the discards are a 34-bit mask of tiles, got {discards!r}")
    c = counts
    bits = discards
    while bits:
        if not c[_lowest(bits)]:
            raise InvalidArgumentError(f"GreedyBot: discards {discards:#x} include a tile the hand does not hold")
        bits &= bits - 1


def _shanten_of(h: bytearray, forms: int, melds: int) -> int:
    """`_shanten_m(h, forms, melds)` of the 34 counts `h`: compiled, one C call on the buffer; the
    Python call for a pure-Python build and for counts the C entry refuses (it raises the error saying
    why, as the untyped code did)."""
    if _COMPILED:
        value = shanten_of_counts(h, melds, forms)  # type: ignore[name-defined]  # noqa: F821 (cimported)
        if value != _SHANTEN_INVALID:
            return value
    return _shanten_m(h[:34], forms, melds)


def _waits_of(h: bytearray, forms: int, melds: int) -> int:
    """`_waits_mask_m(h, forms, melds)`, as `_shanten_of`."""
    if _COMPILED:
        waits = waits_of_counts(h, melds, forms)  # type: ignore[name-defined]  # noqa: F821 (cimported)
        if waits != _C_INVALID:
            return waits
    return _waits_mask_m(h[:34], forms, melds)


def _best_discards_of(h: bytearray, forms: int, melds: int) -> int:
    """`_best_discards_m(h, forms, melds)` packed in one integer as the core's C entry gives it:
    (the lowest shanten a discard reaches + 1) << 34 | the mask of the discards reaching it."""
    if _COMPILED:
        packed = best_discards_of_counts(h, melds, forms)  # type: ignore[name-defined]  # noqa: F821
        if packed != _C_INVALID:
            return packed
    target, reaching = _best_discards_m(h[:34], forms, melds)
    return (target + 1) << 34 | reaching


def _lowest(bits: int) -> int:
    """The lowest tile of a non-empty mask: its lowest set bit, isolated (`bits & -bits`), times a
    de Bruijn constant puts a distinct 6-bit pattern in the top bits, which a 64-entry table maps
    back to the bit's index (branch-free; the same C code on every compiler, where a count-trailing-
    zeros builtin is not)."""
    return _DE_BRUIJN_INDEX[((bits & -bits) * _DE_BRUIJN & _U64) >> 58]


def _first_by_preference(mask: int) -> int:
    """The first tile of a non-empty 34-bit mask in discard preference order (honours, terminals,
    2/8, middle tiles; within a group the tile order)."""
    for group in _GROUP_MASKS:
        bits = mask & group
        if bits:
            return _lowest(bits)
    raise ValueError("_first_by_preference: empty mask")


def _isolated(h: bytearray, t: int) -> bool:
    """A single copy with no neighbour within two ranks (an honour: a single copy)."""
    if h[t] != 1:
        return False
    if t >= 27:
        return True
    r = t % 9
    n = 0
    for k in range(t - min(r, 2), t + min(8 - r, 2) + 1):
        n += h[k]
    return n == 1


def _unseen_winning(h: bytearray, forms: int, melds: int) -> int:
    """The copies of a ready hand's winning tiles not in the hand itself (0 when not ready)."""
    waits = _waits_of(h, forms, melds) & _ALL_KINDS
    value = 0
    while waits:
        value += 4 - h[_lowest(waits)]
        waits &= waits - 1
    return value


def _discard_search(h: bytearray, discards: int, melds: int, forms: int) -> Tuple[int, int]:
    """(tile to discard, shanten after it) of the counts `h` (14 - 3·melds tiles; restored) among
    the legal discards, a non-empty 34-bit mask of tiles held."""
    # One core call finds the lowest shanten a discard reaches and which discards reach it; the
    # first legal one in preference order (honours, terminals, 2/8, middle tiles) is taken — except
    # with a ready hand, where every ready discard is scored by its unseen winning tiles.
    packed = _best_discards_of(h, forms, melds)
    target = packed >> 34
    target -= 1
    legal = discards & packed & _ALL_KINDS  # (all legal, the usual case: the discards reaching it)
    if not legal:  # the best discards are not legal now (e.g. void-suit tiles must go first)
        target = 99
        one = 1
        bits = discards
        while bits:
            t = _lowest(bits)
            bits &= bits - 1
            h[t] -= 1
            after = _shanten_of(h, forms, melds)
            h[t] += 1
            if after < target:
                target = after
                legal = 0
            if after == target:
                legal |= one << t
    if target > 0 or not legal & (legal - 1):
        return _first_by_preference(legal), max(target, 0)
    best = -1
    best_value = -1
    for group in _GROUP_MASKS:  # preference order: the first of the best wins
        bits = legal & group
        while bits:
            t = _lowest(bits)
            bits &= bits - 1
            h[t] -= 1
            value = _unseen_winning(h, forms, melds)
            h[t] += 1
            if value > best_value:
                best = t
                best_value = value
    return best, 0


def _greedy_discard(bot: GreedyBot, game: Any, seat: Any, discards: int, h: bytearray, melds: int, forms: int,
                    drawn: int) -> int:
    """GreedyBot's discard on a turn whose only actions are the discards of the tiles in the 34-bit
    mask `discards` (-1 when it is empty): `h` the seat's 34 counts (written to: the tile chosen is
    taken off), `drawn` the tile it drew (-1: none). The counts are checked by the caller
    (`_discard_of`; the native self-play loop passes the engine's own state)."""
    # Hot path: once per discard of every greedy seat. Compiled, the native self-play loop calls this
    # C function on a C array copy of the counts; the only Python objects it builds are the kept
    # hand's bytes (to compare, or to store in a tuple after a search).
    if discards > _ALL_KINDS:
        raise InvalidArgumentError(f"GreedyBot: the discards are a 34-bit mask of tiles, got {discards:#x}")
    if not discards & (discards - 1):  # a single discard (or none: -1)
        return _lowest(discards) if discards else -1
    if 0 <= drawn < 34 and (discards >> drawn) & 1:
        kept = bot._kept.get(seat)
        if kept is not None and kept[0] is game:
            was = kept[2]
            h[drawn] -= 1
            same = h[:34] == kept[1]
            h[drawn] += 1
            if same and (was == 0 or _isolated(h, drawn)) and _shanten_of(h, forms, melds) >= was:
                # A draw that does not lower the shanten goes straight out when it is isolated,
                # or when the hand was ready already (keeps its wait; saves the costly search).
                return drawn
    tile, target = _discard_search(h, discards, melds, forms)
    h[tile] -= 1
    bot._kept[seat] = (game, h[:34], target)
    return tile


def _take(h: bytearray, t: int, n: int) -> None:
    """Take `n` copies of tile `t` off the counts `h` (a claim's tiles); InvalidArgumentError
    when `t` is not a tile or the hand holds fewer."""
    if not 0 <= t < 34 or h[t] < n:
        raise InvalidArgumentError(f"GreedyBot: a claim needs {n} of tile {t}, which the hand does not hold")
    h[t] -= n


def _greedy_void(actions: Sequence[Action], h: bytearray) -> Action:
    """定缺: the suit offered (a non-empty list of VOID actions) that the counts `h` hold fewest
    tiles of; on a tie the lowest suit."""
    best = actions[0]
    best_key = 1 << 20
    for action in actions:
        suit = action.arg
        if not 0 <= suit < 3:
            raise InvalidArgumentError(f"GreedyBot: a 定缺 action names a suit 0..2, got {action!r}")
        n = 0
        for t in range(9 * suit, 9 * suit + 9):
            n += h[t]
        key = 3 * n + suit  # (tiles held, suit) in one integer
        if key < best_key:
            best = action
            best_key = key
    return best


def _greedy_claim(actions: Sequence[Action], tile: int, h: bytearray, melds: int, forms: int) -> Action:
    """GreedyBot's answer to a claim window on the discard `tile`: a kong when the shanten does not
    get worse, a pung or chow when it improves it (the first of the best), else PASS. `h`: the
    seat's 34 counts (restored)."""
    best: Action = PASS
    best_shanten = _shanten_of(h, forms, melds)
    for action in actions:
        kind = action.kind
        if kind is _K_KONG:
            _take(h, tile, 3)
            after = _shanten_of(h, forms, melds + 1)
            h[tile] += 3
            if after <= best_shanten:
                return action
        elif kind is _K_PUNG:
            _take(h, tile, 2)
            after = _shanten_of(h, forms, melds + 1)
            h[tile] += 2
            if after < best_shanten:
                best, best_shanten = action, after
        elif kind is _K_CHOW:
            low = tile - (action.arg - 1)
            for t in range(low, low + 3):
                if t != tile:
                    _take(h, t, 1)
            after = _shanten_of(h, forms, melds + 1)
            for t in range(low, low + 3):
                if t != tile:
                    h[t] += 1
            if after < best_shanten:
                best, best_shanten = action, after
    return best


BOTS: Dict[str, Type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: Any) -> Bot:
    """A built-in bot by name ("random", "greedy"); a bot instance is returned as is. Any other bot
    spec (an import path, a class): `mahjong_core.game.botspec.build_bot`."""
    if is_bot(name):
        return name
    try:
        return BOTS[name]()
    except (KeyError, TypeError):
        raise InvalidArgumentError(f"unknown bot {name!r}; bots: {', '.join(BOTS)} (import paths and classes: "
                                   f"mahjong_core.game.botspec.build_bot)") from None
