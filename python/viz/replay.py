"""`replay_html(log, seat=None)`: one self-contained HTML file that steps through a hand.

The file holds the table after every event as SVG parts (drawn by `mahjong_core.viz.svg`, each
distinct part stored once), the captions, the ledger and the fan table of every win — no script or
style from elsewhere, so it works offline. With `seat`, only what that seat saw is in the file
(others' concealed tiles and draws face down until a win lays a hand open); the raw log is not
embedded.

Controls: buttons, ← / → (step), Home / End, W (next win), Space (play / pause), a slider, and the
event list (click to jump). Steps count from 1 in the counter, the event list and the address
(`#step=40` opens at "40 / n"; the address follows the step shown).
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from mahjong_core.errors import InvalidArgumentError

from .botzone import from_botzone, is_botzone_record
from .glyphs import EN_WORDS, GLYPH_CHECK_JS, ZH_CSS, cjk_characters, zh_or_en, zh_span
from .svg import TABLE_BACKGROUND, TABLE_SIZE, WIND_NAMES, _Canvas, _hand_row, count_suffix, table_parts
from .table import TableTracker, shown, tile_index
from .tiles import NAMES, defs

__all__ = ["replay_html", "timeline", "Timeline", "load_log"]

_SETTLING = ("win", "kong", "concealed_kong", "added_kong", "wall_end", "exhausted", "penalty")


def load_log(log: Mapping[str, Any]) -> Dict[str, Any]:
    """A mahjong_core game log as is, or a Botzone judge record converted (`from_botzone`)."""
    if not isinstance(log, Mapping):
        raise InvalidArgumentError(f"a game log is a JSON object (dict), got {type(log).__name__}")
    if is_botzone_record(log):
        return from_botzone(log)
    from mahjong_core.game.log import LOG_FORMAT

    if log.get("format") not in (LOG_FORMAT, "mahjong_core.viz/botzone") or not isinstance(log.get("events"), list):
        raise InvalidArgumentError(
            f"not a game log: expected a {LOG_FORMAT} log (Game.log, simulate --save-logs) or a Botzone record "
            "({\"log\": [...], \"initdata\": {...}})")
    _check_ledger(log.get("ledger") or [])
    for name, kinds, what in _HEADER_FIELDS:
        value = log.get(name)
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)):
            raise InvalidArgumentError(f"log field {name!r} must be {what}, got {type(value).__name__} {shown(value)}")
    totals = log.get("totals")
    if totals is not None and not (isinstance(totals, list) and len(totals) == 4 and all(map(_is_int, totals))):
        raise InvalidArgumentError(f"log field 'totals' must be a list of four integers, got {shown(totals)}")
    return dict(log)


#: the fields of a log the page shows as they are: (name, type, what it must be); each may be null
_HEADER_FIELDS = (("seed", int, "an integer seed"), ("hand_no", int, "an integer"), ("preset", str, "a preset name"))


def _check_ledger(ledger: Any) -> None:
    """A log's `ledger`: a list of transfers {payer, payee (seats 0..3), amount (an integer), reason}."""
    if not isinstance(ledger, list):
        raise InvalidArgumentError(f"log field 'ledger' must be a list of transfers, got {type(ledger).__name__} "
                                   f"{shown(ledger)}")
    for i, transfer in enumerate(ledger):
        if not (isinstance(transfer, Mapping) and all(_is_int(transfer.get(k)) for k in ("payer", "payee", "amount"))
                and 0 <= transfer["payer"] < 4 and 0 <= transfer["payee"] < 4):
            raise InvalidArgumentError(f"log field 'ledger[{i}]' must be a transfer {{\"payer\": seat, \"payee\": seat, "
                                       f"\"amount\": integer, \"reason\": text}} (seats 0..3), got {shown(transfer)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ledger_marks(log: Mapping[str, Any]) -> List[int]:
    """Ledger length after each event: the log's answers replayed on the engine, and the transfers
    each answer made given to the last settling event (win, kong, wall end) it caused."""
    events = log["events"]
    ledger = log.get("ledger") or []
    marks = [0] * len(events)
    if not ledger or not events:
        return marks
    try:
        from mahjong_core.game.registry import check_ruleset, game_class
        from mahjong_core.game.start import new_game

        ruleset = check_ruleset(log["ruleset"])
        rules = game_class(ruleset).rules_class().resolve(dict(log["rules"]))
        game = new_game(ruleset, wall=log["wall"], rules=rules, seed=log.get("seed"), dealer=log["dealer"],
                        hand_no=log.get("hand_no", 0), **dict(log.get("options") or {}))
        batches = [(0, len(game.event_history()), len(game.ledger))]
        for seat, code in log["actions"]:
            before = len(game.event_history())
            game.act(seat, code)
            batches.append((before, len(game.event_history()), len(game.ledger)))
        if len(game.event_history()) != len(events) or len(game.ledger) != len(ledger):
            raise ValueError("the replay does not match the log")
    except Exception:  # not replayable here (another engine version, an edited log): all at the end
        marks[-1] = len(ledger)
    else:
        for start, stop, size in batches:
            if stop == start:
                continue
            target = stop - 1
            for i in range(start, stop):
                if events[i]["type"] in _SETTLING:
                    target = i
            marks[target] = max(marks[target], size)
    for i in range(1, len(marks)):
        marks[i] = max(marks[i], marks[i - 1])
    return marks


def _totals(transfers: Sequence[Mapping[str, Any]]) -> List[int]:
    out = [0, 0, 0, 0]
    for t in transfers:
        out[t["payer"]] -= t["amount"]
        out[t["payee"]] += t["amount"]
    return out


def _english(ruleset: str) -> Dict[str, str]:
    try:
        if ruleset == "mcr":
            from mahjong_core.rules.mcr.fans import FANS

            return {f.name_zh: f.name_en for f in FANS}
        if ruleset == "sichuan":
            from mahjong_core.rules.sichuan.scoring import ENGLISH_NAMES

            return dict(ENGLISH_NAMES)
        if ruleset == "changbai":
            from mahjong_core.rules.changbai.patterns import CATALOGUE

            return {zh: en for zh, en, *_ in CATALOGUE.values()}
    except Exception:  # pragma: no cover - names are a nicety
        pass
    return {}


def fan_rows(ruleset: str, summary: Any) -> Tuple[List[Tuple[str, str, str]], str]:
    """Rows (value, Chinese, English) and the total line of a log's score summary."""
    if not isinstance(summary, Mapping):
        return [], ""
    en = _english(ruleset)
    if "fans" in summary:  # MCR (and Botzone): [name_zh, points, count]
        rows = []
        for f in summary["fans"]:
            zh, points, count = f[0], f[1], f[2] if len(f) > 2 else 1
            english = en.get(zh, "")
            rows.append((str(points * count), zh + count_suffix(count), english + count_suffix(count) if english else ""))
        return rows, f"{summary.get('total', sum(int(r[0]) for r in rows))} fan"
    items = summary.get("items") or []
    if "fan" in summary:  # Sichuan
        rows = [(f"{v} 番", zh, en.get(zh, "")) for zh, v in items]
        return rows, f"{summary['fan']} 番 · {summary.get('points', '?')} points · pays {summary.get('payment', '?')}"
    rows = [(str(v), zh, en.get(zh, "")) for zh, v in items]  # Changbai
    times = f" ×{summary['multiplier']}" if summary.get("multiplier", 1) > 1 else ""
    return rows, f"{summary.get('doublings', '?')} doublings{times}"


class Timeline:
    """The frames of a hand: after each event, the table parts, caption, ledger length and wins so far."""

    def __init__(self, log: Mapping[str, Any], seat: Optional[int] = None) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4):
            raise InvalidArgumentError(f"seat must be 0..3 or None (everything), got {seat!r}")
        self.log = load_log(log)
        self.seat = seat
        self.ruleset = str(self.log.get("ruleset", "mcr"))
        tracker = TableTracker(self.log)
        marks = _ledger_marks(self.log)
        ledger = self.log.get("ledger") or []
        self.parts: List[str] = []
        self.names = set(NAMES[:34]) | {"back"}
        index: Dict[str, int] = {}
        self.frames: List[Dict[str, Any]] = []
        self.wins: List[Dict[str, Any]] = []
        for i, event in enumerate(self.log["events"]):
            try:
                self._add_frame(i, event, tracker, marks, ledger, index)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
                kind = event.get("type") if isinstance(event, Mapping) else event
                raise InvalidArgumentError(
                    f"the log's event {i} ({shown(kind)}) does not fit the table so far ({shown(exc)}); is the log "
                    "complete and unedited?") from None
        self.ledger = [dict(t) for t in (self.log.get("ledger") or [])]
        self.totals = self.log.get("totals")

    def _add_frame(self, i: int, event: Any, tracker: TableTracker, marks: List[int], ledger: List[Any],
                   index: Dict[str, int]) -> None:
        """Apply event `i` and keep the table after it as a frame (its parts stored once in `index`)."""
        tracker.apply(event)
        state = tracker.state(self.seat)
        if ledger:  # the seats' results as the ledger stands after this event
            for s, total in enumerate(_totals(ledger[:marks[i]])):
                state.seats[s].total = total
        parts, used = table_parts(state)
        self.names |= used
        ids = []
        for _, text in parts:
            if text not in index:
                index[text] = len(self.parts)
                self.parts.append(text)
            ids.append(index[text])
        if event["type"] == "win":
            self.wins.append(self._win(tracker.wins[-1], i, state.dealer))
        self.frames.append({"p": ids, "c": self._caption(event, state.dealer), "l": marks[i],
                            "w": len(self.wins), "t": event["type"],
                            "counts": [[len(s.hand) + (s.drawn is not None), sum(len(m.tiles) for m in s.melds),
                                        sum(1 for r in s.river if r.taken_by is None), len(s.river)]
                                       for s in state.seats]})

    # -- text ----------------------------------------------------------------------------------

    def _who(self, s: Any, dealer: int) -> str:
        return f"{WIND_NAMES[(s - dealer) % 4]} (seat {s})"

    def _tile(self, t: Any) -> str:
        name = NAMES[tile_index(t)]
        return (f'<svg class="mini" viewBox="0 0 60 84" aria-label="{name}"><use href="#mjc-t{name}"/></svg>'
                f'<b>{name}</b>')

    def _sees(self, s: int) -> bool:
        return self.seat is None or self.seat == s

    def _caption(self, e: Mapping[str, Any], dealer: int) -> str:
        kind = e["type"]
        who = escape(self._who(e["seat"], dealer)) if "seat" in e and e["seat"] is not None else ""
        tile = self._tile(e["tile"]) if e.get("tile") is not None else ""
        frm = escape(self._who(e["from"], dealer)) if e.get("from") is not None else ""
        if kind == "deal":
            return f"Deal — the dealer is {escape(self._who(dealer, dealer))}"
        if kind == "void":
            return zh_span("定缺 ") + "void suits: " + escape(", ".join(f"seat {s} {v}" for s, v in enumerate(e["values"])))
        if kind == "piao":
            return "piao" + zh_span(" 飘") + ": " + escape(", ".join(f"seat {s} {v}" for s, v in enumerate(e["values"])))
        if kind in ("draw", "replacement"):
            what = "draws" if kind == "draw" else "draws a kong replacement"
            return f"{who} {what} " + (tile if self._sees(e["seat"]) else "a tile")
        if kind == "flower":
            return f"{who} sets aside the flower {tile}" + zh_span(" (补花)")
        if kind == "discard":
            return f"{who} discards {tile}" + ((" and declares ready" + zh_span(" (报听)")) if e.get("declare") else "")
        if kind == "auto":
            return f"{who} is ready: the drawn tile goes out"
        if kind == "keep":
            return f"{who} keeps the tile (last tiles: a win or nothing)"
        if kind in ("chow", "pung", "kong"):
            return f"{who} {kind}s {tile} from {frm}"
        if kind == "concealed_kong":
            return f"{who} declares a concealed kong" + (f" of {tile}" if self._sees(e["seat"]) else "")
        if kind == "adding_kong":
            return f"{who} adds {tile} to a pung — the others may rob it"
        if kind == "added_kong":
            return f"{who} makes an added kong of {tile}"
        if kind == "robbed":
            return f"the kong on {tile} is robbed"
        if kind == "win":
            how = f"from {frm}" if frm else "self-drawn"
            return f"<strong>{who} wins</strong> on {tile} ({how})"
        if kind == "wall_end":
            parts = []
            for key, label in (("pigs", "three suits" + zh_span(" (花猪)")), ("ready", "ready"), ("not_ready", "not ready")):
                if e.get(key):
                    parts.append(f"{label}: seat(s) {escape(', '.join(map(str, e[key])))}")
            return "Wall end — " + ("; ".join(parts) or "nothing to settle")
        if kind == "exhausted":
            return "The wall is exhausted" + zh_span(" (流局 / 荒庄)")
        if kind == "penalty":
            return f"{who}: penalty {escape(str(e.get('code')))}"
        if kind == "end":
            totals = e.get("totals") or []
            return "Hand over — " + escape(", ".join(f"seat {s} {v:+d}" for s, v in enumerate(totals)))
        return escape(kind)

    def _win(self, win: Mapping[str, Any], event_index: int, dealer: int) -> Dict[str, Any]:
        rows, total = fan_rows(self.ruleset, win["score"])
        c = _Canvas()
        width = _hand_row(c, win["hand"], None, win["melds"], 26, [win["tile"]], win["flowers"])
        self.names |= c.names
        hand = (f'<svg class="win-hand" viewBox="-2 -3 {width + 4:g} 42" width="{width + 4:g}" height="42">'
                + "".join(c.out) + "</svg>")
        how = "self-drawn" if win["from"] is None else f"from {self._who(win['from'], dealer)}"
        # Chinese only where the page's fonts draw it (`glyphs`): the name's cell hides, 番 reads "fan"
        body = "".join(f'<tr class="fan"><td class="value">{_fan_word(v)}</td><td class="zh" lang="zh">{escape(zh)}</td>'
                       f'<td class="en">{escape(en or zh)}</td></tr>' for v, zh, en in rows)
        html = (f'<div class="win" data-seat="{win["seat"]}"><h3>{escape(self._who(win["seat"], dealer))} wins '
                f'({escape(how)})</h3>{hand}<table class="fans">{body}'
                f'<tr class="total"><td colspan="3">{_fan_word(total)}</td></tr></table></div>')
        return {"event": event_index, "seat": win["seat"], "html": html}

    def data(self) -> Dict[str, Any]:
        header = {"ruleset": self.ruleset, "seed": self.log.get("seed"), "hand_no": self.log.get("hand_no"),
                  "preset": self.log.get("preset"), "seat": self.seat, "source": self.log.get("source", "mahjong_core")}
        ledger = [[t["payer"], t["payee"], t["amount"], t.get("reason", "")] for t in self.ledger]
        return {"header": header, "parts": self.parts, "frames": [{k: f[k] for k in "pclwt"} for f in self.frames],
                "wins": self.wins, "ledger": ledger, "totals": self.totals,
                "winds": [WIND_NAMES[(s - self._dealer()) % 4] for s in range(4)]}

    def _dealer(self) -> int:
        for e in self.log["events"]:
            if e["type"] == "deal":
                return int(e.get("dealer", self.log.get("dealer", 0)) or 0)
        return int(self.log.get("dealer") or 0)


def timeline(log: Mapping[str, Any], seat: Optional[int] = None) -> Timeline:
    """The frames of `log` (a game log or Botzone record) as `seat` saw them (None: everything)."""
    return Timeline(log, seat)


def _fan_word(text: str) -> str:
    """`text` as HTML, its 番 shown as "fan" where the fonts cannot draw it."""
    html = escape(text)
    for zh, en in EN_WORDS.items():
        html = html.replace(zh, zh_or_en(zh, en))
    return html


_CSS = """
:root{--felt:#14573c;--ink:#1f2a44;--panel:#fbfaf6;--line:#d9d4c5;--accent:#f1c40f}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 "DejaVu Sans",Verdana,Arial,Helvetica,sans-serif;color:var(--ink);background:#e9e6dc}
header{flex:0 0 auto;height:40px;padding:0 16px;background:#0b3d2a;color:#f4f1e8;display:flex;gap:16px;align-items:center;
  white-space:nowrap;overflow:hidden}
header h1{font-size:17px;margin:0}
header .meta{opacity:.8;font-size:13px;overflow:hidden;text-overflow:ellipsis}
main{display:flex;gap:12px;padding:10px;align-items:flex-start;flex-wrap:wrap}
#board{flex:0 0 auto;width:min(800px,100%)}
#table{width:100%;height:100%;display:block;border-radius:12px;box-shadow:0 2px 10px rgba(0,0,0,.25)}
aside{flex:1 1 320px;max-width:560px;display:flex;flex-direction:column;gap:8px}
section,#controls{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:10px 12px}
#controls .buttons{display:flex;gap:6px;flex-wrap:wrap}
button{font:inherit;padding:4px 10px;border:1px solid #b9b29c;border-radius:6px;background:#fff;cursor:pointer}
button:hover{background:#f5efd9}
#slider{width:100%;margin:8px 0 2px}
#step{font-variant-numeric:tabular-nums;color:#555}
#caption{min-height:2.4em;font-size:15px}
svg.mini{width:15px;height:21px;vertical-align:-5px;margin:0 2px}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.06em;margin:0 0 6px;color:#6b6450}
h3{font-size:14px;margin:6px 0}
table{border-collapse:collapse;width:100%}
td,th{padding:2px 6px;border-bottom:1px solid #eee;text-align:left;font-size:13px}
td.value,td.num{text-align:right;font-variant-numeric:tabular-nums;font-weight:bold;width:4.5em}
td.en{color:#666}
tr.transfer td:first-child{white-space:nowrap}
tr.total td{font-weight:bold;border-top:2px solid #999}
.win{border-left:4px solid var(--accent);padding-left:8px;margin-bottom:8px}
.win.latest{background:#fff8dc}
#events ol{margin:0;padding-left:2.6em;max-height:220px;overflow:auto;font-size:12.5px}
#events li{cursor:pointer;padding:1px 2px}
#events li.current{background:#fff1b8;font-weight:bold}
.muted{color:#888}
/* A screen of a laptop or wider: the page fits the window (the board as high as it may be, the side
   panels scroll inside), so the bottom seat's hand is always in view. */
@media (min-width:900px) and (min-height:500px){
  html,body{height:100%}
  body{display:flex;flex-direction:column}
  main{flex:1 1 auto;min-height:0;flex-wrap:nowrap;align-items:stretch}
  #board{--side:min(calc(100vh - 60px),calc(100vw - 380px));width:var(--side);height:var(--side)}
  aside{min-height:0;overflow:auto}
  #win-section{flex:0 1 auto;min-height:3em;max-height:28vh;overflow:auto}
  #ledger{flex:0 1 auto;min-height:3em;max-height:18vh;overflow:auto}
  #ledger tfoot td{position:sticky;bottom:-10px;background:var(--panel)}
  #events{flex:1 1 0;min-height:9em;display:flex;flex-direction:column}
  #events ol{flex:1 1 0;max-height:none;min-height:0}
}
"""

_JS = r"""
(function(){
'use strict';
const D = JSON.parse(document.getElementById('mjc-data').textContent);
// Chinese only where a font draws it (mahjong_core.viz.glyphs; the browser table does the same)
document.documentElement.dataset.labels = mjcLabels(D.cjk);
const parts = document.getElementById('parts');
const slider = document.getElementById('slider');
const step = document.getElementById('step');
const caption = document.getElementById('caption');
const winsBox = document.getElementById('wins');
const ledgerBody = document.getElementById('ledger-rows');
const totalsRow = document.getElementById('ledger-totals');
const list = document.getElementById('event-list');
const n = D.frames.length;
let index = 0, timer = null;
slider.max = String(n - 1);
D.frames.forEach(function(f, i){
  const li = document.createElement('li');
  li.innerHTML = f.c;
  li.addEventListener('click', function(){ go(i); });
  list.appendChild(li);
});
function seatName(s){ return D.winds[s] + ' ' + s; }
// The address (#step=N) follows the step, written at most every 120 ms and always for the last
// step: Chromium ignores history updates beyond ~200 in 10 s ("Throttling navigation"), so writing
// it on every step left the address behind for good once a user dragged the slider or held a key.
let addressTimer = null;
function followAddress(){
  if (addressTimer !== null || !history.replaceState) return;
  addressTimer = setTimeout(function(){
    addressTimer = null;
    history.replaceState(null, '', '#step=' + (index + 1));
  }, 120);
}
function go(i){
  index = Math.max(0, Math.min(n - 1, i));
  const f = D.frames[index];
  parts.innerHTML = f.p.map(function(k){ return D.parts[k]; }).join('');
  caption.innerHTML = f.c;
  slider.value = String(index);
  step.textContent = (index + 1) + ' / ' + n;   // steps count from 1, as the event list and #step= do
  followAddress();
  let html = '';
  for (let w = 0; w < f.w; w++) {
    html += D.wins[w].html.replace('class="win"', w === f.w - 1 ? 'class="win latest"' : 'class="win"');
  }
  winsBox.innerHTML = html || '<p class="muted">No win yet.</p>';
  let rows = '';
  const totals = [0, 0, 0, 0];
  for (let k = 0; k < f.l; k++) {
    const t = D.ledger[k];
    totals[t[0]] -= t[2]; totals[t[1]] += t[2];
    rows += '<tr class="transfer"><td>' + seatName(t[0]) + ' → ' + seatName(t[1]) + '</td><td class="num">' + t[2] +
            '</td><td>' + escapeHtml(t[3]) + '</td></tr>';
  }
  if (f.t === 'end' && D.totals && !D.ledger.length) {
    // a record without transfers (Botzone): its final scores are the totals
    for (let s = 0; s < 4; s++) totals[s] = D.totals[s];
    rows = '<tr class="final"><td colspan="3">Final scores of the ' + escapeHtml(D.header.source === 'botzone' ?
      'Botzone judge' : 'log') + ' (the record lists no transfers)</td></tr>';
  }
  const none = index === n - 1 ? 'No payment in this hand.' : 'No payment yet.';
  ledgerBody.innerHTML = rows || '<tr><td colspan="3" class="muted">' + none + '</td></tr>';
  totalsRow.innerHTML = '<td>totals</td><td colspan="2">' + totals.map(function(v, s){
    return 'seat ' + s + ' <b>' + (v > 0 ? '+' : '') + v + '</b>'; }).join(' · ') + '</td>';
  const items = list.children;
  for (let k = 0; k < items.length; k++) items[k].classList.toggle('current', k === index);
  const cur = items[index];
  if (cur) {
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) list.scrollTop = top - 60;
  }
}
const ESC = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
function escapeHtml(s){ return String(s).replace(/[&<>"]/g, function(c){ return ESC[c]; }); }
function nextWin(){
  for (let i = index + 1; i < n; i++) if (D.frames[i].t === 'win') return go(i);
  for (let i = 0; i <= index; i++) if (D.frames[i].t === 'win') return go(i);
}
function play(){
  const b = document.getElementById('play');
  if (timer) { clearInterval(timer); timer = null; b.textContent = '▶ play'; return; }
  if (index >= n - 1) go(0);
  b.textContent = '❚❚ pause';
  timer = setInterval(function(){ if (index >= n - 1) { play(); return; } go(index + 1); }, 450);
}
document.getElementById('first').onclick = function(){ go(0); };
document.getElementById('prev').onclick = function(){ go(index - 1); };
document.getElementById('next').onclick = function(){ go(index + 1); };
document.getElementById('last').onclick = function(){ go(n - 1); };
document.getElementById('win').onclick = nextWin;
document.getElementById('play').onclick = play;
slider.addEventListener('input', function(){ go(parseInt(slider.value, 10)); });
document.addEventListener('keydown', function(e){
  if (e.target && e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  if (e.key === 'ArrowRight') { go(index + 1); e.preventDefault(); }
  else if (e.key === 'ArrowLeft') { go(index - 1); e.preventDefault(); }
  else if (e.key === 'Home') { go(0); e.preventDefault(); }
  else if (e.key === 'End') { go(n - 1); e.preventDefault(); }
  else if (e.key === 'w' || e.key === 'W') { nextWin(); }
  else if (e.key === ' ') { play(); e.preventDefault(); }
});
window.mjcReplay = {go: go, frames: n, index: function(){ return index; }, nextWin: nextWin};
const start = parseInt((location.hash.match(/step=(\d+)/) || [])[1] || '1', 10);   // 1-based, as the counter
go(isNaN(start) ? 0 : start - 1);
window.addEventListener('hashchange', function(e){
  // the address navigated to is the event's newURL: location.hash may already hold a pending
  // followAddress write of the step before (it raced with an address typed or set right after a step)
  const url = (e && e.newURL) || location.href;
  const at = url.indexOf('#');
  const m = at < 0 ? null : url.slice(at).match(/step=(\d+)/);
  if (m && parseInt(m[1], 10) - 1 !== index) go(parseInt(m[1], 10) - 1);
});
})();
"""


def replay_html(log: Mapping[str, Any], seat: Optional[int] = None, *, title: Optional[str] = None) -> str:
    """One self-contained HTML page replaying `log` (a `Game.log`, a saved log, or a Botzone
    record): every event, as `seat` saw it (None: everything), with the fan table at each win and
    the ledger as it grows. Raises InvalidArgumentError for something that is not a game log."""
    tl = timeline(log, seat)
    data = tl.data()
    h = data["header"]
    who = "everything" if seat is None else f"what seat {seat} saw"
    bits = [h["ruleset"].upper()]
    if h.get("preset"):
        bits.append(f"preset {h['preset']}")
    if h.get("seed") is not None:
        bits.append(f"seed {h['seed']}")
    if h.get("hand_no") is not None:
        bits.append(f"hand {h['hand_no']}")
    if h["source"] != "mahjong_core":
        bits.append(str(h["source"]))
    heading = title or "Mahjong replay"
    data["cjk"] = cjk_characters([json.dumps(data, ensure_ascii=False)])
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    svg = (f'<svg id="table" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {TABLE_SIZE} {TABLE_SIZE}" role="img" '
           f'aria-label="the table">{defs(tl.names)}<rect width="100%" height="100%" rx="10" '
           f'fill="{TABLE_BACKGROUND}"/><g id="parts"></g></svg>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(heading)} — {escape(" · ".join(bits))}</title><style>{_CSS}{ZH_CSS}</style></head>
<body><header><h1>{escape(heading)}</h1><span class="meta">{escape(" · ".join(bits))} · showing {escape(who)}</span>
</header><main><div id="board">{svg}</div><aside>
<div id="controls"><div class="buttons"><button id="first" title="first (Home)">« first</button>
<button id="prev" title="previous (←)">◀ prev</button><button id="play" title="play / pause (Space)">▶ play</button>
<button id="next" title="next (→)">next ▶</button><button id="last" title="last (End)">last »</button>
<button id="win" title="next win (W)">jump to win</button></div>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step"><div id="step"></div></div>
<section><div id="caption"></div></section>
<section id="win-section"><h2>Wins</h2><div id="wins"></div></section>
<section id="ledger"><h2>Ledger</h2><table><tbody id="ledger-rows"></tbody><tfoot><tr id="ledger-totals"></tr></tfoot>
</table></section>
<section id="events"><h2>Events</h2><ol id="event-list"></ol></section>
</aside></main>
<script type="application/json" id="mjc-data">{payload}</script>
<script>{GLYPH_CHECK_JS}{_JS}</script></body></html>
"""
