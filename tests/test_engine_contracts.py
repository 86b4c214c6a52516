"""Server-grade engine contracts (issue 11): step ids, stale answers, default actions, per-seat event
streams (no hidden information leaks), clones / pickle / deepcopy, the JSON form of actions."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from mahjong_core.errors import IllegalActionError, InvalidArgumentError, MahjongError, StaleActionError
from mahjong_core.game import new_game, replay
from mahjong_core.game.actions import ALL_ACTIONS, PASS, Action, ActionKind
from mahjong_core.game.constants import PHASES

RULESETS = ["sichuan", "changbai", "mcr"]


def _play(game, rng, limit=None):
    """Random legal answers (seats in order) until the hand ends or `limit` windows closed."""
    while not game.finished and (limit is None or game.step < limit):
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions), step=game.step)
    return game


# ---- step ids ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_step_grows_once_per_closed_window_and_views_carry_it(ruleset):
    game = new_game(ruleset, seed=11)
    rng = random.Random(5)
    assert game.step == 0
    while not game.finished:
        step = game.step
        pending = game.pending()
        for seat in pending:
            assert game.view(seat)["step"] == step
        seats = sorted(pending)
        for i, seat in enumerate(seats):
            game.act(seat, rng.choice(pending[seat]), step=step)
            # a multi-seat window stays at the same step until its last answer
            assert game.step == (step if i < len(seats) - 1 else step + 1)
    assert game.view(0)["step"] == game.step


@pytest.mark.parametrize("ruleset", RULESETS)
def test_stale_step_raises_and_changes_nothing(ruleset):
    game = _play(new_game(ruleset, seed=4), random.Random(2), limit=6)
    seat, actions = next(iter(sorted(game.pending().items())))
    before = (game.state(), game.log)
    for bad in (game.step - 1, 0, game.step + 1):
        with pytest.raises(StaleActionError) as err:
            game.act(seat, actions[0], step=bad)
        assert isinstance(err.value, IllegalActionError) and f"step {bad}" in str(err.value)
    with pytest.raises(IllegalActionError):
        game.act(seat, actions[0], step="3")
    assert (game.state(), game.log) == before
    game.act(seat, actions[0], step=game.step)  # the right step is accepted


# ---- default_action --------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_default_action_is_legal_and_follows_the_documented_rule(ruleset):
    for seed in range(6):
        game = new_game(ruleset, seed=seed)
        while not game.finished:
            for seat, actions in sorted(game.pending().items()):
                default = game.default_action(seat)
                assert default in actions
                if PASS in actions:
                    assert default is PASS
                elif PHASES[game.phase] == "turn" and game.drawn >= 0 and any(
                        a.kind is ActionKind.DISCARD and a.arg == game.drawn for a in actions):
                    assert default.kind is ActionKind.DISCARD and default.arg == game.drawn
                elif any(a.kind is ActionKind.DISCARD for a in actions):
                    assert default.kind is ActionKind.DISCARD
                else:
                    assert default is actions[0]
                game.act(seat, default)
        with pytest.raises(IllegalActionError):
            game.default_action(0)


def test_default_action_of_a_seat_with_nothing_to_answer():
    game = new_game("mcr", seed=1)
    idle = next(s for s in range(4) if s not in game.pending())
    with pytest.raises(IllegalActionError, match="nothing to answer"):
        game.default_action(idle)


# ---- seats and actions of the wrong type (R6, R7, R8) -------------------------------------------------

def test_numpy_seat_is_stored_as_int_and_the_log_stays_json():
    np = pytest.importorskip("numpy")
    game = new_game("sichuan", seed=3)
    rng = random.Random(0)
    while not game.finished:
        for seat, actions in sorted(game.pending().items()):
            game.act(np.int64(seat), np.int64(game.space.code(rng.choice(actions))))
    json.dumps(game.log)
    json.dumps(game.state())
    assert all(type(seat) is int for seat, _ in game.log["actions"])
    assert replay(game.log).log == game.log


def test_action_kind_is_not_an_action_code():
    game = new_game("mcr", seed=1)
    seat = next(iter(game.pending()))
    before = game.state()
    with pytest.raises(IllegalActionError, match="action kind"):
        game.act(seat, ActionKind.PASS)
    assert game.state() == before


@pytest.mark.parametrize("bad", [True, False, 1.0, 0.0, "0", None, [0], -1, 4])
def test_bad_seats_raise_illegal_action(bad):
    game = new_game("mcr", seed=1)
    seat = next(iter(game.pending()))
    before = game.state()
    action = game.pending()[seat][0]
    with pytest.raises(IllegalActionError):
        game.act(bad, action)
    for method in ("hand_bytes", "meld_count", "visible_counts", "view", "default_action"):
        with pytest.raises(IllegalActionError):
            getattr(game, method)(bad)
    if not isinstance(bad, int) or isinstance(bad, bool):  # -1 / 4 simply have nothing pending
        for method in ("legal_actions", "legal_mask", "answer_of"):
            with pytest.raises(IllegalActionError):
                getattr(game, method)(bad)
    if bad is not None:  # events(None) is the omniscient stream
        with pytest.raises(IllegalActionError):
            game.events(bad)
    assert game.state() == before


def test_hand_bytes_of_seat_minus_one_is_refused():  # R9
    game = new_game("sichuan", seed=2)
    with pytest.raises(IllegalActionError):
        game.hand_bytes(-1)


# ---- JSON form of actions -----------------------------------------------------------------------------

def test_action_json_round_trip():
    seen = set()
    for action in ALL_ACTIONS:
        obj = action.to_json()
        assert json.loads(json.dumps(obj)) == obj
        assert Action.from_json(obj) is action
        seen.add(json.dumps(obj, sort_keys=True))
    assert len(seen) == len(ALL_ACTIONS)
    assert Action.from_json({"type": "discard", "tile": "5m"}).arg == 4
    assert Action.from_json({"type": "void", "suit": "p"}).arg == 1


@pytest.mark.parametrize("bad", [
    None, [], "pass", {}, {"type": "Pass"}, {"type": "discard"}, {"type": "discard", "tile": 4},
    {"type": "discard", "tile": "0m"}, {"type": "discard", "tile": "a"}, {"type": "pass", "tile": "1m"},
    {"type": "chow", "position": 4}, {"type": "chow", "position": True}, {"type": "piao", "value": 1},
    {"type": "void", "suit": "z"}, {"type": "discard", "tile": ["1m"]}, {"type": 3},
])
def test_action_from_json_errors_are_illegal_action_errors(bad):
    with pytest.raises(IllegalActionError):
        Action.from_json(bad)


@pytest.mark.parametrize("bad, says", [
    (True, "got true"), (None, "got null"), ({"type": True}, "unknown action type true (one of \"added_kong\""),
    ({"type": "chow", "position": True}, "true is not a position of a chow action (allowed: 1, 2, 3)"),
    ({"type": "discard", "tile": "0m"}, '"0m" is not a tile of a discard action (allowed: "1m"'),
    ({"type": "discard", "tile": "5m", "x": 1}, 'has no field(s) "x"'), ({"type": "discard"}, 'needs its "tile"'),
])
def test_action_from_json_errors_show_the_json_that_was_sent(bad, says):
    """The JSON form arrives as JSON (the server's clients, logs): its errors quote JSON, not Python."""
    with pytest.raises(IllegalActionError) as caught:
        Action.from_json(bad)
    assert says in str(caught.value)


def test_act_accepts_the_json_form():
    game = new_game("changbai", seed=8)
    rng = random.Random(3)
    while not game.finished:
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions).to_json())
    game2 = new_game("sichuan", seed=1)
    seat = next(iter(game2.pending()))
    with pytest.raises(IllegalActionError, match="not an action of sichuan"):
        game2.act(seat, {"type": "chow", "position": 1})


# ---- clones ------------------------------------------------------------------------------------------

def _copies(game):
    return {"clone": game.clone(), "copy": copy.copy(game), "deepcopy": copy.deepcopy(game),
            "pickle": pickle.loads(pickle.dumps(game))}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("stop", [0, 1, 9, 40])
def test_copies_play_on_identically_and_independently(ruleset, stop):
    for seed in (1, 2):
        game = _play(new_game(ruleset, seed=seed), random.Random(seed), limit=stop)
        state, log = game.state(), game.log
        copies = _copies(game)
        rng_state = random.Random(99).getstate()
        for name, other in copies.items():
            assert other.state() == state and other.log == log, name
            assert other.step == game.step
        # play one copy to the end: the original and the other copies are unchanged
        first = copies.pop("clone")
        r = random.Random()
        r.setstate(rng_state)
        _play(first, r)
        assert game.state() == state and game.log == log
        for name, other in copies.items():
            assert other.state() == state, name
            r = random.Random()
            r.setstate(rng_state)
            _play(other, r)
            assert other.log == first.log and other.ledger == first.ledger, name
        r = random.Random()
        r.setstate(rng_state)
        _play(game, r)
        assert game.log == first.log


def test_copy_copy_does_not_share_state():
    game = new_game("sichuan", seed=5)
    other = copy.copy(game)
    assert other.hands is not game.hands and other.hands[0] is not game.hands[0]
    assert other.ledger is not game.ledger and other.settlement is not game.settlement
    assert other.settlement.ledger is other.ledger
    other.hands[0][0] += 1
    assert game.hands[0][0] == other.hands[0][0] - 1


# ---- per-seat event streams --------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_event_streams_are_incremental_and_json(ruleset):
    game = new_game(ruleset, seed=21)
    rng = random.Random(4)
    received = {s: [] for s in (None, 0, 1, 2, 3)}
    while True:
        for s, got in received.items():
            got.extend(game.events(s, since=len(got)))
        if game.finished:
            break
        for seat, actions in sorted(game.pending().items()):
            game.act(seat, rng.choice(actions))
    for s, got in received.items():
        assert got == game.events(s)
        assert len(got) == game.event_count()
        json.dumps(got)
    log_events = game.log["events"]
    omniscient = [dict(e) for e in received[None]]
    for e in omniscient:
        e.pop("hands", None)
    assert omniscient == log_events
    assert received[None][-1]["type"] == "end"
    for seat in range(4):
        for mine, full in zip(received[seat], received[None]):
            if full["type"] in ("draw", "replacement") and full["seat"] != seat:
                assert mine["tile"] is None and full["tile"] is not None
            elif full["type"] == "concealed_kong" and full["seat"] != seat:
                assert mine["tile"] is None
            elif full["type"] == "deal":
                assert [h is not None for h in mine["hands"]] == [s == seat for s in range(4)]
                assert mine["hands"][seat] == full["hands"][seat]
            elif full["type"] == "flower" and full["seat"] != seat:
                assert mine["replacement"] is None and mine["tile"] == full["tile"]
            else:
                assert mine == full
    with pytest.raises(InvalidArgumentError):
        game.events(0, since=game.event_count() + 1)
    with pytest.raises(InvalidArgumentError):
        game.events(0, since=-1)
    assert game.events(0, since=game.event_count()) == []


def test_errors_are_mahjong_errors():
    assert issubclass(StaleActionError, MahjongError)


# ---- hidden information never leaks into a seat's stream ----------------------------------------------

def _hidden_from(event, viewer):
    """The fields of an omniscient event `viewer` must not learn (the test's own oracle)."""
    kind, seat = event["type"], event.get("seat")
    if kind in ("draw", "replacement", "concealed_kong") and seat != viewer:
        return {"tile"}
    if kind == "flower" and seat != viewer:
        return {"replacement"}
    if kind == "deal":
        return {"hands"}
    return set()


def _owners(game):
    """Which seat received the tile at each wall position (None: never drawn)."""
    wall = game.wall
    owner = [None] * len(wall)
    for k in range(4):
        seat = (game.dealer + k) % 4
        for p in range(13 * k, 13 * k + 13):
            owner[p] = seat
    owner[52] = game.dealer
    head, tail = 53, len(wall)
    for e in game.events(None):
        if e["type"] == "draw":
            owner[head] = e["seat"]
            head += 1
        elif e["type"] == "replacement" or (e["type"] == "flower" and e["replacement"] is not None):
            tail -= 1
            owner[tail] = e["seat"]
    return owner


def _replay_on(game, wall, n_actions):
    other = new_game(game.ruleset, wall=wall, rules=game.rules, dealer=game.dealer, **game.options)
    for seat, action in game.answer_history()[:n_actions]:
        other.act(seat, action)
    return other


def _only_hidden_differ(a, b, viewer):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        hidden = _hidden_from(x, viewer)
        if x["type"] != y["type"]:
            return False
        if x["type"] == "deal" and x["hands"][viewer] != y["hands"][viewer]:
            return False
        if {k: v for k, v in x.items() if k not in hidden} != {k: v for k, v in y.items() if k not in hidden}:
            return False
    return True


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shuffling_hidden_tiles_leaves_every_seat_stream_unchanged(ruleset):
    accepted = changed = 0
    for seed in range(3):
        game = new_game(ruleset, seed=seed)
        rng = random.Random(seed)
        _play(game, rng)
        n = len(game.answer_history())
        for cut in (n // 3, n):
            base = _replay_on(game, game.wall, cut)
            owners = _owners(base)
            for viewer in range(4):
                mine = base.events(viewer)
                candidates = [p for p, o in enumerate(owners) if o != viewer]
                for _ in range(25):
                    wall = list(base.wall)
                    for _ in range(rng.randint(1, 3)):
                        p, q = rng.sample(candidates, 2)
                        wall[p], wall[q] = wall[q], wall[p]
                    if wall == base.wall:
                        continue
                    try:
                        other = _replay_on(base, wall, cut)
                    except IllegalActionError:
                        continue  # the recorded answers are not legal in that world: not consistent
                    if not _only_hidden_differ(base.events(None), other.events(None), viewer):
                        continue  # the shuffle changed something the viewer sees: not consistent
                    accepted += 1
                    changed += other.events(None) != base.events(None)
                    assert other.events(viewer) == mine
                    assert other.view(viewer) == base.view(viewer)
                    for since in (0, len(mine) // 2, len(mine)):
                        assert other.events(viewer, since) == mine[since:]
    assert accepted > 20 and changed > 10, (accepted, changed)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_clone_sets_every_slot_and_shares_no_mutable_state(ruleset):
    from mahjong_core.game.engine import Game

    game = _play(new_game(ruleset, seed=3), random.Random(3), limit=30)
    other = game.clone()
    for name in Game.__slots__:
        assert hasattr(other, name), name
        value = getattr(game, name)
        if isinstance(value, (list, dict, bytearray)) and name != "wall":
            assert getattr(other, name) is not value, name
    if hasattr(game, "settlement") and game.settlement is not None:
        assert other.settlement is not game.settlement and other.settlement.ledger is other.ledger


def test_leave_opens_a_new_step_only_when_the_window_closes_and_replays_verified():
    for seed in range(6):
        game = new_game("sichuan", seed=seed)
        rng = random.Random(seed)
        _play(game, rng, limit=12 + seed)
        if game.finished:
            continue
        pending = game.pending()
        leaver = max(pending) if len(pending) > 1 else next(iter(pending))
        others_waiting = [s for s in pending if s != leaver]
        step, n_events = game.step, game.event_count()
        game.leave(leaver)
        new_events = game.events(None, since=n_events)
        assert new_events[0]["type"] == "leave"
        if len(new_events) == 1:  # the window is still open for the others: same step
            assert game.step == step and set(game.pending()) == set(others_waiting) - set(game.left)
        else:
            assert game.step == step + 1
        for seat in range(4):
            assert game.events(seat, since=n_events)[0] == new_events[0]  # a leave is public
        _play(game, rng)
        again = replay(json.loads(json.dumps(game.log)))
        assert again.log == game.log and again.step == game.step


@pytest.mark.parametrize("ruleset", RULESETS)
def test_games_have_fixed_attributes_and_changbai_mcr_keep_weak_references(ruleset):
    """Every ruleset's game declares its state (__slots__; compiled, extension-type fields): a
    misspelt attribute raises instead of quietly adding state that clone and pickle would carry.
    Changbai's and MCR's games stay weakly referenceable, as they were before they had slots."""
    import weakref

    game = new_game(ruleset, seed=1)
    with pytest.raises(AttributeError):
        game.turn_seat = 2
    if ruleset != "sichuan":
        assert weakref.ref(game)() is game


# ---- one kind's visible count --------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_visible_count_of_one_kind_is_the_full_counts_entry(ruleset):
    """`Game._visible_count(seat, tile)` (MCR's 绝张 test at every win it weighs) counts exactly what
    `visible_counts(seat)[tile]` counts, for every seat and kind, at every decision of seeded hands
    (chows, pungs, kongs of every kind, concealed ones seen only by their owner, won tiles)."""
    rng = random.Random(5)
    kongs = 0
    for hand in range(25):
        game = new_game(ruleset, seed=8, hand_no=hand)
        while not game.finished:
            for seat in range(4):
                counts = game.visible_counts(seat)
                assert [game._visible_count(seat, t) for t in range(34)] == list(counts)
            kongs += sum(m[0] >= 2 for melds in game.melds for m in melds)
            for seat, actions in sorted(game.pending().items()):
                kong = [a for a in actions if a.kind in (ActionKind.KONG, ActionKind.CONCEALED_KONG,
                                                          ActionKind.ADDED_KONG)]
                game.act(seat, kong[0] if kong else rng.choice(actions), step=game.step)
    assert kongs > 0


@pytest.mark.parametrize("ruleset", ["mcr", "sichuan", "changbai"])
def test_a_ruleset_score_takes_melds_as_meld_objects_and_says_so(ruleset):
    """`score(counts, melds=1)`: the core functions take a count, a scorer needs to know which melds
    (a raw 'int object is not iterable' before)."""
    import importlib

    from mahjong_core import parse
    from mahjong_core.errors import InvalidTypeError

    score = importlib.import_module(f"mahjong_core.rules.{ruleset}").score
    hand = parse("[555p,1]123p789p88p666p")
    with pytest.raises(InvalidTypeError, match="melds= of a scored hand are Meld objects"):
        score(hand.counts, melds=1)


def test_numpy_integers_are_arguments_everywhere_and_stored_as_ints():
    """The audit's list: refused before while `act`, `events` and `batch` took them."""
    np = pytest.importorskip("numpy")
    import mahjong_core as mc

    game = new_game("mcr", seed=np.int64(5), dealer=np.int8(2), prevalent_wind=np.int64(1), hand_no=np.uint16(3))
    same = new_game("mcr", seed=5, dealer=2, prevalent_wind=1, hand_no=3)
    assert game.log == same.log and json.dumps(game.log) == json.dumps(same.log)  # (stored as ints: JSON)
    assert type(game.dealer) is int and type(game.prevalent_wind) is int
    assert game.view(np.int64(0)) == game.view(0)
    assert mc.shanten(bytes([1] * 10 + [0] * 24), melds=np.int8(1)) == mc.shanten(bytes([1] * 10 + [0] * 24), melds=1)
    assert mc.shanten("123m456p789s11sEE", np.int64(3)) == mc.shanten("123m456p789s11sEE", mc.Forms(3))
    for bad in (True, 2.0):
        with pytest.raises(mc.InvalidArgumentError, match="forms must be"):
            mc.shanten("123m456p789s11sEE", bad)
    for call in (game.legal_mask, game.answer_of, game.view):
        with pytest.raises(IllegalActionError, match="seat must be 0..3"):
            call(4)


def test_a_duplicate_answer_in_an_open_window_is_stale():
    """ENGINE.md: a duplicate is told apart from a wrong answer (StaleActionError, nothing changed)."""
    game = new_game("sichuan", seed=4)  # 定缺: every seat answers the one window
    action = game.pending()[0][0]
    game.act(0, action, step=0)
    before = game.state()
    for again in (action, game.pending()[1][0]):
        with pytest.raises(StaleActionError, match="seat 0 already answered this choose window .*a duplicate"):
            game.act(0, again, step=0)
    assert game.state() == before


def test_a_step_id_is_an_integer():
    """`step=0.0` equalled the step and was accepted; a NumPy integer equal to it is."""
    np = pytest.importorskip("numpy")
    game = new_game("mcr", seed=1)
    (seat, actions), = game.pending().items()
    before = game.state()
    for step in (0.0, True, "0"):
        with pytest.raises(IllegalActionError, match="step must be an integer step id"):
            game.act(seat, actions[0], step=step)
    assert game.state() == before
    game.act(seat, actions[0], step=np.int64(0))
    assert game.step == 1
