"""`new_game`: pick the ruleset's Game class and Rules, build (or check) the wall, choose the dealer."""

from __future__ import annotations

import hashlib
import importlib
import secrets
from typing import Any, Dict, Optional, Sequence, Type

from . import mcr_adapter
from .engine import Game
from .wall import check_seed, check_wall, shuffled_wall, tile_set

__all__ = ["RULESETS", "new_game", "rules_class", "resolve_rules", "game_class", "seeded_dealer"]

RULESETS = ("mcr", "sichuan", "changbai")


_MODULES: Dict[str, Any] = {}
_DEFAULT_RULES: Dict[Any, Any] = {}


def _ruleset_module(ruleset: str) -> Any:
    if ruleset == "mcr":
        return mcr_adapter.mcr_module()  # not cached: tests may override the backend
    module = _MODULES.get(ruleset)
    if module is None:
        module = _MODULES[ruleset] = importlib.import_module(f"mahjong_core.rules.{ruleset}")
    return module


def _check_ruleset(ruleset: Any) -> str:
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset must be one of {', '.join(RULESETS)}; got {ruleset!r}")
    return ruleset


def rules_class(ruleset: str) -> Type[Any]:
    """The ruleset module's `Rules` class."""
    return _ruleset_module(_check_ruleset(ruleset)).Rules


def resolve_rules(ruleset: str, rules: Any = None) -> Any:
    """`rules` as the ruleset's Rules: None = the default preset, a preset name, a Rules instance, or a
    dict of key overrides on the default preset."""
    cls = rules_class(ruleset)
    if rules is None:
        default = _DEFAULT_RULES.get(cls)
        if default is None:
            default = _DEFAULT_RULES[cls] = cls()  # Rules are immutable: build the default once
        return default
    if isinstance(rules, cls):
        return rules
    if isinstance(rules, str):
        try:
            return cls.presets[rules]
        except KeyError:
            raise ValueError(f"unknown {ruleset} preset {rules!r}; presets: {', '.join(cls.presets)}") from None
    if isinstance(rules, dict):
        return cls(**rules)
    raise TypeError(f"rules must be None, a preset name, a {ruleset} Rules or a dict of rule keys; "
                    f"got {type(rules).__name__}")


_GAME_CLASSES: Dict[str, Type[Game]] = {}


def game_class(ruleset: str) -> Type[Game]:
    # Called once per hand: the flow modules are imported on first use, then looked up.
    _check_ruleset(ruleset)
    cls = _GAME_CLASSES.get(ruleset)
    if cls is None:
        module, name = _GAME_CLASS_NAMES[ruleset]
        cls = _GAME_CLASSES[ruleset] = getattr(importlib.import_module(module, __package__), name)
    return cls


_GAME_CLASS_NAMES = {"sichuan": (".sichuan_flow", "SichuanGame"), "changbai": (".changbai_flow", "ChangbaiGame"),
                     "mcr": (".mcr_flow", "MCRGame")}


def seeded_dealer(seed: int, hand_no: int) -> int:
    """A dealer drawn from the seed (Sichuan `dealer_rule="random"`, Changbai `first_dealer="random"`)."""
    digest = hashlib.blake2b(b"dealer", digest_size=8, key=seed.to_bytes(32, "little"),
                             salt=hand_no.to_bytes(16, "little"), person=b"mjc-dealer-v1").digest()
    return digest[0] % 4


def _uses_flowers(ruleset: str, rules: Any) -> bool:
    return ruleset == "mcr" and bool(getattr(rules, "flowers", False))


def _random_dealer(ruleset: str, rules: Any) -> bool:
    if ruleset == "sichuan":
        return rules.dealer_rule == "random"
    if ruleset == "changbai":
        return getattr(rules, "first_dealer", "seat0") == "random"
    return False


def new_game(ruleset: str, *, seed: Optional[int] = None, wall: Optional[Sequence[Any]] = None,
             rules: Any = None, dealer: Optional[int] = None, hand_no: int = 0, **options: Any) -> Game:
    """Start one hand of `ruleset` ("mcr" | "sichuan" | "changbai").

    `seed`: shuffles the wall with the counter-based generator keyed by (seed, hand_no) (a fresh
    random seed when neither seed nor wall is given; it is logged). `wall`: an explicit tile
    sequence (indices or names; exactly the ruleset's tile set) — used as is. `rules`: None (default
    preset), a preset name, the ruleset's Rules, or a dict of key overrides. `dealer`: 0..3; default
    seat 0, or drawn from the seed when the rules say the dealer is random. Ruleset options:
    `prevalent_wind` (MCR, 0..3 = E S W N). Raises ValueError / InvalidHandError for bad input.
    """
    _check_ruleset(ruleset)
    rules = resolve_rules(ruleset, rules)
    if isinstance(hand_no, bool) or not isinstance(hand_no, int) or not 0 <= hand_no < 1 << 64:
        raise ValueError(f"hand_no must be an integer 0 .. 2**64 - 1, got {hand_no!r}")
    flowers = _uses_flowers(ruleset, rules)
    if wall is not None:
        tiles = check_wall(ruleset, wall, flowers)
        shuffled = False
        if seed is not None:
            check_seed(seed)
    else:
        if seed is None:
            seed = secrets.randbits(63)
        tiles = shuffled_wall(tile_set(ruleset, flowers), seed, hand_no)
        shuffled = True
    if dealer is None:
        dealer = seeded_dealer(seed, hand_no) if seed is not None and _random_dealer(ruleset, rules) else 0
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
        raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
    cls = game_class(ruleset)
    return cls(rules, tiles, seed=seed, hand_no=hand_no, dealer=dealer, shuffled=shuffled, **options)
