"""Golden MCR cases (tests/data/mcr_gb_mahjong_cases.json, MIT: see the .LICENSE next to it).

The cases follow MIL conventions (明暗杠) and count flowers, so they run under rules with
`mil_concealed_melded_kong=True` and `flowers=True`. Where the data gives two equally scored
readings (`altExpectedNames`), either is accepted. The two knitted-straight cases whose winning
tile can be read inside the 组合龙 expect no 嵌张 (`knitted_straight_wait_counts=False`); their
alternative lists the 嵌张 that the default reading (True, as PyMahjongGB) counts.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import mahjong_core as mc
from mahjong_core.rules import mcr

DATA = Path(__file__).resolve().parent / "data"
CASES = json.loads((DATA / "mcr_gb_mahjong_cases.json").read_text(encoding="utf-8"))
GOLDEN_RULES = mcr.Rules(mil_concealed_melded_kong=True, flowers=True)


def _ids(names):
    return Counter(n[len("FAN_"):] for n in names)


def test_license_travels_with_the_data():
    assert (DATA / "mcr_gb_mahjong_cases.LICENSE").read_text(encoding="utf-8").startswith("The MIT License")


@pytest.mark.parametrize("case", CASES["fanCases"], ids=lambda c: c["input"])
def test_fan_case(case):
    got = Counter(mcr.score(case["input"], rules=GOLDEN_RULES).fan_ids)
    accepted = [_ids(case["expectedNames"])]
    if case["altExpectedNames"]:
        accepted.append(_ids(case["altExpectedNames"]))
    assert got in accepted, f"{case['input']}: got {dict(got)}, expected one of {[dict(a) for a in accepted]}"


@pytest.mark.parametrize("case", CASES["fanCases"], ids=lambda c: c["input"])
def test_fan_case_total_is_the_sum_of_the_fans(case):
    s = mcr.score(case["input"], rules=GOLDEN_RULES)
    assert s.total == sum(f.points * f.count for f in s.fans)
    lists = [case["expectedNames"]] + ([case["altExpectedNames"]] if case["altExpectedNames"] else [])
    assert s.total in {sum(mcr.FAN_BY_ID[i].points for i in _ids(names).elements()) for names in lists}


def test_knitted_straight_wait_key_matches_the_main_expectation():
    # 3p completes 234p but is also the 3p of the 369p run of the 组合龙.
    strict = mcr.Rules(mil_concealed_melded_kong=True, flowers=True, knitted_straight_wait_counts=False)
    for case in CASES["fanCases"]:
        if case["input"].startswith("258m23469p14788s3p"):
            assert Counter(mcr.score(case["input"], rules=strict).fan_ids) == _ids(case["expectedNames"])
            assert "KANZHANG" in mcr.score(case["input"], rules=GOLDEN_RULES).fan_ids


@pytest.mark.parametrize("case", CASES["tingCases"], ids=lambda c: c["input"].strip())
def test_ting_case(case):
    hand = mc.parse(case["input"])
    got = {f"TILE_{t}" for t in mc.waits(hand, exclude_exhausted=True)}
    assert got == set(case["expectedNames"])


def test_every_golden_case_runs():
    assert len(CASES["fanCases"]) == 130 and len(CASES["tingCases"]) == 20
