"""A wrong argument to a public function raises a `MahjongError` that says what the argument takes —
not an AttributeError, a KeyError or "object of type 'NoneType' has no len()" from deep inside.
An argument of the wrong type raises `InvalidTypeError`, which is also a `TypeError` (Python's
convention) and an `InvalidArgumentError` (a `ValueError`).

The table holds the cases found by sweeping every public callable with None and other wrong
values (the sweep itself is the last test, so a new public function joins it)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import io

import pytest

import mahjong_core as mc
from mahjong_core import batch
from mahjong_core.errors import (
    IllegalActionError, InvalidArgumentError, InvalidHandError, InvalidTypeError, MahjongError, ParseError,
)
from mahjong_core.game.actions import DISCARD, SPACES
from mahjong_core.game.registry import game_class
from mahjong_core.rules import mcr, sichuan
from mahjong_core.tiles import tile_from_str


def test_an_invalid_type_error_is_a_type_error_and_an_argument_error():
    assert issubclass(InvalidTypeError, TypeError)
    assert issubclass(InvalidTypeError, InvalidArgumentError)
    assert issubclass(InvalidTypeError, MahjongError)
    assert mc.InvalidTypeError is InvalidTypeError


def _server():
    pytest.importorskip("websockets")
    return importlib.import_module("mahjong_core.server")


def _env():
    pytest.importorskip("numpy")
    return importlib.import_module("mahjong_core.env")


CASES = [
    # (what, call, the error, a phrase of the message that says what to pass)
    ("shanten(None)", lambda: mc.shanten(None), InvalidTypeError, "a Hand, notation text or 34 tile counts"),
    ("waits(None)", lambda: mc.waits(None), InvalidTypeError, "a Hand, notation text or 34 tile counts"),
    ("is_winning(None)", lambda: mc.is_winning(None), InvalidTypeError, "34 tile counts"),
    ("effective_tiles(None)", lambda: mc.effective_tiles(None), InvalidTypeError, "34 tile counts"),
    ("discard_options(None)", lambda: mc.discard_options(None), InvalidTypeError, "34 tile counts"),
    ("decompositions(None)", lambda: mc.decompositions(None), InvalidTypeError, "34 tile counts"),
    ("shanten(a set of 34)", lambda: mc.shanten(set(range(34))), InvalidTypeError, "34 tile counts"),
    ("shanten(float counts)", lambda: mc.shanten([0.5] * 34), InvalidTypeError, "the count of 1m is 0.5"),
    ("parse(None)", lambda: mc.parse(None), InvalidTypeError, "notation string"),
    ("parse_tiles(None)", lambda: mc.parse_tiles(None), InvalidTypeError, "notation text"),
    ("parse_tiles([])", lambda: mc.parse_tiles([]), InvalidTypeError, "notation text"),
    ("format_hand(None)", lambda: mc.format_hand(None), InvalidTypeError, "takes a Hand"),
    ("format_tiles(None)", lambda: mc.format_tiles(None), InvalidTypeError, "iterable of tiles"),
    ("format_tiles(text)", lambda: mc.format_tiles("123m"), InvalidTypeError, "parse_tiles reads text"),
    ("format_tiles([99])", lambda: mc.format_tiles([99]), InvalidArgumentError, "99 is not a tile"),
    ("tile_from_str(None)", lambda: tile_from_str(None), InvalidTypeError, "text such as '5p'"),
    ("tile_from_str('0m')", lambda: tile_from_str("0m"), ParseError, "expected 1m..9m"),
    ("batch.shanten(None)", lambda: batch.shanten(None), InvalidTypeError, "(N, 34) uint8 array"),
    ("ActionSpace.mask(another ruleset's action)", lambda: SPACES["sichuan"].mask([DISCARD[27]]),
     IllegalActionError, "not an action of the sichuan action space"),
    ("mcr.settle(None)", lambda: mcr.settle(None, winner=0), InvalidArgumentError, "does not win"),
    ("mcr.settle(text)", lambda: mcr.settle("123m", winner=0), InvalidArgumentError, "the MCRScore that mcr.score"),
    ("mcr.fan(None)", lambda: mcr.fan(None), InvalidTypeError, "a string such as 'QINGYISE'"),
    ("mcr.encode_batch(None)", lambda: mcr.encode_batch(None), InvalidTypeError, "a sequence of hands"),
    ("sichuan.settle(None)", lambda: sichuan.settle(None), InvalidArgumentError, "the hand's events"),
    ("sichuan.hand_points(0)", lambda: sichuan.hand_points(0), InvalidArgumentError, "integer >= 1"),
    ("sichuan.suits_held(None)", lambda: sichuan.suits_held(None), InvalidHandError, "a Hand, a notation string"),
    ("tile_set([])", lambda: importlib.import_module("mahjong_core.game").tile_set([]), InvalidArgumentError,
     "ruleset must be one of"),
    ("shuffled_wall(seed None)", lambda: importlib.import_module("mahjong_core.game").shuffled_wall([0] * 136, None),
     InvalidArgumentError, "a seed is an integer"),
    ("botzone.codes_to_tiles(None)", lambda: importlib.import_module("mahjong_core.botzone").codes_to_tiles(None),
     InvalidTypeError, "Botzone codes"),
    ("botzone.tiles_to_codes(None)", lambda: importlib.import_module("mahjong_core.botzone").tiles_to_codes(None),
     InvalidTypeError, "tile indices"),
    ("botzone.ProgramBot(None)", lambda: importlib.import_module("mahjong_core.botzone").ProgramBot(None),
     InvalidTypeError, "a command line"),
    ("viz.TableTracker(None)", lambda: importlib.import_module("mahjong_core.viz").TableTracker(None),
     InvalidTypeError, "a game log"),
    ("viz.hand_svg(None)", lambda: importlib.import_module("mahjong_core.viz").hand_svg(None), InvalidTypeError,
     "a Hand or notation text"),
    ("viz.table_svg({})", lambda: importlib.import_module("mahjong_core.viz").table_svg({}), InvalidArgumentError,
     "not a Game.view(seat) dict"),
    ("viz.plot_simulation(None)", lambda: importlib.import_module("mahjong_core.viz").plot_simulation(None),
     InvalidTypeError, "what simulate() returns"),
    ("simulate(progress='yes')", lambda: importlib.import_module("mahjong_core.game.simulate").simulate(
        "mcr", 4, progress="yes"), InvalidTypeError, "anything with update(n)"),
    ("simulate(out=3)", lambda: importlib.import_module("mahjong_core.game.simulate").simulate("mcr", 4, out=3),
     InvalidTypeError, "the path of a JSONL results file"),
    ("play_league(None)", lambda: importlib.import_module("mahjong_core.league").play_league(None), InvalidTypeError,
     "takes a League"),
    ("seat_view(None, 0)", lambda: importlib.import_module("mahjong_core.game.view").seat_view(None, 0),
     InvalidTypeError, "takes a Game"),
    ("seeded_dealer(None, 0)", lambda: importlib.import_module("mahjong_core.game.wall").seeded_dealer(None, 0),
     InvalidArgumentError, "a seed is an integer"),
    ("seeded_dealer(1, -1)", lambda: importlib.import_module("mahjong_core.game.wall").seeded_dealer(1, -1),
     InvalidArgumentError, "hand_no is an integer"),
    ("TableServer(port=99999)", lambda: _server().TableServer("mcr", port=99999), InvalidArgumentError,
     "port must be 0..65535"),
    ("TableServer(host=None)", lambda: _server().TableServer("mcr", host=None), InvalidTypeError, "an address"),
    ("TableServer(bot='nope')", lambda: _server().TableServer("mcr", bot="nope"), InvalidArgumentError, "unknown bot"),
    ("TableServer(seed=-1)", lambda: _server().TableServer("mcr", seed=-1), InvalidArgumentError, "seed must be"),
    ("TableServer(max_tables=0)", lambda: _server().TableServer("mcr", max_tables=0), InvalidArgumentError,
     "max_tables must be a positive integer"),
    ("env.n_planes(None)", lambda: _env().n_planes(None), InvalidArgumentError, "ruleset must be one of"),
    ("env.plane_names([])", lambda: _env().plane_names([]), InvalidArgumentError, "ruleset must be one of"),
    ("env.legal_mask(None, 0)", lambda: _env().legal_mask(None, 0), InvalidTypeError, "takes a Game"),
    ("env.determinize(None, 0)", lambda: _env().determinize(None, 0), InvalidTypeError, "takes a Game"),
]


@pytest.mark.parametrize("what,call,error,phrase", CASES, ids=[c[0] for c in CASES])
def test_a_wrong_argument_raises_a_mahjong_error_that_says_what_to_pass(what, call, error, phrase):
    with pytest.raises(error) as caught:
        call()
    assert phrase in str(caught.value), str(caught.value)


def test_an_empty_batch_gives_empty_results():
    np = pytest.importorskip("numpy")
    for empty in (b"", [], ()):
        assert batch.shanten(empty).shape == (0,)
        assert batch.is_winning(empty).shape == (0,)
        assert batch.waits(empty).shape == (0, 34)
    assert batch.shanten(np.zeros((0, 34), np.uint8)).shape == (0,)


def test_a_none_for_a_score_that_does_not_win_composes_with_settle():
    """`mcr.score` gives None for a hand that does not win; `settle` of it is a clear error."""
    assert mcr.score("123m456p789s11sEEW") is None
    with pytest.raises(InvalidArgumentError, match="does not win"):
        mcr.settle(mcr.score("123m456p789s11sEEW"), winner=0)
    assert sichuan.hand_points(3) == sichuan.hand_points(3, sichuan.Rules.resolve(None)) > 0


#: (module, public name) -> why a wrong argument may raise something other than a MahjongError
SWEEP_EXEMPT = {
    ("mahjong_core.rules.mcr", "fan"): "an unknown fan id is a KeyError (a lookup by id; tested in test_mcr_fans)",
    ("mahjong_core.game.bots", "hand_stream"): "documented as random.Random(key), whose errors it keeps (hot path)",
    ("mahjong_core.game.bots", "start_hand"): "a bot hook's loop on the hot path (every simulated hand)",
}
#: the public packages, and the submodules the docs import from
SWEEP_MODULES = ("mahjong_core", "mahjong_core.rules.mcr", "mahjong_core.rules.sichuan", "mahjong_core.rules.changbai",
                 "mahjong_core.game", "mahjong_core.botzone", "mahjong_core.viz", "mahjong_core.batch",
                 "mahjong_core.env", "mahjong_core.league", "mahjong_core.game.simulate", "mahjong_core.game.bots",
                 "mahjong_core.game.botspec", "mahjong_core.game.stats", "mahjong_core.env.layout")
#: plausible values of the other arguments, by parameter name (anything else: a winning hand's text);
#: optional ones are given too (simulations of 4 hands, not the default 1,000)
FILL = {"ruleset": "mcr", "seat": 0, "winner": 0, "hands": 4}
WRONG = (None, "zz", -1, 1.5, [None], object())


def _public_functions():
    """(label, function, required positional parameters, optional parameters) of every public
    function (classes and enums aside: their constructors follow Python's conventions)."""
    for name in SWEEP_MODULES:
        if name.startswith("mahjong_core.env") and any(importlib.util.find_spec(m) is None
                                              for m in ("numpy", "gymnasium", "pettingzoo")):
            continue  # (the [rl] extra is missing: its functions say so, which another test checks)
        module = importlib.import_module(name)
        for public in getattr(module, "__all__", ()):
            fn = getattr(module, public)
            if isinstance(fn, type) or not callable(fn) or (name, public) in SWEEP_EXEMPT:
                continue
            try:
                parameters = list(inspect.signature(fn).parameters.values())
            except (TypeError, ValueError):
                continue
            if any(p.default is p.empty and p.kind is p.KEYWORD_ONLY for p in parameters):
                continue
            required = [p for p in parameters
                        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            optional = [p for p in parameters
                        if p.default is not p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            yield f"{name}.{public}", fn, required, optional


def _strays(calls):
    strays = []
    for label, call in calls:
        try:
            call()
        except MahjongError:
            pass
        except Exception as exc:  # noqa: BLE001 - what the test is about
            strays.append(f"{label}: {type(exc).__name__}: {exc}")
    return strays


def test_every_public_function_answers_a_wrong_argument_with_a_mahjong_error(monkeypatch, tmp_path):
    """Each required argument of every public function in turn given None, text, -1, a float, a
    list or an object, the others plausible: whatever it raises is a MahjongError."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # (botzone.run reads its turn from stdin)
    monkeypatch.chdir(tmp_path)  # (a text taken for a path — simulate's out=, save_logs — lands here)
    calls = []
    for label, fn, required, _ in _public_functions():
        for k in range(len(required)):
            for bad in WRONG:
                args = [bad if i == k else FILL.get(p.name, "123m456p789s11sEEE") for i, p in enumerate(required)]
                calls.append((f"{label} argument {required[k].name}={bad!r}", lambda fn=fn, args=args: fn(*args)))
    assert len(calls) > 300
    strays = _strays(calls)
    assert strays == [], "\n".join(strays)


def test_every_public_function_answers_a_wrong_keyword_with_a_mahjong_error(monkeypatch, tmp_path):
    """The same for each optional argument, given by keyword."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.chdir(tmp_path)
    calls = []
    for label, fn, required, optional in _public_functions():
        args = [FILL.get(p.name, "123m456p789s11sEEE") for p in required]
        for p in optional:
            others = {q.name: FILL[q.name] for q in optional if q.name in FILL and q is not p}
            for bad in WRONG:
                if bad is None and p.default is None:
                    continue
                calls.append((f"{label}({p.name}={bad!r})",
                              lambda fn=fn, args=args, kw=dict(others, **{p.name: bad}): fn(*args, **kw)))
    assert len(calls) > 300
    strays = _strays(calls)
    assert strays == [], "\n".join(strays)


#: (class name, method) -> why it may raise something else
METHOD_EXEMPT = {
    "random_dealer": "a ruleset hook the engine calls with resolved rules",
    "uses_flowers": "a ruleset hook the engine calls with resolved rules",
    "rules_for_wall": "a ruleset hook the engine calls with resolved rules",
    "index": "Ledger.index is the sequence protocol's (ValueError when absent, as list.index)",
    "count": "the sequence protocol's",
    "get": "the mapping protocol's (a View is a Mapping: an unhashable key is a TypeError, as for dict.get)",
}


def _objects():
    from mahjong_core.botzone import Table
    from mahjong_core.game import new_game

    yield "MCRGame", lambda: new_game("mcr", seed=3)
    yield "SichuanGame", lambda: new_game("sichuan", seed=3)
    yield "ChangbaiGame", lambda: new_game("changbai", seed=3)
    yield "Hand", lambda: mc.parse("123m456p789s11sEEE")
    yield "botzone.Table", lambda: Table(seed=1)
    yield "Ledger", lambda: new_game("mcr", seed=1).ledger
    yield "BotzoneState", _botzone_state
    yield "ActionSpace", lambda: SPACES["sichuan"]
    for ruleset in ("mcr", "sichuan", "changbai"):
        yield f"{ruleset} Rules", lambda ruleset=ruleset: game_class(ruleset).rules_class().resolve(None)
    yield "viz.View", lambda: importlib.import_module("mahjong_core.viz").View(new_game("sichuan", seed=1).view(0))


def _botzone_state():
    from mahjong_core.botzone import BotzoneState, Table

    table = Table(seed=2)
    table.respond({s: "PASS" for s in range(4)})  # (the INIT round)
    return BotzoneState.from_requests(["0 1 0", table.requests()[1]], ["PASS"])


def _methods(sample, exempt, kinds):
    """(name, its parameters of `kinds`) of every public method of `sample` not in `exempt`."""
    for name in dir(sample):
        if name.startswith("_") or name in exempt or isinstance(getattr(type(sample), name, None), property):
            continue
        method = getattr(sample, name)
        if not callable(method):
            continue
        try:
            yield name, [p for p in inspect.signature(method).parameters.values() if p.kind in kinds]
        except (TypeError, ValueError):
            continue


def test_every_public_method_answers_a_wrong_argument_with_a_mahjong_error():
    """The same sweep over the methods of a game of each ruleset, a Hand, a Botzone table and a
    ledger: each positional argument in turn wrong, on a fresh object each time."""
    calls = []
    for label, make in _objects():
        for name, parameters in _methods(make(), METHOD_EXEMPT, (inspect.Parameter.POSITIONAL_ONLY,
                                                                  inspect.Parameter.POSITIONAL_OR_KEYWORD)):
            for k in range(len(parameters)):
                for bad in (None, "zz", -1, 99, 1.5, [None], object()):
                    args = [bad if i == k else 0 for i, p in enumerate(parameters) if p.default is p.empty or i <= k]
                    calls.append((f"{label}.{name}({parameters[k].name}={bad!r})",
                                  lambda make=make, name=name, args=args: getattr(make(), name)(*args)))
    assert len(calls) > 500
    strays = _strays(calls)
    assert strays == [], "\n".join(strays)


#: methods of the environments that are the libraries' own (Gymnasium's wrapper attributes)
ENV_METHOD_EXEMPT = {"get_wrapper_attr", "has_wrapper_attr", "set_wrapper_attr", "close"}


def _environments():
    env = pytest.importorskip("mahjong_core.env") if importlib.util.find_spec("pettingzoo") else None
    if env is None or importlib.util.find_spec("gymnasium") is None:
        pytest.skip("the [rl] extra (numpy, gymnasium, pettingzoo) is not installed")

    def started(make):
        def build():
            instance = make()
            instance.reset(seed=1)
            return instance
        return build

    yield "aec_env", started(lambda: env.aec_env("mcr"))
    yield "parallel_env", started(lambda: env.parallel_env("sichuan"))
    yield "MahjongEnv", started(lambda: env.MahjongEnv("changbai", opponents="greedy"))
    yield "VectorEnv", started(lambda: env.VectorEnv("mcr", 3))


def test_every_environment_method_answers_a_wrong_argument_with_a_mahjong_error():
    """The environments' methods (step, reset, observe, sample_action, ...), each argument wrong in
    turn — by position, or by keyword where it has a default — on a freshly reset environment."""
    np = pytest.importorskip("numpy")
    calls = []
    for label, make in _environments():
        for name, parameters in _methods(make(), ENV_METHOD_EXEMPT, (inspect.Parameter.POSITIONAL_ONLY,
                                                                      inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                                      inspect.Parameter.KEYWORD_ONLY)):
            for p in parameters:
                for bad in (None, "zz", -1, 99, 1.5, [None], object(), np.array([1.5])):
                    if bad is None and p.default is None:
                        continue
                    keyword = p.kind is p.KEYWORD_ONLY or p.default is not p.empty
                    calls.append((f"{label}.{name}({p.name}={bad!r})",
                                  lambda make=make, name=name, p=p, bad=bad, keyword=keyword:
                                  getattr(make(), name)(**{p.name: bad}) if keyword else getattr(make(), name)(bad)))
    assert len(calls) > 100
    strays = _strays(calls)
    assert strays == [], "\n".join(strays)


def test_numpy_numbers_pass_the_checks_that_python_numbers_pass():
    """The checks accept NumPy integers (a policy's argmax) and floats where Python's pass."""
    np = pytest.importorskip("numpy")
    from mahjong_core.game import new_game

    hand = mc.parse("123m456p789s11sEE")
    assert hand.with_tile(np.int64(27)) == hand.with_tile(27) == hand.with_tile("E")
    assert hand.with_tile(27).without_tile(np.int32(0)) == hand.with_tile(27).without_tile(0)
    game = new_game("mcr", seed=1)
    assert game.hand_of(np.int64(1), np.int64(5)) == game.hand_of(1, 5)
    assert game.core_melds(np.int8(2)) == game.core_melds(2) and game.dealt_tiles(np.int16(3)) == game.dealt_tiles(3)
    assert sichuan.hand_points(np.int64(3)) == sichuan.hand_points(3)
    viz = importlib.import_module("mahjong_core.viz")
    assert viz.hand_svg(hand, tile_width=np.float32(30)) == viz.hand_svg(hand, tile_width=30.0)
