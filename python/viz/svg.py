"""SVG pictures: `hand_svg`, `score_svg`, `table_svg` (and the table's parts, which the replay
viewer reuses frame by frame).

Every placed tile is one `<use class="tile" data-tile="<name>">` element (name "back" when face
down) referring to the symbols of `mahjong_core.viz.tiles`; a picture carries the `<defs>` of the
kinds it shows, so it stands alone (a notebook cell, a file).
"""

from __future__ import annotations

import numbers
import sys
from html import escape
from typing import Any, Callable, List, Optional, Sequence, Set, Tuple

from mahjong_core.errors import InvalidArgumentError, InvalidTypeError

from .glyphs import check_labels, in_english
from .table import MeldShown, TableState, TableTracker, from_view
from .tiles import BACK, NAMES, defs

__all__ = ["hand_svg", "score_svg", "table_svg", "table_state", "table_parts", "svg_document", "TABLE_SIZE",
           "WIND_NAMES"]

TABLE_SIZE = 800
WIND_NAMES = ("East", "South", "West", "North")
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_RATIO = 1.4  # tile height / width
_FLOWER_A = NAMES.index("a")  # the first flower's tile index


def _name(tile: Optional[int]) -> str:
    return BACK if tile is None or tile < 0 else NAMES[tile]


class _Canvas:
    """Collects elements and the tile kinds they use."""

    def __init__(self) -> None:
        self.out: List[str] = []
        self.names: Set[str] = set()

    def add(self, text: str) -> None:
        self.out.append(text)

    def tile(self, tile: Optional[int], x: float, y: float, w: float, *, turned: bool = False, cls: str = "",
             title: str = "") -> float:
        """One tile with its top-left corner at (x, y) — a turned one lies on its side, bottom-aligned
        with upright tiles. Returns the width it takes."""
        name = _name(tile)
        self.names.add(name)
        h = w * _RATIO
        klass = "tile" + (f" {cls}" if cls else "") + (" turned" if turned else "")
        tip = f"<title>{escape(title)}</title>" if title else ""
        end = f">{tip}</use>" if tip else "/>"
        if turned:
            self.add(f'<use class="{klass}" data-tile="{name}" href="#mjc-t{name}" width="{w:g}" height="{h:g}" '
                     f'transform="translate({x:g} {y + h:g}) rotate(-90)"{end}')
            return h
        self.add(f'<use class="{klass}" data-tile="{name}" href="#mjc-t{name}" x="{x:g}" y="{y:g}" width="{w:g}" '
                 f'height="{h:g}"{end}')
        return w

    def text(self, x: float, y: float, text: str, size: float = 13, fill: str = "#f4f1e8", anchor: str = "start",
             weight: str = "normal", cls: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.add(f'<text{c} x="{x:g}" y="{y:g}" font-family="{_FONT}" font-size="{size:g}" fill="{fill}" '
                 f'text-anchor="{anchor}" font-weight="{weight}">{escape(text)}</text>')

    def group(self, inner: "_Canvas", attrs: str) -> None:
        self.names |= inner.names
        self.add(f"<g {attrs}>" + "".join(inner.out) + "</g>")


def svg_document(body: str, names: Set[str], width: float, height: float, cls: str, background: str = "",
                 title: str = "") -> str:
    bg = f'<rect width="100%" height="100%" rx="10" fill="{background}"/>' if background else ""
    tip = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="mjc {cls}" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" role="img">{tip}{defs(names)}{bg}{body}</svg>')


# ---------------------------------------------------------------------------------------------
# Melds and hands


def _meld(c: _Canvas, meld: MeldShown, x: float, y: float, w: float, seat_names: Sequence[str] = ()) -> float:
    """Draw one meld from (x, y); returns its width. The claimed tile is turned; an added kong's
    fourth tile is turned next to it; a concealed kong shows its outer tiles face down."""
    start = x
    source = ""
    if meld.source is not None:
        source = f" from {seat_names[meld.source]}" if seat_names else f" from seat {meld.source}"
    title = f"{meld.kind.replace('_', ' ')}{source}"
    for i, t in enumerate(meld.tiles):
        if meld.kind == "concealed_kong" and i in (0, 3):
            t = None
        turned = i == meld.claimed or (meld.kind == "added_kong" and i == 3)
        x += c.tile(t, x, y, w, turned=turned, cls="claimed" if i == meld.claimed else "", title=title)
    return x - start


def _hand_row(c: _Canvas, tiles: Sequence[Optional[int]], drawn: Any, melds: Sequence[MeldShown], w: float,
              won: Sequence[int] = (), flowers: Sequence[int] = (), seat_names: Sequence[str] = ()) -> float:
    """Concealed tiles, the drawn tile apart, won tiles, melds, flowers — in groups; returns the width."""
    x = 0.0
    hand = _Canvas()
    for t in tiles:
        x += hand.tile(t, x, 0, w)
    if drawn is not None:
        x += w * 0.3
        x += hand.tile(None if drawn == -1 else drawn, x, 0, w, cls="drawn")
    c.group(hand, 'class="concealed"')
    if won:
        x += w * 0.3
        box = _Canvas()
        for t in won:
            box.add(f'<rect x="{x - 2:g}" y="-2" width="{w + 4:g}" height="{w * _RATIO + 4:g}" rx="5" fill="#f1c40f"/>')
            x += box.tile(t, x, 0, w, cls="win", title="winning tile") + 2
        c.group(box, 'class="won"')
    if melds:
        x += w * 0.5
        box = _Canvas()
        for m in melds:
            x += _meld(box, m, x, 0, w, seat_names) + w * 0.25
        c.group(box, 'class="melds"')
    if flowers:
        x += w * 0.4
        box = _Canvas()
        fw = w * 0.8  # smaller than a tile, as they count for less, but legible on the table
        for f in flowers:
            x += box.tile(f, x, w * _RATIO - fw * _RATIO, fw, cls="flower") + 1
        c.group(box, 'class="flowers"')
    return x


def _as_hand(hand: Any, where: str) -> Any:
    """A `Hand` from a Hand or notation text."""
    if isinstance(hand, str):
        # Found at call time, as Hand finds it (mahjong_core.hand._notation): Hand's picture hook
        # imports this module, so importing the notation here would close an import cycle.
        return sys.modules["mahjong_core.notation"].parse(hand)
    if not hasattr(hand, "tiles") or not hasattr(hand, "melds"):
        raise InvalidTypeError(f"{where} takes a Hand or notation text, got {type(hand).__name__}")
    return hand


def _hand_tiles(hand: Any, win: Optional[int]) -> Tuple[List[int], Optional[int], List[MeldShown], List[int]]:
    """(concealed tiles without the winning tile `win`, `win`, melds, flower tiles) of a `Hand`."""
    tiles = [int(t) for t in hand.tiles]
    if win is not None:
        tiles.remove(win)
    # the flowers the notation names (|abc); a bare count (|3) names no faces to draw
    flowers = [_FLOWER_A + int(f) for f in getattr(hand.context, "flower_tiles", None) or ()]
    return tiles, win, [_core_meld(m) for m in hand.melds], flowers


def _check_width(tile_width: Any, where: str) -> None:
    if isinstance(tile_width, bool) or not isinstance(tile_width, numbers.Real) or not float(tile_width) > 0:
        raise InvalidArgumentError(f"{where}: tile_width is a positive number of pixels, got {tile_width!r}")


def hand_svg(hand: Any, *, tile_width: float = 36) -> str:
    """A hand as an SVG picture: concealed tiles (the winning tile apart), the melds, the flowers.

    `hand`: a `Hand` or notation (`mahjong_core.parse`)."""
    _check_width(tile_width, "hand_svg")
    hand = _as_hand(hand, "hand_svg")
    tiles, win, melds, flowers = _hand_tiles(hand, None if hand.win_tile is None else int(hand.win_tile))
    c = _Canvas()
    inner = _Canvas()
    width = _hand_row(inner, tiles, win, melds, tile_width, flowers=flowers)
    c.group(inner, 'class="hand" transform="translate(6 6)"')
    return svg_document("".join(c.out), c.names, width + 12, tile_width * _RATIO + 12, "mjc-hand",
                        title=str(hand))


def _core_meld(meld: Any) -> MeldShown:
    """A core `Meld` as drawn: the claimed tile turned where the notation's marker says."""
    tiles = [int(t) for t in meld.tiles]
    kind = {0: "chow", 1: "pung", 2: "kong"}[int(meld.kind)]
    if meld.concealed:
        return MeldShown("concealed_kong", tiles)
    claimed = None
    if meld.claimed is not None:
        if kind == "chow":
            claimed = meld.claimed - 1
        else:
            # an added kong: the pung's claimed tile is turned, the added fourth one beside it
            claimed = {1: 0, 2: 1, 3: 2 if meld.added else len(tiles) - 1}[meld.source]
            if meld.added:
                kind = "added_kong"
    return MeldShown(kind, tiles, claimed)


# ---------------------------------------------------------------------------------------------
# Scores


def count_suffix(count: int) -> str:
    """The suffix of a fan counted `count` times (" ×8"; nothing for one)."""
    return f" ×{count}" if count > 1 else ""


def score_rows(score: Any) -> Tuple[str, List[Tuple[str, str, str]], str]:
    """(ruleset, rows of (value, Chinese name, English name), total line) of a score object."""
    kind = type(score).__name__
    if kind == "MCRScore":
        rows = [(str(f.points * f.count), f.name_zh + count_suffix(f.count),
                 f.name_en + count_suffix(f.count)) for f in score.fans]
        return "mcr", rows, f"{score.total} fan"
    if kind == "SichuanScore":
        rows = [(f"{i.fan} 番", i.name_zh, i.name_en) for i in score.items]
        return "sichuan", rows, f"{score.fan} 番 · ×{score.multiplier} · {score.points} points"
    if kind == "ChangbaiScore":
        rows = [(f"×{p.multiplier}" if p.multiplier > 1 else str(p.doublings), p.name_zh, p.name_en)
                for p in score.patterns]
        times = f" · ×{score.multiplier}" if score.multiplier > 1 else ""
        return "changbai", rows, f"{score.doublings} doublings{times} · value {score.value}"
    raise InvalidTypeError(f"score_svg takes an MCRScore, SichuanScore or ChangbaiScore, not {kind}")


_MELD_KINDS = {0: "chow", 1: "pung", 2: "kong"}


def _decomposition_tiles(score: Any) -> Tuple[List[int], Optional[int], List[MeldShown]]:
    """The hand of a score read from its decomposition: (concealed tiles without the winning tile,
    winning tile, melds). A decomposition does not say where a meld's tiles came from: no tile is
    turned."""
    d = score.decomposition
    tiles: List[int] = []
    melds: List[MeldShown] = []
    for b in d.blocks:
        block = [int(t) for t in b.tiles]
        if int(b.kind) == 2 and b.concealed:  # a concealed kong (a meld of the hand, or not)
            melds.append(MeldShown("concealed_kong", block))
        elif b.meld is not None:
            melds.append(MeldShown(_MELD_KINDS[int(b.kind)], block))
        else:
            tiles.extend(block)
    if d.form.name == "THIRTEEN_ORPHANS":
        tiles = sorted([0, 8, 9, 17, 18, 26] + list(range(27, 34)) + [int(d.pair)])
    win = None if score.win_tile is None else int(score.win_tile)
    tiles.sort()
    if win is not None and win in tiles:
        tiles.remove(win)
    return tiles, win, melds


def _all_tiles(tiles: Sequence[int], win: Optional[int], melds: Sequence[MeldShown], *_: Any) -> List[int]:
    """Every tile of a hand as drawn (concealed tiles, winning tile, melds), sorted."""
    return sorted(list(tiles) + ([] if win is None else [win]) + [t for m in melds for t in m.tiles])


def _score_tiles(score: Any, hand: Any) -> Tuple[List[int], Optional[int], List[MeldShown], List[int]]:
    """The hand of a score: (concealed tiles without the winning tile, winning tile, melds, flowers).

    From the `Hand` scored — `hand`, else the score's own (`score.hand`) — whose melds say
    which tile was claimed; else from the score's decomposition."""
    own = getattr(score, "hand", None)
    if hand is None:
        if own is None:
            return (*_decomposition_tiles(score), [])
        hand = own
    else:
        hand = _as_hand(hand, "score_svg: hand=")
        scored = _hand_tiles(own, None) if own is not None else _decomposition_tiles(score)
        if _all_tiles(*_hand_tiles(hand, None)) != _all_tiles(*scored):
            raise InvalidArgumentError(f"score_svg: hand= {hand} holds other tiles than the hand scored "
                                       f"({score.decomposition!r})")
    win = score.win_tile if score.win_tile is not None else hand.win_tile
    return _hand_tiles(hand, None if win is None else int(win))


def score_svg(score: Any, *, tile_width: float = 30, hand: Any = None, labels: str = "zh") -> str:
    """A score as an SVG picture: the hand (with its flowers), and beside it the fan / pattern
    table with the total.

    `score`: an `MCRScore`, `SichuanScore` or `ChangbaiScore`, each of which keeps the hand it
    scored. `hand`: the `Hand` (or notation) that was scored, for a score built without one (drawn
    from its decomposition, which does not say which tile was claimed). `labels`: "zh" — each name
    in Chinese beside its English — or "en", English only (for a machine without CJK fonts: 番
    reads "fan")."""
    _check_width(tile_width, "score_svg")
    check_labels(labels, "score_svg")
    ruleset, rows, total = score_rows(score)
    c = _Canvas()
    inner = _Canvas()
    tiles, win, melds, flowers = _score_tiles(score, hand)
    hand_w = _hand_row(inner, tiles, win, melds, tile_width, flowers=flowers)
    c.group(inner, 'class="hand" transform="translate(10 10)"')
    x0 = hand_w + 30
    line = 22
    c.add(f'<g class="fans" font-family="{_FONT}">')
    for i, (value, zh, en) in enumerate(rows):
        y = 24 + i * line
        name = f'<text x="{x0 + 54:g}" y="{y}" font-size="14" fill="#1f2a44">{{}}</text>'
        if labels == "en":
            value, names = in_english(value), name.format(escape(en or zh))
        else:
            names = name.format(escape(zh)) + (f'<text x="{x0 + 150:g}" y="{y}" font-size="12" fill="#555">'
                                               f'{escape(en)}</text>')
        c.add(f'<g class="fan-row"><text x="{x0 + 44:g}" y="{y}" font-size="14" text-anchor="end" font-weight="bold" '
              f'fill="#1f2a44">{escape(value)}</text>{names}</g>')
    if labels == "en":
        total = in_english(total)
    y = 24 + len(rows) * line + 4
    c.add(f'<line x1="{x0:g}" x2="{x0 + 420:g}" y1="{y - 14}" y2="{y - 14}" stroke="#999"/>'
          f'<text class="total" x="{x0 + 44:g}" y="{y + 2}" font-size="14" font-weight="bold" fill="#1f2a44">'
          f'total {escape(total)}</text></g>')
    height = max(tile_width * _RATIO + 20, y + 14)
    return svg_document("".join(c.out), c.names, x0 + 430, height, f"mjc-score mjc-{ruleset}", "#ffffff",
                        title=f"{ruleset} score: {total}")


# ---------------------------------------------------------------------------------------------
# The table


def table_state(obj: Any, seat: Optional[int] = None) -> TableState:
    """The `TableState` of a Game (everything, or as `seat` sees it), a view dict, a `View`, or a
    `TableState` itself."""
    if isinstance(obj, TableState):
        return obj
    view = getattr(obj, "view_dict", None)
    if isinstance(view, dict):
        return from_view(view)
    if isinstance(obj, dict):
        try:
            return from_view(obj)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise InvalidArgumentError(f"table_svg: this dict is not a Game.view(seat) dict ({exc!r} is missing or "
                                       "wrong); pass the game itself, or game.view(seat)") from None
    log = getattr(obj, "log", None)
    if isinstance(log, dict) and "events" in log:  # a Game: rebuilt from its events (rivers keep taken tiles)
        tracker = TableTracker(log)
        for event in log["events"]:
            tracker.apply(event)
        return tracker.state(seat)
    raise InvalidTypeError(f"table_svg takes a Game, a Game.view(seat) dict or a TableState, not {type(obj).__name__}")


def seat_names(state: TableState) -> List[str]:
    """Each seat as its wind (dealer = East) and number, e.g. "South (seat 1)"."""
    return [f"{WIND_NAMES[(s - state.dealer) % 4]} (seat {s})" for s in range(4)]


_C = TABLE_SIZE / 2
_HAND_Y = 742
_HAND_X = 85
_HAND_W = 630
_TILE = 30
_RIVER_TILE = 24
_RIVER_X = 304
_RIVER_Y = 508
_RIVER_ROW = 8


def _rotation(seat: int, bottom: int) -> str:
    p = (seat - bottom) % 4
    return f' transform="rotate({-90 * p} {_C:g} {_C:g})"' if p else ""


def _badge(c: _Canvas, x: float, y: float, text: str, fill: str, ink: str = "#10241b") -> float:
    w = 7.2 * len(text) + 12
    c.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="18" rx="9" fill="{fill}"/>')
    c.text(x + w / 2, y + 13, text, 11.5, ink, "middle", "bold")
    return w + 5


def _label_part(state: TableState, s: int, bottom: int) -> Tuple[str, Set[str]]:
    seat = state.seats[s]
    c = _Canvas()
    wind = WIND_NAMES[(s - state.dealer) % 4]
    turn = state.turn == s and not state.finished
    c.add(f'<rect x="{_HAND_X - 4}" y="712" width="{_HAND_W + 8}" height="24" rx="6" '
          f'fill="{"#f1c40f" if turn else "#0b3d2a"}" fill-opacity="{0.9 if turn else 0.55}"/>')
    ink = "#10241b" if turn else "#f4f1e8"
    c.text(_HAND_X + 4, 729, f"{wind} · seat {s}", 14, ink, weight="bold", cls="seat-name")
    x = _HAND_X + 8 + 8.2 * len(f"{wind} · seat {s}")
    if s == state.dealer:
        x += _badge(c, x, 715, "dealer", "#e67e22")
    if seat.void is not None:
        x += _badge(c, x, 715, f"void {seat.void}", "#9b59b6", "#ffffff")
    if seat.piao is not None:
        x += _badge(c, x, 715, f"piao {seat.piao}", "#3498db", "#ffffff")
    if seat.declared:
        x += _badge(c, x, 715, "ready", "#e74c3c", "#ffffff")
    if seat.won:
        x += _badge(c, x, 715, "won", "#f1c40f")
    if state.viewer == s:
        x += _badge(c, x, 715, "you", "#ecf0f1")
    total = f"{seat.total:+d}" if seat.total else "0"
    c.text(_HAND_X + _HAND_W - 4, 729, total, 14, ink, "end", "bold", cls="seat-total")
    return f'<g class="label" data-seat="{s}"{_rotation(s, bottom)}>' + "".join(c.out) + "</g>", c.names


def _hand_part(state: TableState, s: int, bottom: int) -> Tuple[str, Set[str]]:
    seat = state.seats[s]
    names = seat_names(state)
    row = _Canvas()
    width = _hand_row(row, seat.hand, seat.drawn, seat.melds, _TILE, seat.won_tiles, seat.flowers, names)
    k = min(1.0, _HAND_W / width) if width else 1.0
    scale = f" scale({k:.3f})" if k < 1 else ""
    c = _Canvas()
    c.group(row, f'transform="translate({_HAND_X} {_HAND_Y}){scale}"')
    return f'<g class="hand" data-seat="{s}"{_rotation(s, bottom)}>' + "".join(c.out) + "</g>", c.names


def _river_part(state: TableState, s: int, bottom: int) -> Tuple[str, Set[str]]:
    seat = state.seats[s]
    names = seat_names(state)
    c = _Canvas()
    w = _RIVER_TILE
    x: float = _RIVER_X
    row = 0
    last = len(seat.river) - 1 if state.last_discard == s else -1
    for i, r in enumerate(seat.river):
        if i and i % _RIVER_ROW == 0:
            row += 1
            x = _RIVER_X
        y = _RIVER_Y + row * (w * _RATIO + 2)
        cls = []
        title = ""
        if r.taken_by is not None:
            cls.append("taken")
            title = f"taken by {names[r.taken_by]}"
        if r.declare:
            cls.append("declare")
            title = "declared ready (报听)"  # English first: a tooltip has no font fallback (viz.glyphs)
        if i == last and r.taken_by is None:
            cls.append("last")
            c.add(f'<rect x="{x - 2:g}" y="{y - 2:g}" width="{w + 4:g}" height="{w * _RATIO + 4:g}" rx="4" '
                  f'fill="#f39c12"/>')
        start = x
        x += c.tile(r.tile, x, y, w, turned=r.declare, cls=" ".join(cls), title=title)
        if r.taken_by is not None:
            c.out[-1] = c.out[-1].replace("<use ", '<use opacity="0.38" ', 1)
            wind = WIND_NAMES[(r.taken_by - state.dealer) % 4][0]
            c.add(f'<circle cx="{x - 6:g}" cy="{y + 7:g}" r="6.5" fill="#10241b"/>')
            c.text(x - 6, y + 11, wind, 9.5, "#f1c40f", "middle", "bold")
        x += 1 if x > start else 0
    return f'<g class="river" data-seat="{s}"{_rotation(s, bottom)}>' + "".join(c.out) + "</g>", c.names


def _centre_part(state: TableState, bottom: int) -> Tuple[str, Set[str]]:
    c = _Canvas()
    c.add('<rect x="302" y="302" width="196" height="196" rx="14" fill="#0b3d2a" stroke="#2f7d5b" stroke-width="2"/>')
    c.text(_C, 336, state.ruleset.upper(), 13, "#9fd3b8", "middle", "bold")
    wall = "—" if state.wall is None else str(state.wall)
    c.text(_C, 392, wall, 40, "#f4f1e8", "middle", "bold", cls="wall-count")
    c.text(_C, 412, "tiles in the wall", 12, "#9fd3b8", "middle")
    info = []
    if state.prevalent_wind is not None:
        info.append(f"{WIND_NAMES[state.prevalent_wind]} round")
    if state.hand_no is not None:
        info.append(f"hand {state.hand_no}")
    if info:
        c.text(_C, 446, " · ".join(info), 12.5, "#f4f1e8", "middle")
    if state.finished:
        c.text(_C, 472, "hand over", 13, "#f1c40f", "middle", "bold")
    elif state.turn is not None:  # as the browser table says it: whose turn, with an arrow toward the seat
        arrow = "↓→↑←"[(state.turn - bottom) % 4]
        c.text(_C, 472, f"{arrow} {WIND_NAMES[(state.turn - state.dealer) % 4]} to play", 13, "#f1c40f", "middle",
               "bold", cls="turn")
    return '<g class="centre">' + "".join(c.out) + "</g>", c.names


def table_parts(state: TableState, bottom: Optional[int] = None) -> Tuple[List[Tuple[str, str]], Set[str]]:
    """The table as named parts [(key, svg fragment)] (centre, then per seat label / river / hand)
    with the tile kinds they use; `bottom` is the seat drawn at the bottom (default: the viewer or 0)."""
    if bottom is None:
        bottom = state.viewer if state.viewer is not None else 0
    parts: List[Tuple[str, str]] = []
    names: Set[str] = set()
    text, used = _centre_part(state, bottom)
    parts.append(("centre", text))
    names |= used
    for s in range(4):
        makers: Tuple[Tuple[str, Callable[[TableState, int, int], Tuple[str, Set[str]]]], ...] = (
            ("label", _label_part), ("river", _river_part), ("hand", _hand_part))
        for key, fn in makers:
            text, used = fn(state, s, bottom)
            parts.append((f"{key}{s}", text))
            names |= used
    return parts, names


TABLE_BACKGROUND = "#14573c"


def table_svg(obj: Any, seat: Optional[int] = None) -> str:
    """The table as an SVG picture: four seats (hands, melds with the claimed tile turned toward its
    source, flowers), the rivers in order (taken tiles faded and marked with the taker's wind, the
    discard in play outlined, 报听 discards turned), the wall count, winds, the dealer and the
    ruleset's state (void suits, 飘, 报听).

    `obj`: a Game (everything, or what `seat` sees), a `Game.view(seat)` dict, a `View`, or a
    `TableState`."""
    state = table_state(obj, seat)
    parts, names = table_parts(state)
    who = "everything" if state.viewer is None else f"as seat {state.viewer} sees it"
    return svg_document("".join(p for _, p in parts), names, TABLE_SIZE, TABLE_SIZE, "mjc-table", TABLE_BACKGROUND,
                        title=f"{state.ruleset} table, {who}")
