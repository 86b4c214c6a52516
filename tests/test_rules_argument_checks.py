"""Arguments of the rulesets' public calls that are of the wrong kind are refused with a MahjongError
that says what is expected, before anything changes: MCR's scoring flags (a truthy "no" counted a
fan), Sichuan's win_tile=True, rule keys too large for the engine, the settlement verbs' and the
Ledger's containers and types; the `score` command lines name their own flags, and `score mcr`
fails (exit 1) a hand below the fan minimum."""

from __future__ import annotations

import json

import pytest

import mahjong_core as mc
from mahjong_core import Hand, MCRContext
from mahjong_core.cli import main
from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidHandError, InvalidTypeError, RulesError
from mahjong_core.rules import changbai, mcr, sichuan
from mahjong_core.rules.ledger import Ledger, Transfer
from mahjong_core.rules.rule_keys import LARGEST_INTEGER, WALL_TILES

MCR_HAND = "123m456p789s11sEEE"  # 14 fans on a discard, 16 self-drawn (不求人)
SICHUAN_HAND = "123m456m789m11m555m"
CHANGBAI_HAND = "123m456p789s123sEE"
FLAGS = ("self_drawn", "last_copy", "wall_last", "kong", "declared_ready")


def run_cli(capsys, *argv: str):
    """(exit status, stdout, stderr) of `mahjong-core argv` run in this process."""
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


# -- 1. MCR flags and winds; Sichuan's win tile ------------------------------------------------


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("hand", [MCR_HAND, mc.parse(MCR_HAND)], ids=["text", "Hand"])
def test_mcr_score_refuses_a_flag_that_is_not_a_bool(flag, hand):
    with pytest.raises(InvalidTypeError, match=f"^{flag} must be True or False, got 'no'$"):
        mcr.score(hand, **{flag: "no"})
    with pytest.raises(InvalidTypeError, match=f"^{flag} must be True or False, got 1$"):
        mcr.score(hand, **{flag: 1})


def test_mcr_score_refuses_numpy_bools_as_sichuan_does():
    np = pytest.importorskip("numpy")
    with pytest.raises(InvalidTypeError, match="self_drawn must be True or False"):
        mcr.score(MCR_HAND, self_drawn=np.bool_(True))
    with pytest.raises(InvalidTypeError, match="self_drawn must be True or False"):
        sichuan.score(SICHUAN_HAND, self_drawn=np.bool_(True))


def test_mcr_score_still_counts_true_flags():
    assert mcr.score(MCR_HAND).total == 14
    drawn = mcr.score(MCR_HAND, self_drawn=True)
    assert drawn.total == 16 and "Fully Concealed Hand" in [f.name_en for f in drawn.fans]
    assert "Last Tile Draw" in [f.name_en for f in mcr.score(MCR_HAND, self_drawn=True, wall_last=True).fans]


@pytest.mark.parametrize("kwargs", [dict(seat_wind=[]), dict(prevalent_wind=0.0), dict(flowers=None)])
def test_mcr_score_checks_winds_and_flowers_of_a_text_hand(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(InvalidHandError, match=f"^{name} must be an integer"):
        mcr.score(MCR_HAND, rules="official", **kwargs)  # (a preset name: the general path's own text shortcut)
    with pytest.raises(InvalidHandError, match=f"^{name} must be an integer"):
        mcr.score(mc.parse(MCR_HAND), **kwargs)


@pytest.mark.parametrize("kwargs, words", [({"seat_wind": []}, "^seat_wind must be an integer"),
                                            ({"flowers": None}, "^flowers must be an integer"),
                                            ({"self_drawn": 0}, "^self_drawn must be True or False")])
def test_mcr_score_checks_falsy_arguments_of_a_text_hand_on_the_compiled_shortcut(kwargs, words):
    """The compiled mcr.score scores notation text itself when every argument is its default: a falsy
    non-default (an empty list, None, 0 for a flag) is no default and is checked."""
    with pytest.raises((InvalidHandError, InvalidTypeError), match=words):
        mcr.score(MCR_HAND, **kwargs)


@pytest.mark.parametrize("flag", ["self_drawn", "last_copy", "wall_last", "kong"])
def test_mcr_context_refuses_a_flag_that_is_not_a_bool(flag):
    with pytest.raises(InvalidTypeError, match=f"^{flag} must be True or False, got 'no'$"):
        MCRContext(**{flag: "no"})
    assert getattr(MCRContext(**{flag: True}), flag) is True


@pytest.mark.parametrize("kwargs", [dict(seat_wind=True), dict(prevalent_wind=True), dict(flowers=True),
                                    dict(flower_tiles=(True,))])
def test_mcr_context_refuses_bools_for_numbers(kwargs):
    with pytest.raises(InvalidHandError):
        MCRContext(**kwargs)


def test_a_checked_mcr_context_round_trips_through_notation():
    hand = Hand(mc.parse(MCR_HAND).counts, (), 27, MCRContext(self_drawn=True))
    assert mc.parse(repr(hand)) == hand


def test_sichuan_score_refuses_a_bool_win_tile_as_mcr_does():
    for score in (sichuan.score, mcr.score):
        with pytest.raises(InvalidHandError, match="win_tile must be a Tile, an index 0..33 or a name like '5p', "
                                                   "got True"):
            score(SICHUAN_HAND if score is sichuan.score else MCR_HAND, win_tile=True)
    assert sichuan.score(SICHUAN_HAND, win_tile="1m").win_tile == mc.Tile(0)
    with pytest.raises(InvalidHandError, match="^win_tile: "):
        sichuan.score(SICHUAN_HAND, win_tile="xx")


# -- 2. Rule keys the engine cannot use --------------------------------------------------------


WALL_COUNT_KEYS = [
    (sichuan, "sichuan", "forced_win_last"),
    (sichuan, "sichuan", "escape_ready_check_last"),
    (changbai, "changbai", "reserve_without_kong"),
    (changbai, "changbai", "last_draws_win_only"),
]


@pytest.mark.parametrize("module, ruleset, key", [(sichuan, "sichuan", "base"), (mcr, "mcr", "min_fan")])
def test_a_huge_rule_value_is_refused_naming_key_value_and_range(module, ruleset, key):
    with pytest.raises(RulesError) as caught:
        module.Rules(**{key: 2**70})
    message = str(caught.value)
    assert f"{key}={2**70}" in message and f"<= {LARGEST_INTEGER}" in message and ">= " in message
    assert getattr(module.Rules(**{key: LARGEST_INTEGER}), key) == LARGEST_INTEGER


@pytest.mark.parametrize("module, ruleset, key", WALL_COUNT_KEYS)
def test_a_key_that_counts_wall_tiles_stops_at_the_largest_wall(module, ruleset, key):
    for value in (WALL_TILES + 1, 2**70):
        with pytest.raises(RulesError) as caught:
            module.Rules(**{key: value})
        assert f"{key}={value}" in str(caught.value) and f"<= {WALL_TILES}" in str(caught.value)
    assert getattr(module.Rules(**{key: WALL_TILES}), key) == WALL_TILES


def test_piao_choices_are_bounded_too():
    with pytest.raises(RulesError, match=f"0..{LARGEST_INTEGER}"):
        changbai.Rules(piao_choices=(0, 2**70))


@pytest.mark.parametrize("module, ruleset, key", WALL_COUNT_KEYS)
def test_the_largest_wall_count_plays(module, ruleset, key):
    import random

    from mahjong_core.game import new_game

    game = new_game(ruleset, seed=1, rules=module.Rules(**{key: WALL_TILES}))
    rng = random.Random(1)
    while not game.finished:
        seat, actions = next(iter(game.pending().items()))
        game.act(seat, rng.choice(actions))


def test_simulate_with_a_huge_rule_value_is_an_error_line(capsys):
    status, _, err = run_cli(capsys, "simulate", "changbai", "--games", "1", "--no-progress",
                             "--set", f"reserve_without_kong={2**70}")
    assert status == 2 and "Traceback" not in err
    assert f"reserve_without_kong={2**70}" in err and f"<= {WALL_TILES}" in err, err


# -- 3. Settlement verbs and the Ledger --------------------------------------------------------


def _mcr_settlement_totals(wins):
    settlement = mcr.MCRSettlement()
    settlement.discard_win(0, wins)
    return settlement.totals()


def test_every_discard_win_takes_pairs_as_well_as_a_mapping():
    ms = mcr.score(MCR_HAND)
    assert _mcr_settlement_totals([(1, ms)]) == _mcr_settlement_totals({1: ms}) != [0, 0, 0, 0]
    cs = changbai.score(CHANGBAI_HAND)
    hands = {s: "123m456p789s11s99p" for s in range(4)}
    by_pairs = changbai.ChangbaiSettlement(dealer=0)
    by_map = changbai.ChangbaiSettlement(dealer=0)
    assert by_pairs.discard_win(0, [(1, cs)], hands) == by_map.discard_win(0, {1: cs}, hands)
    assert by_pairs.ledger == by_map.ledger and len(by_pairs.ledger)
    ss = sichuan.score(SICHUAN_HAND)
    pairs, mapping = sichuan.SichuanSettlement(), sichuan.SichuanSettlement()
    pairs.discard_win(0, [(1, ss)])
    mapping.discard_win(0, {1: ss})
    assert pairs.ledger == mapping.ledger and len(pairs.ledger)


def _settlements():
    """(name, settlement, discard_win call with `wins`) of each ruleset."""
    hands = {s: "123m456p789s11s99p" for s in range(4)}
    m, s, c = mcr.MCRSettlement(), sichuan.SichuanSettlement(), changbai.ChangbaiSettlement(dealer=0)
    return [("mcr", m, lambda wins: m.discard_win(0, wins)),
            ("sichuan", s, lambda wins: s.discard_win(0, wins)),
            ("changbai", c, lambda wins: c.discard_win(0, wins, hands))]


@pytest.mark.parametrize("wins", [None, 5, [1, 2], [(1,)], [([1], "score")]], ids=repr)
def test_discard_win_refuses_wins_of_the_wrong_shape(wins):
    for name, settlement, discard_win in _settlements():
        with pytest.raises(IllegalActionError, match="wins must be|winners of wins must be seats"):
            discard_win(wins)
        assert len(settlement.ledger) == 0 and not settlement.finished, name


def test_discard_win_refuses_a_seat_given_twice():
    scores = {"mcr": mcr.score(MCR_HAND), "sichuan": sichuan.score(SICHUAN_HAND),
              "changbai": changbai.score(CHANGBAI_HAND)}
    for name, settlement, discard_win in _settlements():
        with pytest.raises(IllegalActionError, match="a seat can win only once"):
            discard_win([(1, scores[name]), (1, scores[name])])
        assert len(settlement.ledger) == 0, name


@pytest.mark.parametrize("call, message", [
    (lambda s: s.drawn_hand(None), "hands must be a mapping"),
    (lambda s: s.drawn_hand({seat: "123m456m789m11p5p" for seat in range(4)}, "m"), "void_suits must be a mapping"),
    (lambda s: s.leave(0, hands=["123m"], wall_left=3), "hands must be a mapping"),
])
def test_sichuan_events_refuse_containers_that_are_not_mappings(call, message):
    settlement = sichuan.SichuanSettlement()
    with pytest.raises(IllegalActionError, match=message):
        call(settlement)
    assert len(settlement.ledger) == 0 and not settlement.finished and settlement.in_hand == (0, 1, 2, 3)


def test_sichuan_drawn_hand_refuses_seen_that_is_not_a_mapping():
    settlement = sichuan.SichuanSettlement(sichuan.Rules(dead_waits_ready=False))
    hands = {s: "123m456m789m11p55p" for s in range(4)}
    with pytest.raises(IllegalActionError, match="seen must be a mapping"):
        settlement.drawn_hand(hands, seen=5)
    with pytest.raises(IllegalActionError, match=r"seen\[0\] must be 34"):
        settlement.drawn_hand(hands, seen={s: 5 for s in range(4)})
    assert not settlement.finished


@pytest.mark.parametrize("kwargs, message", [
    (dict(piao=None), "piao needs one 飘 value per seat"),
    (dict(piao=7), "piao needs one 飘 value per seat"),
    (dict(ledger=[]), "ledger must be a Ledger"),
])
def test_changbai_settlement_refuses_piao_and_ledger_of_the_wrong_kind(kwargs, message):
    with pytest.raises(IllegalActionError, match=message):
        changbai.ChangbaiSettlement(dealer=0, **kwargs)


@pytest.mark.parametrize("seats, error", [(None, InvalidTypeError), (True, InvalidTypeError), ("4", InvalidTypeError),
                                          (2**70, InvalidArgumentError), (1, InvalidArgumentError),
                                          (5, InvalidArgumentError)])
def test_ledger_refuses_a_number_of_seats_it_cannot_keep(seats, error):
    with pytest.raises(error, match="seats"):
        Ledger(seats)


def test_ledger_takes_2_to_4_seats_and_numpy_integers():
    assert [Ledger(n).seats for n in (2, 3, 4)] == [2, 3, 4]
    np = pytest.importorskip("numpy")
    seats = Ledger(np.int64(3)).seats
    assert seats == 3 and type(seats) is int
    with pytest.raises(InvalidTypeError, match="entries"):
        Ledger(4, None)


@pytest.mark.parametrize("reason, ref, error, message", [
    ("r", "x", InvalidTypeError, "ref is None or the index"),
    ("r", True, InvalidTypeError, "ref is None or the index"),
    ("r", 0, InvalidArgumentError, "does not name an earlier entry"),
    (None, None, InvalidTypeError, "reason is a text"),
])
def test_ledger_add_refuses_a_bad_ref_or_reason_and_records_nothing(reason, ref, error, message):
    ledger = Ledger(4)
    with pytest.raises(error, match=message):
        ledger.add(0, 1, 5, reason, ref)
    assert len(ledger) == 0 and ledger.totals() == [0, 0, 0, 0]


def test_ledger_add_keeps_a_good_ref():
    ledger = Ledger(4)
    first = ledger.add(0, 1, 5, "kong")
    assert ledger[ledger.add(1, 0, 5, "refund", first)].ref == 0
    assert Transfer(0, 1, 5, "r").ref is None


# -- 4. and 5. The score command lines --------------------------------------------------------


def test_score_mcr_names_the_win_tile_flag(capsys):
    status, _, err = run_cli(capsys, "score", "mcr", "123m456p789s1122z")
    assert status == 2 and "--win-tile" in err and "win_tile=" not in err, err
    status, out, _ = run_cli(capsys, "score", "mcr", "123m456p789s1122z", "--win-tile", "S")
    assert status == 0 and "total" in out
    status, _, err = run_cli(capsys, "score", "mcr", "123m456p789s1122z", "--win-tile", "xx")
    assert status == 2 and err.startswith("error: --win-tile: "), err


@pytest.mark.parametrize("as_json", [False, True])
def test_score_changbai_names_the_ready_flag(capsys, as_json):
    status, out, _ = run_cli(capsys, "score", "changbai", CHANGBAI_HAND, "--not-ready", *(["--json"] if as_json else []))
    reason = json.loads(out)["reason"] if as_json else out
    assert status == 1 and "--ready" in reason and "declared_ready=" not in reason, out
    # a hand that would not win anyway says why, as before
    status, out, _ = run_cli(capsys, "score", "changbai", "123m456p789s12sEE5s", "--not-ready")
    assert status == 1 and "not a winning hand" in out


def test_score_mcr_help_example_runs_as_written(capsys):
    with pytest.raises(SystemExit):
        main(["score", "mcr", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    example = help_text.split('e.g. "')[1].split('"')[0]
    assert run_cli(capsys, "score", "mcr", example)[0] == 0
    with_flowers = help_text.split('flowers, "')[1].split('"')[0]
    assert with_flowers.startswith("|")
    assert run_cli(capsys, "score", "mcr", example.split("|")[0] + with_flowers, "--set", "flowers=true")[0] == 0


def test_score_mcr_exits_1_below_the_fan_minimum(capsys):
    hand = "[123m,1]456m678p11sSSS|EE0000"  # 连六 + 幺九刻: 2 fans
    status, out, _ = run_cli(capsys, "score", "mcr", hand, "--json")
    result = json.loads(out)
    assert status == 1 and result["winning"] is True and result["meets_minimum"] is False and result["total"] == 2
    status, out, _ = run_cli(capsys, "score", "mcr", hand)
    assert status == 1 and "below the 8-fan minimum" in out
    assert run_cli(capsys, "score", "mcr", hand, "--set", "min_fan=1")[0] == 0
