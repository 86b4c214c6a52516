"""The seeded hands tests/test_game_compiled.py plays twice: with the installed (compiled) engine, and
in a child process whose hot modules are imported from their .py sources."""

import json
import random

from mahjong_core.game import new_game
from mahjong_core.game.bots import make_bot
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
