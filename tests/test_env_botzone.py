"""The encoder on a Botzone kit state: `encode(BotzoneSource(state), seat)` equals the engine's
`encode(table.game, seat)` at every decision of judge-table games, so a policy trained on
`new_game("mcr", rules="botzone")` plays on Botzone unchanged."""

import random

import pytest

np = pytest.importorskip("numpy")
botzone = pytest.importorskip("mahjong_core.botzone")

from mahjong_core.env import encode, legal_mask  # noqa: E402
from mahjong_core.env.botzone import BotzoneSource  # noqa: E402


def histories(seed, rounds):
    """Every point of a judge-table game with random legal answers (no false wins): (table,
    per-seat requests so far, per-seat responses so far)."""
    rng = random.Random(seed)
    table = botzone.Table(seed=seed)
    reqs, resps = [[] for _ in range(4)], [[] for _ in range(4)]
    for _ in range(rounds):
        if table.finished:
            return
        lines = table.requests()
        yield table, [r + [lines[s]] for s, r in enumerate(reqs)], [list(r) for r in resps]
        answers = {}
        for s in range(4):
            reqs[s].append(lines[s])
            legal = sorted(table.legal_responses(s))
            wins = [x for x in legal if x.startswith("HU")]
            plain = [x for x in legal if not x.startswith("HU")]
            answers[s] = wins[0] if wins and s in table.game.pending() and rng.random() < 0.5 else rng.choice(plain or legal)
            resps[s].append(answers[s])
        table.respond(answers)


def test_botzone_state_encodes_like_the_engine():
    checked = 0
    for seed in range(6):
        for table, reqs, resps in histories(seed, 300):
            game = table.game
            for s in game.pending():
                state = botzone.BotzoneState.from_requests(reqs[s], resps[s])
                if not state.legal:  # the first round: the state has not received its deal yet
                    continue
                source = BotzoneSource(state)
                assert np.array_equal(encode(source, s), encode(game, s)), (seed, s, state)
                assert np.array_equal(legal_mask(source, s), legal_mask(game, s))
                checked += 1
    assert checked > 500
