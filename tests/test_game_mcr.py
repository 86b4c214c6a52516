"""MCR flows of the game engine.

The MCR scorer (`mahjong_core.rules.mcr`, issue #3) is built on another branch. The flow-mechanics
tests below therefore run the engine against `FlowOnlyMCRDouble`, a deliberately crude stand-in that
only has the API.md shape (Rules with the RULES.md §1 keys, score, settle) and a fan total the test
controls — it checks the engine's plumbing (who may win, 8-fan gate, flowers, claims, robbing,
报听), never MCR scoring. The tests at the end use the real scorer and run once it is installed.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from typing import Any, Callable, ClassVar, Dict, List

import pytest

from mahjong_core import Forms, decompositions
from mahjong_core.game import build_wall, new_game, replay
from mahjong_core.game.actions import ADDED_KONG, CHOW, DECLARE, DISCARD, PASS, PUNG, WIN
from mahjong_core.rules.mcr.flow import backend_override
from mahjong_core.game.testing import check_game, drive
from mahjong_core.rules.ledger import Ledger
from mahjong_core.rules.rule_keys import RuleKeys
from mahjong_core.tiles import tile_from_str


def T(name: str) -> int:
    return int(tile_from_str(name))


# ---------------------------------------------------------------------------------------------
# The flow-only test double


@dataclasses.dataclass(frozen=True, repr=False)
class DoubleRules(RuleKeys):
    """The MCR flow's rule keys on the shared RuleKeys machinery (no scoring behind them)."""

    min_fan: int = 8
    flowers: bool = False
    declared_ready_fan: bool = False
    mil_concealed_melded_kong: bool = False
    knitted_straight_wait_counts: bool = True
    phantom_waits_count: bool = True
    multiple_winners: bool = False
    dealer_rule: str = "seed000"
    false_win_penalty: int = 10
    RULESET: ClassVar[str] = "MCR (test double)"
    DEFAULT_PRESET: ClassVar[str] = "official"


DoubleRules.presets = {"official": DoubleRules(), "classic": DoubleRules(declared_ready_fan=True)}


@dataclasses.dataclass(frozen=True)
class DoubleFan:
    name_zh: str
    name_en: str
    points: int
    count: int = 1


@dataclasses.dataclass(frozen=True)
class DoubleScore:
    total: int
    fans: tuple


class FlowOnlyMCRDouble:
    """API.md-shaped MCR backend with a fan total chosen by the test (NOT MCR scoring)."""

    Rules = DoubleRules

    def __init__(self, fans: Callable[[Dict[str, Any]], int] = lambda call: 8) -> None:
        self.fans = fans
        self.calls: List[Dict[str, Any]] = []

    def score(self, hand, *, win_tile=None, self_drawn=False, last_copy=False, wall_last=False, kong=False,
              seat_wind=0, prevalent_wind=0, flowers=0, rules=None, declared_ready=False):
        call = dict(hand=hand, win_tile=win_tile, self_drawn=self_drawn, last_copy=last_copy, wall_last=wall_last,
                    kong=kong, seat_wind=seat_wind, prevalent_wind=prevalent_wind, flowers=flowers,
                    declared_ready=declared_ready)
        self.calls.append(call)
        if not decompositions(hand, Forms.MCR):
            return None
        fans = self.fans(call)
        items = (DoubleFan("测试番", "test fan", fans),) + ((DoubleFan("花牌", "flower", 1, flowers),) if flowers else ())
        return DoubleScore(fans + flowers, items)

    def settle(self, score, winner, discarder=None, rules=None):
        ledger = Ledger(4)
        for seat in range(4):
            if seat != winner:
                ledger.add(seat, winner, 8 + (score.total if discarder in (None, seat) else 0), "win")
        return ledger


@pytest.fixture
def double():
    backend = FlowOnlyMCRDouble()
    with backend_override(backend):
        yield backend


def start(hands, draws=None, tail=None, rules=None, dealer=0, flowers=False, **options):
    wall = build_wall("mcr", hands=hands, draws=draws, tail=tail, dealer=dealer, flowers=flowers)
    game = new_game("mcr", wall=wall, rules=rules, dealer=dealer, **options)
    check_game(game)
    return game


HANDS = {0: "19m19p19sESWNCFP1p", 1: "123m456m789m123p5s", 2: "2468m2468p2468s2m", 3: "3579m3579p3579s3m"}


# ---------------------------------------------------------------------------------------------
# Flow mechanics (test double)


def test_a_win_below_min_fan_is_not_offered(double):
    # Discard wins score 6 (below 8), self-draws 8: seat 1 may not win on the dealer's 5s.
    double.fans = lambda call: 8 if call["self_drawn"] else 6
    hands = dict(HANDS)
    hands[0] = "5s19m19p19sESWNCFP"
    game = start(hands, draws=["5s"])
    game.act(0, DISCARD[T("5s")])
    discard_calls = [c for c in double.calls if not c["self_drawn"]]
    assert discard_calls and discard_calls[-1]["win_tile"] == T("5s")   # the gate asked the scorer
    assert game.rivers[0] == [T("5s")] and game.winners == []           # ... and refused: no window
    assert game.turn == 1 and game.drawn == T("5s")
    assert game.pending()[1][0] is WIN                                  # a self-draw reaches 8
    # With min_fan=6 the discard win is legal.
    game = start(hands, draws=["5s"], rules={"min_fan": 6})
    game.act(0, DISCARD[T("5s")])
    assert game.pending()[1][0] is WIN


def test_flowers_do_not_count_toward_min_fan(double):
    double.fans = lambda call: 6
    hands = dict(HANDS)
    hands[0] = "5s19m19p19sESWNCFP"
    hands[1] = "123m456m789m12pa5s"          # one flower: 补花 from the tail at the deal
    game = start(hands, tail=["3p"], flowers=True, rules={"flowers": True})
    assert game.flowers[1] == [34] and game.hands[1][T("3p")] == 1
    assert ("flower", 1, 34, T("3p")) in game._events
    game.act(0, DISCARD[T("5s")])
    assert [c["flowers"] for c in double.calls] == [1]
    assert game.rivers[0] == [T("5s")] and game.turn == 1            # 6 + 1 flower is still 6: no window


def test_drawn_flowers_are_replaced_from_the_tail(double):
    hands = dict(HANDS)
    game = start(hands, draws=["b"], tail=["E"], flowers=True, rules={"flowers": True})
    drive(game, until=lambda g: g.turn == 1)
    assert game.flowers[1] == [35] and game.drawn == T("E")
    assert game.view(2)["flowers"][1] == ["b"]  # flower 35 (views name tiles)
    check_game(game)


def test_one_winner_nearest_the_discarder_unless_multiple_winners(double):
    hands = {0: "5s19m19p19sESWNCFP", 1: "123m456m789m123p5s", 2: "555p666p777p888p5s", 3: "3579m68p3579s246m"}
    game = start(hands)
    game.act(0, DISCARD[T("5s")])
    game.act(2, WIN)
    game.act(1, WIN)
    assert game.winners == [1] and game.finished
    assert game.next_dealer() == 1                                  # seed000: the winner deals
    game = start(hands, rules={"multiple_winners": True})
    game.act(0, DISCARD[T("5s")])
    game.act(1, WIN)
    game.act(2, WIN)
    assert game.winners == [1, 2]
    assert sum(game.ledger.totals()) == 0 and game.ledger.totals()[0] < 0


def test_pung_beats_chow_and_chow_is_for_the_next_seat_only(double):
    hands = {0: "4m19p19sESWNCFP19m", 1: "23m456p789p123s5s9s", 2: "44m2468p2468s268m", 3: "3579m3579p3579s3m"}
    game = start(hands)
    game.act(0, DISCARD[T("4m")])
    pending = game.pending()
    assert CHOW[3] in pending[1] and PUNG not in pending[1]           # 23m + 4m
    assert pending[2] == [PUNG, PASS]                                 # 44m: pung, but no chow
    assert 3 not in pending
    game.act(1, CHOW[3])
    game.act(2, PUNG)
    assert game.turn == 2 and game.melds[2] == [(1, T("4m"), 2, 0)]    # the pung won
    assert game.melds[1] == []


def test_robbing_an_added_kong_passes_the_kong_flag(double):
    hands = {0: "5s19m19p19sESWNCFP", 1: "123m456m789m46s11p", 2: "55s2468m2468p246s", 3: "3579m3579p3799s3m"}
    game = start(hands, draws=[None, None, None, "5s"])
    drive(game, [(0, DISCARD[T("5s")]), (2, PUNG)], until=lambda g: g.turn == 2 and g.drawn == T("5s"))
    game.act(2, ADDED_KONG[T("5s")])
    assert game.pending() == {1: [WIN, PASS]}
    assert double.calls[-1]["kong"] and not double.calls[-1]["self_drawn"]
    game.act(1, WIN)
    assert game.winners == [1] and game.hands[2][T("5s")] == 0


def test_declared_ready_in_the_classic_preset(double):
    hands = {0: HANDS[0], 1: "123m456m789m123p5s", 2: HANDS[2], 3: HANDS[3]}
    game = start(hands, draws=["E", None, None, None, "N"], rules="classic")
    drive(game, until=lambda g: g.turn == 1)
    assert DECLARE[T("E")] in game.pending()[1]
    game.act(1, DECLARE[T("E")])
    drive(game, until=lambda g: ("auto", 1) in g._events)
    assert game._events[game._events.index(("auto", 1)) + 1] == ("discard", 1, T("N"), False)
    game2 = start(hands, draws=["E", None, None, None, "5s"], rules="classic")
    drive(game2, [(1, DECLARE[T("E")])], until=lambda g: g.turn == 1 and g.drawn == T("5s"))
    assert game2.pending()[1][0] is WIN and double.calls[-1]["declared_ready"] is True


def test_scoring_context_winds_last_tile_and_last_copy(double):
    # Seat 2 (dealer 1 -> seat wind South... seat 2 is West of dealer 1: (2 - 1) % 4 = 1, South)
    hands = {1: "5s19m19p19sESWNCFP", 2: "123m456m789m123p5s", 3: "2468m2468p2468s2m", 0: "3579m3579p3579s3m"}
    game = start(hands, dealer=1, prevalent_wind=2)
    game.act(1, DISCARD[T("5s")])
    call = double.calls[-1]
    assert call["seat_wind"] == 1 and call["prevalent_wind"] == 2
    assert call["last_copy"] is False and call["wall_last"] is False
    assert game.pending()[2][0] is WIN
    game.act(2, WIN)
    assert replay(game.log).ledger == game.ledger


# ---------------------------------------------------------------------------------------------
# Real MCR scoring (runs once mahjong_core.rules.mcr is installed)

HAVE_MCR = importlib.util.find_spec("mahjong_core.rules.mcr") is not None
needs_mcr = pytest.mark.skipif(not HAVE_MCR, reason="mahjong_core.rules.mcr (issue #3) is not merged yet")


@needs_mcr
def test_real_mcr_refuses_a_plain_discard_win_and_accepts_a_big_hand():
    # Seat 1: a plain hand (平和-like, far below 8 fans) waiting on 5s; seat 2: 九莲宝灯 in m.
    hands = {0: "5s9m19p19sESWNCFP5m", 1: "123m456p789p234s5s", 2: "1112345678999m", 3: "2468p2468s26p78sN"}
    game = start(hands)
    game.act(0, DISCARD[T("5s")])
    assert 1 not in game.pending() or WIN not in game.pending()[1]
    game = start(hands)
    game.act(0, DISCARD[T("5m")])
    assert game.pending()[2][0] is WIN
    game.act(2, WIN)
    assert game.winners == [2] and sum(game.ledger.totals()) == 0


@needs_mcr
def test_real_mcr_random_games_are_consistent():
    import random

    rng = random.Random(1)
    for i in range(100):
        game = new_game("mcr", seed=i)
        while not game.finished:
            for seat, actions in game.pending().items():
                game.act(seat, actions[rng.randrange(len(actions))])
                check_game(game)
                break
        assert replay(game.log).state() == game.state()
