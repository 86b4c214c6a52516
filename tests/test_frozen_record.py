"""`rules.records.frozen_record`: the hot-path constructor of the rules' frozen records builds the
same object as the dataclass's own `__init__`, and refuses what it cannot build that way."""

import dataclasses
from types import MappingProxyType

import pytest

from mahjong_core.rules.records import frozen_record
from mahjong_core.rules.sichuan.scoring import SichuanScore
from mahjong_core.rules.sichuan.settlement import WallEndReport


def _equal_records(a, b):
    assert type(a) is type(b)
    assert a == b
    assert vars(a) == vars(b) and list(vars(a)) == list(vars(b))  # the same fields, in field order


def test_records_equal_their_dataclass_construction():
    wall_end = ((1,), MappingProxyType({2: "x"}), (0, 3), ())
    _equal_records(frozen_record(WallEndReport, *wall_end), WallEndReport(*wall_end))
    assert repr(frozen_record(WallEndReport, *wall_end)) == repr(WallEndReport(*wall_end))
    values = tuple(f"v{i}" for i in range(len(dataclasses.fields(SichuanScore))))
    _equal_records(frozen_record(SichuanScore, *values), SichuanScore(*values))


def test_records_stay_frozen():
    record = frozen_record(WallEndReport, (), MappingProxyType({}), (), ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.pigs = (1,)


def test_what_it_refuses():
    with pytest.raises(TypeError, match="has 4 fields, got 3 values"):
        frozen_record(WallEndReport, (), MappingProxyType({}), ())

    class NotADataclass:
        pass

    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self):
            pass

    for cls in (NotADataclass, Checked):
        with pytest.raises(TypeError, match="not a dataclass without __post_init__"):
            frozen_record(cls, 1)
