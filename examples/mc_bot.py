"""A flat Monte-Carlo bot on `determinize`, in a duplicate match against GreedyBot.

On its own turn the bot considers the discards that keep the best shanten plus the safest discard
(`Game.default_action`: the kind it sees most copies of). It draws `ROLLOUTS` determinizations of
the game (the hidden tiles redrawn from what it has seen) and plays every candidate out on each of
them with greedy players seeded alike — common random numbers, so the candidates are compared on
the same worlds and the noise of the deal cancels — and keeps the discard with the best mean
result for its seat. Claim windows (pung / kong / chow or pass) are searched the same way.
Every other decision is greedy's.

Duplicate match: for each wall, the MC bot sits at each seat in turn against three greedy bots, and
the same wall is played by four greedy bots; the figure is the MC bot's mean points minus greedy's in
the same seats on the same walls (so the luck of the deal cancels).

    python examples/mc_bot.py --ruleset sichuan --walls 12 --rollouts 6

Figures (2026-12-01, duplicate pairs = walls x 4 seats; difference = MC minus greedy, ± one standard
error). It does NOT beat greedy yet:
- Sichuan, best-shanten discards only, 8 rollouts, independent worlds: −0.38 ± 1.61 (160 pairs);
- Sichuan, + the safest discard, common worlds, 6 rollouts: −0.60 ± 1.78 (120 pairs);
- Sichuan, + claim windows, 8 rollouts: −1.15 ± 1.60 (120 pairs);
- Changbai, the same, 6 rollouts: +0.07 ± 1.39 (60 pairs).
Likely why: uniform determinizations give the opponents random hands, much weaker than the
structured hands greedy players hold, so the rollouts underrate danger and the search mostly
re-derives greedy's choice; weighting the worlds by the opponents' discards is the next step.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mahjong_core import _core
from mahjong_core.env.determinize import determinize
from mahjong_core.game import new_game
from mahjong_core.game.actions import PASS, WIN, ActionKind
from mahjong_core.game.bots import GreedyBot
from mahjong_core.game.simulate import play_hand


class FlatMonteCarloBot(GreedyBot):
    name = "flat-mc"

    def __init__(self, rollouts: int = 6, seed: int = 0, claims: bool = True) -> None:
        super().__init__()
        self.claims = claims
        self.rollouts = rollouts
        self.search_rng = random.Random(seed)
        self.players = [GreedyBot() for _ in range(4)]

    def choose(self, game, seat, actions):
        if actions[0].kind is ActionKind.DISCARD and all(a.kind is ActionKind.DISCARD for a in actions):
            candidates = self._candidates(game, seat, actions)
            if len(candidates) > 1:
                return self._search(game, seat, candidates)
        elif self.claims and actions[-1] is PASS and WIN not in actions and len(actions) > 1:
            return self._search(game, seat, list(actions))  # pung / kong / chow or pass
        return super().choose(game, seat, actions)

    def _candidates(self, game, seat, actions):
        hand = bytes(game.hands[seat])
        target, reaching = _core.best_discards(hand, game.FORMS, melds=game.n_melds[seat])
        best = [a for a in actions if (reaching >> a.arg) & 1] or list(actions)
        safe = game.default_action(seat)
        if safe in actions and safe not in best:
            best.append(safe)
        return best

    def _search(self, game, seat, candidates):
        totals = [0] * len(candidates)
        for _ in range(self.rollouts):
            seed = self.search_rng.getrandbits(64)
            world = determinize(game, seat, random.Random(seed))
            for k, action in enumerate(candidates):
                w = world.clone()
                w.act(seat, action)
                rng = random.Random(seed)
                for bot in self.players:
                    bot.new_hand(rng)
                play_hand(w, self.players)
                totals[k] += w.ledger.totals()[seat]
        best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
        return candidates[best]


def play(ruleset, wall_seed, mc_seat, rollouts):
    game = new_game(ruleset, seed=wall_seed, dealer=0)
    bots = [GreedyBot() for _ in range(4)]
    if mc_seat is not None:
        bots[mc_seat] = FlatMonteCarloBot(rollouts, seed=wall_seed)
    rng = random.Random(wall_seed)
    for b in bots:
        b.new_hand(rng)
    play_hand(game, bots)
    return game.ledger.totals()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="sichuan")
    parser.add_argument("--walls", type=int, default=12)
    parser.add_argument("--rollouts", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    started = time.perf_counter()
    diffs = []
    mc_points = greedy_points = 0
    for w in range(args.walls):
        seed = args.seed + w
        base = play(args.ruleset, seed, None, args.rollouts)
        for seat in range(4):
            mc = play(args.ruleset, seed, seat, args.rollouts)[seat]
            diffs.append(mc - base[seat])
            mc_points += mc
            greedy_points += base[seat]
    n = len(diffs)
    mean = statistics.mean(diffs)
    se = statistics.stdev(diffs) / n ** 0.5 if n > 1 else 0.0
    print(f"{args.ruleset}: {args.walls} walls x 4 seats = {n} duplicate pairs, {args.rollouts} rollouts per candidate")
    print(f"flat MC mean points per hand {mc_points / n:+.2f}, greedy in the same seats {greedy_points / n:+.2f}")
    print(f"difference {mean:+.2f} ± {se:.2f} (standard error); {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
