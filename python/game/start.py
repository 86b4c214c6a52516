"""Starting a hand (`new_game`) and rebuilding one from its log (`replay`)."""

from __future__ import annotations

import secrets
from typing import Any, List, Mapping, Optional, Sequence

from mahjong_core.errors import IllegalActionError, InvalidArgumentError

from .engine import Game
from .log import LOG_FORMAT
from .registry import check_ruleset, game_class, table_class
from .wall import check_seed, check_wall, seeded_dealer, shuffled_wall

__all__ = ["new_game", "replay", "seeded_dealer"]


def new_game(ruleset: str, *, seed: Optional[int] = None, wall: Optional[Sequence[Any]] = None,
             rules: Any = None, dealer: Optional[int] = None, hand_no: int = 0, **options: Any) -> Game:
    """Start one hand of `ruleset` ("mcr" | "sichuan" | "changbai").

    `seed`: shuffles the wall with the counter-based generator keyed by (seed, hand_no) (a fresh
    random seed when neither seed nor wall is given; it is logged). `wall`: an explicit tile
    sequence (indices or names; exactly the ruleset's tile set) — used as is. `rules`: None (default
    preset), a preset name, the ruleset's Rules, or a dict of key overrides. `dealer`: 0..3; default
    seat 0, or drawn from the seed when the rules say the dealer is random. Ruleset options:
    `prevalent_wind` (MCR, 0..3 = E S W N). Raises InvalidArgumentError / InvalidHandError /
    RulesError for bad input.
    """
    cls = game_class(check_ruleset(ruleset))
    rules = cls.rules_class().resolve(rules)
    cls = table_class(ruleset, rules)
    if wall is not None:
        rules = cls.rules_for_wall(rules, wall)
    if isinstance(hand_no, bool) or not isinstance(hand_no, int) or not 0 <= hand_no < 1 << 64:
        raise InvalidArgumentError(f"hand_no must be an integer 0 .. 2**64 - 1, got {hand_no!r}")
    flowers = cls.uses_flowers(rules)
    if wall is not None:
        tiles = check_wall(ruleset, wall, flowers)
        shuffled = False
        if seed is not None:
            check_seed(seed)
    else:
        if seed is None:
            seed = secrets.randbits(63)
        tiles = shuffled_wall(cls.tiles(flowers), seed, hand_no)
        shuffled = True
    if dealer is None:
        dealer = seeded_dealer(seed, hand_no) if seed is not None and cls.random_dealer(rules) else 0
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
        raise InvalidArgumentError(f"dealer must be a seat 0..3, got {dealer!r}")
    return cls(rules, tiles, seed=seed, hand_no=hand_no, dealer=dealer, shuffled=shuffled, **options)


def replay(log: Mapping[str, Any], **engine_options: Any) -> Game:
    """Rebuild a game from its log: same wall, rules and dealer, then every logged answer in order.

    Returns the Game (finished or not, as the log was). Raises InvalidArgumentError for a log of
    another format and IllegalActionError (naming the step) when a logged action is not legal on
    replay.
    """
    if not isinstance(log, Mapping) or log.get("format") != LOG_FORMAT:
        raise InvalidArgumentError(f"not a {LOG_FORMAT} game log")
    ruleset = check_ruleset(log["ruleset"])
    rules = game_class(ruleset).rules_class().resolve(dict(log["rules"]))
    game = new_game(ruleset, wall=log["wall"], rules=rules, seed=log.get("seed"), dealer=log["dealer"],
                    hand_no=log.get("hand_no", 0), **dict(log.get("options") or {}), **engine_options)
    game.shuffled = bool(log.get("shuffled", False))
    actions: List[Any] = log["actions"]
    for step, (seat, code) in enumerate(actions):
        try:
            game.act(seat, code)
        except IllegalActionError as exc:
            raise IllegalActionError(f"replay step {step} (seat {seat}, code {code}): {exc}") from None
    return game
