"""A Botzone Chinese-Standard-Mahjong bot on mahjong_core (docs/BOTZONE.md).

Wins when it can, never claims, and discards the tile that leaves the lowest shanten.
Run locally:  mahjong-core botzone match "python examples/botzone_bot.py" greedy random random --keep-running
"""

from mahjong_core import shanten
from mahjong_core import botzone
from mahjong_core.game.actions import PASS, WIN, ActionKind


def decide(state):
    if WIN in state.legal:
        return WIN
    discards = [a for a in state.legal if a.kind is ActionKind.DISCARD]
    if not discards:
        return PASS  # a claim window: let it go
    melds = len(state.melds[state.seat])

    def after(action):
        hand = bytearray(state.hand)
        hand[action.arg] -= 1
        return shanten(bytes(hand), melds=melds)

    return min(discards, key=after)


if __name__ == "__main__":
    botzone.run(decide, keep_running=True)  # stays alive between turns: no cold start after the first
