"""The observation encoder: layout, hidden information, masks, bad buffers."""

import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from mahjong_core.env import LAYOUT_IDS, N_PLANES, encode, legal_mask, plane_names  # noqa: E402
from mahjong_core.env import _encode, layout  # noqa: E402
from mahjong_core.errors import InvalidArgumentError  # noqa: E402
from mahjong_core.game import engine, new_game  # noqa: E402
from mahjong_core.game.constants import MELD_CHOW, MELD_CONCEALED_KONG, MELD_PUNG  # noqa: E402
from seeded_play import bot_hand  # noqa: E402

RULESETS = ("sichuan", "changbai", "mcr")


def decision_points(ruleset, seed, every=3, rules=None):
    """(game clone, seat) at every `every`-th decision of a mixed-bot hand (seeded_play)."""
    for k, (game, seat) in enumerate(bot_hand(ruleset, seed, rules)):
        if k % every == 0:
            yield game.clone(), seat


def test_layout_constants_match_the_compiled_encoder():
    for name, value in _encode.LAYOUT_CONSTANTS.items():
        assert getattr(layout, name) == value, name
    for ruleset in RULESETS:
        assert _encode.n_planes(ruleset) == N_PLANES[ruleset] == len(plane_names(ruleset))
        assert LAYOUT_IDS[ruleset].startswith(f"mahjong_core.obs.{ruleset}.v{layout.LAYOUT_VERSION}")


def reference(game, seat):
    """A plain Python rendering of docs/OBSERVATION.md (independent of the Cython code)."""
    C = N_PLANES[game.ruleset]
    o = np.zeros((C, 34), np.uint8)
    hand = game.hands[seat]
    for t in range(34):
        for k in range(min(hand[t], 4)):
            o[k, t] = 1
    if game.turn == seat and game.drawn >= 0:
        o[4, game.drawn] = 1
    visible = [0] * 34
    info = o[layout.INFO]
    for s in range(4):
        r = (s - seat) % 4
        b = 5 + 10 * r
        river = game.rivers[s]
        for t in set(river):
            for k in range(min(river.count(t), 3)):
                o[b + k, t] = 1
        if river:
            o[b + 3, river[-1]] = 1
        for t in river[-3:]:
            o[b + 4, t] = 1
        for t in river:
            visible[t] += 1
        chow = [0] * 34
        for kind, t, _, _ in game.melds[s]:
            if kind == MELD_CHOW:
                for u in (t, t + 1, t + 2):
                    chow[u] += 1
                    visible[u] += 1
            elif kind == MELD_PUNG:
                o[b + 7, t] = 1
                visible[t] += 3
            elif kind == MELD_CONCEALED_KONG:
                info[27 + r] += 1
                if s == seat:
                    o[b + 9, t] = 1
                    visible[t] += 4
            else:
                o[b + 8, t] = 1
                visible[t] += 4
        for t in range(34):
            if chow[t] >= 1:
                o[b + 5, t] = 1
            if chow[t] >= 2:
                o[b + 6, t] = 1
        for t in game.won_tiles[s]:
            visible[t] += 1
            if game.ruleset == "sichuan":
                o[64 + r, t] = 1
        info[19 + r] = bool(game.won[s])
        info[23 + r] = bool(game.declared[s])
    for t in range(34):
        for k in range(min(visible[t], 4)):
            o[49 + k, t] = 1
        for k in range(4 - visible[t] - hand[t]):
            o[45 + k, t] = 1
    if game.discarder >= 0:
        o[53, game.discard] = 1
        info[4 + (game.discarder - seat) % 4] = 1
    if game.phase == 4 and game.kong_tile >= 0:
        o[54, game.kong_tile] = 1
    o[55, 27 + (seat - game.dealer) % 4] = 1
    info[(game.dealer - seat) % 4] = 1
    info[8 + (game.turn - seat) % 4] = 1
    info[12 + game.phase] = 1
    left = game.wall_remaining()
    for k in range(34):
        o[58, k] = left > 4 * k
        o[59, k] = left > k
    if game.ruleset == "sichuan":
        for s in range(4):
            if game.void[s] >= 0:
                o[60 + (s - seat) % 4, 9 * game.void[s]: 9 * game.void[s] + 9] = 1
    elif game.ruleset == "changbai":
        for s in range(4):
            if game.piao[s] >= 0:
                o[60, 4 * ((s - seat) % 4) + game.piao[s] // 2] = 1
    else:
        o[56, 27 + game.prevalent_wind] = 1
        for s in range(4):
            n = min(len(game.flowers[s]), 8)
            o[60, 8 * ((s - seat) % 4): 8 * ((s - seat) % 4) + n] = 1
    return o


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("changbai", None), ("mcr", None),
                                           ("mcr", {"flowers": True})])
def test_encoder_matches_the_reference_rendering(ruleset, rules):
    n = 0
    for seed in range(6):
        for game, seat in decision_points(ruleset, seed, every=2, rules=rules):
            for viewer in range(4):
                got = encode(game, viewer)
                assert got.shape == (N_PLANES[ruleset], 34) and got.dtype == np.uint8
                assert np.array_equal(got, reference(game, viewer)), (ruleset, seed, viewer)
                n += 1
    assert n > 200


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("changbai", None), ("mcr", {"flowers": True})])
def test_every_cell_is_written_whatever_the_buffer_held(ruleset, rules):
    """The encoder clears only the planes it writes cell by cell and writes the count planes whole:
    a buffer holding anything (all ones, random bytes, the last observation) ends up the same."""
    rng = np.random.default_rng(6)
    out = np.empty((N_PLANES[ruleset], 34), np.uint8)
    n = 0
    for game, seat in decision_points(ruleset, 2, every=1, rules=rules):
        for viewer in range(4):
            expected = reference(game, viewer)
            for fill in ("ones", "random", "previous"):
                if fill == "ones":
                    out[:] = 255
                elif fill == "random":
                    out[:] = rng.integers(0, 256, out.shape, dtype=np.uint8)
                _encode.encode_into(game, viewer, out)
                assert np.array_equal(out, expected), (fill, viewer)
            n += 1
    assert n > 100


class AttributeSource:
    """A game seen only through its attributes: no `_observation_fields`, so the encoder reads it the
    way it reads any other observation source (the Botzone kit's state), attribute by attribute."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("changbai", None), ("mcr", {"flowers": True})])
def test_a_games_one_call_reads_what_its_attributes_hold(ruleset, rules):
    """A Game gives the encoder its fields in one call (`Game._observation_fields`); the observations
    must be those of reading the same game attribute by attribute, for every viewer."""
    assert not hasattr(AttributeSource, "_observation_fields")
    n = 0
    for game, seat in decision_points(ruleset, 3, every=1, rules=rules):
        for viewer in range(4):
            assert encode(game, viewer).tobytes() == encode(AttributeSource(game), viewer).tobytes()
            n += 1
    assert n > 150


def test_a_subclass_wall_count_is_the_one_encoded():
    """`_observation_fields` asks `wall_remaining()`, so a subclass that counts its wall otherwise
    (the Botzone table: four walls, not the engine's `tail - head`) is encoded with its own count."""
    from mahjong_core.botzone.table import new_game as botzone_table

    game = botzone_table(seed=4)
    left = game.wall_remaining()
    assert left != game.tail - game.head  # else this test could not tell the two apart
    for seat in range(4):
        got = encode(game, seat)
        assert got[layout.WALL_END].sum() == min(left, 34)
        assert got[layout.WALL].sum() == min((left + 3) // 4, 34)
        assert got.tobytes() == encode(AttributeSource(game), seat).tobytes()


def scramble(game, viewer, rng):
    """Re-deal every tile `viewer` cannot see, crudely: pool the other hands and the live wall and
    deal them again at random (hand sizes kept), permute the others' concealed kong kinds among
    themselves. The engine's derived state is left stale on purpose: the encoder must not read it."""
    g = game.clone()
    others = [s for s in range(4) if s != viewer]
    sizes = [sum(g.hands[s]) for s in others]
    pool = [t for s in others for t in range(34) for _ in range(g.hands[s][t])] + list(g.wall[g.head:g.tail])
    hand_pool = [t for t in pool if t < 34]
    flowers = [t for t in pool if t >= 34]
    rng.shuffle(hand_pool)
    i = 0
    for s, n in zip(others, sizes):
        h = bytearray(34)
        for t in hand_pool[i:i + n]:
            h[t] += 1
        g.hands[s] = h
        i += n
    rest = hand_pool[i:] + flowers
    rng.shuffle(rest)
    wall = list(g.wall)
    wall[g.head:g.tail] = rest
    g.wall = wall
    kongs = [(s, j) for s in others for j, m in enumerate(g.melds[s]) if m[0] == MELD_CONCEALED_KONG]
    kinds = [g.melds[s][j][1] for s, j in kongs]
    rng.shuffle(kinds)
    for (s, j), t in zip(kongs, kinds):
        m = g.melds[s][j]
        g.melds[s][j] = (m[0], (t + 7) % 34, m[2], m[3])  # any kind: the tile is hidden
    g.waits = [rng.getrandbits(34) for _ in range(4)]
    return g


@pytest.mark.parametrize("ruleset,rules", [("sichuan", None), ("changbai", None), ("mcr", {"flowers": True})])
def test_no_hidden_information(ruleset, rules):
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        for game, seat in decision_points(ruleset, seed, every=4, rules=rules):
            for viewer in range(4):
                base = encode(game, viewer).tobytes()
                for _ in range(5):
                    assert encode(scramble(game, viewer, rng), viewer).tobytes() == base
                    checked += 1
    assert checked > 300


def test_mask_is_the_engines_legal_mask():
    for ruleset in RULESETS:
        for game, seat in decision_points(ruleset, 1, every=1):
            for s in range(4):
                assert list(legal_mask(game, s)) == list(game.legal_mask(s))


def test_bad_buffers_and_seats():
    game = new_game("sichuan", seed=1)
    C = N_PLANES["sichuan"]
    before = game.state()
    good = np.full((C, 34), 9, np.uint8)
    for bad in (np.zeros((C, 34), np.int8), np.zeros((C + 1, 34), np.uint8), np.zeros((C, 34), np.uint8)[:, ::2],
                np.zeros((C, 34), np.float32), np.zeros(C * 34, np.uint8), [[0] * 34] * C, "x", b"\0" * (C * 34)):
        with pytest.raises(InvalidArgumentError, match="out must be"):
            encode(game, 0, bad)
    ro = np.zeros((C, 34), np.uint8)
    ro.flags.writeable = False
    with pytest.raises(InvalidArgumentError):
        encode(game, 0, ro)
    # every entry point that writes a buffer says what it needs in our error, not the buffer protocol's
    mask = np.zeros(game.space.size, np.int8)
    ro_mask = mask.copy()
    ro_mask.flags.writeable = False
    for out, m in ((ro, mask), ("x", mask), (good, ro_mask), (good, "x")):
        with pytest.raises(InvalidArgumentError, match="must be"):
            _encode.observe_into(game, 0, out, m)
    for out in (ro_mask, "x", [0] * game.space.size):
        with pytest.raises(InvalidArgumentError, match="out must be"):
            _encode.mask_into([], game.space.code_of_uid, out)
        with pytest.raises(InvalidArgumentError, match="out must be"):
            legal_mask(game, 0, out)
    for seat in (-1, 4, 1.0, True, "0", None):
        with pytest.raises(InvalidArgumentError, match="seat"):
            encode(game, seat, good)
    assert (good == 9).all()  # nothing written on error
    with pytest.raises(InvalidArgumentError, match="int8"):
        legal_mask(game, 0, np.zeros(game.space.size, np.uint8))
    with pytest.raises(InvalidArgumentError, match="observation source"):
        encode(object(), 0)
    assert game.state() == before
    out = encode(game, 0, good)
    assert out is good and not (good == 9).any()


def test_encoder_rejects_tile_indices_outside_the_tiles():
    """The encoder writes through tile indices it reads from the source: a corrupt source raises
    InvalidArgumentError instead of writing outside the observation. (A source read by its
    attributes: a Game's lists are read through its own record, `_shown`, tested below.)"""
    def corrupt(change):
        game = new_game("mcr", seed=2)
        change(game)
        return AttributeSource(game)

    def add_river_tile(g):
        g.rivers[1].append(40)

    def add_chow(g):
        g.melds[2].append((MELD_CHOW, 32, 1, 1))

    def add_pung(g):
        g.melds[3].append((MELD_PUNG, 99, 1, 2))

    def add_won_tile(g):
        g.won_tiles[0].append(-5)

    cases = [add_river_tile, add_chow, add_pung, add_won_tile]
    C = N_PLANES["mcr"]
    for change in cases:
        game = corrupt(change)
        with pytest.raises(InvalidArgumentError, match="not a tile index"):
            encode(game, 0, np.zeros((C, 34), np.uint8))
    for bad in (2 ** 70, -(2 ** 70), -1, 34, "3", 3.0, None):  # the in-place int read's fallbacks
        game = corrupt(lambda g: g.rivers[1].append(bad))
        with pytest.raises(InvalidArgumentError, match="not a tile index"):
            encode(game, 0, np.zeros((C, 34), np.uint8))
    game = new_game("mcr", seed=2)
    seat = game.turn
    game.drawn = 34
    with pytest.raises(InvalidArgumentError, match="drawn tile"):
        encode(game, seat)
    river = [3, 4] * 100  # longer than a table's tiles
    game = corrupt(lambda g: g.rivers[1].extend(river))
    with pytest.raises(InvalidArgumentError, match="more than a table has"):
        encode(game, 0)


def test_a_games_record_of_what_is_shown_is_checked_where_it_is_written_through():
    """A compiled Game lends the encoder `_shown`; a record whose last discards name no tile raises
    (its counts are only added up, never indices), and one of the wrong size or type is not read:
    the game's lists are, as any source's."""
    game, seat = next((g, s) for g, s in decision_points("sichuan", 3, every=1) if len(g.rivers[2]) >= 4)
    expected = encode(AttributeSource(game), seat)
    assert game._shown is None  # (a clone of a game nobody observed)
    assert (encode(game, seat) == expected).all() and game._shown is not None  # (built by its first observer)
    layout = engine.SHOWN_LAYOUT
    broken = game.clone()
    broken._shown[2 * layout["STRIDE"] + layout["LAST"] + 1] = 200
    with pytest.raises(InvalidArgumentError, match="_shown"):
        encode(broken, seat)
    noisy = game.clone()
    for k in range(6):
        noisy._shown[k * layout["STRIDE"] // 2 + 40] = 255  # counts of any size: added up, never written through
    encode(noisy, seat)
    for other in (bytearray(10), bytearray(4 * layout["STRIDE"] + 1), None):
        strange = game.clone()
        strange._shown = other
        assert (encode(strange, seat) == expected).all()


def test_a_river_emptied_while_it_is_read_raises():
    """The encoder reads river and won-tile items in place; a tile whose `__index__` empties the list
    it lies in (a corrupt source) raises instead of reading past the list's end."""
    class Emptying:
        def __init__(self, river):
            self.river = river

        def __index__(self):
            self.river.clear()
            return 5

    game = new_game("mcr", seed=2)
    river = game.rivers[1]
    river[:] = [3, 4, 6, 7]
    river.insert(1, Emptying(river))
    with pytest.raises(InvalidArgumentError, match="river changed while it was read"):
        encode(AttributeSource(game), 0, np.zeros((N_PLANES["mcr"], 34), np.uint8))
    game = new_game("mcr", seed=2)  # (a won-tile list the same way: read to its old length before)
    won = game.won_tiles[2]
    won[:] = [3, 4, 6, 7]
    won.insert(1, Emptying(won))
    with pytest.raises(InvalidArgumentError, match="won tiles changed while it was read"):
        encode(AttributeSource(game), 0, np.zeros((N_PLANES["mcr"], 34), np.uint8))


def test_the_ruleset_state_is_read_from_any_sequence():
    """`Game._observed_state()` (the ruleset state at the end of `_observation_fields`) may be any
    sequence a subclass returns, or None (the attributes are then read by name): the same
    observation as the ruleset's own tuple."""
    from mahjong_core.game.registry import resolve_rules
    from mahjong_core.rules.mcr.flow import MCRGame

    class Listed(MCRGame):
        def _observed_state(self):
            return [self.prevalent_wind, [tuple(f) for f in self.flowers]]

    class Unread(MCRGame):
        def _observed_state(self):
            return None

    def played(cls):
        game = cls._from_seed(resolve_rules("mcr", {"flowers": True}), 3, 0, 0)
        while sum(map(len, game.flowers)) < 2 and not game.finished:
            seat, actions = next(iter(game.pending().items()))
            game.act(seat, actions[0])
        return game

    base = played(MCRGame)
    assert sum(map(len, base.flowers)) >= 2
    for cls in (Listed, Unread):
        game = played(cls)
        assert type(game) is cls and game.state() == base.state()
        assert encode(game, game.turn).tobytes() == encode(base, base.turn).tobytes()


@pytest.mark.parametrize("ruleset,name", [("sichuan", "void"), ("changbai", "piao")])
def test_the_per_seat_state_is_read_from_any_sequence_of_integers(ruleset, name):
    """Sichuan's void suits and Changbai's 飘 (a list of ints, read in place) as a tuple of NumPy
    integers from a subclass: the same observations."""
    from mahjong_core.game.registry import game_class, resolve_rules

    class Tupled(game_class(ruleset)):
        def _observed_state(self):
            return tuple(np.int64(v) for v in getattr(self, name))

    base = game_class(ruleset)._from_seed(resolve_rules(ruleset, None), 4, 0, 0)
    other = Tupled._from_seed(resolve_rules(ruleset, None), 4, 0, 0)
    rng = random.Random(2)
    n = 0
    while not base.finished:
        seat, actions = next(iter(base.pending().items()))
        for viewer in range(4):
            assert encode(other, viewer).tobytes() == encode(base, viewer).tobytes()
        n += any(v >= 0 for v in getattr(base, name))
        action = actions[rng.randrange(len(actions))]
        base.act(seat, action)
        other.act(seat, action)
    assert n > 10  # the state was set for most of the hand


def test_integers_of_any_type_encode_as_the_same_tiles():
    """The encoder reads a one-digit int in place and any other integer by its index: a source
    holding NumPy integers or bools encodes as the same game with plain ints."""
    game, seat = next((g, s) for seed in range(1, 40) for g, s in decision_points("mcr", seed, every=5)
                      if any(g.melds) and any(int(t) in (0, 1) for r in g.rivers for t in r))
    base = encode(game, seat).tobytes()
    source = AttributeSource(game)  # (read by its lists: a Game's own are read through `_shown`)
    game.rivers = [[np.int64(t) for t in river] for river in game.rivers]
    game.melds = [[tuple(np.int16(x) for x in meld) for meld in melds] for melds in game.melds]
    assert encode(source, seat).tobytes() == base
    river = next(r for r in game.rivers if any(int(t) in (0, 1) for t in r))
    river[:] = [bool(t) if int(t) in (0, 1) else t for t in river]
    assert encode(source, seat).tobytes() == base


def test_import_does_not_import_the_rl_extra():
    code = ("import sys, mahjong_core, mahjong_core.env, mahjong_core.game; "
            "mahjong_core.game.new_game('mcr', seed=1); "
            "bad = [m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules]; print(bad); "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")


def test_missing_extra_names_the_install_line(monkeypatch):
    import builtins

    from mahjong_core.env import _deps

    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("pettingzoo"):
            raise ImportError("no pettingzoo")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    monkeypatch.delitem(sys.modules, "pettingzoo", raising=False)
    with pytest.raises(ImportError, match=r'pip install "mahjong_core\[rl\]"'):
        _deps.pettingzoo()


def test_a_game_field_beyond_a_c_int_raises_on_both_read_paths():
    """A Game's fields come through the engine's C entry where it is compiled (no tuple), any other
    source attribute by attribute: a scalar too large for the encoder raises OverflowError on
    both, as it did when the tuple's values were converted."""
    game = new_game("sichuan", seed=1)
    game.drawn = 2**40
    for source in (game, AttributeSource(game)):
        with pytest.raises(OverflowError):
            encode(source, 0)
