"""`determinize(game, seat, rng)`: a full game consistent with everything `seat` has seen.

For search bots (ISMCTS, flat Monte-Carlo): the tiles `seat` cannot see — the other seats'
concealed tiles, the tiles of their concealed kongs, and the live wall — are redrawn from the
unseen tiles; everything `seat` sees (its own hand, rivers, exposed melds, flowers, won tiles, the
wall's size, revealed choices, the ledger) is unchanged, so `encode(result, seat)` equals
`encode(game, seat)`. The game itself is not modified (the result is a `game.clone()`).

Sampling: the other seats' hands are dealt uniformly from the unseen tiles that may lie in a hand
(flowers never do: they are set aside at once, so they stay in the wall), then the rest is shuffled
uniformly into the live wall. Public inferences are respected: a Sichuan seat whose last discard
was not of its void suit (or that has won) holds no void-suit tile, so it is dealt from the other
suits (dealt first; with several such seats the draw is sequential, which is close to but not
exactly uniform over the joint deals); the kind of another seat's concealed kong is drawn among the
kinds with all four copies unseen (its owner's void suit excluded in Sichuan).

Not resampled (a known limit): the concealed tiles of a seat that has declared ready (报听) — a
consistent ready hand with that seat's single wait is not searched for — so a search bot using this
sees those hands as they are (on that seat's own turn, its drawn tile too).

Hidden state that depended on the old hands is recomputed or dropped: the other seats' wait masks,
their pending
choices in the open window (claim / rob / 定缺; any answers they had given are dropped — they answer
again), their Sichuan pass locks, a Changbai kept tile (redrawn from the new hand). Positions of
the wall already drawn keep their old tiles, so the result's log is not a replayable log.

When it may be called: on `seat`'s own turn, in a window `seat` answers (or has answered), in a
choice window (定缺 / 飘), and on another seat's turn — that seat's hand is redrawn like the others
(on a turn after a draw, its drawn tile is drawn from what is left, as the live wall is) and its
turn is offered again for the new hand (its win, kongs and 报听 are those of the new tiles).
InvalidArgumentError, saying why, in the three places where the position itself tells `seat`
something about the hidden hands that a uniform redraw would ignore (so the world would not be
consistent with what `seat` has seen):
- a claim or rob window `seat` takes no part in: the engine opens one only when some seat can
  claim (or rob) the tile, so its being open says another seat holds tiles that fit it;
- another seat's Changbai last-four draw (LAST_DRAW): it is open only when that draw wins;
- a finished hand (nothing to search).
Search at `seat`'s own decisions (what a bot does) never meets them.
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TypeVar, Union, cast

from mahjong_core.errors import InvalidArgumentError, InvalidTypeError
from mahjong_core.game.actions import PASS, WIN
from mahjong_core.game.constants import (
    AFTER_CLAIM, CHOOSE, CLAIM, DONE, LAST_DRAW, MELD_CHOW, MELD_CONCEALED_KONG, MELD_PUNG, OTHERS, ROB, TURN,
)

__all__ = ["determinize", "unseen_counts"]

from mahjong_core.game.engine import Game as _Game

if TYPE_CHECKING:
    from mahjong_core.game.engine import Game

#: a game class: `determinize` gives back a game of the class it was given
GameT = TypeVar("GameT", bound="Game")

#: sequential deals tried before the random walk (`_walk`) takes over
SEQUENTIAL_ATTEMPTS = 60
#: draws of the concealed-kong kinds tried for the walk's start (`_consistent_start`)
START_ATTEMPTS = 200


def unseen_counts(game: Any, seat: int) -> List[int]:
    """Copies of each of the 42 kinds (flowers 34..41) that `seat` cannot see: the full tile set minus
    its own hand, every river, exposed meld, its own concealed kongs, won tiles and flowers."""
    counts = [0] * 42
    for t in type(game).tiles(type(game).uses_flowers(game.rules)):
        counts[t] += 1
    hand = game.hands[seat]
    for t in range(34):
        counts[t] -= hand[t]
    for s in range(4):
        for t in game.rivers[s]:
            counts[t] -= 1
        for t in game.won_tiles[s]:
            counts[t] -= 1
        for t in game.flowers[s]:
            counts[t] -= 1
        for kind, t, _, _ in game.melds[s]:
            if kind == MELD_CHOW:
                counts[t] -= 1
                counts[t + 1] -= 1
                counts[t + 2] -= 1
            elif kind == MELD_PUNG:
                counts[t] -= 3
            elif kind != MELD_CONCEALED_KONG or s == seat:
                counts[t] -= 4
    return counts


def _void_clean(game: Any, s: int) -> bool:
    """Sichuan: seat s provably holds no tile of its void suit (it has won, or its last discard was
    not of that suit — void-suit tiles must go first)."""
    void = getattr(game, "void", None)
    if void is None or void[s] < 0 or game.phase == CHOOSE:
        return False
    if game.won[s]:
        return True
    for event in reversed(game._events):
        if event[0] == "discard" and event[1] == s:
            return event[2] // 9 != void[s]
    return False


def determinize(game: GameT, seat: int, rng: Union[random.Random, int, None] = None) -> GameT:
    """A clone of `game` with every tile hidden from `seat` redrawn (see the module docstring).
    `rng`: a `random.Random`, a seed for one, or None (fresh entropy)."""
    if not isinstance(game, _Game):
        raise InvalidTypeError(f"determinize takes a Game (new_game, a Botzone table's game, an env's "
                               f"table.game), got {type(game).__name__}")
    if isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= operator.index(seat) < 4:
        raise InvalidArgumentError(f"seat must be 0..3, got {seat!r}")
    seat = operator.index(seat)  # (NumPy's integers too)
    if game.finished or game.phase == DONE:
        raise InvalidArgumentError("determinize: the hand is over (there is nothing left to search)")
    phase = game.phase
    if phase == LAST_DRAW and game.turn != seat:
        raise InvalidArgumentError(
            f"determinize: seat {game.turn}'s last-four draw is open, which shows seat {seat} that this draw "
            f"lets it win; a uniform redraw would ignore that, so determinize at seat {seat}'s own decision")
    if phase in (CLAIM, ROB) and seat not in game._pending:
        window = ("claim", "rob")[phase == ROB]
        raise InvalidArgumentError(
            f"determinize: seat {seat} takes no part in this {window} window; the window being open shows "
            f"seat {seat} that another seat can {'claim' if phase == CLAIM else 'rob'} the tile, which a "
            f"uniform redraw of the hidden hands would ignore. Determinize at a decision of seat {seat} (its "
            f"turn, a window it answers, 定缺 / 飘), or on another seat's turn")
    if rng is None or (isinstance(rng, int) and not isinstance(rng, bool)):
        rng = random.Random(rng)  # (a seed, or fresh entropy)
    elif not all(callable(getattr(rng, name, None)) for name in ("shuffle", "choice", "randrange")):
        raise InvalidTypeError(f"determinize: rng is a random.Random, a seed (int) or None, got {type(rng).__name__}")
    rng = cast(random.Random, rng)  # (for type checkers: a stream from here on)
    # another seat on its own turn: its hand is redrawn like any other, its drawn tile (TURN) from
    # what is left, as the live wall is; then its turn is offered again for the new hand
    on_turn = game.turn if phase in (TURN, AFTER_CLAIM) and game.turn != seat else -1
    unseen = unseen_counts(game, seat)
    others = [s for s in range(4) if s != seat]
    sizes = {s: sum(game.hands[s]) for s in others}
    live = game.tail - game.head
    hidden_kongs = {s: [i for i, m in enumerate(game.melds[s]) if m[0] == MELD_CONCEALED_KONG] for s in others}
    total = sum(unseen)
    expected = sum(sizes.values()) + 4 * sum(len(v) for v in hidden_kongs.values()) + live
    if total != expected:  # pragma: no cover - an engine invariant
        raise AssertionError(f"unseen {total} tiles, hidden places hold {expected}")
    void = getattr(game, "void", None)
    new = game.clone()

    # 1. the kinds of the other seats' concealed kongs, 2. the other seats' hands (seats with a
    # public constraint first). With several constrained seats a sequential deal can run out of
    # allowed tiles (the true deal shows one exists): start again then.
    fixed = [s for s in others if game.declared[s] and not game.won[s]]
    redraw = phase == TURN and on_turn >= 0 and on_turn not in fixed
    if redraw:
        sizes[on_turn] -= 1  # the hand before its draw; the drawn tile comes from the rest
    clean = [s for s in others if _void_clean(game, s) and s not in fixed]
    order = clean + [s for s in others if s not in clean and s not in fixed]
    start = list(unseen)
    for s in fixed:  # see the module docstring: a declared-ready hand is not resampled
        for t in range(34):
            start[t] -= game.hands[s][t]
    for attempt in range(SEQUENTIAL_ATTEMPTS):
        unseen = list(start)
        kongs = _draw_kong_kinds(unseen, hidden_kongs, void, rng)
        if kongs is None:
            continue
        pool = [t for t in range(34) for _ in range(unseen[t])]
        rng.shuffle(pool)
        hands = {}
        for s in order:
            n = sizes[s]
            if s in clean:
                v = void[s]  # type: ignore[index]
                take = [i for i, t in enumerate(pool) if t // 9 != v][:n]
                if len(take) < n:
                    break
            else:
                take = list(range(n))
            hand = bytearray(34)
            for i in take:
                hand[pool[i]] += 1
            for i in reversed(take):
                pool.pop(i)
            hands[s] = hand
        else:
            break
    else:  # tight constraints: a random walk over consistent deals, from a start built without them
        kongs, places = _consistent_start(start, hidden_kongs, order, clean, void, sizes, rng)
        forbidden = [void[s] if s in clean else -1 for s in order] + [-1]  # type: ignore[index]
        hands, pool = _walk(places, forbidden, order, rng)
        unseen = list(start)
        for (s, i), t in kongs.items():
            unseen[t] -= 4
    if redraw:
        drawn = pool.pop(rng.randrange(len(pool)))
    for (s, i), t in kongs.items():
        _, _, marker, frm = new.melds[s][i]
        new.melds[s][i] = (MELD_CONCEALED_KONG, t, marker, frm)
    if kongs and new._shown is not None:
        new._reshow()  # (what each seat shows, its concealed kongs' tiles among it)
    for s, hand in hands.items():
        new.hands[s] = hand
    wall_tiles = pool + [t for t in range(34, 42) for _ in range(unseen[t])]
    rng.shuffle(wall_tiles)
    wall = list(game.wall)
    wall[game.head:game.tail] = wall_tiles
    dealer = game.dealer
    if phase == CHOOSE and game.drawn < 0 and game.head > 52 and dealer in hands:  # (飘 comes before the deal)
        # Before the dealer's first turn (定缺 / 飘) its 14th tile is read again from the deal's last
        # position (`Game._begin_dealer_turn`): it must be a tile of its new hand — any of them, as
        # `seat` sees none of it
        dealt = hands[dealer]
        wall[52] = rng.choice([t for t in range(34) for _ in range(dealt[t])])
    new.wall = wall

    # 4. hidden state that followed from the old hands
    for s in others:
        if s == on_turn and phase == AFTER_CLAIM and s not in fixed:
            new.waits[s] = 0  # a hand of 14 - 3·melds tiles has no wait until it discards (recomputed then)
        elif not new.won[s] and s not in fixed:
            new._update_waits(s)
        if new.lock is not None:
            new.lock[s] = -1
        if new.kept[s] >= 0:
            held = [t for t in range(34) if new.hands[s][t]]
            new.kept[s] = rng.choice(held)
        new._offers.pop(s, None)
        new.pungs[s] = [m[1] for m in new.melds[s] if m[0] == MELD_PUNG]
    own_answer = game._answers.get(seat)
    if redraw:
        new.hands[on_turn][drawn] += 1
        new._open_turn(on_turn, drawn, game.replacement)  # its options (win, kongs, 报听) for the new hand
    elif on_turn >= 0 and phase == AFTER_CLAIM and on_turn not in fixed:
        new._after_claim_turn(on_turn)  # its discards for the new hand
    if phase == CLAIM:
        new._answers = {}
        new._open_claims(game.discarder, game.discard)
    elif phase == ROB:
        new._answers = {}
        _open_rob(new)
    elif phase == CHOOSE and void is not None:
        from mahjong_core.rules.sichuan.flow import void_choices

        new._answers = {}
        for s in others:
            new._pending[s] = void_choices(bytes(new.hands[s]))
    elif phase == CHOOSE:
        new._answers = {}  # 飘: the choices do not depend on the hands; the others answer again
    if own_answer is not None:
        new._answers[seat] = own_answer
    return cast(GameT, new)  # (`clone` keeps the class)


def _draw_kong_kinds(unseen: List[int], hidden_kongs: Any, void: Any, rng: random.Random) -> Optional[Dict[Any, int]]:
    """The kind of every other seat's concealed kong, drawn among the kinds with all four copies in
    `unseen` (its owner's void suit excluded), taken out of `unseen`; None when a kong has no kind
    left (the caller draws again)."""
    kongs = {}
    for s, indices in hidden_kongs.items():
        for i in indices:
            kinds = [t for t in range(34) if unseen[t] == 4 and not (void is not None and t // 9 == void[s])]
            if not kinds:
                return None
            t = rng.choice(kinds)
            unseen[t] = 0
            kongs[s, i] = t
    return kongs


def _consistent_start(start: List[int], hidden_kongs: Any, order: List[int], clean: List[int], void: Any,
                      sizes: Any, rng: random.Random) -> Any:
    """Concealed-kong kinds and a deal of the hidden tiles that respect every public constraint,
    drawn from what `seat` knows (the unseen counts) and `rng` alone — never from the true hidden
    tiles, which would leak them into the search. The void-suit seats' share of each suit comes from
    a small max-flow (a feasible split exists whenever any deal does); which tiles of a suit go where
    is shuffled. Returns (kongs, places): one tile list per seat of `order`, then the live wall's."""
    constrained = [s for s in order if s in clean]
    for _ in range(START_ATTEMPTS):
        unseen = list(start)
        kongs = _draw_kong_kinds(unseen, hidden_kongs, void, rng)
        if kongs is None:
            continue
        by_class = [[t for t in range(9 * c, min(9 * c + 9, 34)) for _ in range(unseen[t])] for c in range(4)]
        for tiles in by_class:
            rng.shuffle(tiles)
        shares = _split([len(tiles) for tiles in by_class], [(void[s], sizes[s]) for s in constrained])
        if shares is None:
            continue  # these kong kinds leave no consistent deal: draw them again
        hand_of = {}
        for s, share in zip(constrained, shares):
            hand_of[s] = [t for c in range(4) for t in (by_class[c].pop() for _ in range(share[c]))]
        rest = [t for tiles in by_class for t in tiles]
        rng.shuffle(rest)
        for s in order:
            if s not in hand_of:
                hand_of[s] = [rest.pop() for _ in range(sizes[s])]
        return kongs, [hand_of[s] for s in order] + [rest]
    raise AssertionError("determinize: no deal satisfies the public constraints")  # pragma: no cover


def _split(supply: List[int], seats: List[Any]) -> Optional[List[List[int]]]:
    """How many tiles of each class (m, p, s, honours) each constrained seat gets: seat k takes
    `seats[k][1]` tiles, none of class `seats[k][0]`, from `supply`; None when impossible. A
    max-flow by augmenting paths on classes -> seats (at most 4 x 3 edges)."""
    flow = [[0] * 4 for _ in seats]
    need = [n for _, n in seats]
    left = list(supply)

    def augment(k: int, seen: List[bool]) -> bool:
        # one more tile for seat k: from a class with tiles left, or taken over from another seat
        # that can switch to a class with tiles left (a path of length <= 2 * seats)
        for c in range(4):
            if c == seats[k][0] or seen[c]:
                continue
            seen[c] = True
            if left[c] > 0:
                left[c] -= 1
                flow[k][c] += 1
                return True
            for j in range(len(seats)):
                if j != k and flow[j][c] > 0:
                    flow[j][c] -= 1
                    if augment(j, seen):
                        flow[k][c] += 1
                        return True
                    flow[j][c] += 1
        return False

    for k in range(len(seats)):
        while sum(flow[k]) < need[k]:
            if not augment(k, [False] * 4):
                return None
    return flow


def _walk(places: List[List[int]], forbidden: List[int], order: List[int], rng: random.Random) -> Any:
    """Random swaps of hidden tiles between the places (the hands of `order`, then the live wall),
    each kept when both places still allow their tiles: the walk's stationary distribution is
    uniform over the consistent deals (symmetric proposals), and 30 swaps per hidden tile mix it
    well. Used only when the sequential deal keeps failing (two or more Sichuan seats with tight
    void constraints), from the start `_consistent_start` drew."""
    owner = [(k, j) for k, p in enumerate(places) for j in range(len(p))]
    for _ in range(30 * len(owner)):
        (a, i), (b, j) = rng.choice(owner), rng.choice(owner)
        ta, tb = places[a][i], places[b][j]
        if tb // 9 != forbidden[a] and ta // 9 != forbidden[b]:
            places[a][i], places[b][j] = tb, ta
    hands = {}
    for s, p in zip(order, places):
        hand = bytearray(34)
        for t in p:
            hand[t] += 1
        hands[s] = hand
    return hands, places[-1]


def _open_rob(new: Any) -> None:
    """The rob window of the added kong in progress, recomputed for the new hands (as `_added_kong`)."""
    kong_seat, tile = new.kong_seat, new.kong_tile
    forced = new.forced_last and new.tail - new.head < new.forced_last
    pending = {}
    for s in OTHERS[kong_seat]:
        if not new.won[s] and (new.waits[s] >> tile) & 1 and new._discard_win_ok(s, tile, True):
            pending[s] = [WIN] if forced else [WIN, PASS]
    new._pending = pending
