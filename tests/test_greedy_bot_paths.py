"""GreedyBot's decisions run as typed C functions where bots.py is compiled (python/pxd/.../bots.pxd;
the native self-play loop calls `_greedy_discard` directly). They must decide exactly what the
rules in bots.py's docstring say: these compare them, on many random hands, with a plain Python
statement of the same rules written from scratch here (every discard's shanten computed one by
one, no best-discards call, no bit tricks), check that bad arguments raise MahjongError instead of
reaching the C arrays, and that the native loop and the `choose` path play identical games."""

import json
import random

import pytest

from mahjong_core import _core
from mahjong_core.errors import InvalidArgumentError, MahjongError
from mahjong_core.game import new_game
from mahjong_core.game import simulate as simulate_module
from mahjong_core.game.actions import CHOW, KONG, PASS, PUNG, VOID
from mahjong_core.game.bots import GreedyBot, make_bot
from mahjong_core.game.simulate import play_hand

RULESETS = ("sichuan", "changbai", "mcr")
FORMS = sorted({int(new_game(r, seed=1).FORMS) for r in RULESETS})  # standard (+ seven pairs), MCR's five

# -- the rules in plain Python -------------------------------------------------------------------

HONOURS = list(range(27, 34))
TERMINALS = [0, 8, 9, 17, 18, 26]
TWOS_EIGHTS = [1, 7, 10, 16, 19, 25]
MIDDLES = [t for t in range(27) if t % 9 in (2, 3, 4, 5, 6)]
PREFERENCE = HONOURS + TERMINALS + TWOS_EIGHTS + MIDDLES


def shanten(hand, forms, melds):
    return _core._shanten_melds(bytes(hand), forms, melds)


def without(hand, *tiles):
    out = bytearray(hand)
    for t in tiles:
        out[t] -= 1
    return out


def unseen_winning(hand, forms, melds):
    waits = _core._waits_mask_melds(bytes(hand), forms, melds)
    return sum(4 - hand[t] for t in range(34) if waits >> t & 1)


def ref_best_discard(hand, discards, melds, forms):
    """The discard leaving the lowest shanten; ties: with a ready hand the most unseen winning
    tiles, else (and among equal values) the first in preference order."""
    legal = [t for t in PREFERENCE if discards >> t & 1]
    after = {t: shanten(without(hand, t), forms, melds) for t in legal}
    target = min(after.values())
    best = [t for t in legal if after[t] == target]
    if target > 0 or len(best) == 1:
        return best[0], max(target, 0)
    values = [unseen_winning(without(hand, t), forms, melds) for t in best]
    return best[values.index(max(values))], 0


def isolated(hand, t):
    if hand[t] != 1:
        return False
    if t >= 27:
        return True
    suit = range(t - t % 9, t - t % 9 + 9)
    return all(hand[k] == 0 for k in suit if k != t and abs(k - t) <= 2)


class RefDiscards:
    """GreedyBot's discard turns for one seat: the drawn tile goes straight out when the hand
    before it is the one kept last time, the draw does not lower its shanten, and it is isolated
    or that hand was ready already; otherwise `ref_best_discard`."""

    def __init__(self):
        self.kept = None  # (game, the counts kept after the last discard, their shanten)
        self.shortcuts = 0

    def discard(self, game, discards, hand, melds, forms, drawn):
        if bin(discards).count("1") == 1:
            return discards.bit_length() - 1
        if (0 <= drawn < 34 and discards >> drawn & 1 and self.kept is not None and self.kept[0] is game
                and bytes(without(hand, drawn)) == self.kept[1]):
            was = self.kept[2]
            if (was == 0 or isolated(hand, drawn)) and shanten(hand, forms, melds) >= was:
                self.shortcuts += 1
                return drawn
        tile, target = ref_best_discard(hand, discards, melds, forms)
        self.kept = (game, bytes(without(hand, tile)), target)
        return tile


def ref_claim(hand, tile, melds, forms, actions):
    """A kong when the shanten does not get worse; else the first pung or chow that lowers it most;
    else PASS."""
    best, best_shanten = PASS, shanten(hand, forms, melds)
    for action in actions:
        if action is KONG:
            taken = [tile] * 3
        elif action is PUNG:
            taken = [tile] * 2
        elif action in CHOW[1:]:
            low = tile - (action.arg - 1)
            taken = [t for t in (low, low + 1, low + 2) if t != tile]
        else:
            continue
        after = shanten(without(hand, *taken), forms, melds + 1)
        if action is KONG:
            if after <= best_shanten:
                return action
        elif after < best_shanten:
            best, best_shanten = action, after
    return best


# -- random positions ----------------------------------------------------------------------------


def random_hand(rng, tiles):
    """`tiles` tiles drawn from a full set; often a few kinds only (more ready hands, pairs, pungs)."""
    kinds = rng.sample(range(34), rng.choice([6, 9, 12, 34]))
    pool = [t for t in kinds for _ in range(4)]
    if len(pool) < tiles:
        pool = [t for t in range(34) for _ in range(4)]
    hand = bytearray(34)
    for t in rng.sample(pool, tiles):
        hand[t] += 1
    return hand


def held_mask(hand):
    return sum(1 << t for t in range(34) if hand[t])


def random_discards(rng, hand):
    """All kinds held (the usual turn) or a random subset of them (a 定缺 suit, a 报听 lock)."""
    held = [t for t in range(34) if hand[t]]
    if rng.random() < 0.5:
        return held_mask(hand)
    return sum(1 << t for t in rng.sample(held, rng.randint(1, len(held))))


class FakeGame:
    """What GreedyBot reads of a game: its seat's counts and meld count, the forms, the discard."""

    def __init__(self, hand, melds, forms, discard=-1, drawn=-1):
        self.hand, self.melds, self.FORMS, self.discard, self.drawn = bytes(hand), melds, forms, discard, drawn

    def hand_bytes(self, seat):
        return self.hand

    def meld_count(self, seat):
        return self.melds


@pytest.mark.parametrize("forms", FORMS)
def test_best_discard_is_the_rules_on_random_hands(forms):
    rng = random.Random(forms)
    bot = GreedyBot()
    checked = 0
    for _ in range(1500):
        melds = rng.choice([0, 0, 0, 1, 2, 3, 4])
        hand = random_hand(rng, 14 - 3 * melds)
        discards = random_discards(rng, hand)
        if not discards & (discards - 1):
            continue
        expected = ref_best_discard(hand, discards, melds, forms)
        assert bot._best_discard(bytearray(hand), discards, melds, forms) == expected, (bytes(hand), discards, melds)
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("forms", FORMS)
def test_discard_turns_with_the_kept_hand_shortcut_follow_the_rules(forms):
    """Seeded sequences of draws and discards through `_discard_of` (what `discard_from` and the
    native loop's C call decide), the kept-hand shortcut included, against `RefDiscards`."""
    rng = random.Random(100 + forms)
    shortcuts = 0
    for game_no in range(60):
        bot, ref = GreedyBot(), RefDiscards()
        bot.new_hand(random.Random(game_no))
        game = object()
        melds = rng.choice([0, 0, 1, 2])
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        hand = bytearray(34)
        for t in wall[:14 - 3 * melds]:
            hand[t] += 1
        drawn = -1
        for step, t in enumerate(wall[14 - 3 * melds:14 - 3 * melds + 40]):
            if step % 13 == 12:
                game = object()  # another game: the kept hand no longer applies
            discards = random_discards(rng, hand) if rng.random() < 0.2 else held_mask(hand)
            given = drawn if rng.random() < 0.9 else rng.choice([-1, 34, 99, -7])
            expected = ref.discard(game, discards, hand, melds, forms, given)
            got = bot._discard_of(game, 0, discards, bytearray(hand), melds, forms, given)
            assert got == expected, (game_no, step, bytes(hand), discards, given)
            hand[got] -= 1
            hand[t] += 1
            drawn = t
        shortcuts += ref.shortcuts
    assert shortcuts > 50  # the shortcut was taken, not just the search


@pytest.mark.parametrize("forms", FORMS)
def test_claims_follow_the_rules(forms):
    rng = random.Random(200 + forms)
    bot = GreedyBot()
    offered = taken = 0
    while offered < 800:
        melds = rng.choice([0, 0, 1, 2, 3])
        hand = random_hand(rng, 13 - 3 * melds)
        near = rng.choice([t for t in range(34) if hand[t]]) + rng.choice([-2, -1, 0, 0, 1, 2])
        tile = near if 0 <= near < 34 and rng.random() < 0.9 else rng.randrange(34)
        if hand[tile] == 4:
            continue
        actions = []
        if hand[tile] >= 3:
            actions.append(KONG)
        if hand[tile] >= 2:
            actions.append(PUNG)
        if tile < 27:
            r = tile % 9
            for position in (1, 2, 3):
                low = tile - (position - 1)
                if low >= tile - r and low + 2 <= tile - r + 8 and all(
                        hand[k] for k in (low, low + 1, low + 2) if k != tile):
                    actions.append(CHOW[position])
        rng.shuffle(actions)
        actions.append(PASS)
        offered += len(actions) > 1
        expected = ref_claim(hand, tile, melds, forms, actions)
        assert bot.choose(FakeGame(hand, melds, forms, discard=tile), 1, actions) is expected, (bytes(hand), tile)
        taken += expected is not PASS
    assert taken > 200


def test_void_suit_is_the_suit_held_fewest():
    """定缺: the offered suit with the fewest tiles held, the lowest on a tie."""
    rng = random.Random(300)
    bot = GreedyBot()
    for _ in range(500):
        hand = random_hand(rng, 13)
        actions = rng.sample(VOID, rng.randint(1, 3))
        expected = min(actions, key=lambda a: (sum(hand[9 * a.arg:9 * a.arg + 9]), a.arg))
        assert bot.choose(FakeGame(hand, 0, 3), 2, actions) is expected, (bytes(hand), actions)


# -- bad arguments: MahjongError, never a read or write outside the counts ------------------------


def test_bad_discard_arguments_raise_mahjong_errors():
    bot = GreedyBot()
    bot.new_hand(random.Random(0))
    hand = bytearray(b"\x01" * 14 + b"\x00" * 20)
    game = object()
    for bad_hand in (bytearray(33), bytearray(35), b"\x05" + bytes(hand[1:]), [1] * 34, "x" * 34, None):
        with pytest.raises(InvalidArgumentError):
            bot._discard_of(game, 0, 0b11, bad_hand, 0, 1, -1)
    for bad_mask in (1 << 34 | 0b11, -1, -(1 << 70), 1 << 80, 1 << 20 | 0b11, "3", 2.0, None):
        with pytest.raises(InvalidArgumentError):
            bot._discard_of(game, 0, bad_mask, bytearray(hand), 0, 1, -1)
    with pytest.raises(MahjongError):  # 14 tiles with one meld: the core says what is wrong
        bot._discard_of(game, 0, 0b111, bytearray(hand), 1, 1, -1)
    with pytest.raises(MahjongError):
        bot._discard_of(game, 0, 0b111, bytearray(hand), 1, 1 << 20, -1)  # no such forms
    for bad_hand in (bytearray(33), b"\x05" * 34):
        with pytest.raises(InvalidArgumentError):
            bot._best_discard(bad_hand, 0b11, 0, 1)
    with pytest.raises(InvalidArgumentError):
        bot._best_discard(bytearray(hand), 0, 0, 1)
    # a drawn tile that is no tile is no draw
    for drawn in (34, 99, -2, -(1 << 40), 1 << 70):
        assert bot._discard_of(game, 0, held_mask(hand), bytearray(hand), 0, 1, drawn) == \
            GreedyBot()._best_discard(bytearray(hand), held_mask(hand), 0, 1)[0]


def test_bad_claims_raise_mahjong_errors():
    bot = GreedyBot()
    hand = bytearray(34)
    for t in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 30, 31):
        hand[t] += 1
    for tile, action in ((30, PUNG), (27, KONG), (0, CHOW[3]), (33, CHOW[1]), (-1, PUNG), (34, PUNG),
                         (1 << 40, PUNG)):
        with pytest.raises(MahjongError):
            bot.choose(FakeGame(hand, 0, 1, discard=tile), 1, [action, PASS])
    with pytest.raises(InvalidArgumentError):
        bot.choose(FakeGame(bytes(33), 0, 1, discard=3), 1, [PUNG, PASS])
    assert bot.choose(FakeGame(hand, 0, 1, discard=-1), 1, [PASS]) is PASS  # nothing to claim: no tile read


# -- whole games: the native loop's C calls and `choose` -----------------------------------------


def _game_record(ruleset, hand_no, native):
    bots = [make_bot("greedy") for _ in range(4)]
    rng = random.Random(5 * 2**32 + hand_no)
    for bot in bots:
        bot.new_hand(rng)
    game = new_game(ruleset, seed=5, hand_no=hand_no, dealer=hand_no % 4)
    saved = simulate_module._native_advance
    if not native:
        simulate_module._native_advance = None  # play_hand asks every bot's `choose`
    try:
        play_hand(game, bots)
    finally:
        simulate_module._native_advance = saved
    return json.dumps([game.log, game.state(), game.ledger.to_json()], sort_keys=True, default=str)


def _pending_loop_record(ruleset, hand_no):
    """The same hand through the public pending() / act() API, each bot's `choose`."""
    bots = [GreedyBot() for _ in range(4)]
    rng = random.Random(5 * 2**32 + hand_no)
    for bot in bots:
        bot.new_hand(rng)
    game = new_game(ruleset, seed=5, hand_no=hand_no, dealer=hand_no % 4)
    while not game.finished:
        for seat, actions in game.pending().items():
            game.act(seat, bots[seat].choose(game, seat, actions))
    return json.dumps([game.log, game.state(), game.ledger.to_json()], sort_keys=True, default=str)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_native_loop_and_choose_play_identical_greedy_games(ruleset):
    for hand_no in range(30):
        native = _game_record(ruleset, hand_no, True)
        assert native == _game_record(ruleset, hand_no, False), hand_no
        if hand_no < 8:
            assert native == _pending_loop_record(ruleset, hand_no), hand_no
