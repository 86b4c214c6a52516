"""Self-drawn vector tiles: one SVG `<symbol>` per tile kind (no image files, no fonts beyond a
system sans-serif for the digits of 万 tiles).

Every kind reads without colour: 万 tiles carry their digit over a drawn 万, 筒 tiles are rings, 条
tiles are sticks (counted as on real tiles), and each honour is its own drawn character (东南西北,
中 and 发; 白 is the traditional empty frame). Symbols share one 60 x 84 box (a face of 60 x 78 over
a 6-unit edge), so a tile of width w is 1.4 w high. Ids are `mjc-t<name>` with the log's tile
names ("5m", "E", flowers "a".."h") and `mjc-tback` for a face-down tile; identical everywhere, so
several pictures on one page may share them.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Sequence, Tuple

__all__ = ["TILE_W", "TILE_H", "NAMES", "BACK", "symbol", "defs", "symbol_id"]

TILE_W = 60
TILE_H = 84
BACK = "back"
#: tile index 0..41 -> name (the log's names; flowers a..h)
NAMES: Tuple[str, ...] = tuple([f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP") + list("abcdefgh"))

_INK = "#1f2a44"
_RED = "#c0392b"
_GREEN = "#1e8449"
_BLUE = "#2e5c8a"
_FACE = "#fdfbf3"
_EDGE = "#d9cba3"
_LINE = "#7d735c"
_DIGITS = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

# Hand-drawn strokes of the characters, in a 100 x 100 box (round caps and joins).
_STROKES: Dict[str, Tuple[str, ...]] = {
    "wan": ("M8 20H92", "M40 22C39 56 30 78 10 92", "M40 48H80L76 84Q74 94 62 88"),
    "E": ("M10 24H90", "M46 6L26 52H82", "M54 30V92L44 84", "M34 66L18 86", "M68 66L84 86"),
    "S": ("M12 18H88", "M50 4V30", "M20 34V96", "M20 34H80V92L70 86", "M38 42L44 52", "M62 42L56 52",
          "M32 60H68", "M30 74H70", "M50 60V96"),
    "W": ("M10 12H90", "M18 34V94", "M18 34H82V94", "M18 90H82", "M40 14V50Q38 62 24 70",
          "M60 14V58Q60 68 72 68H82"),
    "N": ("M34 8V92", "M8 40H34", "M8 82L34 70", "M66 8V80Q66 90 78 90H94", "M92 30L66 48"),
    "C": ("M16 30H84V72H16Z", "M50 4V98"),
    "F": ("M66 6L78 18", "M10 34H92", "M30 8L24 34", "M52 12Q48 62 10 94", "M40 54H78Q66 80 36 94",
          "M46 66Q62 86 92 96"),
}

# 筒: (x, y, colour) per ring, radius per rank.
_Spots = Tuple[Sequence[Tuple[float, float, str]], float]
_DOTS: Dict[int, _Spots] = {
    1: ([(30, 39, _RED)], 20),
    2: ([(30, 22, _GREEN), (30, 56, _BLUE)], 12.5),
    3: ([(16, 18, _BLUE), (30, 39, _RED), (44, 60, _GREEN)], 10),
    4: ([(18, 23, _BLUE), (42, 23, _GREEN), (18, 55, _GREEN), (42, 55, _BLUE)], 10.5),
    5: ([(17, 20, _BLUE), (43, 20, _GREEN), (30, 39, _RED), (17, 58, _GREEN), (43, 58, _BLUE)], 9.5),
    6: ([(19, 17, _GREEN), (41, 17, _GREEN)] + [(x, y, _RED) for y in (39, 61) for x in (19, 41)], 9.5),
    7: ([(14, 13, _GREEN), (30, 22, _GREEN), (46, 31, _GREEN)]
        + [(x, y, _RED) for y in (48, 66) for x in (19, 41)], 8),
    8: ([(x, y, _BLUE) for y in (12.5, 29.5, 46.5, 63.5) for x in (19, 41)], 8),
    9: ([(x, y, c) for y, c in ((17, _BLUE), (39, _RED), (61, _GREEN)) for x in (14, 30, 46)], 8),
}

# 条: (x, y, colour) per stick, stick height per rank.
_G, _R, _B = _GREEN, _RED, _BLUE
_STICKS: Dict[int, _Spots] = {
    2: ([(30, 21, _G), (30, 57, _B)], 28),
    3: ([(30, 21, _G), (19, 57, _G), (41, 57, _B)], 28),
    4: ([(19, 21, _G), (41, 21, _B), (19, 57, _B), (41, 57, _G)], 28),
    5: ([(16, 21, _G), (44, 21, _B), (30, 39, _R), (16, 57, _B), (44, 57, _G)], 28),
    6: ([(x, y, _G) for y in (21, 57) for x in (15, 30, 45)], 28),
    7: ([(30, 14, _R)] + [(x, y, _G) for y in (39, 62) for x in (15, 30, 45)], 20),
    8: ([(x, y, _G if x in (12, 48) else _B) for y in (21, 57) for x in (12, 24, 36, 48)], 28),
    9: ([(x, y, _R if x == 30 else _G) for y in (15, 39, 63) for x in (15, 30, 45)], 20),
}


def symbol_id(name: str) -> str:
    return f"mjc-t{name}"


def _body() -> str:
    return (f'<rect x="1" y="5" width="58" height="78" rx="7" fill="{_EDGE}" stroke="{_LINE}" stroke-width="1.5"/>'
            f'<rect x="1" y="1" width="58" height="76" rx="7" fill="{_FACE}" stroke="{_LINE}" stroke-width="1.5"/>')


def _strokes(key: str, x: float, y: float, size: float, colour: str, width: float = 11) -> str:
    k = size / 100
    paths = "".join(f'<path d="{d}"/>' for d in _STROKES[key])
    return (f'<g transform="translate({x} {y}) scale({k:g})" fill="none" stroke="{colour}" stroke-width="{width}" '
            f'stroke-linecap="round" stroke-linejoin="round">{paths}</g>')


def _ring(x: float, y: float, r: float, colour: str) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r - 1.4:g}" fill="{_FACE}" stroke="{colour}" stroke-width="2.8"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.42:g}" fill="{colour}"/>')


def _stick(x: float, y: float, h: float, colour: str, w: float = 7.5) -> str:
    top = y - h / 2
    left = x - w / 2
    nodes = "".join(f"M{left:g} {yy:g}h{w:g}" for yy in (top + h / 4, y, top + 3 * h / 4))
    return (f'<rect x="{left:g}" y="{top:g}" width="{w:g}" height="{h:g}" rx="{w / 2:g}" fill="{colour}"/>'
            f'<path d="{nodes}" stroke="{_FACE}" stroke-width="1.3"/>')


def _face(index: int) -> str:
    if index < 9:  # 万: the digit over a drawn 万
        digit = (f'<text x="30" y="35" font-family="{_DIGITS}" font-size="33" font-weight="bold" '
                 f'text-anchor="middle" fill="{_INK}">{index + 1}</text>')
        return digit + _strokes("wan", 12, 40, 36, _RED, 12)
    if index < 18:
        rings, r = _DOTS[index - 8]
        if index == 9:  # one big ring with a second ring inside
            return (f'<circle cx="30" cy="39" r="20" fill="{_FACE}" stroke="{_GREEN}" stroke-width="3.2"/>'
                    f'<circle cx="30" cy="39" r="13" fill="none" stroke="{_RED}" stroke-width="3"/>'
                    f'<circle cx="30" cy="39" r="5.5" fill="{_BLUE}"/>')
        return "".join(_ring(x, y, r, c) for x, y, c in rings)
    if index < 27:
        rank = index - 17
        if rank == 1:  # one tall stick with a ring (the bird of real tiles, kept abstract)
            return (_stick(30, 39, 60, _GREEN, 12)
                    + f'<circle cx="30" cy="39" r="8.5" fill="{_FACE}" stroke="{_RED}" stroke-width="3.2"/>')
        sticks, h = _STICKS[rank]
        width = 6.5 if rank == 8 else 7.5
        return "".join(_stick(x, y, h, c, width) for x, y, c in sticks)
    if index < 31:
        return _strokes("ESWN"[index - 27], 6, 15, 48, _INK, 11)
    if index == 31:
        return _strokes("C", 6, 15, 48, _RED, 11)
    if index == 32:
        return _strokes("F", 6, 15, 48, _GREEN, 11)
    if index == 33:  # 白: the empty frame
        return (f'<rect x="9" y="10" width="42" height="58" rx="4" fill="none" stroke="{_BLUE}" stroke-width="4"/>'
                f'<rect x="16" y="17" width="28" height="44" rx="2" fill="none" stroke="{_BLUE}" stroke-width="2"/>')
    n = (index - 34) % 4 + 1  # flowers a..d (plum orchid chrysanthemum bamboo), seasons e..h
    if index < 38:
        petals = "".join(f'<circle cx="{30 + 10 * dx:g}" cy="{36 + 10 * dy:g}" r="7.5" fill="{_RED}"/>'
                         for dx, dy in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31)))
        centre = '<circle cx="30" cy="36" r="5" fill="#e6b422"/>'
    else:
        petals = "".join(f'<path d="M30 36L{30 + 20 * dx:g} {36 + 20 * dy:g}" stroke="#e67e22" stroke-width="3"/>'
                         for dx, dy in ((1, 0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7), (0, -1),
                                        (0.7, -0.7)))
        centre = '<circle cx="30" cy="36" r="9" fill="#e67e22"/>'
    label = (f'<text x="30" y="74" font-family="{_DIGITS}" font-size="20" font-weight="bold" text-anchor="middle" '
             f'fill="{_INK}">{n}</text>')
    return petals + centre + label


def symbol(name: str) -> str:
    """The `<symbol>` of one tile (by log name, or "back")."""
    if name == BACK:
        inner = ('<rect x="1" y="5" width="58" height="78" rx="7" fill="#1d5c40" stroke="#153f2c" stroke-width="1.5"/>'
                 '<rect x="1" y="1" width="58" height="76" rx="7" fill="#2d7a57" stroke="#153f2c" stroke-width="1.5"/>'
                 '<rect x="8" y="8" width="44" height="62" rx="4" fill="none" stroke="#7fbf9f" stroke-width="2"/>')
    else:
        inner = _body() + _face(NAMES.index(name))
    return f'<symbol id="{symbol_id(name)}" viewBox="0 0 {TILE_W} {TILE_H}">{inner}</symbol>'


_CACHE: Dict[str, str] = {}


def defs(names: Iterable[str]) -> str:
    """`<defs>` holding the symbols of `names` (each once, in a stable order)."""
    wanted: List[str] = sorted(set(names), key=lambda n: (n != BACK, NAMES.index(n) if n in NAMES else -1))
    out = []
    for n in wanted:
        if n not in _CACHE:
            _CACHE[n] = symbol(n)
        out.append(_CACHE[n])
    return "<defs>" + "".join(out) + "</defs>"
