"""best_discards: one core call for a bot's discard search, checked against discard_options and
against shanten of every discard."""

import pytest

import mahjong_core as mc
import reference_hands as H
from mahjong_core import Forms, InvalidHandError


@pytest.mark.parametrize("forms", [Forms.STANDARD, Forms.SICHUAN, Forms.CHANGBAI, Forms.MCR])
def test_matches_every_discard(forms):
    for row in H.counts_from_draws(H.uniform_draws(seed=int(forms), n=400, tiles=14)):
        counts = row.tolist()
        shanten, mask = mc.best_discards(bytes(counts), forms)
        after = {}
        for t in range(34):
            if counts[t]:
                counts[t] -= 1
                after[t] = mc.shanten(bytes(counts), forms)
                counts[t] += 1
        assert shanten == min(after.values())
        assert mask == sum(1 << t for t, s in after.items() if s == shanten)
        best_options = {int(o.tile) for o in mc.discard_options(mc.Hand(counts), forms) if o.shanten == shanten}
        assert best_options == {t for t in range(34) if (mask >> t) & 1}
        assert mc.best_discards(mc.Hand(counts), forms) == (shanten, mask)


def test_with_melds_and_errors():
    hand = mc.parse("[555p,1]123m67s88sEEEC")  # 11 concealed tiles with one meld
    shanten, mask = mc.best_discards(hand)
    assert shanten == 0 and (mask >> int(mc.Tile.RED)) & 1
    with pytest.raises(InvalidHandError):
        mc.best_discards(mc.parse("123m456p789s1122z"))  # 13 tiles: nothing to discard
    with pytest.raises(InvalidHandError):
        mc.best_discards(bytes(34), melds=0)
