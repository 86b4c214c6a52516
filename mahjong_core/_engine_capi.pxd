# The compiled engine's C entry points for the other compiled modules (declarations only: nothing
# here exists at run time). mahjong_core.game._capi (python/game/_capi.pyx, built with the compiled
# engine) fills an `mc_engine_capi` table and exports it as the capsule `ENGINE_CAPI`; the
# environments' step kernel and observation encoder (env/_encode.pyx) read it at import. A
# Python-level call of these methods boxes its arguments and its result (a discard mask is an int
# object of two digits; the observation's fields a 15-tuple) and parses them again: ~0.8 k
# instructions of a ~9 k-instruction decision. Where the engine runs from its .py source there is
# no such module, and the environments call the methods.
#
# Every entry takes a `Game` (the caller checks `isinstance(game, Game)`; the entries cast).

from cpython.object cimport PyObject

cdef extern from *:
    """
    #define MC_ENGINE_CAPI_NAME "mahjong_core.game._capi.ENGINE_CAPI"
    #define MC_ENGINE_LENT 7
    """
    const char* MC_ENGINE_CAPI_NAME
    enum: MC_ENGINE_LENT

ctypedef struct mc_engine_capi:
    Py_ssize_t size  # sizeof(mc_engine_capi) where the table was filled (a mismatch: not used)
    # Game._answer_seen(seat, action, uid, seen, step) and Game._unbuilt_turn(), as C calls
    long long (*answer_seen)(object game, Py_ssize_t seat, object action, Py_ssize_t uid, object seen,
                             long long step) except? -2
    long long (*unbuilt_turn)(object game) except? -2
    # Game._observation_fields() without its tuple and boxed ints: returns the ruleset's state
    # (`_observed_state()`), lends `lists` the six per-seat lists (hands, rivers, melds, won_tiles,
    # won, declared) and what each seat shows as counts (`Game._shown`, a bytearray) — borrowed, read
    # after the hooks have run; the caller holds them before any Python code runs again — and
    # fills `ints` with turn, dealer, phase, drawn, discarder, discard, kong_tile and
    # wall_remaining()
    object (*observation_fields)(object game, PyObject** lists, Py_ssize_t* ints)
    # how many objects `observation_fields` lends (MC_ENGINE_LENT: the caller's `lists` holds them)
    Py_ssize_t lent
    # the question open: returns `_asked` (borrowed; NULL for None, a plain turn left unbuilt), lends
    # `_answers` and gives the step id — what the AEC env checks before it masks from the question
    # it kept (three attribute lookups a decision otherwise)
    PyObject* (*question)(object game, PyObject** answers, long long* step)
