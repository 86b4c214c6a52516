# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The native self-play loop: `play_hand`'s decisions for the seats of the built-in `RandomBot` and
`GreedyBot`.

Hot path of every self-play with the built-in bots (`simulate`, the benchmarks, the
compiled-vs-source tests): a hand is ~70 decisions, and answering one through the Python driver
(`play_hand`'s loop, the bot's `choose`, `Game.act`'s checks, the turn's list of legal actions) cost
several times the engine's own step. This loop answers for the seats whose bot is exactly
`RandomBot` — the same choice, `actions[int(rng.random() * len(actions))]`, from the same random
stream, in the same order — or exactly `GreedyBot` (its own code: on a turn of discards only, the C
function behind `discard_from`, `bots._greedy_discard`, and in a claim window the one behind
`_claim`, `bots._greedy_claim`, called directly; `choose` otherwise), and
applies the answer the way `Game.act` does, through the engine's own compiled steps. It builds no
Python object per plain turn: the engine leaves such a turn's question unbuilt while `_lazy_turn`
is set, and the turn's legal discards are read as a bit mask (`Game._discard_mask`, each ruleset's
one definition of them) instead of a list of actions.

It only runs on the compiled engine (this module cimports its extension type), only for the
registered ruleset classes (a subclass such as the Botzone table may override how a turn is asked),
and returns to `play_hand` at the first question it does not answer (another bot's seat) or at the
end of the hand. Everything it does is what `act` does for the same answer: the answer history, the
step id, the pending table and every event are the same (tests/test_game_compiled.py plays seeded
hands with it and with the engine's uncompiled source and compares every log, state and ledger).
"""

from libc.string cimport memcpy

from mahjong_core.game.bots cimport _greedy_claim, _greedy_discard
from mahjong_core._bits cimport mc_kth_bit64, mc_popcount64
from mahjong_core.game.engine cimport Game

from mahjong_core.game.actions import WIN as _WIN_ACTION
from mahjong_core.game.actions import ActionKind
from mahjong_core.game.bots import GreedyBot, RandomBot
from mahjong_core.game.constants import AFTER_CLAIM as _AFTER_CLAIM
from mahjong_core.game.engine import _ANSWER_IDS, _ANSWERING


cdef extern from *:
    """
    /* `draw()` for a seat's random stream: a bound built-in method taking no arguments (the
       `random` of a `random.Random`) is called through its C function, as CPython's own call of a
       METH_NOARGS method does, without the generic call protocol's layers around it (hot path: one
       call per random bot's decision); any other callable through the call protocol. */
    static PyObject* mc_call_noargs(PyObject* f) {
        if (PyCFunction_Check(f) && PyCFunction_GET_FLAGS(f) == METH_NOARGS) {
            return PyCFunction_GET_FUNCTION(f)(PyCFunction_GET_SELF(f), NULL);
        }
        return PyObject_CallNoArgs(f);
    }
    """
    object mc_call_noargs(object f)

cdef Py_ssize_t AFTER_CLAIM = _AFTER_CLAIM
cdef object WIN = _WIN_ACTION
cdef tuple ANSWER_IDS = _ANSWER_IDS  # the engine's shared answer-history ints (seat << 8 | uid)
cdef dict ANSWERING = _ANSWERING  # the engine's question table while an answer is applied
cdef tuple NO_DECLARATIONS = ()  # what `_declare_options` answers for none (the shared empty tuple)
# the kinds GreedyBot.choose answers with `_claim` (every kind its other branches do not take)
cdef object K_PASS = ActionKind.PASS, K_PUNG = ActionKind.PUNG, K_KONG = ActionKind.KONG
cdef object K_CHOW = ActionKind.CHOW
# GreedyBot's own methods: a patched `choose` or `_claim` (a test, a user's experiment) is called
cdef object GREEDY_CHOOSE = GreedyBot.choose, GREEDY_CLAIM = GreedyBot._claim


def native_seats(bots):
    """The seats this loop answers: `(draws, greedy)`, per seat the `random` method of the random
    stream of the seat's bot when it is exactly the built-in `RandomBot`, and the bot when it is
    exactly the built-in `GreedyBot` (else None); None when no seat has either. Read once per hand,
    after the bots' `new_hand`."""
    draws = [None, None, None, None]
    greedy = [None, None, None, None]
    found = False
    rng = draw = None
    for seat in range(4):
        bot = bots[seat]
        if type(bot) is RandomBot:
            if draw is None or bot.rng is not rng:  # (the bots of a hand usually share one stream)
                rng = bot.rng
                draw = rng.random
            draws[seat] = draw
            found = True
        elif type(bot) is GreedyBot:
            greedy[seat] = bot
            found = True
    return (draws, greedy) if found else None


cdef inline Py_ssize_t _pick(object draw, Py_ssize_t n) except -1:
    """`int(rng.random() * n)`, the built-in RandomBot's choice among n actions."""
    return <Py_ssize_t>((<double>mc_call_noargs(draw)) * <double>n)


cdef int _discard(Game g, Py_ssize_t seat, Py_ssize_t tile) except -1:
    """What `Game._answer_only` (act's application of an answer) does for a turn's DISCARD[tile]
    (uid `tile`), written out: the hot path of every plain turn, whose question is unbuilt."""
    g._actions.append(ANSWER_IDS[seat << 8 | tile])
    g._asked = ANSWERING
    g._discard_tile(seat, tile, False)
    g.step += 1
    if g._next_draw >= 0:
        g._run()
    return 0


cdef int _answer(Game g, Py_ssize_t seat, object action, list options) except -1:
    """Apply the answer of `seat`, the only seat asked, as `act` does once its checks pass: an
    action found in `options` (act's identity scan) directly, anything else through `act` (which
    raises, changing nothing)."""
    for legal in options:
        if legal is action:
            break
    else:
        g.act(seat, action)
        return 0
    g._answer_only(seat, action, action.uid, g._asked)
    return 0


cdef bint _answer_one_of_many(Game g, object seat, object action, dict pending) except -1:
    """Record the answer of `seat`, one of several seats asked (none of which answered twice), as
    `act` does once its checks pass — an action not among the seat's options goes through `act`,
    which raises — and resolve the window once every seat has answered. True when it resolved."""
    for legal in <list>pending[seat]:
        if legal is action:
            break
    else:
        g.act(seat, action)
        return False
    return g._answer_one_of(seat, action, action.uid, pending)


cdef object _greedy_choose(Game g, Py_ssize_t seat, list options, object bot):
    """`bot.choose(g, seat, options)` of a built-in GreedyBot, with its claim-window branch
    (`GreedyBot._claim`) written out: the C function `bots._greedy_claim` on a copy of the seat's
    counts read off the engine, with no Python call. A win on offer is taken, as `choose` does;
    any other question (a turn with kongs or declarations, 定缺, 飘), and every question once
    `GreedyBot.choose` or `_claim` has been replaced, goes through `choose`."""
    cdef unsigned char counts[34]
    if not options or GreedyBot.choose is not GREEDY_CHOOSE or GreedyBot._claim is not GREEDY_CLAIM:
        return bot.choose(g, seat, options)  # (no options: raises, as it would)
    first = options[0]
    if first is WIN:
        return WIN
    kind = first.kind
    if not (kind is K_PUNG or kind is K_KONG or kind is K_CHOW or kind is K_PASS):
        return bot.choose(g, seat, options)
    hand = g.hands[seat]
    if type(hand) is not bytearray or len(<bytearray>hand) != 34:
        return bot.choose(g, seat, options)  # (its own checks raise)
    memcpy(counts, <const unsigned char*><bytearray>hand, 34)
    return _greedy_claim(options, g.discard, counts, g.n_melds[seat], g._forms)


cdef list _full_turn(Game g, Py_ssize_t seat, list extras):
    """Build the turn's question with its kongs / declarations `extras` (`_turn_options`' order:
    the discards first) and return its actions."""
    cdef list options = g._discard_options(seat)
    if extras is not None:
        options.extend(extras)
    g._asked = {seat: options}
    return options


cdef int _plain_turn(Game g, Py_ssize_t seat, object draw, object greedy) except -1:
    """A turn the engine left unbuilt (`_asked` None) of a seat this loop plays (`draw`: a
    RandomBot's stream, or `greedy`: a GreedyBot). Its actions are, in this order, the legal
    discards, then after a draw the kongs and the 报听 declarations (`Game._turn_options`); the
    discards stay a bit mask (the k-th set bit is the k-th discard of that list) and only the few
    others are asked of the engine's hooks. A choice among those others goes through `act` on the
    full list. 1, with nothing done, for a seat this loop does not play."""
    cdef unsigned long long mask
    cdef Py_ssize_t n, k, t
    cdef list extras = None
    cdef unsigned char counts[34]
    if draw is None and greedy is None:
        return 1
    mask = g._discard_mask(seat)
    if g.phase != AFTER_CLAIM:
        if g._may_kong(seat):
            extras = g._kong_options(seat)
        if g.declares:
            declares = g._declare_options(seat)
            if declares is not NO_DECLARATIONS and declares:  # (none is the empty tuple: Game._declare_options)
                extras = list(declares) if extras is None else extras + list(declares)
    if greedy is not None:
        if extras:  # kongs or declarations: GreedyBot weighs them on the full list
            options = _full_turn(g, seat, extras)
            _answer(g, seat, greedy.choose(g, seat, options), options)
            return 0
        # GreedyBot.discard_from with the seat's state read off the engine's fields: its C function
        # on a copy of the seat's counts (no Python call, no bytearray; bots.pxd)
        hand = g.hands[seat]
        if type(hand) is not bytearray or len(<bytearray>hand) != 34:
            raise AssertionError(f"seat {seat}'s hand is not 34 counts: {hand!r}")
        memcpy(counts, <const unsigned char*><bytearray>hand, 34)
        t = _greedy_discard(greedy, g, seat, mask, counts, g.n_melds[seat], g._forms,
                            g.drawn if 0 <= g.drawn < 34 else -1)
        if not (0 <= t < 34 and (mask >> t) & 1):  # (the engine writes through this index)
            raise AssertionError(f"GreedyBot.discard_from gave {t!r}, not a legal discard")
        _discard(g, seat, t)
        return 0
    n = mc_popcount64(mask)
    k = _pick(draw, n + (len(extras) if extras is not None else 0))
    if k >= n:  # a kong or a declaration (or u * n rounded up to n: indexing raises, as in Python)
        g.act(seat, _full_turn(g, seat, extras)[k])
        return 0
    if k < 0:
        raise IndexError("list index out of range")
    _discard(g, seat, mc_kth_bit64(mask, k))
    return 0


def advance(Game g, tuple seats, bint ascending=False):
    """Answer every question of `g` whose seats are all played by a built-in RandomBot or GreedyBot
    (`seats`, from `native_seats`), until the hand is over or a question is for another bot.
    Several seats asked at once answer in the engine's order of the window (`play_hand`'s), or
    with `ascending` lowest seat first (the environments' `next_seat` order, `play_until`'s)."""
    cdef dict pending, answered
    cdef list options, draws, greedy
    cdef Py_ssize_t seat
    draws, greedy = seats
    if len(draws) != 4 or len(greedy) != 4:
        raise ValueError("advance: seats must have one entry per seat")
    cdef bint was_lazy = g._lazy_turn
    g._lazy_turn = True
    try:
        while not g.finished:
            pending = g._asked
            if pending is None:
                seat = g.turn
                if _plain_turn(g, seat, draws[seat], greedy[seat]):
                    return  # another bot's turn: left unbuilt (its reader builds it)
                continue
            if len(pending) == 1:
                # One seat asked (a turn, a claim or rob window of one): `act` resolves it at once.
                for key, value in pending.items():
                    seat = key
                    options = value
                draw = draws[seat]
                if draw is not None:
                    action = options[_pick(draw, len(options))]
                elif greedy[seat] is not None:
                    action = _greedy_choose(g, seat, options, greedy[seat])
                    if g._asked is not pending:
                        continue
                else:
                    return
                _answer(g, seat, action, options)
                continue
            # Several seats (a claim window, 定缺 / 飘): play_hand's order, every seat one of ours.
            for key in pending:
                if draws[key] is None and greedy[key] is None:
                    return
            answered = g._answers
            for key in (sorted(pending) if ascending else list(pending)):
                if key in answered:
                    continue
                options = pending[key]
                draw = draws[key]
                if draw is not None:
                    action = options[_pick(draw, len(options))]
                else:
                    action = _greedy_choose(g, key, options, greedy[key])
                    if g._asked is not pending:
                        break
                if _answer_one_of_many(g, key, action, pending) or g._asked is not pending:
                    break
    finally:
        # (a question left unbuilt stays so: whoever reads `_pending` next builds it)
        g._lazy_turn = was_lazy
