"""`VectorEnv(ruleset, num_envs, opponents=None)`: N hands stepped together (Gymnasium VectorEnv).

- `opponents=None` (self-play): one policy plays every seat. Each step answers, in every sub-env,
  for the seat that must act next; `infos["seat"][i]` says which seat row i's observation and mask
  belong to. `rewards[i]` is that seat's ledger change during the step; `infos["seat_rewards"][i]`
  every seat's (shape (N, 4)).
- With `opponents` (three bots, or one bot / name for all three; see `opponents.resolve_opponents`):
  the learner is seat `seat` (default 0) in every sub-env and the others play inside the step;
  `rewards[i]` is the learner's ledger change.

Observations `{"observation": (N, C, 34) uint8, "action_mask": (N, A) int8}` are written into arrays
preallocated once (the same arrays every step: copy what you keep); rewards, terminations and the
infos' arrays are new each step (truncations: one read-only array of False). Autoreset is "same
step": when a hand ends, `terminations[i]` is True and row i already holds the first observation of
the next hand (rewards are those of the hand that ended; with `final_info=True`,
`infos["final_obs"]` / `infos["final_info"]` its end). Seeding: `reset(seed=S)` gives sub-env i the
seed S + i (or `seed=[S0, S1, ...]` one each); its hands are then hand 0, 1, ... of that seed, so a
sub-env's run is reproducible whatever N is (a first `reset()` draws S from entropy). Bot objects
play as one copy per sub-env. Actions: an array of N codes; an illegal one raises
IllegalActionError, naming the row, before any sub-env moves. `action_masks()`: the (N, A) bool
masks (the name maskable-PPO libraries call). docs/OBSERVATION.md ("VectorEnv") is the user's
reference.
"""

from __future__ import annotations

import copy
from typing import Any, List, Optional, Sequence, Tuple

from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidTypeError
from mahjong_core.game import native
from mahjong_core.game.bots import is_bot
from mahjong_core.game.actions import SPACES
from mahjong_core.game.registry import game_class

from . import spaces
from ._deps import gymnasium, numpy, numpy_generator
from ._encode import StepKernel, observe_into
from .layout import N_PLANES
from .opponents import bot_rng, play_until, resolve_opponents, start_hand
from .table import Table, check_env_seed, entropy_seed, integer_arg, next_seat, to_code

__all__ = ["VectorEnv", "make_vector_env"]

_gym = gymnasium()
np_ndarray = numpy().ndarray


class VectorEnv(_gym.vector.VectorEnv):  # type: ignore[name-defined]
    """N hands of one ruleset (see the module docstring)."""

    def __init__(self, ruleset: str, num_envs: int, opponents: Any = None, *, seat: int = 0, rules: Any = None,
                 reward_scale: float = 1.0, final_info: bool = False, **options: Any) -> None:
        num_envs = integer_arg(num_envs, 1, None, "num_envs must be a positive integer")
        seat = integer_arg(seat, 0, 3, "seat must be 0..3")
        if final_info is not True and final_info is not False:
            raise InvalidArgumentError(f"final_info is True or False, got {final_info!r}")
        #: report each ended hand as Gymnasium's same-step autoreset does (`final_obs`, `final_info`):
        #: ~10 % of a 64-row step, so on request (`gymnasium.make_vec` asks for it)
        self.final_info = final_info
        np = numpy()
        self._init = (ruleset, num_envs, opponents, seat, rules, reward_scale, dict(options))  # (copies: __reduce__)
        self.tables = [Table(ruleset, rules, reward_scale, **options) for _ in range(num_envs)]
        self.ruleset = self.tables[0].ruleset
        self.num_envs = num_envs
        self.reward_scale = float(reward_scale)
        self.self_play = opponents is None
        self.learner = seat
        self._bots: List[List[Any]] = []
        self._native: List[Any] = [None] * num_envs  # per sub-env: its hand's native-loop seats (game/native.py)
        if not self.self_play:
            for _ in range(num_envs):  # each sub-env its own bot objects (bots keep per-hand state)
                bots = resolve_opponents(_fresh(opponents))
                row: List[Any] = [None] * 4
                for k, bot in enumerate(bots):
                    row[(seat + 1 + k) % 4] = bot
                self._bots.append(row)
        self.single_observation_space = spaces.observation_space(self.ruleset)
        self.single_action_space = spaces.action_space(self.ruleset)
        self.observation_space = _gym.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = _gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": _gym.vector.AutoresetMode.SAME_STEP}
        self._obs = np.zeros((num_envs, N_PLANES[self.ruleset], 34), np.uint8)
        self._masks = np.zeros((num_envs, self.single_action_space.n), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._seat_rewards = np.zeros((num_envs, 4), np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)  # (never set: a hand ends by its rules)
        self._truncated.flags.writeable = False
        self._seat_arr = np.full(num_envs, -1, np.int64)
        self._games: List[Any] = [None] * num_envs
        self._ended: List[Tuple[int, int, Any]] = []  # this step's ended hands: (row, seat, game)
        self._started = False
        play = None if self.self_play else self._play
        self._kernel = StepKernel(self._games, self.ruleset, SPACES[self.ruleset], self.reward_scale,
                                  self._seat_arr, np.zeros(num_envs, np.int64), self._obs, self._masks, self._rewards,
                                  self._seat_rewards, self._terminated.view(np.uint8), self._deal_next, play,
                                  game_class(self.ruleset))  # (its plain turns may be left unbuilt: StepKernel)

    def __reduce__(self) -> Any:
        """Pickling and `copy.deepcopy`: the constructor's arguments and where each sub-environment's
        play stands (its table and game, the acting seat, what its ledger paid out, the opponents'
        bots with their random streams, the last step's rewards and flags). The copy steps on as the
        original would and shares nothing with it."""
        state = {"started": self._started, "tables": self.tables, "games": list(self._games),
                 "seats": self._seat_arr.tolist(), "paid": self._kernel.paid_counts(), "bots": self._bots,
                 "rewards": self._rewards.copy(), "seat_rewards": self._seat_rewards.copy(),
                 "terminated": self._terminated.copy(), "final_info": self.final_info}
        return (_restore, (type(self), self._init, state))

    def __repr__(self) -> str:
        """`VectorEnv('mcr', num_envs=64, self-play, 1,234 hands dealt since reset)`."""
        who = "self-play" if self.self_play else f"learner at seat {self.learner} against bots"
        if not self._started:
            return f"VectorEnv({self.ruleset!r}, num_envs={self.num_envs}, {who}, before reset())"
        dealt = sum(table.hand_no + 1 for table in self.tables)
        return f"VectorEnv({self.ruleset!r}, num_envs={self.num_envs}, {who}, {dealt:,} hands dealt since reset)"

    # -- hands -------------------------------------------------------------------------------------

    @property
    def bots(self) -> List[List[Any]]:
        """The bots playing in each sub-env: `bots[i][seat]`, None at the learner's seat (all None in
        self-play). Bot objects given to the constructor play as copies, one per sub-env (`_fresh`)."""
        if self.self_play:
            return [[None] * 4 for _ in range(self.num_envs)]
        return [list(row) for row in self._bots]

    def _deal(self, i: int, seed: Optional[int]) -> None:
        table = self.tables[i]
        while True:
            game = table.reset(seed)
            seed = None
            if self.self_play:
                seat = next_seat(game)
            else:
                start_hand(self._bots[i], bot_rng(table.seed, table.hand_no))
                self._native[i] = native.seats_for(game, self._bots[i])
                seat = play_until(game, self.learner, self._bots[i], self._native[i])
            if seat >= 0:
                break
        self._games[i] = game
        self._seat_arr[i] = seat
        self._kernel.set_paid(i, len(game.ledger))  # what was paid before the first decision is no reward

    def _deal_next(self, i: int) -> None:
        """Row i's hand is over (called by the step kernel): kept for the step's `final_obs` /
        `final_info` — the seat whose decision ended it (the learner, with opponents) — then the
        next hand is dealt."""
        if self.final_info:
            self._ended.append((i, int(self._seat_arr[i]), self._games[i]))
        self._deal(i, None)

    def _final_infos(self, infos: dict) -> None:
        """Gymnasium's same-step autoreset entries for the rows whose hand ended this step:
        `final_obs` (an object array: row i's observation of the hand's end for the seat of its
        last decision, mask all zero) and `final_info` (`{"seat": ..., "totals": (N, 4) the hand's
        ledger totals}`), each key with its `_key` row mask, as `gymnasium.vector.VectorEnv._add_info`
        lays them out."""
        np = numpy()
        n = self.num_envs
        final_obs = np.full(n, None, dtype=object)
        seats = np.zeros(n, np.int64)
        totals = np.zeros((n, 4), np.int64)
        ended = np.zeros(n, np.bool_)
        for i, seat, game in self._ended:
            obs = np.empty((N_PLANES[self.ruleset], 34), np.uint8)
            mask = np.empty(self._masks.shape[1], np.int8)
            observe_into(game, seat, obs, mask)
            final_obs[i] = {"observation": obs, "action_mask": mask}
            seats[i] = seat
            totals[i] = game.ledger.totals()
            ended[i] = True
        infos["final_obs"], infos["_final_obs"] = final_obs, ended
        infos["final_info"] = {"seat": seats, "_seat": ended.copy(), "totals": totals, "_totals": ended.copy()}
        infos["_final_info"] = ended.copy()

    def _play(self, i: int) -> int:
        return play_until(self._games[i], self.learner, self._bots[i], self._native[i])

    def _observe(self) -> Any:
        self._kernel.observe()
        return {"observation": self._obs, "action_mask": self._masks}

    def reset(self, *, seed: Any = None, options: Optional[dict] = None) -> Tuple[Any, dict]:
        n = self.num_envs
        if seed is None:  # the next hand of each row; the first time, rows S..S+N-1 of a seed S drawn from entropy
            base = None if self._started else entropy_seed()
            seeds: Sequence[Optional[int]] = [None if base is None else base + i for i in range(n)]
        elif hasattr(seed, "__index__") and not isinstance(seed, bool):  # an int, NumPy's included
            seeds = [check_env_seed(seed) + i for i in range(n)]
        else:
            try:
                seeds = [None if s is None else check_env_seed(s) for s in seed]
            except TypeError:
                raise InvalidTypeError(f"reset: seed is an integer, one per sub-env ({n}) or None, got {seed!r}") from None
            if len(seeds) != n:
                raise InvalidArgumentError(f"reset: give one seed per sub-env ({n}), got {len(seeds)}")
        for i in range(n):
            self._deal(i, seeds[i])
        self._started = True
        self._ended.clear()
        return self._observe(), {"seat": self._seat_arr.copy()}

    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, dict]:
        """Every sub-env's acting seat answers `actions[i]`. Returns the observations (this env's
        arrays, rewritten every step), and rewards, terminations and the infos' arrays as new
        arrays each step (Gymnasium's vector envs' convention: keep them as they are); truncations
        is a read-only array of False."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        if self.closed:
            raise IllegalActionError("this VectorEnv is closed: make a new one")
        n = self.num_envs
        try:
            given = len(actions)
        except TypeError:
            raise InvalidTypeError(f"step takes {n} action codes (an array or a sequence), "
                                   f"got {type(actions).__name__}") from None
        if given != n:
            raise IllegalActionError(f"step: give {n} actions (one per sub-env), got {given}")
        if actions.__class__ is np_ndarray and actions.ndim == 1 and actions.dtype.kind in "iu":
            codes = actions.tolist()  # exact Python ints (the common case: a policy's argmax)
        else:
            codes = [to_code(a) for a in actions]
        ended = self._ended  # (filled only with final_info)
        if ended:
            ended.clear()
        self._kernel.step(codes)  # checks all first (IllegalActionError, nothing moved), then plays
        obs = {"observation": self._obs, "action_mask": self._masks}
        # (no "_seat" masks: every row has both, which Gymnasium's info wrappers take a missing mask to mean)
        infos = {"seat": self._seat_arr.copy(), "seat_rewards": self._seat_rewards.copy()}
        if ended:
            self._final_infos(infos)
        # truncations: never any, one read-only array of False for every step
        return obs, self._rewards.copy(), self._terminated.copy(), self._truncated, infos

    def sample_actions(self, rng: Any = None) -> Any:
        """A uniformly random legal action code for every sub-env's acting seat: an int64 array of
        shape (N,), ready for `step`. The random policy (or an exploration step) at the cost of N
        random numbers, where `argmax(random((N, A)) * action_mask)` draws N·A of them. `rng`: a
        NumPy Generator, a seed, or None (fresh entropy)."""
        if not self._started:
            raise IllegalActionError("call reset() before sample_actions()")
        np = numpy()
        rng = numpy_generator(rng, "sample_actions")
        out = np.empty(self.num_envs, np.int64)
        self._kernel.sample(rng.random(self.num_envs), out)
        return out

    def action_masks(self) -> Any:
        """The acting seat's legal actions in every sub-env: a bool array of shape (N, A), a copy of
        the observation's "action_mask" (the name maskable-PPO libraries call)."""
        if not self._started:
            raise IllegalActionError("call reset() before action_masks()")
        return self._masks.astype(numpy().bool_)

    def close_extras(self, **kwargs: Any) -> None:
        pass


_SINGLE_ENV_ONLY = ("render_mode", "illegal_action")


def make_vector_env(num_envs: int = 1, ruleset: str = "sichuan", opponents: Any = None, **kwargs: Any) -> VectorEnv:
    """`gymnasium.make_vec("mahjong_core/Sichuan-v0", num_envs=N, ...)`'s native vector env (the ids'
    `vector_entry_point`): N rows of what `gymnasium.make(id, ...)` plays — a learner against three
    bots (three GreedyBots unless `opponents` says otherwise), as one `VectorEnv`, with no
    sub-env objects and same-step autoreset. For self-play, build `VectorEnv(ruleset, N)` itself."""
    given = [name for name in _SINGLE_ENV_ONLY if name in kwargs]
    if kwargs.get("seat") == "random":
        given.append("seat='random'")
    if given:
        raise InvalidArgumentError(
            f"make_vec's native VectorEnv has no {', '.join(given)}: pass vectorization_mode='sync' to step N "
            f"single environments instead")
    kwargs.setdefault("final_info", True)  # (Gymnasium's own vector envs report the end of an episode)
    return VectorEnv(ruleset, num_envs, "greedy" if opponents is None else opponents, **kwargs)


def _fresh(opponents: Any) -> Any:
    """The opponents of one sub-env: bot names stay names (`make_bot` builds new bots); each bot
    object is copied with `copy.copy` — its own attributes (its random stream, what `new_hand`
    sets) belong to that sub-env, while what they refer to (a network, a policy function) stays
    shared. A bot shared by the sub-envs would be reseeded by every hand any of them deals, and a
    sub-env's play would depend on N. One object at several seats stays one object in each copy."""
    if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
        return _copy_bot(opponents) if is_bot(opponents) else opponents
    copies: dict = {}
    for bot in opponents:
        if not isinstance(bot, str) and is_bot(bot) and id(bot) not in copies:
            copies[id(bot)] = _copy_bot(bot)
    return [copies.get(id(bot), bot) for bot in opponents]


def _copy_bot(bot: Any) -> Any:
    try:
        return copy.copy(bot)
    except Exception as error:
        raise InvalidArgumentError(
            f"VectorEnv gives every sub-env its own copy of a bot object (copy.copy), and {bot!r} cannot be "
            f"copied ({type(error).__name__}: {error}); give its class a __copy__ method, or pass a bot name") from None


def _restore(cls: Any, init: tuple, state: Any) -> "VectorEnv":
    """A `VectorEnv` as `VectorEnv.__reduce__` described it."""
    ruleset, num_envs, opponents, seat, rules, reward_scale, options = init
    env = cls(ruleset, num_envs, opponents, seat=seat, rules=rules, reward_scale=reward_scale,
              final_info=state.get("final_info", False), **options)
    if state["started"]:
        env.tables = state["tables"]
        env._games[:] = state["games"]  # (in place: the step kernel holds this list)
        env._bots = state["bots"]
        for i, game in enumerate(env._games):
            env._seat_arr[i] = state["seats"][i]
            env._kernel.set_paid(i, state["paid"][i])
            if not env.self_play:
                env._native[i] = native.seats_for(game, env._bots[i])
        for name in ("rewards", "seat_rewards", "terminated"):
            getattr(env, "_" + name)[...] = state[name]
        env._kernel.observe()
        env._started = True
    return env
