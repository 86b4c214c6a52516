"""The core's public surface: the installed package, tiles, forms, hands, melds and result objects."""

from __future__ import annotations

import copy
import pickle
import unicodedata
from pathlib import Path

import pytest

import mahjong_core as mc
from mahjong_core import Block, BlockKind, Forms, Meld, MeldKind, Tile


# ---------------------------------------------------------------------------------------------
# The package under test is the installed one, with its compiled core


def test_compiled_core_is_importable(core):
    assert Path(core.__file__).suffix in (".so", ".pyd")
    assert mc.shanten is core.shanten


def test_package_is_not_shadowed_by_the_source_tree():
    import importlib.metadata

    dist = importlib.metadata.distribution("mahjong_core")
    assert dist.version == mc.__version__
    assert Path(mc._core.__file__).resolve().parent == Path(mc.__file__).resolve().parent


def test_public_names():
    for name in mc.__all__:
        assert hasattr(mc, name), name
    for name in ("Tile", "Forms", "Hand", "Meld", "parse", "shanten", "is_winning", "waits", "effective_tiles",
                 "discard_options", "decompositions", "batch", "MahjongError", "ParseError", "InvalidHandError",
                 "IllegalActionError"):
        assert name in mc.__all__, name


def test_error_hierarchy():
    for cls in (mc.ParseError, mc.InvalidHandError, mc.IllegalActionError):
        assert issubclass(cls, mc.MahjongError) and issubclass(cls, ValueError)


# ---------------------------------------------------------------------------------------------
# Tiles and forms


def test_tile_order_and_names():
    assert len(Tile) == 34 and [int(t) for t in Tile] == list(range(34))
    assert [str(t) for t in Tile] == (
        [f"{r}m" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)] + [f"{r}s" for r in range(1, 10)] + list("ESWNCFP")
    )
    counts = [0] * 34
    counts[Tile.EAST] = 2
    assert counts[27] == 2
    assert mc.tiles.tile_from_str("5p") == Tile.P5 and mc.tiles.tile_from_str("5z") == Tile.RED
    assert mc.tiles.tile_from_str("C") == Tile.RED and mc.tiles.tile_from_str("7z") == Tile.WHITE
    for bad in ("0m", "8z", "h", "5x", "", "10m"):
        with pytest.raises(ValueError):
            mc.tiles.tile_from_str(bad)


def test_tile_properties():
    assert Tile.M1.suit == "m" and Tile.P5.suit == "p" and Tile.S9.suit == "s" and Tile.NORTH.suit == "z"
    assert Tile.S7.rank == 7 and Tile.RED.rank is None
    assert [t for t in Tile if t.is_terminal] == [Tile.M1, Tile.M9, Tile.P1, Tile.P9, Tile.S1, Tile.S9]
    assert [t for t in Tile if t.is_honor] == list(Tile)[27:]
    assert sum(t.is_terminal_or_honor for t in Tile) == 13
    assert Tile.M1.chinese == "一万" and Tile.RED.chinese == "中" and Tile.WHITE.chinese == "白"


def test_glyphs_are_the_right_unicode_tiles():
    expected_names = (
        [f"MAHJONG TILE {n} OF CHARACTERS" for n in ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")]
        + [f"MAHJONG TILE {n} OF CIRCLES" for n in ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")]
        + [f"MAHJONG TILE {n} OF BAMBOOS" for n in ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")]
        + [f"MAHJONG TILE {w} WIND" for w in ("EAST", "SOUTH", "WEST", "NORTH")]
        + ["MAHJONG TILE RED DRAGON", "MAHJONG TILE GREEN DRAGON", "MAHJONG TILE WHITE DRAGON"]
    )
    assert [unicodedata.name(t.glyph) for t in Tile] == expected_names


def test_forms_presets():
    assert Forms.MCR == Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS | Forms.HONORS_KNITTED | Forms.KNITTED_STRAIGHT
    assert Forms.SICHUAN == Forms.STANDARD | Forms.SEVEN_PAIRS
    assert Forms.CHANGBAI == Forms.SICHUAN | Forms.THIRTEEN_ORPHANS
    # MCR is the default of every analysis function.
    hand = "147m258p369sESWN"  # 13 tiles: honours-and-knitted ready, far from the standard form
    assert mc.shanten(hand) == mc.shanten(hand, Forms.MCR) == 0
    assert mc.shanten(hand, Forms.STANDARD) > 0


# ---------------------------------------------------------------------------------------------
# Hands and melds


def test_hand_properties():
    hand = mc.parse("[123m,2][555p,1][EEEE]4456p6p")
    assert hand.n_melds == 3 and hand.n_tiles == 5 and hand.win_tile == Tile.P6
    assert hand.tiles == (Tile.P4, Tile.P4, Tile.P5, Tile.P6, Tile.P6)
    assert sum(hand.counts) == 5 and sum(hand.meld_counts) == 10
    assert hand.all_counts[Tile.P5] == 4 and hand.all_counts[Tile.EAST] == 4
    assert not hand.is_concealed
    assert mc.parse("[EEEE]123m456p789s1p1p").is_concealed
    assert hand.counts_bytes() == bytes(hand.counts)
    assert hand.without_tile(Tile.P6).win_tile is None
    assert hand.without_tile(Tile.P6).with_tile(Tile.P4).win_tile == Tile.P4
    assert hand.replace(context=mc.MCRContext(seat_wind=2)).context.seat_wind == 2
    with pytest.raises(TypeError):
        hand.replace(colour="red")
    assert hand.glyphs().endswith(" " + Tile.P6.glyph)


def test_hand_is_a_frozen_hashable_value():
    a = mc.parse("[123m,2]123m456p789sE")
    b = mc.Hand.from_counts(a.counts, a.melds)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a
    with pytest.raises(AttributeError):
        a.melds = ()  # type: ignore[misc]
    assert a != mc.parse("[123m,3]123m456p789sE")


def test_meld_properties():
    chow = Meld.chow(Tile.M3, 2)
    assert chow.tiles == (Tile.M3, Tile.M4, Tile.M5) and chow.claimed_tile == Tile.M4 and chow.source == 1
    pung = Meld.pung(Tile.RED, 3)
    assert pung.tiles == (Tile.RED,) * 3 and pung.source == 3 and pung.exposed
    promoted = Meld.kong(Tile.P5, 2, added=True)
    assert promoted.added and promoted.claimed == 6 and promoted.source == 2 and str(promoted) == "[5555p,6]"
    concealed = Meld.kong(Tile.EAST, concealed=True)
    assert concealed.concealed and not concealed.exposed and concealed.source is None and str(concealed) == "[EEEE]"
    assert Meld(MeldKind.CHOW, 0) == Meld.chow(Tile.M1)
    with pytest.raises(Exception):
        chow.tile = Tile.M1  # frozen


# ---------------------------------------------------------------------------------------------
# Result objects


def test_decomposition_blocks_and_win_blocks():
    hand = mc.parse("[789s,1]123m456p11sEE1s")
    (d,) = mc.decompositions(hand)
    assert d.form == Forms.STANDARD
    kinds = [(b.kind, b.tile, b.concealed, b.meld) for b in d.blocks]
    assert kinds[0] == (BlockKind.CHOW, Tile.S7, False, 0)
    assert (BlockKind.PUNG, Tile.S1, True, None) in kinds
    assert d.pair == Tile.EAST and d.blocks[-1] == Block(BlockKind.PAIR, Tile.EAST, True)
    # The winning 1s can only have completed the concealed pung of 1s.
    assert [d.blocks[i].tile for i in d.win_blocks(Tile.S1)] == [Tile.S1]
    assert d.win_blocks(Tile.S7) == ()  # the exposed chow cannot hold the winning tile
    assert "STANDARD" in repr(d)


def test_decomposition_of_an_incomplete_hand_is_empty():
    assert mc.decompositions("1112345678999m1p") == ()
    assert mc.is_winning("1112345678999m1p") is False


def test_discard_option_values():
    options = mc.discard_options("1112345678999m1p")
    best = options[0]
    assert best.tile == Tile.P1 and best.shanten == 0
    assert set(best.effective) == set(Tile(i) for i in range(9))
    assert best.total == sum(best.effective.values())
    assert "1p" in repr(best)


def test_analysis_accepts_every_hand_spelling():
    text = "[555p,1]1123m67s88sEE"
    hand = mc.parse(text)
    counts = hand.counts
    meld = hand.melds
    expected = mc.shanten(hand)
    assert mc.shanten(text) == expected
    assert mc.shanten(counts, melds=1) == expected
    assert mc.shanten(list(counts), melds=meld) == expected
    assert mc.shanten(bytes(counts), melds=1) == expected
    assert mc.shanten(bytearray(counts), melds=1) == expected
    assert mc.waits(bytes(counts), melds=1) == mc.waits(hand) == mc.waits(text)
    assert mc.effective_tiles(bytes(counts), melds=meld) == mc.effective_tiles(hand)


def test_shanten_of_14_tiles_is_best_discard():
    """For a 14-tile hand that is not complete, shanten equals the best shanten after a discard."""
    import reference_hands as H

    for case in H.mixed_cases(seed=6000, n=H.scaled(1_500), size="complete"):
        hand = H.to_hand(case)
        s = mc.shanten(hand)
        if s == -1:
            assert mc.is_winning(hand)
            continue
        best = min(mc.shanten(mc.Hand.from_counts(hand.without_tile(t).counts, hand.melds)) for t in set(hand.tiles))
        assert s == best, str(hand)


@pytest.mark.parametrize("context", ["EE1000", 123, {"prevalent_wind": 0}])
def test_a_hand_context_is_an_mcr_context(context):
    """Accepted before and failed at the first repr ('str' has no attribute 'prevalent_wind')."""
    counts = mc.parse("123m456p789s11sEEE").counts
    with pytest.raises(mc.InvalidTypeError, match=r"context must be an MCRContext \(or None\)"):
        mc.Hand.from_counts(counts, context=context)
    with pytest.raises(mc.InvalidTypeError, match="context must be an MCRContext"):
        mc.Hand(counts, (), None, context)
    parsed = mc.parse("123m456p789s11sEEE|EE1000")
    assert repr(mc.Hand.from_counts(counts, context=parsed.context)).endswith("|EE1000")


def test_arguments_the_audit_found_loose_are_refused_by_type():
    """Bools are not counts nor tiles (True read as 1 / 2m), `visible` is counts (a Hand or text was
    refused with a message saying they were allowed), `exclude_exhausted` is a flag."""
    hand = mc.parse("123m456p789s11sEE")
    with pytest.raises(mc.InvalidTypeError, match="visible is 34 tile counts .* got Hand; a Hand's counts are hand.counts"):
        mc.effective_tiles(hand, visible=hand)
    with pytest.raises(mc.InvalidTypeError, match="visible is 34 tile counts .* got str"):
        mc.effective_tiles(hand, visible="x")
    with pytest.raises(mc.InvalidTypeError, match="the count of 1m is True"):
        mc.shanten([True] * 13 + [False] * 21)
    for call in (mc.shanten, mc.waits):
        with pytest.raises(mc.InvalidTypeError, match="exclude_exhausted is True or False, got 'yes'"):
            call(hand, exclude_exhausted="yes")
    with pytest.raises(mc.InvalidArgumentError, match="True is not a tile"):
        mc.format_tiles([True])
    assert mc.effective_tiles(hand, visible=[0] * 34) == mc.effective_tiles(hand)  # (counts: as before)


def test_a_tile_from_its_name():
    assert mc.Tile.parse("5p") is mc.Tile.P5 and mc.Tile.parse("E") is mc.Tile.parse("1z") is mc.Tile.EAST
    assert [mc.Tile.parse(str(t)) for t in mc.Tile] == list(mc.Tile) and len(mc.Tile) == 34
    with pytest.raises(mc.ParseError, match="not a tile: '0m'"):
        mc.Tile.parse("0m")


def test_meld_arguments_that_would_be_dropped_or_misread_are_refused():
    with pytest.raises(mc.InvalidHandError, match="a concealed kong comes from the seat's own hand"):
        mc.Meld.kong(3, 1, concealed=True)  # (the source was dropped silently)
    with pytest.raises(mc.InvalidTypeError, match="concealed is True or False, got 'no'"):
        mc.Meld(1, 0, concealed="no")  # (it said "only a kong can be a concealed meld")
    assert mc.Meld.kong(3, concealed=True).concealed is True
