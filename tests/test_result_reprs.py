"""Result objects read at a glance: repr / str show a short summary (the table a user wants first),
`_repr_html_` the same cells as an HTML table, and the raw fields stay in `to_dict()`."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from mahjong_core.game.botspec import bot_spec
from mahjong_core.game.match import Match
from mahjong_core.game.simulate import simulate
from mahjong_core.game.stats import Comparison, Estimate, format_p_value, paired_p_value
from mahjong_core.league import League, play_league

from mahjong_core.rules import changbai, mcr, sichuan
from mahjong_core.rules.ledger import Ledger


class _Cells(HTMLParser):
    """The text of every <th>/<td> cell, row by row, and the caption."""

    def __init__(self, markup):
        super().__init__()
        self.rows, self.caption, self._where = [], "", None
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self._where = "cell"
        elif tag == "caption":
            self._where = "caption"

    def handle_endtag(self, tag):
        if tag in ("td", "th", "caption"):
            self._where = None

    def handle_data(self, data):
        if self._where == "cell":
            self.rows[-1][-1] += data
        elif self._where == "caption":
            self.caption += data


@pytest.fixture(scope="module")
def duplicate_run():
    return simulate("sichuan", 40, seed=2, bots=["greedy", "random", "greedy", "random"], duplicate=True)


def test_a_simulation_shows_its_table_not_its_fields(duplicate_run):
    r = duplicate_run
    text = repr(r)
    assert text == str(r) and len(text) < 1000
    lines = text.splitlines()
    assert lines[0] == r.headline() and lines[0].startswith("sichuan: 40 hands (duplicate, 10 walls x 4 seatings)")
    assert lines[1] == f"hands that ran to the end of the wall: {r.exhausted} ({r.exhausted / r.hands:.1%})"
    assert lines[2:] == r.table().splitlines()
    assert lines[2].split()[:6] == ["bot#", "bot", "hands", "win%", "deal-in%", "pts/hand"]  # (duplicate: bots, not seats)
    assert lines[-1] == str(r.comparison()) and "paired over 10 walls" in lines[-1]
    for p, seat in enumerate(r.seats):  # a row per bot: rates, mean, interval
        row = lines[3 + p].split()
        assert row[:3] == [str(p), seat.bot, "40"] and row[5] == f"{seat.mean:+.2f}"
        assert row[3] == f"{seat.wins / seat.hands:.1%}" and row[4] == f"{seat.deal_ins / seat.hands:.1%}"
    assert "points_sq" not in text and "cross" not in text and "hand_totals" not in text
    raw = r.to_dict()  # the raw fields are still there
    assert raw["seats"][0]["points"] == r.seats[0].points and raw["checksum"] == r.checksum


def test_a_simulations_repr_does_not_grow_with_the_hands():
    small = simulate("mcr", 8, bots="random", duplicate=True)
    large = simulate("mcr", 400, bots="random", duplicate=True)
    assert len(repr(large)) - len(repr(small)) < 40
    assert "extra=" not in repr(large) and len(large.extra["hand_totals"]) == 1600


def test_a_simulation_as_an_html_table(duplicate_run):
    r = duplicate_run
    cells = _Cells(r._repr_html_())
    assert cells.caption == r.headline()
    assert cells.rows[0] == ["bot#", "bot", "hands", "win%", "deal-in%", "pts/hand", "95% interval"]
    text_rows = [line.split(None, 2)[:2] for line in r.table().splitlines()[1:7]]
    assert [row[:2] for row in cells.rows[1:]] == text_rows  # 4 bots, then the 2 bot labels
    assert cells.rows[1][5] == f"{r.seats[0].mean:+.2f}" and cells.rows[1][6] == r.seats[0].interval.interval_text()
    assert str(r.comparison()) in r._repr_html_()


def test_html_cells_are_escaped():
    r = simulate("sichuan", 4, bots=[{"bot": "greedy", "name": "<b>bold & co</b>"}, "random", "random", "random"])
    markup = r._repr_html_()
    assert "<b>bold" not in markup and "&lt;b&gt;bold &amp; co&lt;/b&gt;" in markup
    assert _Cells(markup).rows[1][1] == "<b>bold & co</b>"


def test_a_p_value_below_what_a_double_holds_is_not_printed_as_zero():
    diff = Estimate(5.0, 4.98, 5.02, 0.01, 1001, df=1000.0)  # t = 500
    p = paired_p_value(diff)
    assert p < 1e-300
    text = str(Comparison("a", "b", diff, p, "walls"))
    assert "p < 1e-300" in text and "p = 0" not in text
    assert format_p_value(0.0) == "p < 1e-300" and format_p_value(0.0123) == "p = 0.0123"
    assert format_p_value(2e-300) == "p = 2e-300"


def test_statistics_have_short_reprs(duplicate_run):
    r = duplicate_run
    e = r.estimate("greedy")
    assert repr(e) == f"Estimate({e} (95%), {e.units} units)" and len(repr(e)) < 70
    c = r.comparison()
    assert repr(c) == f"<Comparison {c}>"
    seat = repr(r.seats[1])
    assert seat.startswith("SeatStats(random: 40 hands, win ") and f"{r.seats[1].mean:+.2f}" in seat
    assert len(seat) < 100


def test_a_league_shows_its_ranking():
    league = League([bot_spec(b) for b in ("greedy", "random", {"bot": "greedy", "name": "greedy-2"},
                                           {"bot": "random", "name": "random-2"}, ("greedy", {}))], hands=8)
    assert repr(league) == ("League(sichuan: 5 bots (greedy, random, greedy-2, random-2, greedy), 5 tables of "
                            "8 hands, duplicate, seed 1)")
    standings = play_league(league)
    text = repr(standings)
    assert text == str(standings) and len(text) < 600
    lines = text.splitlines()
    assert lines[0] == "sichuan league: 5 bots, 5 tables of 8 hands (duplicate)" and lines[1:] == standings.table().splitlines()
    assert [line.split()[1] for line in lines[2:]] == [s.bot for s in standings.standings]
    best = standings.standings[0]
    assert repr(best) == (f"Standing({best.bot}: {best.score.mean:+.2f} {best.score.interval_text()} points/hand, "
                          f"4 tables, 32 hands)")
    cells = _Cells(standings._repr_html_())
    assert cells.rows[0][:2] == ["rank", "bot"] and [row[1] for row in cells.rows[1:]] == [s.bot for s in standings.standings]


def test_bot_specs_show_what_they_build():
    assert repr(bot_spec("greedy")) == "BotSpec('greedy')"
    assert repr(bot_spec({"bot": "greedy", "name": "mine"})) == "BotSpec('mine': greedy)"
    from eval_bots import ChooseOnly

    instance = repr(bot_spec(ChooseOnly()))
    assert instance == "BotSpec('ChooseOnly': eval_bots:ChooseOnly, an instance)"  # not its pickled bytes


def test_a_match_shows_its_hands_and_totals():
    match = Match("changbai", seed=3).play(["greedy"] * 4, hands=5)
    assert repr(match) == f"<Match changbai hands=5 dealer={match.dealer} totals={match.totals}>"
    lines = str(match).splitlines()
    assert lines[0] == f"changbai match, seed 3: 5 hands, next dealer {match.dealer}"
    assert lines[1].split() == ["hand", "dealer", "result", "seat", "0", "seat", "1", "seat", "2", "seat", "3"]
    for h, line in zip(match.history, lines[2:7]):
        assert re.findall(r"[+-]\d+", line) == [f"{v:+d}" for v in h["totals"]]
        assert ("won by" in line) == bool(h["winners"])
    assert re.findall(r"[+-]\d+", lines[7]) == [f"{v:+d}" for v in match.totals] and lines[7].startswith("total")
    short = match.table(last=2).splitlines()
    assert short[1] == "(3 earlier hands)" and len(short) == 5
    cells = _Cells(match._repr_html_())
    assert cells.rows[-1][0] == "total" and cells.rows[-1][3:] == [f"{v:+d}" for v in match.totals]
    assert len(cells.rows) == 1 + 5 + 1


def test_a_long_ledger_has_a_short_repr_and_a_line_per_transfer():
    ledger = Ledger()
    for k in range(60):
        ledger.add(k % 4, (k + 1) % 4, 1 + k, "kong" if k % 2 else "discard_win", ref=0 if k else None)
    totals = ledger.totals()
    assert repr(ledger) == "Ledger(60 transfers, totals [" + ", ".join(f"{v:+d}" for v in totals) + "])"
    lines = str(ledger).splitlines()
    assert len(lines) == 61 and lines[0].split() == ["#0", "0", "->", "1", "1", "discard_win"]
    assert lines[1].split() == ["#1", "1", "->", "2", "2", "kong", "(ref", "#0)"]
    cells = _Cells(ledger._repr_html_())
    assert cells.rows[0] == ["", "payer", "payee", "amount", "reason", "ref"] and len(cells.rows) == 61
    assert cells.rows[2] == ["#1", "1", "2", "2", "kong", "#0"]
    assert repr(Ledger()) == "Ledger(0 transfers, totals [0, 0, 0, 0])"


def test_settlements_show_their_ledger():
    s = sichuan.SichuanSettlement()
    s.discard_win(1, {0: sichuan.score("11333222456999s")})
    assert str(s).splitlines() == [repr(s)] + str(s.ledger).splitlines()
    assert _Cells(s._repr_html_()).caption == repr(s)
    m = mcr.MCRSettlement()
    m.false_win(2)
    assert str(m).splitlines()[0] == repr(m) and len(str(m).splitlines()) == 1 + 3 + 1
    c = changbai.ChangbaiSettlement(dealer=1)
    assert str(c).splitlines()[0] == repr(c) and len(repr(c)) < 100


def test_a_changbai_score_prints_its_pattern_table():
    value = changbai.score("123m456p789s123sEE")
    lines = str(value).splitlines()
    assert [line.split("\t")[0].strip() for line in lines[:-1]] == [zh for zh, _ in value.items]
    assert all(en in line for (en, _), line in zip(value.items_en, lines))
    assert lines[-1] == "  total 3 doublings: 2^3 = 8 x base, win on E"


def test_plots_name_bots_not_seats_in_duplicate_mode():
    pytest.importorskip("matplotlib")
    from mahjong_core.viz.plot import slot_labels

    dup = simulate("sichuan", 8, bots=["greedy", "random", "greedy", "random"], duplicate=True)
    assert slot_labels(dup) == ["greedy #0", "random #1", "greedy #2", "random #3"]
    fig = dup.plot()
    ticks = [t.get_text() for t in fig.axes[1].get_xticklabels()]
    assert ticks == slot_labels(dup) and not any("seat" in t for t in ticks)
    assert not any("seat" in t.get_text() for t in fig.axes[0].get_legend().get_texts())
    named = simulate("sichuan", 8, bots=["greedy", "random", {"bot": "random", "name": "r2"}, "eval_bots:ChooseOnly"],
                     duplicate=True)
    assert slot_labels(named) == ["greedy", "random", "r2", "eval_bots:ChooseOnly"]
    plain = simulate("sichuan", 8, bots=["greedy", "random", "greedy", "random"])
    assert slot_labels(plain) == ["seat 0\ngreedy", "seat 1\nrandom", "seat 2\ngreedy", "seat 3\nrandom"]


def test_bots_and_the_botzone_table_say_what_they_are():
    """A bot shows its class and name (the spec results list it by); a Botzone table its wind round,
    the rounds played and the wall, then the scores — each read from the object it describes."""
    import random

    from mahjong_core.botzone import Table
    from mahjong_core.game.bots import Bot, GreedyBot, RandomBot

    class MyBot(Bot):
        name = "mine"

    assert [repr(b) for b in (GreedyBot(), RandomBot(), MyBot())] == [
        "<GreedyBot 'greedy'>", "<RandomBot 'random'>", "<MyBot 'mine'>"]
    table = Table(seed=3, quan=2)
    assert repr(table) == f"<botzone.Table quan 2, 1 round, {table.game.wall_remaining()} tiles in the wall>"
    rng = random.Random(0)
    while not table.finished:
        table.requests()
        table.respond({s: rng.choice(sorted(table.legal_responses(s))) for s in range(4)})
    assert table.scores is not None
    assert repr(table) == f"<botzone.Table quan 2, {len(table.log['log'])} rounds, finished, scores {table.scores}>"


def test_one_unit_has_no_interval_no_p_value_and_no_spread():
    """A run of one hand has nothing to measure spread with: no interval, no p-value (it read
    "p = 1", a test that was never made), no standard deviation."""
    from mahjong_core.game.simulate import simulate

    result = simulate("mcr", 1, seed=3, bots=["greedy", "random", "random", "random"])
    comparison = result.compare("greedy", "random")
    assert comparison.p_value is None and comparison.difference.low is None
    assert str(comparison).endswith("points/hand (no interval, no p-value: 1 hands)") and "CI" not in str(comparison)
    data = result.to_dict()
    assert data["comparison"]["p_value"] is None and data["seats"][0]["sd"] is None
    assert result.table().split()[:6] == ["seat", "bot", "hands", "win%", "deal-in%", "pts/hand"]  # (not duplicate)
    two = simulate("mcr", 2, seed=3, bots=["greedy", "random", "random", "random"])
    assert two.to_dict()["seats"][0]["sd"] is not None and two.compare("greedy", "random").p_value is not None
