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

import random
from typing import Any, Dict, List, Sequence, Tuple, Type

from mahjong_core.errors import InvalidArgumentError

from .actions import DISCARD, PASS, PIAO, WIN, Action, ActionKind
# The core's hot calls, every argument positional (C calls when compiled: see engine._waits_mask_m).
from .engine import _best_discards_m, _shanten_m, _waits_mask_m

__all__ = ["Bot", "RandomBot", "GreedyBot", "BOTS", "make_bot", "is_bot", "start_hand"]


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
#: preference order are its bits group by group, lowest first (no sort, no rank lookup per tile)
_GROUP_MASKS = tuple(sum(1 << t for t in group) for group in _PREFERENCE_GROUPS)


def is_bot(obj: Any) -> bool:
    """Whether `obj` is a bot: an instance (not a class) with a callable `choose(game, seat, actions)`."""
    return not isinstance(obj, type) and callable(getattr(obj, "choose", None))


def start_hand(bots: Sequence[Any], rng: random.Random) -> None:
    """Give each bot that has the optional `new_hand(rng)` hook the hand's random stream."""
    for bot in bots:
        hook = getattr(bot, "new_hand", None)
        if callable(hook):
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


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def choose(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        return actions[int(self.rng.random() * len(actions))]


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
        hand = game.hand_bytes(seat)
        return min(actions, key=lambda a: (sum(hand[9 * a.arg: 9 * a.arg + 9]), a.arg))

    def _claim(self, game: Any, seat: int, actions: Sequence[Action]) -> Action:
        tile = game.discard
        hand = bytearray(game.hand_bytes(seat))
        melds = game.meld_count(seat)
        forms = game.FORMS
        now = _shanten_m(hand, forms, melds)
        best: Action = PASS
        best_shanten = now
        for action in actions:
            kind = action.kind
            if kind is _K_KONG:
                hand[tile] -= 3
                after = _shanten_m(hand, forms, melds + 1)
                hand[tile] += 3
                if after <= best_shanten:
                    return action
            elif kind is _K_PUNG:
                hand[tile] -= 2
                after = _shanten_m(hand, forms, melds + 1)
                hand[tile] += 2
                if after < best_shanten:
                    best, best_shanten = action, after
            elif kind is _K_CHOW:
                low = tile - (action.arg - 1)
                for t in (low, low + 1, low + 2):
                    if t != tile:
                        hand[t] -= 1
                after = _shanten_m(hand, forms, melds + 1)
                for t in (low, low + 1, low + 2):
                    if t != tile:
                        hand[t] += 1
                if after < best_shanten:
                    best, best_shanten = action, after
        return best

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
        hand = bytearray(game.hand_bytes(seat))
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
        loop asks this directly)."""
        return self._discard_of(game, seat, discards, bytearray(game.hand_bytes(seat)), game.meld_count(seat),
                                game.FORMS, game.drawn)

    def _discard_of(self, game: Any, seat: int, discards: int, hand: bytearray, melds: int, forms: int,
                    drawn: int) -> int:
        """`discard_from` with the seat's state given: a copy of its counts, its meld count, the
        game's forms and the tile it drew (-1: none). The native self-play loop reads these off the
        engine's fields and calls this directly (one call per greedy turn instead of four)."""
        if not discards & (discards - 1):  # a single discard
            return discards.bit_length() - 1
        kept = self._kept.get(seat) if drawn >= 0 else None
        if kept is not None and kept[0] is game and (discards >> drawn) & 1:
            hand[drawn] -= 1
            same = bytes(hand) == kept[1]
            hand[drawn] += 1
            if (same and (kept[2] == 0 or _isolated(hand, drawn))
                    and _shanten_m(hand, forms, melds) >= kept[2]):
                # A draw that does not lower the shanten goes straight out when it is isolated,
                # or when the hand was ready already (keeps its wait; saves the costly search).
                return drawn
        tile, target = self._best_discard(hand, discards, melds, forms)
        hand[tile] -= 1
        self._kept[seat] = (game, bytes(hand), target)
        return tile

    @staticmethod
    def _ready_value(hand: bytearray, tile: int, melds: int, forms: int) -> int:
        """Unseen-by-me copies of the winning tiles after discarding `tile` (a ready hand)."""
        hand[tile] -= 1
        try:
            return _unseen_winning(hand, forms, melds)
        finally:
            hand[tile] += 1

    def _best_discard(self, hand: bytearray, discards: int, melds: int, forms: int) -> Tuple[int, int]:
        """(tile to discard, shanten after it); `discards`: the legal discards as a 34-bit mask."""
        # Hot path: one core call finds the lowest shanten a discard reaches and which discards reach
        # it; the first of those in preference order (honours, terminals, 2/8, middle tiles) is taken
        # — except with a ready hand, where every ready discard is scored by its unseen winning tiles.
        target, reaching = _best_discards_m(hand, forms, melds)
        if discards.bit_count() == 34 - hand.count(0):  # (legal discards are kinds held)
            # Every kind held may go (the usual case): the legal best discards are the bits of
            # `reaching`, in preference order; a hand that is not ready takes the first of them.
            if target > 0:
                return _first_by_preference(reaching), target
            legal = _by_preference(reaching)
        else:
            ordered = _by_preference(discards)
            legal = [t for t in ordered if (reaching >> t) & 1]
            if not legal:  # the best discards are not legal now (e.g. void-suit tiles must go first)
                target = min(_shanten_m(_without(hand, t), forms, melds) for t in ordered)
                legal = [t for t in ordered if _shanten_m(_without(hand, t), forms, melds) == target]
        target = max(target, 0)
        if target > 0 or len(legal) == 1:
            return legal[0], target
        best, best_value = legal[0], -1
        for t in legal:
            hand[t] -= 1
            value = _unseen_winning(hand, forms, melds)
            hand[t] += 1
            if value > best_value:
                best, best_value = t, value
        return best, 0


def _unseen_winning(hand: bytearray, forms: int, melds: int) -> int:
    """The copies of a ready hand's winning tiles not in the hand itself (0 when not ready)."""
    waits = _waits_mask_m(hand, forms, melds)
    value = 0
    while waits:
        low = waits & -waits
        value += 4 - hand[low.bit_length() - 1]
        waits ^= low
    return value


def _by_preference(mask: int) -> List[int]:
    """The tiles of a 34-bit mask in discard preference order (honours, terminals, 2/8, the rest)."""
    tiles = []
    for group in _GROUP_MASKS:
        bits = mask & group
        while bits:
            low = bits & -bits
            tiles.append(low.bit_length() - 1)
            bits ^= low
    return tiles


def _first_by_preference(mask: int) -> int:
    """The first tile of a non-empty 34-bit mask in discard preference order."""
    for group in _GROUP_MASKS:
        bits = mask & group
        if bits:
            return (bits & -bits).bit_length() - 1
    raise ValueError("_first_by_preference: empty mask")


def _without(hand: bytearray, t: int) -> bytes:
    """The counts with one copy of `t` removed."""
    hand[t] -= 1
    try:
        return bytes(hand)
    finally:
        hand[t] += 1


def _isolated(hand: bytearray, t: int) -> bool:
    """A single copy with no neighbour within two ranks (an honour: a single copy)."""
    if hand[t] != 1:
        return False
    if t >= 27:
        return True
    r = t % 9
    return sum(hand[t - min(r, 2): t + min(8 - r, 2) + 1]) == 1


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
