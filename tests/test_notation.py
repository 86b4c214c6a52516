"""The hand notation: round trips (hypothesis), malformed input (hypothesis), specific errors."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mc
from mahjong_core import InvalidHandError, MCRContext, Meld, MeldKind, ParseError, Tile
from depth import examples

def deterministic(full_depth_examples: int):
    """Hypothesis settings for reproducible runs (seeded from the test, no example database), with
    `full_depth_examples` at the test depth (tests/depth.py)."""
    return settings(
        max_examples=examples(full_depth_examples),
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )

# ---------------------------------------------------------------------------------------------
# Strategies


# Strategies built once: a strategy made inside a composite is rebuilt (and re-validated) at every
# draw, which costs hypothesis more than the draw itself
_MELD_KINDS = st.sampled_from(["chow", "pung", "kong", "concealed_kong", "promoted_kong"])
_CHOW_STARTS = st.sampled_from([9 * s + r for s in range(3) for r in range(7)])
_CLAIMED_OR_NONE = st.sampled_from([None, 1, 2, 3])
_CLAIMED = st.sampled_from([1, 2, 3])
_KINDS = st.integers(0, 33)
_FLOWER_CHOICES = st.sampled_from(["none", "count", "letters"])
_FLOWER_COUNTS = st.integers(0, 8)
_FLOWER_LETTERS = st.sets(st.integers(0, 7), min_size=1, max_size=8)
_WINDS = st.integers(0, 3)
_BOOLS = st.booleans()
_MELD_COUNTS = st.integers(0, 4)
_ZERO_OR_ONE = st.integers(0, 1)


@st.composite
def melds_and_pool(draw, n_melds):
    left = [4] * 34
    melds = []
    while len(melds) < n_melds:
        kind = draw(_MELD_KINDS)
        if kind == "chow":
            tile = draw(_CHOW_STARTS)
            meld = Meld.chow(tile, draw(_CLAIMED_OR_NONE))
        elif kind == "pung":
            meld = Meld.pung(draw(_KINDS), draw(_CLAIMED_OR_NONE))
        elif kind == "kong":
            meld = Meld.kong(draw(_KINDS), draw(_CLAIMED))
        elif kind == "promoted_kong":
            meld = Meld.kong(draw(_KINDS), draw(_CLAIMED), added=True)
        else:
            meld = Meld.kong(draw(_KINDS), concealed=True)
        if all(left[t] >= meld.tiles.count(t) for t in meld.tiles):
            for t in meld.tiles:
                left[t] -= 1
            melds.append(meld)
    return tuple(melds), left


@st.composite
def contexts(draw):
    if draw(_BOOLS):
        return None
    flowers, flower_tiles = 0, None
    choice = draw(_FLOWER_CHOICES)
    if choice == "count":
        flowers = draw(_FLOWER_COUNTS)
    elif choice == "letters":
        flower_tiles = tuple(sorted(draw(_FLOWER_LETTERS)))
    return MCRContext(
        prevalent_wind=draw(_WINDS),
        seat_wind=draw(_WINDS),
        self_drawn=draw(_BOOLS),
        last_copy=draw(_BOOLS),
        wall_last=draw(_BOOLS),
        kong=draw(_BOOLS),
        flowers=flowers,
        flower_tiles=flower_tiles,
    )


@st.composite
def hands(draw):
    n_melds = draw(_MELD_COUNTS)
    melds, left = draw(melds_and_pool(n_melds))
    complete = draw(_BOOLS)
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


# ---------------------------------------------------------------------------------------------
# The compiled scanner (`parse`) against the Python reference (`_parse_reference`)

from mahjong_core import notation as _notation  # noqa: E402


def _outcome(fn, text):
    try:
        h = fn(text)
    except Exception as exc:  # the exception itself is the outcome compared
        return ("raise", type(exc), str(exc), getattr(exc, "column", None))
    return ("hand", h, h.counts, h.melds, h.win_tile, h.context, h.n_tiles, h.n_melds, type(h))


_PIECES = [
    "1", "2", "3", "5", "7", "9", "0", "m", "p", "s", "z", "E", "S", "W", "N", "C", "F", "P", "[", "]", ",",
    "|", " ", "8z", "123m", "555p", "EEE", "[123m,1]", "[555p,2]", "[EEEE]", "[1111s,5]", "|EE1000", "|SW0101|3",
    "|EE0000|ah", "|NN1111|abcdefgh", "\U0001F007", "\U0001F004", "\U0001F004\ufe0f", "\U0001F000 ", "\U0001F022",
    "²", "\u3000", "x", "|9", "|EE1000|", "[111m]", "22", "44s", "66p",
]


@deterministic(3000)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=16))
def test_native_parser_equals_reference_on_generated_text(pieces):
    text = "".join(pieces)
    assert _outcome(mc.parse, text) == _outcome(_notation._parse_reference, text), repr(text)


def _mutations(text: str, rng: random.Random):
    alphabet = "0123456789mpszESWNCFP[],| abx\U0001F007\U0001F019\U0001F004"
    for _ in range(30):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(3)
            i = rng.randrange(len(chars) + 1)
            if op == 0 and chars:
                del chars[min(i, len(chars) - 1)]
            elif op == 1:
                chars.insert(i, rng.choice(alphabet))
            elif chars:
                chars[min(i, len(chars) - 1)] = rng.choice(alphabet)
        yield "".join(chars)


def test_native_parser_equals_reference_on_mutated_hands():
    rng = random.Random(77)
    seeds = [
        "[123m,2][555p,1][EEEE]123m45p6699sEE|EE1000|3",
        "[EEE,2][SSSS,1]WWWNN55pN|EE1000",
        "123m456p789s1122z",
        "11223344556677m",
        "19m19p19s1234567z|SE0110|abch",
        "[1111s,5][999p,3]123m4s4s",
        "\U0001F007\U0001F008\U0001F009 \U0001F004",
    ]
    checked = 0
    for seed in seeds:
        assert _outcome(mc.parse, seed) == _outcome(_notation._parse_reference, seed)
        for text in _mutations(seed, rng):
            assert _outcome(mc.parse, text) == _outcome(_notation._parse_reference, text), repr(text)
            checked += 1
    assert checked == 30 * len(seeds)


@deterministic(300)
@given(st.data())
def test_native_formatter_equals_reference(data):
    n_melds = data.draw(_MELD_COUNTS)
    melds, left = data.draw(melds_and_pool(n_melds))
    pool = [t for t in range(34) for _ in range(left[t])]
    size = 13 - 3 * n_melds + data.draw(_ZERO_OR_ONE)
    tiles = data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    if any(counts[t] > left[t] for t in range(34)):
        return
    win = tiles[-1] if size == 14 - 3 * n_melds and data.draw(_BOOLS) else None
    hand = mc.Hand(counts, melds, win, data.draw(contexts()))
    assert mc.format_hand(hand) == _notation._format_reference(hand)
    assert mc.parse(mc.format_hand(hand)) == _notation._parse_reference(_notation._format_reference(hand))


def test_parsed_melds_and_contexts_are_shared_values():
    a, b = mc.parse("[123m,1]456p789s11sEEE|EE1000|2"), mc.parse("[123m,1]456p789s11sEEE|EE1000|2")
    assert a == b and a.melds[0] is b.melds[0] and a.context is b.context
    assert a.melds[0] == Meld.chow(Tile.M1, 1) and a.context == MCRContext(self_drawn=True, flowers=2)


# ---------------------------------------------------------------------------------------------
# Length cap (issue 11 R15) and Unicode glyphs (issue 16 item 5)


def test_overlong_input_fails_fast_without_echoing_it():
    huge = "1m" * 500_000  # 1 MB
    for fn in (mc.parse, _notation._parse_reference):
        with pytest.raises(ParseError) as err:
            fn(huge)
        assert "too long: 1000000 characters (at most 256)" in str(err.value)
        assert len(str(err.value)) < 200 and err.value.column is None
    with pytest.raises(ParseError, match="too long"):
        mc.parse_tiles("1m" * 600)
    assert len(mc.parse_tiles("1111222233334444m" * 8)) == 128  # a wall's worth of tiles still parses


def test_longest_real_notation_is_accepted():
    text = "[1111m,1][2222p,5][3333s][EEEE,7]SS|NW1111|abcdefgh"
    assert len(text) < _notation.MAX_NOTATION_LENGTH
    assert mc.parse(text).n_melds == 4
    padded = " " * 100 + "123m456p789s1122z" + " " * 100
    assert mc.parse(padded) == mc.parse("123m456p789s1122z")


def test_glyphs_parse_like_letters():
    hand = mc.parse("[123m,1]456p789s11sEEE|EE1000|2")
    glyph_text = "[" + "".join(t.glyph for t in hand.melds[0].tiles) + ",1]" + "".join(
        t.glyph for t in (Tile.P4, Tile.P5, Tile.P6, Tile.S7, Tile.S8, Tile.S9, Tile.S1, Tile.S1, Tile.EAST, Tile.EAST, Tile.EAST)
    ) + "|EE1000|2"
    assert mc.parse(glyph_text) == hand
    for t in Tile:
        assert mc.parse_tiles(t.glyph) == (t,)
        assert mc.parse_tiles(t.glyph + "\ufe0f") == (t,)
    assert mc.parse_tiles("\U0001F007\U0001F008\U0001F0091p2p3p") == (Tile.M1, Tile.M2, Tile.M3, Tile.P1, Tile.P2, Tile.P3)
    mixed = mc.parse("12m\U0001F009456p789sEEE\U0001F005\U0001F005")
    assert mixed == mc.parse("123m456p789sEEEFF")


def test_hand_glyphs_round_trip():
    # (glyphs() writes no claim markers or context, so hands without them round-trip exactly)
    for text in ("[123m][555p]456p789sE E", "123m456p789s1122z", "11223344556677m", "[EEEE]123m456p789s1p1p"):
        hand = mc.parse(text.replace(" ", ""))
        assert mc.parse(hand.glyphs()) == hand, hand.glyphs()


def test_glyph_errors_name_the_column():
    with pytest.raises(ParseError) as err:
        mc.parse("123m\U0001F022456p")
    assert err.value.column == 5 and "flower glyph" in str(err.value)
    with pytest.raises(ParseError) as err:
        mc.parse("12\U0001F007")
    assert err.value.column == 3 and "need a suit letter" in str(err.value)
    with pytest.raises(ParseError) as err:
        mc.parse("\U0001F007  \U0001F008")
    assert err.value.column == 2 and "whitespace" in str(err.value)
