"""`frozen_record(cls, *values)`: an instance of a frozen dataclass built without its generated
`__init__`, for the rules' hot paths (a kong's record, a win's score, the wall-end report)."""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Tuple, Type, TypeVar

__all__ = ["frozen_record"]

T = TypeVar("T")

_FIELD_NAMES: Dict[type, Tuple[str, ...]] = {}


def frozen_record(cls: Type[T], *values: Any) -> T:
    """`cls(*values)` for a frozen dataclass `cls` without `__post_init__`, `values` in field order.
    The generated `__init__` stores each field with `object.__setattr__` (frozen); this writes the
    same fields straight into the instance dict — the same object, for about two thirds of the
    cost with four fields and less with more."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
            raise TypeError(f"frozen_record: {cls.__name__} is not a dataclass without __post_init__")
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    if len(values) != len(names):
        raise TypeError(f"frozen_record: {cls.__name__} has {len(names)} fields, got {len(values)} values")
    return _filled(object.__new__(cls), names, values)


def _filled(record: Any, names: Tuple[str, ...], values: Tuple[Any, ...]) -> Any:
    """`record` with `names[i]` = `values[i]` in its instance dict. Compiled (records.pxd), one C
    dict store per field: `dict.update(zip(...))` cost more than the dataclass's own `__init__`."""
    fields = record.__dict__
    for i in range(len(names)):
        fields[names[i]] = values[i]
    return record
