"""Score and hand pictures as docs/VIZ.md describes them, for all three rulesets: claimed tiles on
their side, concealed kongs with face-down ends, the flowers drawn, and English-only labels for
machines without CJK fonts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from mahjong_core.rules import changbai, mcr, sichuan
from mahjong_core.viz import hand_svg, score_svg, table_svg
from mahjong_core.viz.replay import fan_rows
from viz_support import played

from mahjong_core.errors import InvalidArgumentError

_SVG = "{http://www.w3.org/2000/svg}"
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff]")

SICHUAN = "[2222p,1][3333p]1p456p789p1p"
CHANGBAI = "[123m,1][123m,3]456p789s5s5s"
MCR_FLOWERS = "[123m,1][345m,3]567m34sCC5s|EE1000|abcdefgh"


def _group(svg: str, cls: str) -> list:
    """(tile, turned) of every tile in the groups of class `cls`."""
    root = ET.fromstring(svg)
    return [(u.get("data-tile"), "turned" in u.get("class").split())
            for g in root.iter(_SVG + "g") if g.get("class") == cls for u in g.iter(_SVG + "use")]


def _sichuan_score():
    return sichuan.score(SICHUAN, void_suit="s", self_drawn=True, kong_replacement=True)


# -- melds ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("score,hand,melds", [
    (_sichuan_score(), SICHUAN,  # a kong claimed from the left, a concealed kong
     [("2p", True), ("2p", False), ("2p", False), ("2p", False),
      ("back", False), ("3p", False), ("3p", False), ("back", False)]),
    (changbai.score(CHANGBAI), CHANGBAI,  # chows claimed with their 1m and their 3m
     [("1m", True), ("2m", False), ("3m", False), ("1m", False), ("2m", False), ("3m", True)]),
    (mcr.score("[123m,1][1111p]456m789mEE|EE1000"), None,  # an MCR score keeps its hand
     [("1m", True), ("2m", False), ("3m", False), ("back", False), ("1p", False), ("1p", False), ("back", False)]),
])
def test_score_melds_show_the_claimed_tile_and_concealed_kong_ends(score, hand, melds):
    assert _group(score_svg(score, hand=hand), "melds") == melds


@pytest.mark.parametrize("score, melds", [
    (_sichuan_score(), [("2p", True), ("2p", False), ("2p", False), ("2p", False),
                        ("back", False), ("3p", False), ("3p", False), ("back", False)]),
    (changbai.score(CHANGBAI), [("1m", True), ("2m", False), ("3m", False), ("1m", False), ("2m", False), ("3m", True)]),
])
def test_every_rulesets_score_keeps_its_hand_for_the_picture(score, melds):
    """A Sichuan or Changbai score keeps the Hand it scored (as MCR's does): its picture turns the
    claimed tiles without `hand=` (a notebook shows the score itself)."""
    assert score.hand is not None and _group(score_svg(score), "melds") == melds
    assert score == type(score)(**{**{f: getattr(score, f) for f in score.__dataclass_fields__}, "hand": None})


def test_score_svg_refuses_a_hand_that_is_not_the_one_scored():
    with pytest.raises(InvalidArgumentError, match="other tiles"):
        score_svg(_sichuan_score(), hand="[2222p,1][3333p]5p456p789p5p")


# -- flowers --------------------------------------------------------------------------------------

def test_hand_and_score_pictures_draw_the_flowers():
    flowers = [(f, False) for f in "abcdefgh"]
    assert _group(hand_svg(MCR_FLOWERS), "flowers") == flowers
    score = mcr.score(MCR_FLOWERS, rules=mcr.Rules(flowers=True))
    assert _group(score_svg(score), "flowers") == flowers
    # a bare count of flowers names no faces to draw
    assert _group(hand_svg("[123m,1][345m,3]567m34sCC5s|EE1000|3"), "flowers") == []


def test_table_flowers_are_legible():
    game = next(g for g in (played("mcr", seed, {"flowers": True}) for seed in range(1, 40))
                if any(g.flowers))
    root = ET.fromstring(table_svg(game))
    widths = []
    for row in root.iter(_SVG + "g"):  # a hand row, scaled down when it is long
        scale = re.search(r"scale\(([\d.]+)\)", row.get("transform", ""))
        for g in row.findall(_SVG + "g"):
            if g.get("class") == "flowers":
                widths += [float(u.get("width")) * (float(scale[1]) if scale else 1) for u in g.iter(_SVG + "use")]
    assert widths and min(widths) >= 20  # px on the 800 px board (they were 18 at most)


# -- labels ---------------------------------------------------------------------------------------

def _texts(svg: str) -> list:
    root = ET.fromstring(svg)
    return [t.text for g in root.iter(_SVG + "g") if g.get("class") == "fans" for t in g.iter(_SVG + "text")]


@pytest.mark.parametrize("score", [_sichuan_score(), changbai.score(CHANGBAI),
                                   mcr.score(MCR_FLOWERS, rules=mcr.Rules(flowers=True))])
def test_english_labels_write_no_chinese(score):
    both = score_svg(score)
    assert both == score_svg(score, labels="zh")
    assert any(_CJK.search(t) for t in _texts(both))
    english = score_svg(score, labels="en")
    assert not _CJK.search(english)  # anywhere: names, 番, the picture's title
    names = getattr(score, "fans", None) or getattr(score, "patterns", None) or score.items
    assert all(n.name_en in " ".join(_texts(english)) for n in names)


def test_english_labels_say_fan_and_count_the_flowers():
    texts = _texts(score_svg(mcr.score(MCR_FLOWERS, rules=mcr.Rules(flowers=True)), labels="en"))
    assert "Flower Tiles ×8" in texts
    assert "total 4 fan · ×8 · 48 points" in _texts(score_svg(_sichuan_score(), labels="en"))


def test_the_replay_counts_a_repeated_fan_in_english_too():
    rows, _ = fan_rows("mcr", {"fans": [["花牌", 1, 8]], "total": 8})
    assert rows == [("8", "花牌 ×8", "Flower Tiles ×8")]


def test_score_svg_rejects_other_labels():
    with pytest.raises(InvalidArgumentError, match="labels"):
        score_svg(_sichuan_score(), labels="both")
