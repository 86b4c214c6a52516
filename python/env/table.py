"""The driver of one hand shared by the environments: whose answer is next, actions by code, rewards.

A "table" is a `Game` plus the ledger totals already paid out as rewards. It reads the engine's
pending table directly (hot path: one call per decision; `Game.pending()` would copy every list).
"""

from __future__ import annotations

import numbers
import operator
import secrets

from typing import Any, List, Optional

from mahjong_core.errors import IllegalActionError, InvalidArgumentError
from mahjong_core.game.registry import check_ruleset, game_class
from mahjong_core.game.simulate import SeededTable
from mahjong_core.game.start import new_game

__all__ = ["next_seat", "to_code", "Table", "AGENTS", "entropy_seed"]

AGENTS = ("player_0", "player_1", "player_2", "player_3")


def next_seat(game: Any) -> int:
    """The seat whose answer the engine waits for next (the lowest unanswered seat of the open
    window), or -1 when the hand is over."""
    pending = game._pending
    if len(pending) == 1:
        for seat in pending:
            return seat
    answered = game._answers
    best = -1
    for seat in pending:
        if seat not in answered and (best < 0 or seat < best):
            best = seat
    return best


def to_code(action: Any) -> int:
    """An action id from a policy (int or NumPy integer) as a Python int; IllegalActionError otherwise."""
    if action.__class__ is int:
        return action
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise IllegalActionError(f"an action is an integer code of the ruleset's ActionSpace, got {action!r}")
    try:
        return action.__index__()
    except TypeError:
        raise IllegalActionError(f"an action is an integer code of the ruleset's ActionSpace, got {action!r}") from None


def integer_arg(value: Any, low: int, high: Optional[int], what: str) -> int:
    """An integer argument of the environments as a Python int in low..high (NumPy's integers too;
    a bool is none); InvalidArgumentError "`what`, got <value>" otherwise."""
    try:
        number = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        number = None
    if number is None or number < low or (high is not None and number > high):
        raise InvalidArgumentError(f"{what}, got {value!r}")
    return number


def check_env_seed(seed: Any) -> int:
    """A `reset(seed=...)` of the environments: a non-negative integer (NumPy's included)."""
    return integer_arg(seed, 0, None, "seed must be a non-negative integer (or None: the next hand)")


def entropy_seed() -> int:
    """A seed for a first `reset()` given none: fresh entropy (Gymnasium's convention), so that
    environments started without a seed — the sub-environments of `gymnasium.make_vec`, workers of
    a pool — deal different hands. 48 bits: two draws, or two VectorEnvs' rows S..S+N-1, all but
    never meet. The seed drawn is the table's `seed` (in the environment's repr): reset with it to
    play the same hands again."""
    return secrets.randbits(48)


class Table:
    """Hands of one ruleset, dealt in sequence from a seed: hand k is `new_game(ruleset, seed=seed,
    hand_no=k)` with dealer k % 4 (drawn from the seed where the rules say so; seat 0 on the Botzone
    table, which has no dealer), dealt through `SeededTable` as `simulate` deals its hands."""

    def __init__(self, ruleset: str, rules: Any = None, reward_scale: float = 1.0, **options: Any) -> None:
        self.ruleset = check_ruleset(ruleset)
        self.cls = game_class(ruleset)
        self.rules = self.cls.rules_class().resolve(rules)
        if isinstance(reward_scale, bool) or not isinstance(reward_scale, (int, float, numbers.Real)):  # (NumPy's too)
            raise InvalidArgumentError(f"reward_scale must be a number, got {reward_scale!r}")
        self.reward_scale = float(reward_scale)
        self.options = options
        self._hands = SeededTable(self.ruleset, self.rules)  # new_game's class and dealer rule, resolved once
        self.seed = 0
        self.hand_no = -1
        self.game: Any = None
        self.paid = [0, 0, 0, 0]
        self._entries = 0
        new_game(ruleset, seed=0, rules=self.rules, **options)  # checks the options now, not at reset

    def reset(self, seed: Optional[int] = None) -> Any:
        """Deal the next hand (with `seed`: hand 0 of that seed; the first time without one: hand 0
        of a seed drawn from entropy, `entropy_seed`)."""
        if seed is None and self.game is None:
            seed = entropy_seed()
        if seed is not None:
            self.seed = check_env_seed(seed)
            self.hand_no = 0
        else:
            self.hand_no += 1
        # (one call per hand of every env: the options were checked by the constructor's new_game)
        hands = self._hands
        self.game = hands.game(self.seed, self.hand_no, hands.dealer(self.hand_no), **self.options)
        self.paid = [0, 0, 0, 0]
        self._entries = 0
        return self.game

    def where(self) -> str:
        """Where play stands, for the environments' reprs: "seed 1, hand 3, step 12" (", hand
        over" once it has ended), or "before reset()"."""
        if self.game is None:
            return "before reset()"
        text = f"seed {self.seed}, hand {self.hand_no}, step {self.game.step}"
        return text + ", hand over" if self.game.finished else text

    def deltas(self) -> Optional[List[int]]:
        """Each seat's ledger change since the last call (None when nothing was paid)."""
        ledger = self.game.ledger
        n = len(ledger._entries)  # hot path (one call per step): Ledger.__len__ is a Python call
        if n == self._entries:
            return None
        self._entries = n
        totals = ledger.totals()
        paid = self.paid
        out = [totals[s] - paid[s] for s in range(4)]
        self.paid = totals
        return out
