"""determinize: consistency with the seat's observation, tile conservation, uniformity (χ²), play-on."""

import importlib
import random
from collections import Counter

import pytest

np = pytest.importorskip("numpy")

from mahjong_core.env import encode  # noqa: E402
from mahjong_core.env.determinize import determinize, unseen_counts  # noqa: E402
from mahjong_core.errors import InvalidArgumentError  # noqa: E402
from mahjong_core.game import new_game  # noqa: E402
from mahjong_core.game.bots import GreedyBot  # noqa: E402
from mahjong_core.game.constants import AFTER_CLAIM, CLAIM, MELD_CHOW, MELD_PUNG, TURN  # noqa: E402
from mahjong_core.game.simulate import play_hand  # noqa: E402
from mahjong_core.game.testing import check_game  # noqa: E402
from seeded_play import bot_hand  # noqa: E402


def tile_multiset(game):
    """Every tile of the hand, wherever it is (hands, melds, rivers, won tiles, flowers, live wall)."""
    c = Counter()
    for s in range(4):
        for t in range(34):
            c[t] += game.hands[s][t]
        for t in game.rivers[s] + game.won_tiles[s] + game.flowers[s]:
            c[t] += 1
        for kind, t, _, _ in game.melds[s]:
            if kind == MELD_CHOW:
                c.update((t, t + 1, t + 2))
            elif kind == MELD_PUNG:
                c[t] += 3
            else:
                c[t] += 4
    c.update(game.wall[game.head:game.tail])
    return +c


def decisions(ruleset, seeds, rules=None):
    bots = [GreedyBot() for _ in range(4)]
    for seed in seeds:
        yield from bot_hand(ruleset, seed, rules, bots)


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("changbai", None), ("mcr", {"flowers": True})])
def test_consistent_conserving_and_playable(ruleset, rules):
    rng = random.Random(1)
    full = Counter(new_game(ruleset, seed=0, rules=rules).wall)
    n = 0
    for k, (game, seat) in enumerate(decisions(ruleset, range(4), rules)):
        if k % 5:
            continue
        before = game.state()
        obs = encode(game, seat).tobytes()
        d = determinize(game, seat, rng)
        assert game.state() == before  # the original is untouched
        assert encode(d, seat).tobytes() == obs
        assert tile_multiset(d) == full
        check_game(d)  # tiles, hand sizes, fresh wait masks, zero-sum ledger
        assert d.legal_actions(seat) == game.legal_actions(seat)
        if ruleset == "sichuan":  # a seat whose last discard was not void holds no void tile
            for s in range(4):
                if s != seat and d.void[s] >= 0 and not d.won[s]:
                    last = [e for e in d._events if e[0] == "discard" and e[1] == s]
                    if last and last[-1][2] // 9 != d.void[s]:
                        assert not any(d.hands[s][9 * d.void[s]: 9 * d.void[s] + 9])
        if k % 15 == 0:  # the determinized game plays on to a consistent end
            players = [GreedyBot() for _ in range(4)]
            for b in players:
                b.new_hand(random.Random(k))
            play_hand(d, players)
            check_game(d)
            assert sum(d.ledger.totals()) == 0
        n += 1
    assert n > 20


def test_hidden_tiles_are_uniform_chi_square():
    # MCR without flowers: no public constraint on the other hands, so every hidden tile is a
    # uniform draw from the unseen ones. Count the first wall tile and seat (viewer + 1)'s tiles.
    game, seat = next((g, s) for g, s in decisions("mcr", [7]) if len(g.rivers[0]) >= 4)
    unseen = unseen_counts(game, seat)[:34]
    total = sum(unseen)
    other = (seat + 1) % 4
    n_hand = sum(game.hands[other])
    rng = random.Random(2)
    draws = 4000
    first = Counter()
    held = Counter()
    for _ in range(draws):
        d = determinize(game, seat, rng)
        first[d.wall[d.head]] += 1
        for t in range(34):
            held[t] += d.hands[other][t]
    kinds = [t for t in range(34) if unseen[t]]
    chi_first = sum((first[t] - draws * unseen[t] / total) ** 2 / (draws * unseen[t] / total) for t in kinds)
    chi_held = sum((held[t] - draws * n_hand * unseen[t] / total) ** 2 / (draws * n_hand * unseen[t] / total)
                   for t in kinds)
    dof = len(kinds) - 1
    # p = 0.001 critical value of χ² ≈ dof + 3.1 * sqrt(2 dof) (Wilson–Hilferty, dof ~ 30)
    limit = dof + 3.1 * (2 * dof) ** 0.5
    assert chi_first < limit, (chi_first, limit)
    # hand counts within a draw are not independent (sampling without replacement): scale by the
    # finite-population factor, which makes the statistic smaller, not larger
    assert chi_held < limit, (chi_held, limit)
    assert chi_first > 0.2 * dof  # not suspiciously exact either


def test_bad_calls():
    game = new_game("mcr", seed=3)
    with pytest.raises(InvalidArgumentError, match="seat"):
        determinize(game, 4, random.Random(0))
    with pytest.raises(InvalidArgumentError, match="rng is a random.Random, a seed"):
        determinize(game, 1, np.random.default_rng(0))  # (no randrange: it failed half-way before)
    # a NumPy seat and an int seed are what they say
    assert determinize(game, np.int64(1), 5).hands == determinize(game, 1, random.Random(5)).hands
    window = next(g for g, _ in decisions("mcr", range(3, 9)) if g.phase == CLAIM and len(g.pending()) < 3)
    outside = next(s for s in range(4) if s not in window.pending() and s != window.discarder)
    with pytest.raises(InvalidArgumentError, match=f"seat {outside} takes no part in this claim window.*another "
                                                   "seat can claim the tile"):
        determinize(window, outside, random.Random(0))
    players = [GreedyBot() for _ in range(4)]
    for b in players:
        b.new_hand(random.Random(0))
    play_hand(game, players)
    with pytest.raises(InvalidArgumentError, match="over"):
        determinize(game, 0, random.Random(0))


def test_random_walk_fallback_keeps_every_constraint(monkeypatch):
    module = importlib.import_module("mahjong_core.env.determinize")  # (the package's `determinize` is the function)

    monkeypatch.setattr(module, "SEQUENTIAL_ATTEMPTS", 0)  # always the walk
    rng = random.Random(4)
    changed = 0
    n = 0
    for k, (game, seat) in enumerate(decisions("sichuan", range(20, 24))):
        if k % 7 or game.phase == 0:
            continue
        d = determinize(game, seat, rng)
        check_game(d)
        assert encode(d, seat).tobytes() == encode(game, seat).tobytes()
        for s in range(4):
            if s != seat and module._void_clean(game, s) and not game.declared[s]:
                assert not any(d.hands[s][9 * d.void[s]: 9 * d.void[s] + 9])
        changed += any(d.hands[s] != game.hands[s] for s in range(4) if s != seat)
        n += 1
    assert n > 10 and changed > 0.8 * n  # the walk moves away from the true deal


def test_random_walk_fallback_uses_no_hidden_tile(monkeypatch):
    """The walk's start is drawn from the unseen counts and the rng alone: two games that differ
    only in what `seat` cannot see give the same determinized world for the same rng."""
    module = importlib.import_module("mahjong_core.env.determinize")  # (the package's `determinize` is the function)

    checked = 0
    for k, (game, seat) in enumerate(decisions("sichuan", range(30, 34))):
        if k % 5 or game.phase == 0:
            continue
        other_world = determinize(game, seat, random.Random(k))  # same public state, other hidden tiles
        hidden = lambda g: ([bytes(g.hands[s]) for s in range(4) if s != seat], g.wall[g.head:g.tail],  # noqa: E731
                            [list(m) for s in range(4) for m in g.melds[s]])
        if hidden(other_world) == hidden(game):
            continue
        monkeypatch.setattr(module, "SEQUENTIAL_ATTEMPTS", 0)  # always the walk
        a = determinize(game, seat, random.Random(99))
        b = determinize(other_world, seat, random.Random(99))
        monkeypatch.setattr(module, "SEQUENTIAL_ATTEMPTS", 60)
        assert hidden(a) == hidden(b)
        checked += 1
    assert checked > 5


def test_split_finds_a_feasible_share_whenever_one_exists():
    from itertools import product

    from mahjong_core.env.determinize import _split

    rng = random.Random(3)
    for _ in range(400):
        supply = [rng.randint(0, 6) for _ in range(3)] + [0]
        seats = [(rng.randint(0, 2), rng.randint(0, 6)) for _ in range(rng.randint(1, 3))]
        shares = _split(supply, seats)
        # brute force: every way to give each seat its tiles from its allowed classes
        options = [[(a, b, c, 0) for a, b, c in product(range(n + 1), repeat=3) if a + b + c == n and (a, b, c)[v] == 0]
                   for v, n in seats]
        feasible = any(all(sum(s[c] for s in pick) <= supply[c] for c in range(4)) for pick in product(*options))
        assert (shares is not None) == feasible
        if shares is not None:
            for (v, n), share in zip(seats, shares):
                assert sum(share) == n and share[v] == 0 and min(share) >= 0
            assert all(sum(share[c] for share in shares) <= supply[c] for c in range(4))


def other_turns(ruleset, seeds, rules=None, every=3):
    """(game, viewer) on another seat's own turn (after a draw, or after its chow / pung)."""
    for k, (game, seat) in enumerate(decisions(ruleset, seeds, rules)):
        if k % every == 0 and game.phase in (TURN, AFTER_CLAIM):
            yield game, (seat + 1 + k % 3) % 4


def hidden_of(g, viewer):
    """Everything hidden from `viewer`, the on-turn seat's drawn tile and offered actions included."""
    return ([bytes(g.hands[s]) for s in range(4) if s != viewer], g.wall[g.head:g.tail],
            [list(m) for s in range(4) for m in g.melds[s]], g.drawn, g.phase,
            {s: [a.uid for a in acts] for s, acts in g.pending().items()})


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("changbai", None), ("mcr", {"flowers": True})])
def test_on_another_seats_turn(ruleset, rules):
    """Lifted limit: the on-turn seat's hand and drawn tile are redrawn, its turn re-offered for
    the new tiles, the viewer's observation unchanged, and the world plays on."""
    from mahjong_core.game.testing import expected_waits

    rng = random.Random(5)
    full = Counter(new_game(ruleset, seed=0, rules=rules).wall)
    counts = Counter()
    for k, (game, viewer) in enumerate(other_turns(ruleset, range(10, 14), rules)):
        turn = game.turn
        before = game.state()
        obs = encode(game, viewer).tobytes()
        d = determinize(game, viewer, rng)
        assert game.state() == before
        assert encode(d, viewer).tobytes() == obs
        assert tile_multiset(d) == full
        check_game(d)
        assert d.phase == game.phase and d.turn == turn and list(d.pending()) == [turn]
        if game.phase == TURN:
            assert d.drawn >= 0 and d.hands[turn][d.drawn] >= 1
            if not game.declared[turn]:
                # its options are those of its new hand: offer the turn again on a second clone
                fresh = d.clone()
                fresh.hands[turn][d.drawn] -= 1
                fresh.waits[turn] = expected_waits(fresh, turn)
                fresh.hands[turn][d.drawn] += 1
                fresh._open_turn(turn, d.drawn, d.replacement)
                assert fresh.pending() == d.pending()
        else:
            assert d.pending()[turn] == d._discard_options(turn)
        counts[game.phase] += 1
        if k % 4 == 0:
            players = [GreedyBot() for _ in range(4)]
            for b in players:
                b.new_hand(random.Random(k))
            play_hand(d, players)
            check_game(d)
            assert sum(d.ledger.totals()) == 0
    assert counts[TURN] > 10 and (counts[AFTER_CLAIM] > 0 or ruleset == "changbai")


def test_on_another_seats_turn_uses_no_hidden_tile():
    """Two worlds that differ only in what the viewer cannot see give the same redraw for the same
    rng (the on-turn seat's drawn tile and its offered actions included)."""
    checked = 0
    for k, (game, viewer) in enumerate(other_turns("sichuan", range(40, 43))):
        other_world = determinize(game, viewer, random.Random(k))
        if hidden_of(other_world, viewer)[:4] == hidden_of(game, viewer)[:4]:
            continue
        a = determinize(game, viewer, random.Random(99))
        b = determinize(other_world, viewer, random.Random(99))
        assert hidden_of(a, viewer) == hidden_of(b, viewer)
        checked += 1
    assert checked > 10


def test_on_another_seats_turn_drawn_tile_is_uniform():
    # MCR without flowers: the drawn tile of the seat on turn is a uniform draw from the unseen tiles
    game, viewer = next((g, (g.turn + 2) % 4) for g, _ in decisions("mcr", [8])
                        if g.phase == TURN and len(g.rivers[g.turn]) >= 3 and g.drawn >= 0)
    unseen = unseen_counts(game, viewer)[:34]
    total = sum(unseen)
    rng = random.Random(6)
    draws = 4000
    drawn = Counter(determinize(game, viewer, rng).drawn for _ in range(draws))
    kinds = [t for t in range(34) if unseen[t]]
    assert set(drawn) <= set(kinds)
    chi = sum((drawn[t] - draws * unseen[t] / total) ** 2 / (draws * unseen[t] / total) for t in kinds)
    dof = len(kinds) - 1
    assert 0.2 * dof < chi < dof + 3.1 * (2 * dof) ** 0.5, chi


@pytest.mark.parametrize("ruleset", ["sichuan", "changbai"])
def test_in_the_choice_window_before_the_dealers_first_turn(ruleset):
    """定缺 (Sichuan, after the deal) and 飘 (Changbai, before it): the determinized game plays on to
    a consistent end from every seat's view. The dealer's 14th tile is read again when its first
    turn opens; a redrawn dealer hand that lacked the old one left the game stuck (a count of -1)."""
    for seed in range(4):
        game = new_game(ruleset, seed=seed)
        for seat in range(4):
            d = determinize(game, seat, random.Random(seed))
            assert encode(d, seat).tobytes() == encode(game, seat).tobytes()
            players = [GreedyBot() for _ in range(4)]
            for b in players:
                b.new_hand(random.Random(seed))
            play_hand(d, players)
            check_game(d)
            assert d.finished and sum(d.ledger.totals()) == 0
