"""The hand notation: round trips (hypothesis), malformed input (hypothesis), specific errors."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mc
from mahjong_core import InvalidHandError, MCRContext, Meld, MeldKind, ParseError, Tile

def deterministic(examples: int):
    """Hypothesis settings for reproducible runs (seeded from the test, no example database)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )

# ---------------------------------------------------------------------------------------------
# Strategies


@st.composite
def melds_and_pool(draw, n_melds):
    left = [4] * 34
    melds = []
    while len(melds) < n_melds:
        kind = draw(st.sampled_from(["chow", "pung", "kong", "concealed_kong", "promoted_kong"]))
        if kind == "chow":
            tile = draw(st.sampled_from([9 * s + r for s in range(3) for r in range(7)]))
            meld = Meld.chow(tile, draw(st.sampled_from([None, 1, 2, 3])))
        elif kind == "pung":
            meld = Meld.pung(draw(st.integers(0, 33)), draw(st.sampled_from([None, 1, 2, 3])))
        elif kind == "kong":
            meld = Meld.kong(draw(st.integers(0, 33)), draw(st.sampled_from([1, 2, 3])))
        elif kind == "promoted_kong":
            meld = Meld.kong(draw(st.integers(0, 33)), draw(st.sampled_from([1, 2, 3])), added=True)
        else:
            meld = Meld.kong(draw(st.integers(0, 33)), concealed=True)
        if all(left[t] >= meld.tiles.count(t) for t in meld.tiles):
            for t in meld.tiles:
                left[t] -= 1
            melds.append(meld)
    return tuple(melds), left


@st.composite
def contexts(draw):
    if draw(st.booleans()):
        return None
    flowers, flower_tiles = 0, None
    choice = draw(st.sampled_from(["none", "count", "letters"]))
    if choice == "count":
        flowers = draw(st.integers(0, 8))
    elif choice == "letters":
        flower_tiles = tuple(sorted(draw(st.sets(st.integers(0, 7), min_size=1, max_size=8))))
    return MCRContext(
        prevalent_wind=draw(st.integers(0, 3)),
        seat_wind=draw(st.integers(0, 3)),
        self_drawn=draw(st.booleans()),
        last_copy=draw(st.booleans()),
        wall_last=draw(st.booleans()),
        kong=draw(st.booleans()),
        flowers=flowers,
        flower_tiles=flower_tiles,
    )


@st.composite
def hands(draw):
    n_melds = draw(st.integers(0, 4))
    melds, left = draw(melds_and_pool(n_melds))
    complete = draw(st.booleans())
    size = 14 - 3 * n_melds if complete else 13 - 3 * n_melds
    pool = [k for k in range(34) for _ in range(left[k])]
    tiles = draw(st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True))
    counts = [0] * 34
    for i in tiles:
        counts[pool[i]] += 1
    win_tile = Tile(pool[draw(st.sampled_from(tiles))]) if complete else None
    return mc.Hand(counts, melds, win_tile, draw(contexts()))


# ---------------------------------------------------------------------------------------------
# Round trips


@deterministic(250)
@given(hands())
def test_round_trip(hand):
    text = mc.format_hand(hand)
    assert mc.parse(text) == hand
    assert mc.format_hand(mc.parse(text)) == text  # canonical strings format to themselves
    assert repr(hand) == text == str(hand)


def _non_canonical_writing(hand: mc.Hand, rng: random.Random) -> str:
    """The same hand written another valid way: shuffled concealed tiles (the winning tile stays
    last), honours as 1z..7z or letters, one suit letter per tile or per run, chow tiles in any order."""
    parts = []
    for m in hand.melds:
        tiles = list(m.tiles)
        if m.kind == MeldKind.CHOW:
            rng.shuffle(tiles)
        body = _write(tiles, rng, grouped=True)
        parts.append(f"[{body}]" if m.claimed is None else f"[{body},{m.claimed}]")
    concealed = list(hand.tiles)
    if hand.win_tile is not None:
        concealed.remove(hand.win_tile)
    rng.shuffle(concealed)
    if hand.win_tile is not None:
        concealed.append(hand.win_tile)
    parts.append(_write(concealed, rng, grouped=False))
    if hand.context is not None:
        parts.append(str(hand.context))
    return "".join(parts)


def _write(tiles, rng: random.Random, grouped: bool) -> str:
    out = []
    pending_digits = ""
    pending_suit = None
    for t in tiles:
        if t >= 27 and rng.random() < 0.5:
            suit, digit = None, None  # letter
        else:
            suit, digit = ("z", str(t - 26)) if t >= 27 else ("mps"[t // 9], str(t % 9 + 1))
        if pending_suit is not None and (suit != pending_suit or (not grouped and rng.random() < 0.5)):
            out.append(pending_digits + pending_suit)
            pending_digits, pending_suit = "", None
        if suit is None:
            out.append("ESWNCFP"[t - 27])
        else:
            pending_digits += digit
            pending_suit = suit
    if pending_suit is not None:
        out.append(pending_digits + pending_suit)
    return "".join(out)


@deterministic(200)
@given(hands(), st.randoms(use_true_random=False))
def test_every_valid_writing_parses_to_the_same_hand(hand, rng):
    text = _non_canonical_writing(hand, rng)
    assert mc.parse(text) == hand, text
    assert mc.parse("  " + text + " ") == hand  # surrounding whitespace is ignored


def test_canonical_examples():
    for text in [
        "123m456p11789sESE",
        "[123m,2][555p,1][EEEE]123m4p5p|EE1000|3",
        "[EEE,2][SSSS,1]55pWWWNNN|EE1000",
        "[5555p,7]11123m789sCC|SW0101|aceh",
        "19m19p19s1234567z".replace("1234567z", "ESWNCFP") + "E",
        "1112345678999m",
    ]:
        assert mc.format_hand(mc.parse(text)) == text
    # API.md's example writes the honours first; its canonical form puts the suits first.
    assert mc.format_hand(mc.parse("[EEE,2][SSSS,1]WWWNN55pN|EE1000")) == "[EEE,2][SSSS,1]55pWWWNNN|EE1000"


def test_z_honours_follow_the_chinese_order():
    assert mc.parse_tiles("1234567z") == (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.RED, Tile.GREEN, Tile.WHITE)
    assert mc.parse_tiles("5z6z7z") == mc.parse_tiles("CFP")


def test_winning_tile_is_the_last_written():
    hand = mc.parse("11123456789995m")
    assert hand.win_tile == Tile.M5
    assert mc.parse("1112345678999m").win_tile is None
    assert mc.parse("[123m,1]4445678999m6m").win_tile == Tile.M6


@deterministic(200)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=20))
def test_format_tiles_round_trip(tiles):
    text = mc.format_tiles(tiles)
    assert mc.parse_tiles(text) == tuple(sorted(Tile(t) for t in tiles))
    # Tile members and plain ints format alike; the text is written out the slow, obvious way too.
    assert mc.format_tiles([Tile(t) for t in tiles]) == text
    ordered = sorted(tiles)
    expected = "".join("".join(str(t % 9 + 1) for t in ordered if t // 9 == suit) + "mps"[suit]
                       for suit in range(3) if any(t // 9 == suit for t in ordered))
    expected += "".join("ESWNCFP"[t - 27] for t in ordered if t >= 27)
    assert text == expected


@pytest.mark.parametrize("bad", [34, -1, "x", 1.5, None])
def test_format_tiles_rejects_what_is_not_a_tile(bad):
    with pytest.raises(ValueError):
        mc.format_tiles([0, bad])


# ---------------------------------------------------------------------------------------------
# Malformed input: ParseError or InvalidHandError, never anything else


def _parse_outcome(text: str) -> str:
    try:
        mc.parse(text)
    except ParseError as exc:
        assert isinstance(exc, ValueError) and isinstance(exc, mc.MahjongError)
        assert exc.column is None or 1 <= exc.column <= len(text) + 1, (text, exc.column)
        return "parse"
    except InvalidHandError as exc:
        assert isinstance(exc, ValueError) and isinstance(exc, mc.MahjongError)
        assert str(exc)
        return "invalid"
    return "ok"


ALPHABET = "0123456789mpszESWNCFPhdZ[],|abcdefgh1 \t-"


@deterministic(2000)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_malformed_text_raises_only_our_errors(text):
    _parse_outcome(text)


@deterministic(1000)
@given(st.text(max_size=30))
def test_arbitrary_unicode_raises_only_our_errors(text):
    _parse_outcome(text)


@deterministic(600)
@given(hands(), st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 60), st.sampled_from(ALPHABET + "²٣x")), min_size=1, max_size=3))
def test_mutated_valid_hands_raise_only_our_errors(hand, edits):
    text = list(mc.format_hand(hand))
    for op, pos, ch in edits:
        pos = pos % (len(text) + 1)
        if op == "insert":
            text.insert(pos, ch)
        elif text:
            pos = min(pos, len(text) - 1)
            if op == "delete":
                del text[pos]
            else:
                text[pos] = ch
    _parse_outcome("".join(text))


@deterministic(500)
@given(st.text(alphabet=ALPHABET, max_size=30))
def test_parse_tiles_raises_only_parse_errors(text):
    try:
        mc.parse_tiles(text)
    except ParseError:
        pass


def test_parse_rejects_non_strings():
    for bad in (None, 123, b"123m", ["1m"]):
        with pytest.raises(TypeError):
            mc.parse(bad)


# ---------------------------------------------------------------------------------------------
# Specific errors: the right class, a message naming the column or the problem


def _fill(avoid: Tile, n: int):
    """`n` distinct filler tiles other than `avoid`."""
    return [t for t in Tile if t != avoid][:n]


@pytest.mark.parametrize("tile", list(Tile), ids=str)
def test_five_copies_of_every_kind(tile):
    tiles = [tile] * 5 + _fill(tile, 8)
    with pytest.raises(InvalidHandError, match=re.escape(str(tile))) as info:
        mc.parse(mc.format_tiles(tiles))
    assert "5" in str(info.value)
    # Split between a meld and the concealed tiles.
    meld = "[" + mc.format_tiles([tile] * 3) + "]"
    with pytest.raises(InvalidHandError, match=re.escape(str(tile))):
        mc.parse(meld + mc.format_tiles([tile] * 2 + _fill(tile, 8)))
    # Through Hand directly.
    counts = [0] * 34
    counts[tile] = 5
    with pytest.raises(InvalidHandError):
        mc.Hand(counts)


def test_wrong_tile_counts():
    with pytest.raises(InvalidHandError, match="15"):
        mc.parse("111222333444555m")
    with pytest.raises(InvalidHandError, match="12"):
        mc.parse("11122233344m5m")
    with pytest.raises(InvalidHandError, match="meld"):
        mc.parse("[111m]222333444555m")  # 12 concealed tiles with one meld


@pytest.mark.parametrize("text", ["[12m3p]456p789s11sEE", "[1m23p]456p789s11sEE", "[89m1p]456p789s11sEE", "[7m8m9p]456p789s11sEE"])
def test_chow_across_suits(text):
    with pytest.raises(InvalidHandError, match="suit"):
        mc.parse(text)


@pytest.mark.parametrize("text", ["[891m]456p789s11sEE", "[ESW]456p789s11sEE", "[1235m]456p789s11sEE", "[11m]456p789s11sEE"])
def test_not_a_meld(text):
    with pytest.raises(InvalidHandError, match="column 1"):
        mc.parse(text)


def test_meld_constructors_reject_impossible_melds():
    with pytest.raises(InvalidHandError):
        Meld.chow(Tile.M8)
    with pytest.raises(InvalidHandError):
        Meld.chow(Tile.EAST)
    with pytest.raises(InvalidHandError):
        Meld(MeldKind.PUNG, Tile.M1, concealed=True)
    with pytest.raises(InvalidHandError):
        Meld.kong(Tile.M1, added=True)  # a promoted kong needs its source
    with pytest.raises(InvalidHandError):
        Meld(MeldKind.KONG, 40)


@pytest.mark.parametrize(
    "text, column",
    [
        ("[123m,4]456p789s11sEE", 7),
        ("[123m,5]456p789s11sEE", 7),
        ("[555p,0]123m789s11sEE", 7),
        ("[555p,4]123m789s11sEE", 7),
        ("[5555p,4]123m789s11sEE", 8),
        ("[5555p,8]123m789s11sEE", 8),
        ("[123m,]456p789s11sEE", 7),
        ("[123m,a]456p789s11sEE", 7),
        ("[123m,12]456p789s11sEE", 8),
        ("[123m;1]456p789s11sEE", 6),
        ("[123m456p789s11sEE", None),
        ("123m[456p]789s11sEE", 5),
    ],
)
def test_wrong_meld_markers(text, column):
    with pytest.raises(ParseError) as info:
        mc.parse(text)
    if column is not None:
        assert info.value.column == column, str(info.value)
        assert f"column {column}" in str(info.value)


@pytest.mark.parametrize(
    "text, column, words",
    [
        ("123m456p789s11h22d", 15, "'h'"),
        ("123m456p789s11sEEd", 18, "'d'"),
        ("123m456p789s11sEEZ", 18, "'Z'"),
        ("123m456p789s11sEEe", 18, "'e'"),
        ("123m456p789s11sE8z", 17, "8z"),
        ("123m456p789s11sE9z", 17, "9z"),
        ("0m23m456p789s11sEE", 1, "0"),
        ("123m456p789s110p", 15, "0"),
        ("123m456p789s11sEE1", 19, "suit"),  # where the missing suit letter belongs
        ("123", 4, "suit"),
        ("12E3m456p789s11sEE", 3, "suit"),
        ("m123m456p789s11sE", 1, "digits"),
        ("123m 456p789s11sEE", 5, "whitespace"),
        ("\u0661\u0662\u0663m456p789s11sEE", 1, "'\u0661'"),  # Arabic-Indic digits are not ranks
        ("123m456p789s11sE\u00b2z", 17, "'\u00b2'"),  # str.isdigit('²') is True; int('²') fails
        ("", None, "empty"),
        ("   ", None, "empty"),
    ],
)
def test_malformed_tiles(text, column, words):
    with pytest.raises(ParseError) as info:
        mc.parse(text)
    assert words in str(info.value)
    if column is not None:
        assert info.value.column == column, str(info.value)


@pytest.mark.parametrize(
    "suffix, column_offset",
    [
        ("|XE1000", 1),
        ("|EX1000", 2),
        ("|EE2000", 3),
        ("|EE100", 6),
        ("|EE10001", 7),
        ("|EE1000|9", 8),
        ("|EE1000|ai", 9),
        ("|EE1000|aa", 9),
        ("|EE1000|3a", 8),
        ("|ee1000", 1),
        ("|EE1000|\u0663", 8),
    ],
)
def test_malformed_context(suffix, column_offset):
    base = "123m456p789s11sEEE"
    with pytest.raises(ParseError) as info:
        mc.parse(base + suffix)
    assert info.value.column == len(base) + 1 + column_offset, str(info.value)


def test_parse_error_message_shows_the_text_and_a_caret():
    with pytest.raises(ParseError) as info:
        mc.parse("123m456p789s11h22d")
    lines = str(info.value).splitlines()
    assert "123m456p789s11h22d" in lines[1]
    assert lines[2].index("^") == lines[1].index("h")
