"""Gymnasium single-agent environment: one learner seat against built-in or user-supplied opponents.

    import gymnasium, mahjong_core.env          # importing mahjong_core.env registers the ids below
    env = gymnasium.make("mahjong_core/Sichuan-v0", opponents=["greedy", "random", "greedy"])

Ids: mahjong_core/Sichuan-v0, mahjong_core/MCR-v0, mahjong_core/Changbai-v0 (see `registration`:
`import mahjong_core.env` registers them, before or after `import gymnasium`). An episode is one
hand. Observation: `{"observation": (C, 34) uint8, "action_mask": (A,) int8}`; action: a code of
the ruleset's ActionSpace; reward: the learner's ledger change during the step (its answer and the
opponents' answers after it), times `reward_scale`. `seat`: the learner's seat (0..3) or "random" (drawn
from the seed each hand). `reset(seed=S)` deals hand 0 of S; `reset()` the next hand (the first
time: hand 0 of a seed drawn from entropy, `table.seed`).

`illegal_action`: "raise" (default) — an illegal or out-of-range action raises IllegalActionError
and changes nothing; "default" — the learner's `Game.default_action` is played instead and
`info["illegal_action"]` is True (for unmasked samplers; Gymnasium's `check_env` steps with
`action_space.sample()`, which ignores the mask; docs/OBSERVATION.md's first example).

`action_masks()`: the learner's legal actions as a bool array (for maskable-PPO libraries).
`render_mode`: "ansi" (the table as text) or "rgb_array" (the table as a picture, needs
`pip install cairosvg pillow`); see `render`.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from mahjong_core.errors import IllegalActionError, InvalidArgumentError
from mahjong_core.game import native

from . import spaces
from ._deps import gymnasium, numpy
from ._encode import mask_into, observe_into
from .layout import N_PLANES
from .opponents import bot_rng, play_until, resolve_opponents, start_hand
from .registration import ENV_IDS, register_envs
from .render import RENDER_MODES, available_render_modes, render_table
from .table import Table, check_env_seed, to_code

__all__ = ["MahjongEnv", "register_envs", "ENV_IDS"]

_gym = gymnasium()


class MahjongEnv(_gym.Env):  # type: ignore[name-defined]
    """Single-agent mahjong (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __repr__(self) -> str:
        """`MahjongEnv('mcr', seat 0, seed 1, hand 0, step 12)`; `str(env)` stays Gymnasium's."""
        seat = f"seat {self.seat}" + (" (random each hand)" if self._seat_rule == "random" else "")
        return f"MahjongEnv({self.ruleset!r}, {seat}, {self.table.where()})"

    def __init__(self, ruleset: str = "sichuan", opponents: Any = None, *, seat: Any = 0, rules: Any = None,
                 reward_scale: float = 1.0, render_mode: Optional[str] = None, illegal_action: str = "raise",
                 **options: Any) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidArgumentError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        if illegal_action not in ("raise", "default"):
            raise InvalidArgumentError(f"illegal_action must be 'raise' or 'default', got {illegal_action!r}")
        self.illegal_action = illegal_action
        # (this installation's modes; the class lists every mode `render_mode` takes)
        self.metadata = {**type(self).metadata, "render_modes": list(available_render_modes())}
        self.table = Table(ruleset, rules, reward_scale, **options)
        self.ruleset = self.table.ruleset
        self.opponents = resolve_opponents(opponents)
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 4)):
            raise InvalidArgumentError(f"seat must be 0..3 or 'random', got {seat!r}")
        self._seat_rule = seat
        self.seat = 0 if seat == "random" else seat
        self.render_mode = render_mode
        self.observation_space = spaces.observation_space(self.ruleset)
        self.action_space = spaces.action_space(self.ruleset)
        np = numpy()
        self._obs = np.zeros((N_PLANES[self.ruleset], 34), np.uint8)
        self._mask = np.zeros(self.action_space.n, np.int8)
        self._bots: list = [None] * 4
        self._native: Any = None  # the hand's native-loop seats of the opponents (game/native.py)
        self._done = True

    def __getstate__(self) -> Dict[str, Any]:
        """Pickling and `copy.deepcopy` (search bots copy an env to look ahead): everything but the
        opponents' native-loop handles, which hold the bots' random streams as bound built-in
        methods — `deepcopy` would share those with the original, and playing the copy would move
        the original's opponents. `__setstate__` reads them off the copied bots."""
        state = self.__dict__.copy()
        state["_native"] = None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if not self._done:
            self._native = native.seats_for(self.table.game, self._bots)

    def _observation(self) -> Dict[str, Any]:
        observe_into(self.table.game, self.seat, self._obs, self._mask)  # (all zero mask: nothing to answer)
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def _learner_reward(self) -> float:
        deltas = self.table.deltas()
        return 0.0 if deltas is None else deltas[self.seat] * self.table.reward_scale

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[Dict[str, Any], dict]:
        if seed is not None:
            seed = check_env_seed(seed)  # (before Gymnasium's own check, which raises its own error class)
        super().reset(seed=seed)
        table = self.table
        game = table.reset(seed)
        while True:
            if self._seat_rule == "random":
                self.seat = bot_rng(table.seed, table.hand_no).randrange(4)
            start_hand(self.opponents, bot_rng(table.seed, table.hand_no))
            self._bots = [None] * 4
            for k, bot in enumerate(self.opponents):
                self._bots[(self.seat + 1 + k) % 4] = bot
            self._native = native.seats_for(game, self._bots)
            if play_until(game, self.seat, self._bots, self._native) >= 0:
                break
            game = table.reset()  # the hand ended without a decision of the learner (never in practice)
        table.deltas()
        self._done = False
        return self._observation(), {"seat": self.seat, "hand_no": table.hand_no}

    def step(self, action: Any) -> Tuple[Dict[str, Any], float, bool, bool, dict]:
        if self._done:
            raise IllegalActionError("the hand is over: call reset() before step()")
        game = self.table.game
        info: Dict[str, Any] = {"seat": self.seat}
        try:
            game.act(self.seat, to_code(action))  # IllegalActionError, nothing changed
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            game.act(self.seat, game.default_action(self.seat))
            info["illegal_action"] = True
        play_until(game, self.seat, self._bots, self._native)
        reward = self._learner_reward()
        self._done = game.finished
        if self._done:
            info["totals"] = game.ledger.totals()
        return self._observation(), reward, self._done, False, info

    def action_masks(self) -> Any:
        """The learner's legal actions now: a bool array of shape (A,) (the name maskable-PPO
        libraries call; the same as the observation's "action_mask"). All False when the hand is
        over or before the first `reset()`."""
        np = numpy()
        if self._done:
            return np.zeros(self.action_space.n, np.bool_)
        game = self.table.game
        actions = game._pending.get(self.seat) if self.seat not in game._answers else None
        mask_into(actions or [], game.space.code_of_uid, self._mask)
        return self._mask.astype(np.bool_)

    def render(self) -> Any:
        """"ansi": the whole table as text (`render.table_text`); "rgb_array": the viz SVG as an
        (H, W, 3) uint8 array (`render.table_rgb`: needs `pip install cairosvg pillow`); None
        without a render mode or before the first `reset()`."""
        return render_table(self.table.game, self.render_mode)


register_envs(_gym)  # importing this module directly registers the ids too
