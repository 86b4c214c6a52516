"""The fast paths of the binding give the same answers as the plain ones: enum members looked up
at plain-class speed, `Forms` combinations from a table, batch fast path (see test_batch.py)."""

from __future__ import annotations

import enum
import itertools

import pytest

import mahjong_core as mc
from mahjong_core import Forms, Tile

SINGLE = (Forms.STANDARD, Forms.SEVEN_PAIRS, Forms.THIRTEEN_ORPHANS, Forms.HONORS_KNITTED, Forms.KNITTED_STRAIGHT)


def test_forms_or_equals_flag_semantics():
    for a, b in itertools.product(list(Forms.__members__.values()) + [Forms(0)], repeat=2):
        got = a | b
        assert type(got) is Forms and int(got) == int(a) | int(b)
        assert got is Forms(int(a) | int(b))
        assert repr(got) == repr(enum.IntFlag.__or__(a, b))
    assert Forms.STANDARD | Forms.SEVEN_PAIRS is Forms.SICHUAN
    assert Forms.SICHUAN | Forms.THIRTEEN_ORPHANS is Forms.CHANGBAI
    assert Forms.STANDARD | 2 == 3 and 2 | Forms.STANDARD == 3
    assert type(Forms.STANDARD | 2) is Forms


def test_class_attribute_lookup_unchanged():
    for cls in (Tile, Forms):
        for name, member in cls.__members__.items():
            assert getattr(cls, name) is member
        with pytest.raises(AttributeError):
            getattr(cls, "NO_SUCH_MEMBER")
        assert cls.__name__ in repr(cls)
    assert Tile.EAST is Tile(27) and Tile["EAST"] is Tile.EAST
    assert [int(t) for t in Tile] == list(range(34))
    assert Forms.MCR.name == "MCR" and Forms.MCR.value == 31


@pytest.mark.parametrize("forms", list(Forms.__members__.values()))
def test_forms_member_and_int_give_the_same_answers(forms):
    hand = mc.parse("19m19p19s1234567z")
    assert mc.shanten(hand, forms) == mc.shanten(hand, int(forms))
    assert mc.waits(hand, forms) == mc.waits(hand, int(forms))
