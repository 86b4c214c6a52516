"""mahjong_core.viz without a browser: the table rebuilt from events against the engine, the
pictures as XML, what a seat's replay may hold, the ledger, Botzone records, the CLI and plots."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import pytest
from mahjong_core.game import new_game
from mahjong_core.viz import (
    TableTracker,
    View,
    from_botzone,
    hand_svg,
    replay_html,
    score_svg,
    table_svg,
    timeline,
)
from mahjong_core.viz.table import tile_index
from viz_support import CASES, botzone_record, checkpoints, played, with_win

from mahjong_core import parse
from mahjong_core.errors import InvalidArgumentError

SVG = "{http://www.w3.org/2000/svg}"


def _tiles(svg: str, where: str = "") -> list:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    scope = root
    if where:
        scope = [g for g in root.iter(SVG + "g") if g.get("class") == where]
        return [u for g in scope for u in g.iter(SVG + "use") if "tile" in u.get("class", "").split()]
    return [u for u in scope.iter(SVG + "use") if "tile" in u.get("class", "").split()]


def _symbols(svg: str) -> set:
    root = ET.fromstring(svg)
    return {s.get("id") for s in root.iter(SVG + "symbol")}


# -- the table rebuilt from events, against the engine ------------------------------------------

def _tracker_table(tracker: TableTracker) -> dict:
    state = tracker.state()
    out = {"hands": [], "counts": [], "melds": [], "rivers": [], "flowers": [], "declared": [], "won": []}
    for s in state.seats:
        tiles = list(s.hand) + ([s.drawn] if s.drawn is not None else [])
        out["hands"].append(len(tiles))
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        out["counts"].append(counts)
        out["melds"].append([list(m.tiles) for m in s.melds])
        out["rivers"].append([r.tile for r in s.river if r.taken_by is None])
        out["flowers"].append(list(s.flowers))
        out["declared"].append(s.declared)
        out["won"].append(s.won)
    out["wall"] = state.wall
    return out


@pytest.mark.parametrize("ruleset,rules", CASES)
def test_tracker_matches_the_engine_after_every_answer(ruleset, rules):
    compared = 0
    for seed in range(1, 9):
        log = played(ruleset, seed, rules).log
        tracker = TableTracker(log)
        events = log["events"]
        done = 0
        for n_events, engine in checkpoints(log):
            while done < n_events:
                tracker.apply(events[done])
                done += 1
            assert _tracker_table(tracker) == engine, (ruleset, seed, n_events)
            compared += 1
    assert compared > 200


def test_a_state_is_a_snapshot_later_events_do_not_change():
    """`state()` copies what later events change in place (an added kong grows its pung, a claimed
    or won-on discard gets marked in the river): every snapshot of a hand still reads as it did."""
    added_kongs = taken = 0
    for ruleset in ("mcr", "sichuan", "changbai"):
        for seed in range(1, 5):
            log = played(ruleset, seed).log
            tracker = TableTracker(log)
            snapshots = []
            for e in log["events"]:
                tracker.apply(e)
                added_kongs += e["type"] == "added_kong"
                for viewer in (None, 0):
                    state = tracker.state(viewer)
                    snapshots.append((state, repr(state)))
            taken += sum(r.taken_by is not None for seat in tracker.state().seats for r in seat.river)
            for state, as_taken in snapshots:
                assert repr(state) == as_taken, (ruleset, seed)
    assert added_kongs and taken, (added_kongs, taken)  # the in-place changes happened


def test_taken_discards_stay_in_the_river_marked():
    for seed in range(1, 30):
        game = played("mcr", seed)
        melds = sum(len(m) for m in game.melds)
        if melds:
            break
    state = TableTracker(game.log)
    for e in game.log["events"]:
        state.apply(e)
    taken = [r for s in state.state().seats for r in s.river if r.taken_by is not None]
    claimed = sum(1 for s in range(4) for kind, *_ in game.melds[s] if kind in (0, 1, 2, 3))
    discard_wins = sum(1 for e in game.log["events"] if e["type"] == "win" and e["from"] is not None)
    assert len(taken) == claimed + discard_wins - sum(1 for e in game.log["events"] if e["type"] == "robbed")


# -- pictures ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["123m456p789s11sEEE", "[123m,1][555p,2]456s7sEE7s", "[1111m]123p456sCC22p",
                                  "19m19p19s1234567zC"])
def test_hand_svg_is_valid_svg_with_one_glyph_per_tile(text):
    hand = parse(text)
    svg = hand._repr_svg_()
    tiles = _tiles(svg)
    assert len(tiles) == hand.n_tiles + sum(len(m.tiles) for m in hand.melds)
    assert svg == hand_svg(text)
    # every glyph refers to a symbol the picture itself defines
    assert {u.get("href")[1:] for u in tiles} <= _symbols(svg)
    concealed = [u.get("data-tile") for u in _tiles(svg, "concealed")]
    assert sorted(concealed) == sorted(str(t) for t in hand.tiles)


def test_hand_svg_marks_the_claimed_tile_and_hides_concealed_kong_ends():
    svg = hand_svg("[123m,2][1111p]456s7sEE7s")
    melds = _tiles(svg, "melds")
    assert [u.get("data-tile") for u in melds] == ["1m", "2m", "3m", "back", "1p", "1p", "back"]
    assert "turned" in melds[1].get("class")  # the middle tile of the chow was claimed
    assert sum("turned" in u.get("class") for u in melds) == 1


def test_score_pictures_for_the_three_rulesets():
    from mahjong_core.rules import changbai, mcr, sichuan

    scores = [mcr.score("[123m,1][345m,1]567m34sCC5s|EE1000"), sichuan.score("[555p,1]112233444m99p"),
              changbai.score("[555p,1]123m456m789s99p")]
    for score in scores:
        assert score is not None
        svg = score._repr_svg_()
        assert svg == score_svg(score)
        root = ET.fromstring(svg)
        rows = [g for g in root.iter(SVG + "g") if g.get("class") == "fan-row"]
        items = getattr(score, "fans", None) or getattr(score, "items", None) or score.patterns
        assert len(rows) == len(items)
        assert len(_tiles(svg)) == 14  # every tile of the winning hand (melds included)


def test_score_svg_rejects_other_objects():
    with pytest.raises(TypeError):
        score_svg("not a score")


def test_game_and_view_pictures_hide_what_a_seat_cannot_see():
    game = new_game("sichuan", seed=3)
    while game.phase != 1:  # play to the first turn
        for seat, actions in game.pending().items():
            game.act(seat, actions[0])
    everything = game._repr_svg_()
    assert len(_tiles(everything, "concealed")) == sum(sum(h) for h in game.hands)
    assert "back" not in {u.get("data-tile") for u in _tiles(everything, "concealed")}
    for seat in range(4):
        for picture in (table_svg(game, seat), game.view_object(seat)._repr_svg_(), table_svg(game.view(seat))):
            root = ET.fromstring(picture)
            for g in root.iter(SVG + "g"):
                if g.get("class") == "hand":
                    s = int(g.get("data-seat"))
                    faces = [u.get("data-tile") for u in g.iter(SVG + "use")]
                    assert len(faces) == sum(game.hands[s])
                    if s == seat:
                        assert "back" not in faces
                    else:
                        assert set(faces) == {"back"}
    view = game.view_object(0)
    assert view["seat"] == 0 and dict(view) == game.view(0)
    with pytest.raises(InvalidArgumentError):
        View({"nope": 1})


# -- replays -------------------------------------------------------------------------------------

def test_a_seat_replay_holds_nothing_the_seat_did_not_see():
    game = with_win("mcr")
    log = game.log
    tl = timeline(log, seat=1)
    html = replay_html(log, seat=1)
    assert json.dumps(log["wall"]) not in html and '"actions"' not in html
    won_at = {}
    for i, e in enumerate(log["events"]):
        if e["type"] == "win":
            won_at.setdefault(e["seat"], i)
    for i, frame in enumerate(tl.frames):
        for k in frame["p"]:
            part = tl.parts[k]
            if not part.startswith('<g class="hand"'):
                continue
            seat = int(part.split('data-seat="')[1][0])
            root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{part}</svg>')
            faces = [u.get("data-tile") for g in root.iter(SVG + "g") if g.get("class") == "concealed"
                     for u in g.iter(SVG + "use")]
            if seat != 1 and i < won_at.get(seat, len(tl.frames)):
                assert set(faces) <= {"back"}, (i, seat)
    for frame in tl.frames:  # others' draws are not named
        if "draws" in frame["c"] and "seat 1)" not in frame["c"]:
            assert "mjc-t" not in frame["c"]


def test_replay_ledger_grows_at_the_settling_events():
    for ruleset in ("sichuan", "changbai", "mcr"):
        game = with_win(ruleset)
        tl = timeline(game.log)
        marks = [f["l"] for f in tl.frames]
        assert marks == sorted(marks) and marks[-1] == len(game.ledger)
        first = next(i for i, m in enumerate(marks) if m)
        assert game.log["events"][first]["type"] in ("win", "kong", "concealed_kong", "added_kong", "wall_end",
                                                    "exhausted")
        wins = [f for f in tl.frames if f["t"] == "win"]
        assert len(tl.wins) == len(wins) == len(game.winners)
        for win, e in zip(tl.wins, [e for e in game.log["events"] if e["type"] == "win"]):
            items = e["score"].get("fans") or e["score"].get("items")
            assert win["html"].count('<tr class="fan">') == len(items)


def test_replay_rejects_what_is_not_a_log():
    for bad in ({}, {"format": "other"}, [], {"log": "x"}):
        with pytest.raises(InvalidArgumentError):
            replay_html(bad)
    with pytest.raises(InvalidArgumentError):
        replay_html(played("mcr", 1).log, seat=7)
    log = played("mcr", 1).log
    for broken in ({"type": "discard", "seat": 9, "tile": "5m"}, {"type": "pung", "seat": 1}, "x",
                   {"type": "draw", "seat": 0, "tile": "9x"}):
        bad = dict(log, events=log["events"][:5] + [broken] + log["events"][5:])
        with pytest.raises(InvalidArgumentError, match="event 5"):
            replay_html(bad)


# -- Botzone records -----------------------------------------------------------------------------

def test_botzone_record_converts_to_the_same_table():
    checked = 0
    for seed in range(1, 40):
        game = played("mcr", seed)
        if any(e["type"] == "flower" for e in game.log["events"]):
            continue
        record = botzone_record(game)
        log = from_botzone(record)
        tracker = TableTracker(log)
        for e in log["events"]:
            tracker.apply(e)
        state = tracker.state()
        for s in range(4):
            seat = state.seats[s]
            tiles = sorted(seat.hand + ([seat.drawn] if seat.drawn is not None else []))
            assert tiles == [t for t in range(34) for _ in range(game.hands[s][t])], (seed, s)
            assert [m.tiles for m in seat.melds] == [
                ([t, t + 1, t + 2] if k == 0 else [t] * (3 if k == 1 else 4)) for k, t, _, _ in game.melds[s]]
            assert [r.tile for r in seat.river if r.taken_by is None] == game.rivers[s]
        assert log["totals"] == game.ledger.totals()
        assert [e["seat"] for e in log["events"] if e["type"] == "win"] == game.winners
        html = replay_html(record)
        assert "botzone" in html
        checked += 1
    assert checked >= 10


def test_botzone_errors_name_the_problem():
    with pytest.raises(InvalidArgumentError, match="DEAL"):
        from_botzone({"log": [], "initdata": {}})
    bad = {"log": [{"output": {"command": "request", "display": {"action": "PLAY", "player": 0, "tile": "X9"}}}],
           "initdata": {}}
    with pytest.raises(InvalidArgumentError, match="X9"):
        from_botzone(bad)


# -- command line, logs, plots -------------------------------------------------------------------

def test_replay_command_and_saved_logs(tmp_path, capsys):
    from mahjong_core.game.simulate import simulate

    from mahjong_core.cli import main

    logs = tmp_path / "logs"
    assert main(["simulate", "sichuan", "--games", "12", "--bots", "greedy", "--save-logs", str(logs),
                 "--no-progress"]) == 0
    files = sorted(logs.glob("hand-*.json"))
    assert len(files) == 12
    result = simulate("sichuan", 12, bots=("greedy",))
    totals = [0, 0, 0, 0]
    for f in files:
        for s, v in enumerate(json.loads(f.read_text())["totals"]):
            totals[s] += v
    assert totals == [st.points for st in result.seats]  # the saved hands are the simulated ones
    out = tmp_path / "one.html"
    assert main(["replay", str(files[3]), "-o", str(out), "--seat", "2"]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    capsys.readouterr()
    assert main(["replay", str(files[4]), "-o", str(tmp_path / "two.html"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {"output": str(tmp_path / "two.html"), "seat": None,
                      "bytes": len((tmp_path / "two.html").read_bytes())}
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["replay", str(tmp_path / "bad.json")]) == 2
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from mahjong_core.game.simulate import simulate

    result = simulate("mcr", 40, bots=("greedy", "random", "greedy", "random"), seed=3)
    assert len(result.extra["hand_totals"]) == 160
    path = tmp_path / "results.png"
    fig = result.plot(str(path))
    assert path.stat().st_size > 10_000 and len(fig.axes) == 3


def test_plot_without_matplotlib_names_the_extra(monkeypatch):
    from mahjong_core.game.simulate import simulate

    result = simulate("mcr", 4)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r'pip install "mahjong_core\[plot\]"'):
        result.plot()


def test_wilson_interval_known_values():
    from mahjong_core.viz.plot import wilson_interval

    low, high = wilson_interval(50, 100)
    assert abs(low - 0.4038) < 1e-3 and abs(high - 0.5962) < 1e-3
    assert wilson_interval(0, 10)[0] == 0.0


def test_import_mahjong_core_imports_no_viz_and_no_matplotlib():
    code = ("import sys, mahjong_core, mahjong_core.game; "
            "print(any(m.startswith(('mahjong_core.viz', 'matplotlib')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir()).stdout.strip()  # (outside the checkout)
    assert out == "False"


def test_tile_names_round_trip():
    assert [tile_index(n) for n in ("1m", "9s", "E", "P", "a", "h")] == [0, 26, 27, 33, 34, 41]


# -- Botzone records written by the judge's table (tests/data/botzone) ---------------------------

_RECORDS = sorted((__import__("pathlib").Path(__file__).parent / "data" / "botzone").glob("*.json"))


@pytest.mark.parametrize("path", _RECORDS, ids=[p.stem for p in _RECORDS])
def test_botzone_table_records(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    log = from_botzone(record)
    finish = record["log"][-1]["output"]
    assert finish["command"] == "finish"
    assert log["totals"] == [int(finish["content"][str(s)]) for s in range(4)]
    tracker = TableTracker(log)
    for e in log["events"]:
        tracker.apply(e)
    action = finish["display"]["action"]
    if action in ("WA", "WH"):
        assert log["events"][-2] == {"type": "penalty", "seat": finish["display"]["player"], "code": action}
    expected = record.get("expected")
    if expected is not None:
        state = tracker.state()
        for s, seat in enumerate(state.seats):
            counts = [0] * 34
            for t in seat.hand + ([seat.drawn] if seat.drawn is not None else []):
                counts[t] += 1
            assert counts == expected["hands"][s], s
            assert [r.tile for r in seat.river if r.taken_by is None] == expected["rivers"][s]
            assert [m.tiles for m in seat.melds] == expected["melds"][s]
            assert sorted(seat.flowers) == expected["flowers"][s]
        assert [e["seat"] for e in log["events"] if e["type"] == "win"] == expected["winners"]
        # the wall count is what the four walls still hold
        taken = 52 + sum(len(f) for f in log["events"][0]["flowers"])  # the deal, its flowers replaced
        taken += sum(1 for e in log["events"] if e["type"] in ("draw", "replacement", "flower"))
        assert state.wall == len(record["initdata"]["walltiles"].split()) - taken
    html = replay_html(record)
    if action == "HU":
        win = next(e for e in log["events"] if e["type"] == "win")
        assert len(win["score"]["fans"]) == len(finish["display"]["fan"])
        assert html.count('<tr class=\\"fan\\">') == len(finish["display"]["fan"])


def test_view_tables_show_melds_with_their_claimed_tile():
    for seed in range(1, 40):
        game = played("mcr", seed)
        if sum(len(m) for m in game.melds) >= 3:
            break
    for seat in range(4):
        for picture in (table_svg(game.view(seat)), table_svg(game, seat)):
            root = ET.fromstring(picture)
            for g in root.iter(SVG + "g"):
                if g.get("class") != "hand":
                    continue
                s = int(g.get("data-seat"))
                melds = [u for m in g.iter(SVG + "g") if m.get("class") == "melds" for u in m.iter(SVG + "use")]
                sizes = {0: 3, 1: 3, 2: 4, 3: 4, 4: 4}
                assert len(melds) == sum(sizes[k] for k, *_ in game.melds[s])
                turned = sum("turned" in u.get("class") for u in melds)
                # one turned tile per claimed meld, two for an added kong, none for a concealed kong
                assert turned == sum({0: 1, 1: 1, 2: 1, 3: 2, 4: 0}[k] for k, *_ in game.melds[s])
                hidden = [u for u in melds if u.get("data-tile") == "back"]
                concealed_kongs = sum(1 for k, *_ in game.melds[s] if k == 4)
                assert len(hidden) == (2 if s == seat else 4) * concealed_kongs


def test_a_tracker_says_how_far_it_got():
    game = played("sichuan", 2)
    tracker = TableTracker(game.log)
    events = game.log["events"]
    for e in events[:30]:
        tracker.apply(e)
    assert repr(tracker) == f"<TableTracker sichuan, 30 events applied, wall {tracker.state().wall}>"
    for e in events[30:]:
        tracker.apply(e)
    assert repr(tracker) == (f"<TableTracker sichuan, {len(events)} events applied, wall {game.wall_remaining()}, "
                             "hand over>")
