"""The fast paths of `mcr.score(text)` (issue 23) give what the general paths give.

* The native parser on seeded winning hands with 0-4 melds (chows, pungs, kongs melded, concealed
  and promoted) and context suffixes equals the Python reference parser, read through every field
  (its Meld tuple is built lazily from C specs; one-byte strings take a table-driven scanner,
  strings with a glyph the general one).
* The C specs a Hand keeps for its melds, and the context the parser hands back as C ints, score
  exactly as the Python objects do: `score(text)` equals `score(reference-parsed Hand)`, a Hand
  rebuilt from its Python fields, the batch scorer and the scores with the context passed as
  arguments.
* The compiled `score` entry keeps the definition's signature and errors, and sends every other
  input (presets by name, win_tile=, flags, melds=, counts) to the general path.
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import random

import pytest

import mahjong_core as mc
import mcr_handgen
from mahjong_core import notation as _notation
from mahjong_core.errors import InvalidHandError, ParseError
from mahjong_core.rules import mcr
from mahjong_core.rules.mcr import scoring

RULES = dataclasses.replace(mcr.Rules.presets["botzone"], flowers=True)


def _corpus(n: int = 1500, seed: int = 2323):
    rng = random.Random(seed)
    return [mcr_handgen.random_hand(rng, consistent=True) for _ in range(n)]


CORPUS = _corpus()


def _fields(h: mc.Hand):
    return (type(h), h.counts, h.melds, h.meld_counts, h.win_tile, h.context, h.n_tiles, h.n_melds, h)


def test_the_corpus_has_every_kind_of_meld():
    kinds = set()
    for text in CORPUS:
        for m in mc.parse(text).melds:
            kinds.add((m.kind, m.concealed, m.claimed is not None and m.claimed >= 5))
    assert (mc.MeldKind.CHOW, False, False) in kinds and (mc.MeldKind.PUNG, False, False) in kinds
    assert {(mc.MeldKind.KONG, True, False), (mc.MeldKind.KONG, False, False), (mc.MeldKind.KONG, False, True)} <= kinds
    assert sum(mc.parse(t).n_melds >= 3 for t in CORPUS) > 100


def test_native_parse_of_melded_text_equals_the_reference():
    for text in CORPUS:
        assert _fields(mc.parse(text)) == _fields(_notation._parse_reference(text)), text


def _with_a_glyph(text: str) -> str:
    """The same hand with its first concealed suited or honour tile written as a glyph (a string of
    four-byte kind, which takes the scanner's general loop)."""
    h = mc.parse(text)
    cut = text.index("|") if "|" in text else len(text)
    body, suffix = text[:cut], text[cut:]
    head = body[: body.rindex("]") + 1] if "]" in body else ""
    tiles = [t for t in range(34) for _ in range(h.counts[t])]
    tiles.remove(int(h.win_tile))
    written = "".join(mc.Tile(t).glyph for t in tiles[:1]) + mcr_handgen.tiles_text(tiles[1:])
    return head + written + mcr_handgen.tile_text(int(h.win_tile)) + suffix


def test_glyph_strings_parse_like_one_byte_strings():
    for text in CORPUS[:400]:
        wide = _with_a_glyph(text)
        assert _fields(mc.parse(wide)) == _fields(mc.parse(text)), (text, wide)
        assert mcr.score(wide, rules=RULES) == mcr.score(text, rules=RULES)


def test_lazy_melds_are_the_shared_values():
    a, b = mc.parse("[123m,1][5555p,6][EEEE]11s22s|SW1001|ab"), mc.parse("[123m,1][5555p,6][EEEE]11s22s|SW1001|ab")
    assert a.melds == (mc.Meld.chow(mc.Tile.M1, 1), mc.Meld.kong(mc.Tile.P5, 2, added=True),
                       mc.Meld.kong(mc.Tile.EAST, concealed=True))
    assert all(x is y for x, y in zip(a.melds, b.melds)) and a.melds is a.melds
    assert a.context is b.context and a.context.flower_tiles == (0, 1) and a.context.flowers == 2


def _context_args(h: mc.Hand):
    c = h.context
    if c is None:
        return {}
    return dict(self_drawn=c.self_drawn, last_copy=c.last_copy, wall_last=c.wall_last, kong=c.kong,
                seat_wind=c.seat_wind, prevalent_wind=c.prevalent_wind, flowers=c.flowers)


def test_text_scores_equal_the_general_paths():
    records = []
    for text in CORPUS:
        fast = mcr.score(text, rules=RULES)
        ref_hand = _notation._parse_reference(text)
        assert fast is not None and fast == mcr.score(ref_hand, rules=RULES), text
        assert fast.fans == mcr.score(ref_hand, rules=RULES).fans
        assert fast.decomposition == mcr.score(ref_hand, rules=RULES).decomposition
        # A Hand built from Python fields (its specs written by the constructor), context as arguments.
        rebuilt = mc.Hand(ref_hand.counts, ref_hand.melds, ref_hand.win_tile)
        again = mcr.score(rebuilt, rules=RULES, **_context_args(ref_hand))
        assert (again.total, again.fans, again._context) == (fast.total, fast.fans, fast._context), text
        assert fast.hand == ref_hand and fast.hand.melds == ref_hand.melds
        assert fast._attribution_data == mcr.score(ref_hand, rules=RULES)._attribution_data
        records.append(fast.total)
    pytest.importorskip("numpy")
    assert list(mcr.score_batch([mc.parse(t) for t in CORPUS], RULES)) == records


def test_decompositions_use_the_hands_melds():
    for text in CORPUS[:300]:
        assert mc.decompositions(mc.parse(text)) == mc.decompositions(_notation._parse_reference(text)), text


def test_the_compiled_entry_keeps_the_definitions_signature_and_errors():
    assert mcr.score.__name__ == "score" and mcr.score.__module__ == "mahjong_core.rules.mcr.scoring"
    params = inspect.signature(mcr.score).parameters
    assert list(params) == ["hand", "win_tile", "self_drawn", "last_copy", "wall_last", "kong", "seat_wind",
                            "prevalent_wind", "flowers", "rules", "declared_ready", "melds"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for name, p in params.items() if name != "hand")
    assert "Score a winning hand" in (mcr.score.__doc__ or "")
    assert pickle.loads(pickle.dumps(mcr.score)) is mcr.score
    with pytest.raises(TypeError, match=r"score\(\) got an unexpected keyword argument 'seat'"):
        mcr.score("123m456p789s11sEEE", seat=1)
    with pytest.raises(TypeError, match=r"score\(\)"):
        mcr.score("123m456p789s11sEEE", None)  # type: ignore[misc]


def test_every_other_input_takes_the_general_path():
    text = "[123m,1][345m,1]567m34sCC5s|EE1000"
    plain = "[123m,1][345m,1]567m34sCC5s"
    def seen(s):
        return (s.total, s.fans, s.win_tile, s._context, s.decomposition)

    expected = seen(mcr.score(text))
    assert expected[0] == 19
    assert mcr.score(text, rules="official") == mcr.score(mc.parse(text), rules="official")
    assert seen(mcr.score(plain, self_drawn=True)) == expected
    assert seen(mcr.score(plain[:-2], win_tile="5s", self_drawn=True)) == expected
    assert seen(mcr.score(mc.parse(plain), self_drawn=True)) == expected
    with pytest.raises(InvalidHandError, match="already gives the context"):
        mcr.score(text, self_drawn=True)
    with pytest.raises(InvalidHandError, match="no winning tile"):
        mcr.score("[123m,1][345m,1]567m34sCC|EE1000")
    with pytest.raises(ParseError):
        mcr.score("[123m,1][345m,1]567m34sCC5x")
    with pytest.raises(InvalidHandError):
        mcr.score(text, rules=mcr.Rules(strict_context=True), seat_wind=9)
    # Glyphs with a separating space (the scanner's general loop), and text the native parser
    # leaves to the reference (surrounding whitespace): the context still comes from the text.
    spaced = "\U0001F007\U0001F008\U0001F009 \U0001F00A\U0001F00B\U0001F00C" + "789m11p123s|EE1000"
    assert mcr.score(spaced, rules=RULES) == mcr.score(_notation._parse_reference(spaced), rules=RULES)
    padded = "  " + text + " "
    assert seen(mcr.score(padded)) == expected
    assert mcr.score("123m456p789s11sEEE", rules=None) is not None
    assert mcr.score("1234m456p789s11sEE") is None
    counts = list(mc.parse("123m456p789s11sEEE").counts)
    assert seen(mcr.score(counts, win_tile="E")) == seen(mcr.score("123m456p789s11sEEE"))
    assert scoring.score is mcr.score
