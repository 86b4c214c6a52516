"""What every ruleset's `Rules` has in common (one place for the configuration machinery).

A ruleset declares `@dataclass(frozen=True, repr=False) class Rules(RuleKeys)` with its keys as
fields (defaults = its default preset), sets `RULESET` and `DEFAULT_PRESET`, validates its values in
`__post_init__` with `check_values`, and assigns `Rules.presets` after the class. It then gets:

- `Rules(**overrides)` from the default preset; unknown keys (also through `dataclasses.replace`)
  and positional arguments raise `RulesError` listing the valid keys;
- `Rules.keys()`, `Rules.preset(name, **overrides)` (alias `from_preset`), `Rules.resolve(x)`
  (None, a preset name, a Rules, or a dict of overrides), `.preset_name`, `.to_dict()` (JSON-ready,
  for game logs) and a `repr` that reads like the call that makes it;
- `Rules.parse_assignments(["key=value", ...])`: the one typed `KEY=VALUE` grammar of every command
  line (`--set` / `--rule`): each value is read by its key's type (see `parse_value`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, ClassVar, Dict, Iterable, Mapping, Optional, Tuple, TypeVar

from mahjong_core.errors import RulesError

__all__ = [
    "RuleKeys",
    "check_values",
    "boolean",
    "integer_at_least",
    "optional_integer_at_least",
    "one_of",
    "parse_value",
    "WALL_TILES",
    "LARGEST_INTEGER",
]

R = TypeVar("R", bound="RuleKeys")
Check = Callable[[Any], Optional[str]]  # None when the value is fine, else what is wrong


class RuleKeys:
    """Base of the rulesets' frozen `Rules` dataclasses (see the module docstring)."""

    RULESET: ClassVar[str] = ""
    DEFAULT_PRESET: ClassVar[str] = ""
    presets: ClassVar[Mapping[str, Any]]

    def __new__(cls, *args: Any, **overrides: Any) -> Any:
        # Checked before the generated __init__, so Rules(...) and dataclasses.replace() both name
        # the unknown key and list the valid ones.
        if args:
            raise RulesError(f"{cls.RULESET} Rules takes keyword arguments only, e.g. Rules({cls.keys()[0]}=...)")
        unknown = sorted(set(overrides) - set(cls.keys()))
        if unknown:
            raise RulesError(
                f"unknown {cls.RULESET} rule key(s) {', '.join(unknown)}; valid keys: {', '.join(cls.keys())}"
            )
        return super().__new__(cls)

    @classmethod
    def keys(cls) -> Tuple[str, ...]:
        """The rule keys, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def preset(cls: type[R], name: str, **overrides: Any) -> R:
        """The named preset, with optional overrides: `Rules.preset("qq", max_fan=4)`."""
        try:
            rules = cls.presets[name]
        except (KeyError, TypeError):  # (TypeError: an unhashable name)
            raise RulesError(
                f"unknown {cls.RULESET} preset {name!r}; presets: {', '.join(cls.presets)}"
            ) from None
        return dataclasses.replace(rules, **overrides) if overrides else rules

    from_preset = preset

    @classmethod
    def resolve(cls: type[R], rules: Any = None) -> R:
        """`rules` as an instance: None = the default preset, a preset name, a Rules, or a dict of
        keys overriding the default preset."""
        if rules is None:
            return cls.presets[cls.DEFAULT_PRESET]
        if isinstance(rules, cls):
            return rules
        if isinstance(rules, str):
            return cls.preset(rules)
        if isinstance(rules, dict):
            odd = [k for k in rules if not isinstance(k, str)]
            if odd:
                raise RulesError(f"rule keys are names (strings), got {', '.join(repr(k)[:40] for k in odd[:4])}; "
                                 f"the {cls.RULESET} keys: {', '.join(cls.keys())}")
            return cls(**rules)
        raise RulesError(
            f"rules must be None, a preset name, a {cls.RULESET} Rules or a dict of rule keys; "
            f"got {type(rules).__name__}"
        )

    @classmethod
    def parse_assignments(cls, items: Iterable[str]) -> Dict[str, Any]:
        """`KEY=VALUE` strings as typed overrides (see `parse_value`); RulesError names a bad item."""
        defaults = cls.presets[cls.DEFAULT_PRESET]
        hints = {f.name: str(f.type) for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        out: Dict[str, Any] = {}
        if isinstance(items, str) or not hasattr(items, "__iter__"):
            raise RulesError(f"rule overrides are KEY=VALUE strings in a list (e.g. ['max_fan=4']), got {items!r}")
        for item in items:
            key, sep, text = str(item).partition("=")
            key = key.strip()
            if not sep or not key:
                raise RulesError(f"a rule override is KEY=VALUE (e.g. max_fan=4), got {item!r}")
            if key not in hints:
                raise RulesError(f"unknown {cls.RULESET} rule key {key!r}; valid keys: {', '.join(cls.keys())}")
            out[key] = parse_value(key, text.strip(), getattr(defaults, key), hints[key])
        return out

    @property
    def preset_name(self) -> Optional[str]:
        """The name of the preset these rules equal, or None when some key differs from every preset."""
        return next((name for name, rules in self.presets.items() if rules == self), None)

    def to_dict(self) -> Dict[str, Any]:
        """Every key and value, JSON-ready (tuples as lists), for game logs."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in ((k, getattr(self, k)) for k in self.keys())}

    def __repr__(self) -> str:
        name = self.preset_name
        if name == self.DEFAULT_PRESET:
            return "Rules()"
        if name is not None:
            return f"Rules.preset({name!r})"
        default = self.presets[self.DEFAULT_PRESET]
        changed = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.keys() if getattr(self, k) != getattr(default, k))
        return f"Rules({changed})"


def check_values(rules: RuleKeys, checks: Mapping[str, Check]) -> None:
    """Run one check per key (every key needs one); raise RulesError naming the first bad value."""
    missing = set(rules.keys()) - set(checks)
    if missing:  # pragma: no cover - a programming error in a ruleset
        raise AssertionError(f"rule keys without a value check: {sorted(missing)}")
    for key, check in checks.items():
        value = getattr(rules, key)
        problem = check(value)
        if problem:
            raise RulesError(f"rule key {key}={value!r}: {problem}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def boolean(v: Any) -> Optional[str]:
    return None if isinstance(v, bool) else "must be True or False"


#: The tiles of the largest wall (136 + 8 flowers): the bound of a key that counts wall tiles.
WALL_TILES = 144

#: The bound of every other integer key: far above any sensible amount or count, and within what the
#: engine's machine integers hold (a wall count of 2**70 used to end a game in OverflowError).
LARGEST_INTEGER = 10**9


def integer_at_least(minimum: int, maximum: int = LARGEST_INTEGER) -> Check:
    """An integer in minimum..maximum (a bool is no integer here)."""
    def check(v: Any) -> Optional[str]:
        return None if _is_int(v) and minimum <= v <= maximum else f"must be an integer >= {minimum} and <= {maximum}"

    return check


def optional_integer_at_least(minimum: int, maximum: int = LARGEST_INTEGER) -> Check:
    """None, or an integer in minimum..maximum."""
    def check(v: Any) -> Optional[str]:
        if v is None or (_is_int(v) and minimum <= v <= maximum):
            return None
        return f"must be None or an integer >= {minimum} and <= {maximum}"

    return check


def one_of(*choices: Any) -> Check:
    def check(v: Any) -> Optional[str]:
        ok = any(v is c if c is None else (type(v) is type(c) and v == c) for c in choices)
        return None if ok else f"must be one of {', '.join(map(repr, choices))}"

    return check


_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")
_NONE = ("none", "null")


def parse_value(key: str, text: str, default: Any, hint: str = "") -> Any:
    """One command-line rule value, read by the key's type (its default's type and its annotation).

    bool: true/false/yes/no/on/off (1/0 too); int: a decimal integer (so `min_fan=1` and
    `false_win_penalty=0` are integers, not booleans); keys that may be None: none/null; tuples of
    ints: a comma-separated list (`0,2,4`) or a JSON list; strings: the text. RulesError when the
    text does not fit the type.
    """
    lowered = text.lower()
    optional = default is None or "Optional" in hint or "None" in hint
    if optional and lowered in _NONE:
        return None
    kind = type(default) if default is not None else (int if "int" in hint else str)
    if kind is bool:
        if lowered in _TRUE or lowered == "1":
            return True
        if lowered in _FALSE or lowered == "0":
            return False
        raise RulesError(f"rule key {key} takes true or false, got {text!r}")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"rule key {key} takes an integer{' or none' if optional else ''}, got {text!r}") from None
    if kind is tuple:
        body = text.strip().strip("[]()")
        try:
            return tuple(int(part) for part in body.split(",") if part.strip())
        except ValueError:
            raise RulesError(f"rule key {key} takes a comma-separated list of integers, got {text!r}") from None
    return text
