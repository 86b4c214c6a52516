"""PettingZoo environments: `aec_env(ruleset, **rules)` and `parallel_env(ruleset, **rules)`.

Agents "player_0" .. "player_3" are seats 0..3. Observations are `{"observation": encode(game,
seat), "action_mask": legal_mask(game, seat)}`; an agent with nothing to answer sees an all-zero
mask. Rewards are each seat's ledger change since the previous step, times `reward_scale`; the hand
ends with every agent terminated (no truncation).

AEC: `agent_selection` is the seat the engine waits for (in a claim window with several pending
seats, the lowest unanswered one; the window resolves when the last has answered). Parallel: one
step answers the whole open window — every agent whose mask is not all zero; the actions of the
others are ignored.

`action_masks()`: the legal actions as bool arrays (AEC: of `agent_selection`, or the agent
given; parallel: a dict per agent) — the name maskable-PPO libraries call.
AEC `sample_action(rng)`: a uniformly random legal code of `agent_selection` (None for a done
agent), from one random number — the random policy without reading a mask.

Keyword arguments: `rules` (preset name, Rules or dict of overrides), `reward_scale`, `render_mode`
("ansi": the table as text; "rgb_array": as a picture, needs `pip install cairosvg pillow`; see
`render`), and the ruleset's game options (MCR `prevalent_wind`). Hand k after `reset(seed=S)` is
`new_game(ruleset, seed=S, hand_no=k, dealer=k % 4)`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Dict, Mapping, Optional

from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidTypeError
from mahjong_core.game.actions import SPACES
from mahjong_core.game.registry import game_class

from . import spaces
from ._deps import numpy, pettingzoo
from ._encode import AECCore, mask_into, observe_into
from .layout import N_PLANES
from .render import RENDER_MODES, available_render_modes, render_table
from .table import AGENTS, Table, to_code

__all__ = ["aec_env", "parallel_env"]

_SEAT = {a: i for i, a in enumerate(AGENTS)}


def _class(kind: str) -> Any:
    """The env classes are built on first use: they subclass PettingZoo's, which is imported lazily."""
    cls = _CLASSES.get(kind)
    if cls is None:
        pz = pettingzoo()
        # (AECCore first: its C `last`, `observe`, `step` and `agent_iter` come before PettingZoo's)
        # (`__reduce__` in the class itself: AECCore's, which cannot pickle a C object, comes first)
        _CLASSES["aec"] = type("MahjongAECEnv", (AECCore, _AECMixin, pz.AECEnv),
                               {"__doc__": _AECMixin.__doc__, "__reduce__": _Common.__reduce__})
        _CLASSES["parallel"] = type("MahjongParallelEnv", (_ParallelMixin, pz.ParallelEnv),
                                    {"__doc__": _ParallelMixin.__doc__})
        cls = _CLASSES[kind]
    return cls


_CLASSES: Dict[str, Any] = {}


def _restore(maker: Any, init: tuple, state: Dict[str, Any], attributes: Dict[str, Any]) -> Any:
    """An environment as `_Common.__reduce__` described it: built with the constructor's arguments
    (`maker`: "aec" / "parallel", or a subclass), given the original's Python attributes (a
    subclass's own among them) and set where the original's play stood."""
    ruleset, rules, reward_scale, render_mode, options = init
    cls = _class(maker) if isinstance(maker, str) else maker
    env = cls(ruleset, rules=rules, reward_scale=reward_scale, render_mode=render_mode, **options)
    env.__dict__.update(attributes)
    env._set_state(state)
    return env


def aec_env(ruleset: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of `ruleset` (see the module docstring)."""
    return _class("aec")(ruleset, **kwargs)


def parallel_env(ruleset: str, **kwargs: Any) -> Any:
    """A PettingZoo parallel environment of `ruleset` (see the module docstring)."""
    return _class("parallel")(ruleset, **kwargs)


class _Common:
    _kind: str  # "aec" or "parallel": the class `_restore` rebuilds

    # What a copy needs besides the Python attributes `__reduce__` copies (the table, `_started`,
    # the parallel env's `agents` are among those): the AEC env's C fields.
    def _get_state(self) -> Dict[str, Any]:
        return {}

    def _set_state(self, state: Dict[str, Any]) -> None:
        pass

    def _setup(self, ruleset: str, rules: Any, reward_scale: float, render_mode: Optional[str],
               options: Dict[str, Any]) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidArgumentError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        self.table = Table(ruleset, rules, reward_scale, **options)
        self._init = (ruleset, rules, reward_scale, render_mode, dict(options))  # (for copies: `__reduce__`)
        self.ruleset = self.table.ruleset
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        # not "parallelizable" in PettingZoo's sense: `aec_to_parallel` needs agents that act in a
        # cycle, and a claim window asks seats out of turn; `parallel_env` is the native parallel form
        self.metadata = {"name": f"mahjong_core_{self.ruleset}_v0", "render_modes": list(available_render_modes()),
                         "render_fps": 4, "is_parallelizable": False}
        # (each agent its own space objects: a space carries a random stream, see `spaces`)
        self.observation_spaces = {a: spaces.observation_space(self.ruleset) for a in AGENTS}
        self.action_spaces = {a: spaces.action_space(self.ruleset) for a in AGENTS}
        self._np = np = numpy()
        self._obs_shape = (N_PLANES[self.ruleset], 34)
        self._mask_len = self.action_spaces[AGENTS[0]].n
        self._uint8, self._int8 = np.dtype(np.uint8), np.dtype(np.int8)  # dtype objects: np.empty skips converting a type
        self._action_of_code = SPACES[self.ruleset].actions
        self.agents: list = []
        self._started = False

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[self._agent_name(agent)]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[self._agent_name(agent)]

    @staticmethod
    def _agent_name(agent: Any) -> str:
        if not isinstance(agent, str) or agent not in _SEAT:
            raise InvalidArgumentError(f"agent must be one of {', '.join(AGENTS)}, got {agent!r}")
        return agent

    def _observe(self, seat: int) -> Dict[str, Any]:
        empty = self._np.empty
        obs = empty(self._obs_shape, self._uint8)
        mask = empty(self._mask_len, self._int8)
        observe_into(self.table.game, seat, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def _act(self, seat: int, action: Any) -> None:
        code = to_code(action)
        if 0 <= code < len(self._action_of_code):  # the Action itself: the engine need not decode the code
            action = self._action_of_code[code]
        else:
            action = code  # the engine's own error for a code out of range
        self.table.game.act(seat, action)  # raises IllegalActionError, state unchanged

    def _mask_of(self, agent: str) -> Any:
        agent = self._agent_name(agent)
        np = self._np
        if not self._started:
            return np.zeros(self._mask_len, np.bool_)
        mask = np.empty(self._mask_len, np.int8)
        mask_into(self.table.game.legal_actions(_SEAT[agent]), self.table.game.space.code_of_uid, mask)
        return mask.astype(np.bool_)

    def render(self) -> Any:
        """"ansi": the whole table as text (`render.table_text`); "rgb_array": the viz SVG as an
        (H, W, 3) uint8 array (`render.table_rgb`: needs `pip install cairosvg pillow`); None
        without a render mode or before the first `reset()`."""
        return render_table(self.table.game, self.render_mode)

    def close(self) -> None:
        pass

    def __reduce__(self) -> Any:
        """Pickling and `copy.deepcopy` — SuperSuit's vector wrappers copy an environment so, search
        bots copy one to look ahead: the constructor's arguments and where play stands (the table,
        whose game pickles whole, and PettingZoo's attributes). The copy plays on as the original
        would and shares nothing with it. A subclass is copied as itself (its constructor called
        with the same arguments), with its own attributes."""
        cls = type(self)
        maker = self._kind if cls is _CLASSES.get(self._kind) else cls  # (the built classes by name)
        attributes = {k: v for k, v in self.__dict__.items() if not isinstance(v, ModuleType)}
        return (_restore, (maker, self._init, self._get_state(), attributes))

    def __repr__(self) -> str:
        """`MahjongAECEnv('mcr', seed 1, hand 0, step 12, agent_selection='player_2')`; `str(env)`
        stays PettingZoo's (the metadata name)."""
        text = f"{type(self).__name__}({self.ruleset!r}, {self.table.where()}"
        selection = getattr(self, "agent_selection", None)
        if self.table.game is not None and self.agents and isinstance(selection, str):
            text += f", agent_selection={selection!r}"
        return text + ")"


class _AECMixin(_Common):
    """PettingZoo AEC environment of one ruleset (mahjong_core.env.pettingzoo_env).

    Its per-decision methods — `last`, `observe`, `step`, `agent_iter` — are `_encode.AECCore`'s,
    in C; `agent_selection`, `agents`, `rewards`, `_cumulative_rewards`, `terminations`,
    `truncations` and `infos` are that class's attributes (PettingZoo's, read and written as ever)."""

    agent_selection: str  # (an annotation only: the attribute is AECCore's property)

    def __init__(self, ruleset: str, *, rules: Any = None, reward_scale: float = 1.0,
                 render_mode: Optional[str] = None, **options: Any) -> None:
        super().__init__()
        self._setup(ruleset, rules, reward_scale, render_mode, options)
        self._prepare(self.ruleset, SPACES[self.ruleset], game_class(self.ruleset),  # type: ignore[attr-defined]
                      self.table.reward_scale)

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        game = self.table.reset(seed)
        self._started = True
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}  # type: ignore[var-annotated]
        self._begin(game)  # type: ignore[attr-defined]  # its first question; agent_selection: the seat asked

    _kind = "aec"

    def _get_state(self) -> Dict[str, Any]:
        if not self._started:
            return {}
        paid, rewards_zero = self._snapshot()  # type: ignore[attr-defined]
        return dict(agents=self.agents, rewards=self.rewards, cumulative=self._cumulative_rewards,
                    terminations=self.terminations, truncations=self.truncations, infos=self.infos,
                    agent_selection=self.agent_selection, paid=paid, rewards_zero=rewards_zero)

    def _set_state(self, state: Dict[str, Any]) -> None:
        if self._started:  # (`table` and `_started` are the original's: `_restore` set them)
            self.agents = state["agents"]
            self.rewards = state["rewards"]
            self._cumulative_rewards = state["cumulative"]
            self.terminations = state["terminations"]
            self.truncations = state["truncations"]
            self.infos = state["infos"]
            self._resume(self.table.game, state["paid"], state["rewards_zero"],  # type: ignore[attr-defined]
                         state["agent_selection"])

    def action_masks(self, agent: Optional[str] = None) -> Any:
        """The legal actions of `agent` (default: `agent_selection`) as a bool array of shape (A,)
        (the name maskable-PPO libraries call; the same as its observation's "action_mask")."""
        if agent is None:
            if not self._started:
                raise IllegalActionError("call reset() before action_masks() (or name the agent)")
            agent = self.agent_selection
        return self._mask_of(agent)


class _ParallelMixin(_Common):
    """PettingZoo parallel environment of one ruleset (mahjong_core.env.pettingzoo_env)."""

    def __init__(self, ruleset: str, *, rules: Any = None, reward_scale: float = 1.0,
                 render_mode: Optional[str] = None, illegal_action: str = "raise", **options: Any) -> None:
        if illegal_action not in ("raise", "default"):
            raise InvalidArgumentError(f"illegal_action must be 'raise' or 'default', got {illegal_action!r}")
        self._setup(ruleset, rules, reward_scale, render_mode, options)
        self.illegal_action = illegal_action

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> Any:
        self.table.reset(seed)
        self._started = True
        self.agents = list(AGENTS)
        return {a: self._observe(s) for s, a in enumerate(AGENTS)}, {a: {} for a in AGENTS}

    _kind = "parallel"

    def action_masks(self) -> Dict[str, Any]:
        """Every agent's legal actions as a bool array of shape (A,) (all False for an agent with
        nothing to answer): the masks of the observations `step` returned."""
        return {a: self._mask_of(a) for a in AGENTS}

    def step(self, actions: Dict[str, Any]) -> Any:
        if not self._started or not self.agents:
            raise IllegalActionError("the hand is over: call reset() before step()")
        if not isinstance(actions, Mapping):
            raise InvalidTypeError(f"step takes {{agent: action code}} for the agents that must answer, got "
                                   f"{type(actions).__name__}")
        unknown = [k for k in actions if k not in AGENTS]
        if unknown:  # (a typo would otherwise be ignored as the actions of agents not asked are)
            raise IllegalActionError(f"step: {', '.join(repr(k)[:40] for k in unknown[:4])} "
                                     f"{'is no agent' if len(unknown) == 1 else 'are no agents'}; the agents: "
                                     f"{', '.join(AGENTS)}")
        game = self.table.game
        waiting = [s for s in sorted(game._pending) if s not in game._answers]
        missing = [AGENTS[s] for s in waiting if AGENTS[s] not in actions]
        if missing:
            raise IllegalActionError(f"step: no action for {', '.join(missing)} (must answer now)")
        chosen = []
        defaulted = set()
        for s in waiting:  # check all before the first act: all or nothing
            try:
                chosen.append(self._legal_action(game, s, actions[AGENTS[s]]))
            except IllegalActionError:
                if self.illegal_action == "raise":
                    raise
                chosen.append(game.default_action(s))
                defaulted.add(AGENTS[s])
        for s, action in zip(waiting, chosen):
            game.act(s, action)
        deltas = self.table.deltas()
        scale = self.table.reward_scale
        rewards = {a: (deltas[s] * scale if deltas is not None else 0.0) for s, a in enumerate(AGENTS)}
        done = game.finished
        obs = {a: self._observe(s) for s, a in enumerate(AGENTS)}
        terminations = {a: done for a in AGENTS}
        truncations = {a: False for a in AGENTS}
        infos = {a: ({"illegal_action": True} if a in defaulted else {}) for a in AGENTS}
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    @staticmethod
    def _legal_action(game: Any, seat: int, given: Any) -> Any:
        """The Action of code `given` when `seat` may play it now; IllegalActionError otherwise."""
        action = game.space.action(to_code(given))  # (its own errors for a non-code, a code out of range)
        legal = game._pending[seat]
        if action not in legal:
            raise IllegalActionError(f"step: {action!r} is not legal for {AGENTS[seat]}; legal: {legal}")
        return action
