# The PettingZoo AEC environment's hot path (included by _encode.pyx: it calls the encoder's and the
# step kernel's C functions inline). `pettingzoo_env.aec_env` builds its class on `AECCore`.

from cpython.dict cimport PyDict_GetItem, PyDict_Next, PyDict_Size

cdef extern from *:
    """
    /* How many references `o` has (hot path: an observation's dict and arrays are reused once
       nothing else refers to them, see AECCore._reusable). */
    static inline Py_ssize_t mc_refcount(PyObject* o) { return Py_REFCNT(o); }

    /* NumPy's array object, its first members (PyArrayObject_fields in numpy/ndarraytypes.h: the
       fields NumPy's own PyArray_DATA, PyArray_DIMS, ... macros read, a layout every NumPy from 1.7
       to 2.x keeps). Hot path: a reused observation's arrays are checked through it, ~20
       instructions, instead of the buffer protocol, whose NumPy side builds a format string and a
       shape copy each time (~650 instructions an array, a tenth of the environment's part of an
       AEC decision). Read only of arrays this module allocated with numpy.empty, and only after
       the first of them was seen to agree with the buffer protocol (mc_head_agrees). */
    typedef struct {
        PyObject_HEAD
        char* data;
        int nd;
        Py_ssize_t* dimensions;
        Py_ssize_t* strides;
        PyObject* base;
        PyObject* descr;
        int flags;
    } mc_array_head;
    #define MC_NPY_WRITEABLE 0x0400

    /* `a`'s data while it is still a writeable C-contiguous array of `descr` (1-byte items) of
       shape (d0, d1), or (d0,) when d1 < 0; NULL when its last holder reshaped, retyped or froze it. */
    static inline void* mc_peek_array(PyObject* a, PyObject* descr, Py_ssize_t d0, Py_ssize_t d1) {
        const mc_array_head* h = (const mc_array_head*)a;
        if (h->descr != descr || !(h->flags & MC_NPY_WRITEABLE)) return NULL;
        if (d1 < 0) {
            if (h->nd != 1 || h->dimensions[0] != d0 || h->strides[0] != 1) return NULL;
        } else if (h->nd != 2 || h->dimensions[0] != d0 || h->dimensions[1] != d1
                   || h->strides[0] != d1 || h->strides[1] != 1) {
            return NULL;
        }
        return h->data;
    }

    /* Whether `a`, just allocated with its buffer `b` acquired and checked, reads through
       mc_array_head as the buffer protocol describes it (data, shape, strides, writeable) with
       `descr` as its dtype: the peek is used only when the first array allocated agrees. */
    static int mc_head_agrees(PyObject* a, const Py_buffer* b, PyObject* descr) {
        const mc_array_head* h = (const mc_array_head*)a;
        if (Py_TYPE(a)->tp_basicsize < (Py_ssize_t)sizeof(mc_array_head)) return 0;
        /* the pointer fields are followed only once the plain ones agree */
        if ((void*)h->data != b->buf || h->nd != b->ndim || b->shape == NULL || b->strides == NULL) return 0;
        for (int i = 0; i < b->ndim; i++)
            if (h->dimensions[i] != b->shape[i] || h->strides[i] != b->strides[i]) return 0;
        return h->descr == descr && (h->flags & MC_NPY_WRITEABLE) != 0;
    }
    """
    Py_ssize_t mc_refcount(PyObject* o) noexcept
    void* mc_peek_array(PyObject* a, PyObject* descr, Py_ssize_t d0, Py_ssize_t d1) noexcept
    int mc_head_agrees(PyObject* a, const Py_buffer* b, PyObject* descr) noexcept

# Whether reused observation arrays are checked through `mc_array_head` (1), through the buffer
# protocol (0), or not known yet (-1: decided by the first pair an AECCore allocates).
cdef int _peek_state = -1


def _array_peek(enable=None):
    """Whether AEC observations' reused arrays are checked by reading NumPy's array head (True) or
    through the buffer protocol (False; None: not decided yet). `enable=False` turns the peek off
    (tests run both ways); `enable=True` lets the next allocation decide again."""
    global _peek_state
    if enable is not None:
        _peek_state = -1 if enable else 0
    return None if _peek_state < 0 else _peek_state == 1


cdef bint _acquire_pair(object obs, object mask, Py_buffer* b, Py_buffer* mb, int planes, int size) noexcept:
    """Both buffers acquired (True: release both), or neither (False): `obs` a writeable
    C-contiguous (planes, 34) uint8 array, `mask` a writeable int8 vector of `size`."""
    if not _fits(obs, b, planes, 34, b'B'):
        return False
    if not _fits(mask, mb, size, -1, b'b'):
        PyBuffer_Release(b)
        return False
    return True


from mahjong_core.env.table import AGENTS as _TABLE_AGENTS

cdef tuple _AGENTS = _TABLE_AGENTS  # "player_0".."player_3": seat s is agent s (env/table.py)
cdef dict _SEAT_OF_AGENT = {a: s for s, a in enumerate(_AGENTS)}
cdef str _OBSERVATION_KEY = "observation"  # an observation dict's keys, in its order
cdef str _MASK_KEY = "action_mask"


cdef bint _holds_pair(dict d, object obs, object mask) noexcept:
    """Whether `d` is still exactly {"observation": obs, "action_mask": mask} (these key objects, in
    this order: a dict its holder changed in any way is not reused)."""
    cdef Py_ssize_t pos = 0
    cdef PyObject* key
    cdef PyObject* value
    if PyDict_Size(d) != 2:
        return False
    if not PyDict_Next(d, &pos, &key, &value) or key != <PyObject*>_OBSERVATION_KEY or value != <PyObject*>obs:
        return False
    return PyDict_Next(d, &pos, &key, &value) and key == <PyObject*>_MASK_KEY and value == <PyObject*>mask


cdef int _hand_over(str method) except -1:
    """`last()` or `step()` once every agent has left (PettingZoo's dicts hold none of them)."""
    raise IllegalActionError(f"{method}(): the hand is over and every agent is done; call reset() for the next hand")


cdef class AECCore:
    """The PettingZoo AEC environment's per-decision path in C: `last`, `observe`, `step` and
    `agent_iter` (the rest of the environment is `pettingzoo_env._AECMixin`, in Python).

    Hot path: an AEC loop makes three calls per decision (`agent_iter`'s next, `last`, `step`), and
    before this class those calls' Python bookkeeping cost twice what the engine and the encoder do.
    What it keeps besides PettingZoo's attributes (C fields here, the same objects Python sees):

    - the question the engine asks next (`_q_*`), read off the engine once per step: the acting
      seat's list of legal actions and the table it came from, or a plain turn the engine left
      unbuilt (`Game._lazy_turn`: its legal discards as a bit mask and its step id). `last()`
      masks from it when it is still the question open (checked by identity / step id; anything
      else reads the engine's table, as `observe_into` does) and `step()` hands the engine the
      question it answered (`Game._answer_seen`, which checks it again and falls back to `act`);
    - the ledger's entry list and how many of its entries were paid out as rewards;
    - two spare observations (dict and arrays), reused once nothing but this object refers to them
      (`_observation`); a caller who keeps an observation, one of its arrays or a view of one keeps
      it to itself.
    """

    cdef public list agents
    cdef public dict rewards
    cdef public dict _cumulative_rewards
    cdef public dict terminations
    cdef public dict truncations
    cdef public dict infos
    cdef object _agent             # agent_selection
    cdef int _seat                 # its seat (-1: not one of the table's agents)
    cdef bint _dealt                # a hand was dealt (reset)
    cdef bint _rewards_zero        # every value of `rewards` is 0.0 (most steps pay nothing)
    cdef bint _own_observe         # the class keeps AECCore.observe: `last` encodes without a method call
    cdef bint _own_dead_step       # it keeps PettingZoo's `_was_dead_step` and `_clear_rewards` (done here)
    cdef bint _own_accumulate      # it keeps PettingZoo's `_accumulate_rewards` (done here)
    cdef bint _fast                # the game's class keeps Game.act: answers go through `_answer_seen`
    cdef object _game
    cdef list _entries             # its ledger's entry list (append-only)
    cdef Py_ssize_t _paid          # how many of them were paid out as rewards
    cdef int _q_seat               # the seat the question is for (-1: no question read)
    cdef object _q_legal           # its legal actions (the engine's list); None: an unbuilt turn
    cdef object _q_table           # the engine's table they came from; None: an unbuilt turn
    cdef unsigned long long _q_bits  # an unbuilt turn's legal discards (bit t: DISCARD[t])
    cdef long long _q_step         # an unbuilt turn's step id
    cdef int _rs, _size
    cdef int _discard_code[34]     # t -> the code of DISCARD[t] (-1: not in the space)
    cdef double _scale
    cdef tuple _action_of_code
    cdef tuple _code_of_uid
    cdef tuple _obs_shape
    cdef object _lazy_class
    cdef object _empty, _uint8, _int8
    cdef object _dict0, _obs0, _mask0   # two spare observations: dict and arrays (see `_observation`)
    cdef object _dict1, _obs1, _mask1
    cdef int _next_spare

    def __cinit__(self, *args, **kwargs):
        self._seat = -1
        self._q_seat = -1

    def _prepare(self, str ruleset, object space, object lazy_class, double scale):
        """Once, by the environment's constructor: the ruleset's action space and observation shape,
        the registered game class whose plain turns may be left unbuilt, and the reward scale."""
        np = _numpy()
        self._rs = _RULESET_CODE[ruleset]
        self._size = space.size
        self._action_of_code = tuple(space.actions)
        self._code_of_uid = space.code_of_uid
        self._obs_shape = (_N_PLANES[self._rs], 34)
        self._lazy_class = lazy_class
        self._scale = scale
        self._empty = np.empty
        self._uint8, self._int8 = np.dtype(np.uint8), np.dtype(np.int8)  # dtype objects: np.empty converts none
        _fill_discard_codes(self._code_of_uid, self._size, self._discard_code)
        cls = type(self)
        self._own_observe = cls.observe is AECCore.observe
        # PettingZoo's bookkeeping, done in C below unless the class overrides it
        pz_env = next((c for c in cls.__mro__ if c.__name__ == "AECEnv" and c.__module__ == "pettingzoo.utils.env"), None)
        self._own_dead_step = pz_env is not None and all(
            getattr(cls, name) is getattr(pz_env, name) for name in ("_was_dead_step", "_clear_rewards"))
        self._own_accumulate = pz_env is not None and cls._accumulate_rewards is pz_env._accumulate_rewards

    def _begin(self, game):
        """A new hand (`game`, just dealt; the reward dicts already reset): nothing of its ledger is
        paid out yet, its first question is read, `agent_selection` is the seat asked."""
        self._game = game
        self._entries = game.ledger._entries
        self._paid = 0  # (as the environment always did: what the deal paid is the first step's reward)
        self._fast = type(game).act is _GAME_ACT and isinstance(game, _Game)  # (the C entries cast to Game)
        if self._fast and type(game) is self._lazy_class:
            game._lazy_turn = True
        self._rewards_zero = True
        self._dealt = True
        self.agent_selection = _AGENTS[self._read_question(-1)]

    def _snapshot(self):
        """What a copy of the environment needs of the C fields besides PettingZoo's attributes:
        (ledger entries paid out as rewards, whether `rewards` is all zero)."""
        return self._paid, bool(self._rewards_zero)

    def _resume(self, game, Py_ssize_t paid, bint rewards_zero, agent_selection):
        """A copy's hand (`pettingzoo_env._restore`): `game` with `paid` of its ledger's entries
        already paid out; the engine's question is read afresh, `agent_selection` kept as it was."""
        self._begin(game)
        if not 0 <= paid <= len(self._entries):
            raise InvalidArgumentError(f"a copied environment paid {paid} of {len(self._entries)} ledger entries")
        self._paid = paid
        self._rewards_zero = rewards_zero
        self.agent_selection = agent_selection

    property agent_selection:
        """The agent whose decision the engine waits for (PettingZoo's attribute)."""
        def __get__(self):
            return self._agent

        def __set__(self, value):
            cdef PyObject* seat
            self._agent = value
            seat = PyDict_GetItem(_SEAT_OF_AGENT, value) if type(value) is str else NULL
            self._seat = <int><object>seat if seat != NULL else -1

    cdef int _read_question(self, long long r) except -2:
        """The question open now, from `r` (an unbuilt turn as `_unbuilt_turn` gives it, or -1:
        read the engine's table): kept in the `_q_` fields; returns its seat (-1: the hand is over)."""
        game = self._game
        if r >= 0:
            self._q_seat = <int>(r & 3)
            self._q_bits = (<unsigned long long>r >> 2) & 0x3FFFFFFFFULL
            self._q_step = r >> 36
            self._q_legal = None
            self._q_table = None
            return self._q_seat
        if self._asked_is_none():  # a plain turn left unbuilt by the deal or a draw: its bits
            if self._fast:
                r = _ENGINE.unbuilt_turn(game) if _ENGINE != NULL else _GAME_UNBUILT_TURN(game)
                if r >= 0:
                    return self._read_question(r)
        table = game._pending
        seat = _next_seat_in(table, game)
        self._q_seat = seat
        self._q_table = table
        self._q_legal = (<dict>table).get(seat) if seat >= 0 else None
        return seat

    cdef bint _question_open(self, int seat) except -1:
        """Whether the kept question is still `seat`'s question (nothing answered it, nothing built
        it since: the game is moved only by `step`, but a caller may read or move `table.game`)."""
        cdef PyObject* asked
        cdef PyObject* answers
        cdef long long step
        if seat != self._q_seat or seat < 0:
            return False
        game = self._game
        if self._fast and _ENGINE != NULL:  # (hot path: the engine's fields read in C, as `_question` gives them)
            asked = _ENGINE.question(game, &answers, &step)
            if self._q_table is None:
                return asked == NULL and step == self._q_step
            if asked != <PyObject*>self._q_table:
                return False
            if len(<dict>self._q_table) == 1:
                return True
            return type(<object>answers) is dict and seat not in <dict><object>answers
        if self._q_table is None:
            return game._asked is None and <long long>game.step == self._q_step
        if game._asked is not self._q_table:
            return False
        return len(<dict>self._q_table) == 1 or seat not in game._answers

    cdef bint _asked_is_none(self) except -1:
        """Whether the engine left the turn unbuilt (`Game._asked is None`)."""
        cdef PyObject* answers
        cdef long long step
        if self._fast and _ENGINE != NULL:
            return _ENGINE.question(self._game, &answers, &step) == NULL
        return self._game._asked is None

    cdef object _legal_now(self, int seat, unsigned long long* bits):
        """What `seat` (0..3) must answer now: the list of its legal actions (empty: nothing), or
        None for a plain turn left unbuilt, whose legal discards go to `bits` — from the kept
        question while it is still open, else from the engine's table (as `observe_into` reads it;
        a turn left unbuilt is built by that read)."""
        if self._question_open(seat):
            if self._q_legal is None:
                bits[0] = self._q_bits
            return self._q_legal
        actions = _asked_of(self._game, seat)
        return actions if actions is not None else []

    cdef object _reusable(self, int k):
        """Spare observation k's dict when nothing but this object refers to it or its arrays and
        it is unchanged, else None. (References: the dict's one is this object's; each array's two
        are this object's and the dict's.)"""
        if k == 0:
            d, obs, mask = self._dict0, self._obs0, self._mask0
        else:
            d, obs, mask = self._dict1, self._obs1, self._mask1
        # (the local names hold one more reference each while this runs)
        if d is None or mc_refcount(<PyObject*>d) != 2 or mc_refcount(<PyObject*>obs) != 3 \
                or mc_refcount(<PyObject*>mask) != 3 or not _holds_pair(<dict>d, obs, mask):
            return None
        return d

    cdef dict _new_spare(self, int k):
        """New observation arrays and their dict, kept as spare k."""
        obs = self._empty(self._obs_shape, self._uint8)
        mask = self._empty(self._size, self._int8)
        d = {_OBSERVATION_KEY: obs, _MASK_KEY: mask}
        if k == 0:
            self._dict0, self._obs0, self._mask0 = d, obs, mask
        else:
            self._dict1, self._obs1, self._mask1 = d, obs, mask
        return d

    cdef dict _observation(self, int seat):
        """`{"observation": ..., "action_mask": ...}` of `seat` (0..3), in a dict and arrays only the
        caller sees. Hot path: a new dict and two `numpy.empty` calls a decision were a tenth of an
        AEC loop, so the observation a caller dropped is written again (the loop's previous one is
        still bound while `last()` runs — it is rebound only after —, hence two spares); a spare's
        arrays are checked (`mc_peek_array`) before they are written: their last holder may have
        reshaped, retyped or frozen them."""
        global _peek_state
        cdef Py_buffer b, mb
        cdef bint held = False
        cdef unsigned char* o = NULL
        cdef signed char* m = NULL
        cdef unsigned long long bits = 0
        cdef int planes = _N_PLANES[self._rs]
        cdef int k = 0
        d = self._reusable(0)
        if d is None:
            k = 1
            d = self._reusable(1)
        if d is not None:
            obs = self._obs0 if k == 0 else self._obs1
            mask = self._mask0 if k == 0 else self._mask1
            if _peek_state == 1:
                o = <unsigned char*>mc_peek_array(<PyObject*>obs, <PyObject*>self._uint8, planes, 34)
                m = <signed char*>mc_peek_array(<PyObject*>mask, <PyObject*>self._int8, self._size, -1)
                if o == NULL or m == NULL:
                    d = None
            elif _acquire_pair(obs, mask, &b, &mb, planes, self._size):
                held = True
            else:
                d = None
        else:
            k = self._next_spare
            self._next_spare ^= 1
        if d is None:  # (none to reuse, or one its last holder changed: replaced)
            d = self._new_spare(k)
            obs = self._obs0 if k == 0 else self._obs1
            mask = self._mask0 if k == 0 else self._mask1
            if not _acquire_pair(obs, mask, &b, &mb, planes, self._size):
                raise InvalidArgumentError("AEC observation: numpy.empty gave arrays the encoder cannot write")
            held = True
            if _peek_state < 0:
                _peek_state = 1 if (mc_head_agrees(<PyObject*>obs, &b, <PyObject*>self._uint8)
                                    and mc_head_agrees(<PyObject*>mask, &mb, <PyObject*>self._int8)) else 0
        if held:
            o = <unsigned char*>b.buf
            m = <signed char*>mb.buf
        try:
            _encode_into(self._game, seat, self._rs, o)
            legal = self._legal_now(seat, &bits)
            if legal is None:
                _mask_of_discards(m, self._size, bits, self._discard_code)
            else:
                _mask_into(legal, self._code_of_uid, m, self._size)
        finally:
            if held:
                PyBuffer_Release(&mb)
                PyBuffer_Release(&b)
        return d

    def observe(self, agent):
        """The observation of `agent`: its planes and the mask of what it must answer now."""
        cdef PyObject* seat
        if not self._dealt:
            raise IllegalActionError("call reset() before observe()")
        seat = PyDict_GetItem(_SEAT_OF_AGENT, agent) if type(agent) is str else NULL
        if seat == NULL:
            raise InvalidArgumentError(f"agent must be one of {', '.join(_AGENTS)}, got {agent!r}")
        return self._observation(<int><object>seat)

    def last(self, bint observe=True):
        """(observation, cumulative reward, terminated, truncated, info) of `agent_selection`:
        PettingZoo's `AECEnv.last` without its `observe` hop (hot path: one call per decision)."""
        if not self._dealt:
            raise IllegalActionError("call reset() before last()")
        if not self.agents:
            _hand_over("last")
        agent = self._agent
        if not observe:
            observation = None
        elif self._own_observe and self._seat >= 0:
            observation = self._observation(self._seat)
        else:  # a subclass's own observe()
            observation = self.observe(agent)
        return (observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def step(self, action):
        """Answer for `agent_selection` (a code of the ruleset's ActionSpace; None for a done agent):
        IllegalActionError, with nothing changed, when it is not legal."""
        cdef int seat, overflow, nxt, s
        cdef long long code, r = -1
        cdef long uid = -1
        cdef Py_ssize_t m
        cdef long long d[4]
        if not self._dealt:
            raise IllegalActionError("call reset() before step()")
        if not self.agents:
            _hand_over("step")
        agent = self._agent
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent} is done: step(None) removes it (got {action!r})")
            if self._own_dead_step:
                self._dead_step()
            else:
                self._was_dead_step(action)
            return
        seat = self._seat
        game = self._game
        a = None
        if action.__class__ is int and seat >= 0:
            code = PyLong_AsLongLongAndOverflow(action, &overflow)
            if overflow == 0 and 0 <= code < self._size:
                a = self._action_of_code[code]
        if a is None:  # not a plain code: converted and checked as `_act` does (its errors)
            self._act(seat, action)
        elif seat == self._q_seat and self._fast:
            uid = _uid_of(a)
            if self._q_legal is None:
                if not (0 <= uid < 34 and _DISCARD[uid] is a and (self._q_bits >> uid) & 1):
                    uid = -1
            elif not _holds(<list>self._q_legal, a):
                uid = -1
            if uid < 0:
                game.act(seat, a)  # not in the question kept: `act` decides (and raises, changing nothing)
            elif _ENGINE != NULL:
                r = _ENGINE.answer_seen(game, seat, a, uid, self._q_table, self._q_step)
            else:
                r = _GAME_ANSWER_SEEN(game, seat, a, uid, self._q_table, self._q_step)
        else:
            game.act(seat, a)  # IllegalActionError, state unchanged
        nxt = self._read_question(r)
        self._cumulative_rewards[agent] = 0.0
        # rewards: each seat's ledger change since the last step (the new entries of an append-only ledger)
        m = len(self._entries)
        rewards = self.rewards
        if m != self._paid:
            _ledger_deltas(self._entries, self._paid, m, d)
            self._paid = m
            for s in range(4):
                rewards[_AGENTS[s]] = <double>d[s] * self._scale
            self._rewards_zero = False
        elif not self._rewards_zero:  # most steps pay nothing: the dict stays as it is
            for s in range(4):
                rewards[_AGENTS[s]] = 0.0
            self._rewards_zero = True
        if nxt < 0:  # the hand is over: every agent is done (agent_selection stays)
            for s in range(4):
                self.terminations[_AGENTS[s]] = True
        else:
            self._agent = _AGENTS[nxt]
            self._seat = nxt
        if self._rewards_zero:  # adding +0.0 everywhere would change nothing
            return
        if self._own_accumulate:
            cumulative = self._cumulative_rewards
            for agent, reward in rewards.items():
                cumulative[agent] += reward
        else:
            self._accumulate_rewards()

    cdef int _dead_step(self) except -1:
        """PettingZoo's `AECEnv._was_dead_step(None)` (the step of a done agent; 4 a hand, each ~2 µs
        in Python): `agent_selection` leaves every dict and `agents`; the next done agent is selected
        (the first time, the agent removed is kept in `_skip_agent_selection`), or, when none is
        left, the one kept is selected again; `rewards` cleared to 0."""
        agent = self._agent
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        done = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if done:
            if getattr(self, "_skip_agent_selection", None) is None:
                self._skip_agent_selection = self.agent_selection
            self.agent_selection = done[0]
        else:
            if getattr(self, "_skip_agent_selection", None) is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self.rewards
        for a in list(rewards):
            rewards[a] = 0
        self._rewards_zero = True
        return 0

    def sample_action(self, rng=None):
        """A uniformly random legal action code of `agent_selection` — the one at position
        floor(u · n) of its n legal actions, u = `rng.random()` — or None when that agent is done
        (so `env.step(env.sample_action(rng))` also removes done agents). The random policy, or an
        exploration step, at the cost of one random number: no mask is read. `rng`: anything with
        `random()` (a `random.Random`, a NumPy Generator), a seed for a new NumPy Generator, or None
        (fresh entropy). IllegalActionError when the agent has nothing to answer now."""
        cdef int seat, code
        cdef Py_ssize_t k, count
        cdef unsigned long long bits = 0
        cdef double u
        if not self._dealt:
            raise IllegalActionError("call reset() before sample_action()")
        if not self.agents:
            _hand_over("sample_action")
        agent = self._agent
        if self.terminations.get(agent) or self.truncations.get(agent):
            return None
        seat = self._seat
        if seat < 0:
            raise InvalidArgumentError(f"agent_selection must be one of {', '.join(_AGENTS)}, got {agent!r}")
        if rng is None or not hasattr(rng, "random"):
            rng = _numpy_generator(rng, "sample_action", " or anything with random() (a random.Random)")
        u = rng.random()  # (first: the caller's code runs here, before the question is read)
        legal = self._legal_now(seat, &bits)
        count = len(<list>legal) if legal is not None else mc_popcount64(bits)
        if count == 0:
            raise IllegalActionError(f"sample_action: {agent} has nothing to answer now")
        k = _pick(u, count)
        code = _code_at(legal, bits, k, self._discard_code, self._code_of_uid)
        if not 0 <= code < self._size:
            raise IllegalActionError(f"sample_action: {agent}'s legal action {k} has no code in the action space")
        return code

    def agent_iter(self, max_iter=2 ** 63):
        """PettingZoo's `agent_iter`: `agent_selection` until every agent is done, at most
        `max_iter` times (an iterator in C: one call per decision)."""
        return _AgentIterable(self, max_iter)


cdef class _AgentIterable:
    cdef AECCore env
    cdef object max_iter

    def __init__(self, AECCore env, max_iter):
        self.env = env
        self.max_iter = max_iter

    def __iter__(self):
        return _AgentIterator(self.env, self.max_iter)


cdef class _AgentIterator:
    cdef AECCore env
    cdef long long left

    def __init__(self, AECCore env, max_iter):
        self.env = env
        self.left = min(max_iter, 2 ** 63 - 1)

    def __iter__(self):
        return self

    def __next__(self):
        if not self.env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        return self.env.agent_selection
