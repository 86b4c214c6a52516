"""Leagues: the file formats, every combination of four bots, the ranking with intervals, the command."""

from __future__ import annotations

import itertools
import json

import pytest
from mahjong_core.game.simulate import simulate
from mahjong_core.league import load_league, play_league

from mahjong_core.cli import main
from mahjong_core.errors import InvalidArgumentError

LEAGUE = """
[league]
ruleset = "sichuan"
hands = 16
seed = 3

[[bot]]
name = "g1"
spec = "greedy"

[[bot]]
name = "r1"
spec = "random"

[[bot]]
name = "g2"
spec = "greedy"

[[bot]]
name = "r2"
spec = "random"

[[bot]]
name = "first"
spec = "eval_bots:KillerBot"
args = { marker = "/nonexistent/never", hand = -1 }
"""


@pytest.fixture
def league_file(tmp_path):
    path = tmp_path / "bots.toml"
    path.write_text(LEAGUE)
    return path


def test_every_combination_of_four_bots_plays_and_greedy_ranks_above_random(league_file, tmp_path):
    league = load_league(str(league_file))
    assert [b.label for b in league.bots] == ["g1", "r1", "g2", "r2", "first"]
    assert league.tables() == list(itertools.combinations(range(5), 4))
    standings = play_league(league, hands=40, duplicate=True, out_dir=str(tmp_path / "out"))
    assert len(standings.results) == 5 and all(s.tables == 4 and s.hands == 160 for s in standings.standings)
    ranked = [s.bot for s in standings.standings]
    assert set(ranked[:3]) == {"g1", "g2", "first"} and set(ranked[3:]) == {"r1", "r2"}
    # table 1 is bots (0, 1, 2, 4) with seed 3 + 1: the same run as simulate
    table = simulate("sichuan", 40, seed=4, bots=[league.bots[i] for i in (0, 1, 2, 4)], duplicate=True)
    a, b = table.to_dict(), standings.results[1].to_dict()
    a.pop("timing"), b.pop("timing")
    assert a == b
    g1 = next(s for s in standings.standings if s.bot == "g1")
    assert g1.score.mean == pytest.approx(sum(r.estimate(r.bots.index("g1")).mean for r in standings.results
                                              if "g1" in r.bots) / 4)
    assert g1.score.low < g1.score.mean < g1.score.high
    assert len(list((tmp_path / "out").glob("table-*.jsonl"))) == 5


def test_league_command_and_the_json_form(league_file, tmp_path, capsys):
    assert main(["league", str(league_file), "--hands", "8", "--duplicate", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["rank"] for s in out["standings"]] == [1, 2, 3, 4, 5] and len(out["tables"]) == 5
    as_json = tmp_path / "bots.json"
    as_json.write_text(json.dumps({"league": {"hands": 8}, "bot": [{"name": n, "spec": "random"}
                                                                   for n in "abcd"]}))
    assert main(["league", str(as_json), "--no-progress"]) == 0
    assert "rank" in capsys.readouterr().out


@pytest.mark.parametrize("text, words", [
    ('[[bot]]\nspec = "greedy"\n', "at least 4"),
    ('[league]\nplayers = 3\n[[bot]]\nspec = "greedy"\n', "unknown"),
    ('[[bot]]\nname = "x"\n', "needs a spec"),
    ("[[bot]\n", "not valid TOML"),
    ("".join('[[bot]]\nname = "a"\nspec = "greedy"\n' for _ in range(4)), "must differ"),
])
def test_bad_league_files_say_what_is_wrong(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InvalidArgumentError, match=words):
        load_league(str(path))
    assert main(["league", str(path)]) == 2
