"""The model classes (Meld, Block, Decomposition, DiscardOption, MCRContext) are hand-written
slotted value classes (not dataclasses, for start-up time): they must still behave as frozen values."""

import copy
import os
import pickle
import subprocess
import sys
import tempfile

import pytest

import mahjong_core as mc
from mahjong_core import Block, BlockKind, Decomposition, DiscardOption, Forms, MCRContext, Meld, MeldKind, Tile

VALUES = [
    Meld.chow(Tile.M3, 2),
    Meld.kong(Tile.P5, 2, added=True),
    Meld.kong(Tile.EAST, concealed=True),
    Block(BlockKind.PUNG, Tile.S9, True),
    Decomposition(Forms.STANDARD, (Block(BlockKind.CHOW, Tile.M1, True),), Tile.M5),
    DiscardOption(Tile.M1, 1, {Tile.M2: 3}),
    MCRContext(1, 2, True, flower_tiles=(3, 1)),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_equal_values_compare_and_hash_equal(value):
    twin = type(value)(*[getattr(value, name) for name in value.__match_args__])
    assert twin == value and twin is not value
    assert hash(twin) == hash(value) and len({value, twin}) == 1  # (DiscardOption too: through its items)


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_frozen_pickle_and_copy(value):
    name = value.__match_args__[0]
    with pytest.raises(AttributeError, match="frozen"):
        setattr(value, name, 1)
    with pytest.raises(AttributeError, match="frozen"):
        delattr(value, name)
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert not hasattr(value, "__dict__")


def test_different_fields_or_classes_differ():
    assert Meld.pung(Tile.M1, 1) != Meld.pung(Tile.M1, 2)
    assert Meld(MeldKind.PUNG, Tile.M1) != Block(BlockKind.PUNG, Tile.M1, False)
    assert MCRContext() != MCRContext(kong=True)
    assert (Meld.pung(Tile.M1) == (1, 0, False, None)) is False


def test_unpickling_validates_like_the_constructor():
    meld = Meld.pung(Tile.M1, 1)
    object.__setattr__(meld, "claimed", 9)  # what a tampered pickle would carry
    with pytest.raises(mc.InvalidHandError, match="claim marker 9"):
        pickle.loads(pickle.dumps(meld))


def test_meld_fast_and_slow_conversions_agree():
    for kind in range(3):
        for tile in range(34):
            if kind == 0 and (tile >= 27 or tile % 9 > 6):
                with pytest.raises(mc.InvalidHandError):
                    Meld(kind, tile)
                continue
            meld = Meld(kind, tile)
            assert type(meld.kind) is MeldKind and type(meld.tile) is Tile
            assert meld == Meld(MeldKind(kind), Tile(tile)) == Meld(kind + 0.0, float(tile))
    for kind, tile in [(True, 1), (1, True), (3, 1), (-1, 2), (1, 34), (1, -1), ("1", 1), (None, 1)]:
        with pytest.raises(mc.InvalidHandError):
            Meld(kind, tile)


def test_mcr_context_repr_names_every_field():
    assert repr(MCRContext(1, 2, flowers=3)) == (
        "MCRContext(prevalent_wind=1, seat_wind=2, self_drawn=False, last_copy=False, wall_last=False, "
        "kong=False, flowers=3, flower_tiles=None)"
    )


def test_import_loads_no_heavy_standard_modules():
    """Start-up (issue 14): `import mahjong_core` must not pull dataclasses/inspect/typing/numpy in."""
    code = (
        "import sys; before = set(sys.modules); import mahjong_core as m; m.shanten('123m456p789s1122z'); "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir(), env=env).stdout.split()
    assert "mahjong_core._core" in out
    heavy = {"dataclasses", "inspect", "typing", "numpy", "ast", "re"} & set(out)
    assert not heavy, f"import mahjong_core now also imports {sorted(heavy)}"
