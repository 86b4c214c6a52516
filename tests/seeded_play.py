"""Seeded hands for the tests: `play`, what tests/test_game_compiled.py plays twice (with the
installed, compiled engine and in a child process whose hot modules are imported from their .py
sources), `play_mixed_sichuan`, the mixed-bot Sichuan hands the wall-end tests record,
`bot_hand`, the decisions of a hand of built-in bots (the encoder's, the record's and
determinize's tests), and `offered_wins`, every win the engine offers in seeded games (the engines' own win paths
are compared with the public scoring there)."""

import json
import random

from mahjong_core.game import new_game
from mahjong_core.game.actions import WIN
from mahjong_core.game.bots import make_bot
from mahjong_core.game.constants import ROB
from mahjong_core.game.registry import resolve_rules
from mahjong_core.game.simulate import play_hand


def play(ruleset, variant, bot_names, hands, first=0):
    """One JSON record (log, final state, ledger) per hand i = first..first+hands-1 (seed 3, dealer
    i % 4)."""
    rules = resolve_rules(ruleset, variant)
    bots = [make_bot(name) for name in bot_names]
    records = []
    for i in range(first, first + hands):
        rng = random.Random(3 * 2**32 + i)
        for bot in bots:
            bot.new_hand(rng)
        game = new_game(ruleset, seed=3, hand_no=i, rules=rules, dealer=i % 4)
        play_hand(game, bots)
        records.append(json.dumps([game.log, game.state(), game.ledger.to_json()], sort_keys=True, default=str))
    return records


def bot_hand(ruleset, seed, rules=None, bots=None):
    """Hand 0 of `seed` played by `bots` (four Bot objects; default seats 0 and 2 GreedyBots, 1 and
    3 RandomBots), their stream Random(seed): yields (game, seat) before each answer — the game
    itself, which the answer then moves on; `seat` the lowest seat asked."""
    from mahjong_core.game.bots import GreedyBot, RandomBot

    game = new_game(ruleset, seed=seed, rules=rules)
    if bots is None:
        bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
    rng = random.Random(seed)
    for bot in bots:
        bot.new_hand(rng)
    while not game.finished:
        pending = game.pending()
        seat = min(pending)
        yield game, seat
        game.act(seat, bots[seat].choose(game, seat, pending[seat]))


def play_mixed_sichuan(game_class, rules, seeds, greedy_share, mix_seed):
    """Hand 0 of each seed in `seeds` on a `game_class` (a SichuanGame subclass that records what
    a test compares), each seat a GreedyBot with probability `greedy_share` (drawn from
    Random(mix_seed), four draws per hand) or else a RandomBot; the bots' stream is Random(seed)."""
    from mahjong_core.game.bots import GreedyBot, RandomBot
    from mahjong_core.game.wall import shuffled_wall

    mix = random.Random(mix_seed)
    for seed in seeds:
        bots = [GreedyBot() if mix.random() < greedy_share else RandomBot() for _ in range(4)]
        for bot in bots:
            bot.new_hand(random.Random(seed))
        game = game_class(rules, shuffled_wall(game_class.tiles(), seed, 0), seed=seed, hand_no=0, dealer=seed % 4,
                          shuffled=True)
        play_hand(game, bots)


def offered_wins(ruleset, hands, bot_names, seed, rules=None):
    """(game, seat, tile, self_drawn, robbing) at every WIN the engine offers in hands 0..hands-1 of
    `ruleset` (seed `seed`, dealer i % 4, the bots' stream Random(i)), before any seat answers; the
    hands are played out through `act` with each bot's `choose`. `tile` is the winning tile: the
    drawn tile, the discard or the kong tile being robbed (抢杠)."""
    for hand_no in range(hands):
        game = new_game(ruleset, seed=seed, hand_no=hand_no, dealer=hand_no % 4, rules=rules)
        bots = [make_bot(name) for name in bot_names]
        rng = random.Random(hand_no)
        for bot in bots:
            bot.new_hand(rng)
        while not game.finished:
            for seat, actions in game.pending().items():
                if WIN in actions:
                    if game.drawn >= 0 and seat == game.turn:
                        yield game, seat, game.drawn, True, False
                    else:
                        robbing = game.phase == ROB
                        yield game, seat, game.kong_tile if robbing else game.discard, False, robbing
            for seat, actions in game.pending().items():
                if game.finished:
                    break
                game.act(seat, bots[seat].choose(game, seat, actions))
