"""The table server's totals follow the ledger as payments happen (the browser table shows
`view.totals` of each state message): a Sichuan kong pays at once and 血战 wins pay mid-hand, so
a seat sees the totals change before the hand is over, and every state message it gets carries
the engine ledger's totals of that moment."""

from __future__ import annotations

import asyncio
import random

import pytest

from mahjong_core.game import new_game
from mahjong_core.game.bots import GreedyBot

pytest.importorskip("websockets", reason="the table server needs the [server] extra")
from mahjong_core.server.table import Table  # noqa: E402


class _Conn:
    """A client connection that records each message with the ledger's totals when it was sent."""

    def __init__(self, table_ref):
        self.table_ref = table_ref
        self.sent = []

    def send(self, message):
        game = self.table_ref[0].game
        self.sent.append((message, game.ledger.totals(), game.finished))

    def detach(self):
        pass


def _play_seat0(seed):
    """Seat 0 answered by a greedy bot through `Table.act` (as the page does), three server bots."""
    async def main():
        table = Table.new("t", "sichuan", bots=3, seed=seed, time_limit=None, log_dir=None)
        conn = _Conn([table])
        table.claim(0)
        table.attach(0, conn)
        bot = GreedyBot()
        bot.new_hand(random.Random(seed))
        while not table.finished:
            legal = table.game.legal_actions(0)
            assert legal, "seat 0 has no question although the bots have answered"
            action = bot.choose(table.game, 0, legal)
            assert table.act(0, {"action": table.game.space.code(action), "step": table.step}) is None
        return table, conn.sent

    return asyncio.run(main())


def _seed_with_mid_hand_payments():
    """A seed whose hand has a kong and a win before its end (found by playing the engine alone)."""
    for seed in range(1, 60):
        game = new_game("sichuan", seed=seed)
        kinds = []
        bots = [GreedyBot() for _ in range(4)]
        for b in bots:
            b.new_hand(random.Random(seed))
        while not game.finished:
            seat, actions = next(iter(game.pending().items()))
            before = len(game.ledger)
            game.act(seat, bots[seat].choose(game, seat, actions))
            if len(game.ledger) > before and not game.finished:
                kinds += [entry.reason for entry in list(game.ledger)[before:]]
        if any("kong" in k for k in kinds) and any("win" in k or "draw" in k for k in kinds):
            return seed
    pytest.fail("no seed in 1..59 pays a kong and a win mid-hand")


def test_every_state_carries_the_ledger_of_its_moment():
    seed = _seed_with_mid_hand_payments()
    table, sent = _play_seat0(seed)
    states = [(m["view"]["totals"], ledger, finished) for m, ledger, finished in sent if m["type"] == "state"]
    assert len(states) > 5
    for totals, ledger, _ in states:
        assert totals == ledger
    mid_hand = [tuple(totals) for totals, _, finished in states if not finished]
    assert len(set(mid_hand)) >= 2 and any(any(t) for t in mid_hand)  # they moved before the end
    assert states[-1][0] == table.game.ledger.totals() and states[-1][2]
    [result] = [m for m, _, _ in sent if m["type"] == "result"]
    assert result["totals"] == states[-1][0]


# --- in the browser: the badges show those totals while the hand goes on ------------------------

_TOTALS_JS = ("return [...document.querySelectorAll('.seat')].map(e => "
              "[Number(e.dataset.seat), Number(e.querySelector('.badge.total').dataset.total)])")


def test_the_browser_tables_badges_follow_the_payments(request):
    pytest.importorskip("selenium")
    from browser import console_errors, shared_driver
    from table_page import play, served, start_against_bots

    driver = shared_driver(request)
    with served("sichuan", seed=5, bot_delay=0.0) as server:
        table = start_against_bots(driver, server)
        seen = []

        def check():
            shown = [total for _, total in sorted(driver.execute_script(_TOTALS_JS))]
            seen.append((shown, table.game.ledger.totals()))
            return False

        play(driver, table, until=check)
    assert len(seen) > 5
    assert all(shown == ledger for shown, ledger in seen)
    assert any(any(shown) for shown, _ in seen)  # a payment shown while seat 0 still had questions
    assert console_errors(driver) == []
