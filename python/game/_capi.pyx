# cython: language_level=3
"""The compiled engine's C entry points for the other compiled modules, as the capsule
`ENGINE_CAPI` (a `mc_engine_capi` table: mahjong_core/_engine_capi.pxd).

The vector environment's step kernel (env/_encode.pyx) answers every decision through
`Game._answer_seen` and asks `Game._unbuilt_turn` after the opponents' play, and the observation
encoder reads a game's fields (`Game._observation_fields`), the AEC env the question open; through these entries they pass and get
C values, where a Python-level call boxed the seat, the action's uid, the step id, the returned
discard mask and the fields' tuple and parsed them again. Built only with the compiled engine (this
module cimports its extension type; `GAME_NATIVE_MODULES` in setup.py). The caller checks that the
game is a `Game`: the entries cast it.
"""

from cpython.object cimport PyObject
from cpython.pycapsule cimport PyCapsule_New

from mahjong_core._engine_capi cimport MC_ENGINE_CAPI_NAME, MC_ENGINE_LENT, mc_engine_capi
from mahjong_core.game.engine cimport Game


cdef long long _answer_seen(object game, Py_ssize_t seat, object action, Py_ssize_t uid, object seen,
                            long long step) except? -2:
    return (<Game>game)._answer_seen(seat, action, uid, seen, step)


cdef long long _unbuilt_turn(object game) except? -2:
    return (<Game>game)._unbuilt_turn()


cdef object _observation_fields(object game, PyObject** lists, Py_ssize_t* ints):
    cdef Game g = <Game>game
    # the hooks first (a Python override may run any code), the lists last (lent, not held); what
    # each seat shows is built on the first observation (the engine keeps it from then on)
    state = g._observed_state()
    if g._shown is None:
        g._shown_record()
    ints[7] = g.wall_remaining()
    ints[0] = g.turn
    ints[1] = g.dealer
    ints[2] = g.phase
    ints[3] = g.drawn
    ints[4] = g.discarder
    ints[5] = g.discard
    ints[6] = g.kong_tile
    lists[0] = <PyObject*>g.hands
    lists[1] = <PyObject*>g.rivers
    lists[2] = <PyObject*>g.melds
    lists[3] = <PyObject*>g.won_tiles
    lists[4] = <PyObject*>g.won
    lists[5] = <PyObject*>g.declared
    lists[6] = <PyObject*>g._shown
    return state


cdef PyObject* _question(object game, PyObject** answers, long long* step) noexcept:
    cdef Game g = <Game>game
    answers[0] = <PyObject*>g._answers
    step[0] = g.step
    return NULL if g._asked is None else <PyObject*>g._asked


cdef mc_engine_capi _TABLE
_TABLE.size = sizeof(mc_engine_capi)
_TABLE.answer_seen = _answer_seen
_TABLE.unbuilt_turn = _unbuilt_turn
_TABLE.observation_fields = _observation_fields
_TABLE.lent = MC_ENGINE_LENT
_TABLE.question = _question

ENGINE_CAPI = PyCapsule_New(&_TABLE, MC_ENGINE_CAPI_NAME, NULL)
