"""The one list of rulesets, and the lookups the ruleset-blind game layer makes through it.

Each ruleset is a package `mahjong_core.rules.<name>` whose `flow` module defines the `Game`
subclass playing it; that class answers every ruleset-specific question (its `Rules` class, tile set,
flowers, dealer rule, view extras ...). Adding a ruleset means adding its package and one line here
(docs/ARCHITECTURE.md, "Adding a ruleset").
"""

from __future__ import annotations

import importlib
from typing import Any, Dict, Tuple, Type

from mahjong_core.errors import InvalidArgumentError

__all__ = ["REGISTRY", "RULESETS", "TABLES", "game_class", "table_class", "rules_class", "resolve_rules",
           "check_ruleset"]

#: ruleset name -> "module:Game class" of its flow
REGISTRY: Dict[str, str] = {
    "mcr": "mahjong_core.rules.mcr.flow:MCRGame",
    "sichuan": "mahjong_core.rules.sichuan.flow:SichuanGame",
    "changbai": "mahjong_core.rules.changbai.flow:ChangbaiGame",
}
RULESETS: Tuple[str, ...] = tuple(REGISTRY)

#: (ruleset, its rules' `table` key) -> "module:Game class" of a table that plays those rules its own
#: way: MCR `table="botzone"` (preset `botzone`) is the Botzone judge's table (docs/BOTZONE.md)
TABLES: Dict[Tuple[str, str], str] = {("mcr", "botzone"): "mahjong_core.botzone.game:BotzoneGame"}

_GAME_CLASSES: Dict[str, Any] = {}


def check_ruleset(ruleset: Any) -> str:
    """`ruleset` if it names a registered ruleset; InvalidArgumentError listing them otherwise."""
    if not isinstance(ruleset, str) or ruleset not in REGISTRY:
        raise InvalidArgumentError(f"ruleset must be one of {', '.join(RULESETS)}; got {ruleset!r}")
    return ruleset


def game_class(ruleset: str) -> Type[Any]:
    """The `Game` subclass that plays `ruleset` (its flow module is imported on first use)."""
    try:
        cls = _GAME_CLASSES.get(ruleset)  # called once per hand: a dict lookup after the first
    except TypeError:  # unhashable: no ruleset name
        cls = None
    if cls is None:
        module, name = REGISTRY[check_ruleset(ruleset)].split(":")
        cls = _GAME_CLASSES[ruleset] = getattr(importlib.import_module(module), name)
    return cls


def table_class(ruleset: str, rules: Any) -> Type[Any]:
    """The `Game` subclass that plays `ruleset` under `rules` (resolved): a `TABLES` entry for the
    rules' `table` key, else the ruleset's flow."""
    target = TABLES.get((ruleset, getattr(rules, "table", "")))
    if target is None:
        return game_class(ruleset)
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def rules_class(ruleset: str) -> Type[Any]:
    """The ruleset's `Rules` class."""
    return game_class(ruleset).rules_class()


def resolve_rules(ruleset: str, rules: Any = None) -> Any:
    """`rules` as the ruleset's Rules (`Rules.resolve`): None = the default preset, a preset name, a
    Rules instance, or a dict of key overrides on the default preset."""
    return rules_class(ruleset).resolve(rules)
