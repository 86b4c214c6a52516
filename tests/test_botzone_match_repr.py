"""`botzone.judge.MatchResult` reads at a glance (issue 23, item 2): `repr`/`str` are the per-seat
table the CLI prints plus a fault summary, `_repr_html_` the same cells as HTML, `SeatResult` and
`Fault` one line each; the logs and raw tallies stay in the fields and `to_dict()`."""

from __future__ import annotations

import sys

from mahjong_core.botzone.judge import Fault, SeatResult, match

from test_result_reprs import _Cells

CRASH = "import sys\nsys.stdin.readline()\nprint('oops on stderr', file=sys.stderr)\nraise SystemExit(3)\n"


def test_a_match_shows_its_table_not_its_logs():
    r = match(["greedy", "random", "greedy", "random"], games=6, seed=2)
    text = repr(r)
    assert text == str(r) and len(text) < 600
    lines = text.splitlines()
    assert lines[0] == r.headline() and lines[0].startswith("botzone match: 6 game(s), seed 2: ")
    assert lines[1:] == r.table().splitlines() and len(lines) == 6  # no fault line: none happened
    assert lines[1].split() == ["seat", "score", "mean", "wins", "self", "deal-in", "penalties", "max", "s", "player"]
    for s, seat in enumerate(r.seats):
        row = lines[2 + s].split()
        assert row[:6] == [str(s), str(seat.score), f"{seat.score / 6:.2f}", str(seat.wins), str(seat.self_draws),
                           str(seat.deal_ins)]
        assert row[-1] == seat.player
    assert "initdata" not in text and "log" not in text
    assert sum(s.wins for s in r.seats) == r.outcomes.get("HU", 0)
    # the raw data is still there
    assert len(r.logs) == 6 and "initdata" in r.logs[0]
    assert r.to_dict()["seats"][1]["score"] == r.seats[1].score


def test_a_matchs_repr_does_not_grow_with_the_games():
    small = match(["random"] * 4, games=1, seed=1)
    large = match(["random"] * 4, games=12, seed=1)
    assert len(repr(large)) - len(repr(small)) < 30


def test_a_match_as_an_html_table():
    r = match(["greedy", "random", "greedy", "random"], games=3, seed=5)
    cells = _Cells(r._repr_html_())
    assert cells.caption == r.headline()
    assert cells.rows[0] == list(r._HEADER)
    assert [row[1] for row in cells.rows[1:]] == [str(s.score) for s in r.seats]
    assert [row[-1] for row in cells.rows[1:]] == [s.player for s in r.seats]


def test_faults_are_counted_with_the_first_hint(tmp_path):
    bot = tmp_path / "crash.py"
    bot.write_text(CRASH)
    crash = f"{sys.executable} {bot}"
    r = match(["random", crash, "random", "random"], games=3, seed=1, time_limit=30, stderr_dir=str(tmp_path / "e"))
    assert len(r.faults) == 3
    last = repr(r).splitlines()[-1]
    assert last == f"3 faults, first: {r.faults[0].hint()}; all 3 in .faults"
    assert "oops on stderr" in last and "game-00000-seat1.stderr" in last
    assert r.fault_summary() in r._repr_html_().replace("&#x27;", "'")
    assert repr(r.faults[0]) == f"Fault({r.faults[0].hint()})" and "\n" not in repr(r.faults[0])
    assert r.seats[1].penalty_text() == "RE:3"


def test_seat_results_are_one_line():
    seat = SeatResult("python3 bot.py", games=4, score=-20, wins=1, self_draws=1, deal_ins=2,
                      penalties={"WA": 1, "RE": 2}, max_seconds=0.123)
    assert repr(seat) == ("SeatResult(python3 bot.py: 4 games, score -20 (mean -5.00), 1 wins (1 self-drawn), "
                          "2 deal-ins, penalties RE:2,WA:1, max 0.12 s)")
    assert seat.to_dict()["mean"] == -5.0
    fault = Fault(0, 2, "x", "WA")
    assert repr(fault) == "Fault(game 0 seat 2 (x): WA)"
