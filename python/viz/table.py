"""What lies on the table: `TableState` and its reconstruction from a game's events.

`TableTracker` applies the events of a game log (`mahjong_core.game.log`) one by one and can say,
after each, what the table looks like — for everyone (`state()`) or for one seat (`state(seat)`:
others' concealed tiles, drawn tiles and concealed kongs face down). Unlike `Game.rivers`, a river
here keeps the discards that were claimed or won, marked with who took them, so a picture shows
the river in order. `from_view(view)` builds the state of a `Game.view(seat)` dict (which has no
taken discards).

Tiles are core indices 0..33, flowers 34..41; None is a face-down tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence

from mahjong_core.errors import InvalidArgumentError, InvalidTypeError
from mahjong_core._display import short_repr as shown  # (replay.py imports it from here too)

__all__ = ["MeldShown", "RiverTile", "SeatState", "TableState", "TableTracker", "from_view", "tile_index"]

_NAMES = tuple([f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP") + list("abcdefgh"))
_INDEX = {n: i for i, n in enumerate(_NAMES)}
_SUITS = "mps"


def tile_index(name: Any) -> int:
    """A log tile name ("5m", "E", "a") or index -> index 0..41; InvalidArgumentError for anything else."""
    if isinstance(name, int) and not isinstance(name, bool):
        if 0 <= name < len(_NAMES):
            return name
    else:
        try:
            return _INDEX[name]
        except (KeyError, TypeError):  # (TypeError: an unhashable value)
            pass
    raise InvalidArgumentError(f"not a tile: {shown(name)} (a log names tiles '1m'..'9m', '1p'..'9p', '1s'..'9s', "
                               f"'E' 'S' 'W' 'N' 'C' 'F' 'P' and flowers 'a'..'h', or gives their indices 0..41)")


@dataclass
class MeldShown:
    kind: str                     # chow pung kong added_kong concealed_kong
    tiles: List[Any]              # tile indices; None = face down
    claimed: Optional[int] = None  # index in `tiles` of the claimed (turned) tile
    source: Optional[int] = None   # the seat it was claimed from

    def copy(self) -> "MeldShown":
        """A copy with its own `tiles` list: what `copy.deepcopy` gives, ~20 times faster (a replay
        takes a snapshot of every meld and river tile at every step)."""
        return MeldShown(self.kind, list(self.tiles), self.claimed, self.source)


@dataclass
class RiverTile:
    tile: int
    taken_by: Optional[int] = None  # the seat that claimed it or won on it
    declare: bool = False            # the 报听 discard (shown turned)

    def copy(self) -> "RiverTile":
        return RiverTile(self.tile, self.taken_by, self.declare)


@dataclass
class SeatState:
    hand: List[Any] = field(default_factory=list)  # concealed tiles without `drawn`, sorted (None: face down)
    drawn: Any = None              # the tile just drawn (None: none; -1: drawn but face down)
    melds: List[MeldShown] = field(default_factory=list)
    river: List[RiverTile] = field(default_factory=list)
    flowers: List[int] = field(default_factory=list)
    won_tiles: List[int] = field(default_factory=list)  # the tiles this seat won on
    declared: bool = False
    won: bool = False
    void: Optional[str] = None
    piao: Optional[int] = None
    total: int = 0

    @property
    def hand_count(self) -> int:
        return len(self.hand) + (self.drawn is not None)


@dataclass
class TableState:
    ruleset: str
    seats: List[SeatState]
    dealer: int = 0
    turn: Optional[int] = None
    wall: Optional[int] = None          # tiles left in the live wall
    prevalent_wind: Optional[int] = None
    hand_no: Optional[int] = None
    last_discard: Optional[int] = None  # the seat whose last river tile is the discard in play
    caption: str = ""
    viewer: Optional[int] = None        # whose view (None: everything)
    finished: bool = False


class TableTracker:
    """Rebuilds the table event by event (see the module docstring).

    `log`: a mahjong_core game log (its `wall` and `dealer` give the deal), or any mapping with
    `ruleset` and `dealer` whose `deal` event carries `hands` (and optionally `flowers`, `wall`)."""

    def __init__(self, log: Mapping[str, Any]) -> None:
        if not isinstance(log, Mapping):
            raise InvalidTypeError(f"TableTracker takes a game log (Game.log, a dict), got {type(log).__name__}")
        self.ruleset = str(log.get("ruleset", "mcr"))
        self.wall_tiles = _wall_tiles(log.get("wall") or ())
        self.dealer = log.get("dealer") or 0
        if isinstance(self.dealer, bool) or not isinstance(self.dealer, int) or not 0 <= self.dealer < 4:
            raise InvalidArgumentError(f"log field 'dealer' must be a seat 0..3, got {shown(self.dealer)}")
        options = log.get("options") or {}
        if not isinstance(options, Mapping):
            raise InvalidArgumentError(f"log field 'options' must be an object of ruleset options, got "
                                       f"{type(options).__name__} {shown(options)}")
        self.prevalent_wind = options.get("prevalent_wind")
        if self.prevalent_wind is None and self.ruleset == "mcr":
            self.prevalent_wind = 0
        self.hand_no = log.get("hand_no")
        self.counts = [[0] * 42 for _ in range(4)]
        self.drawn: List[Optional[int]] = [None] * 4
        self.melds: List[List[MeldShown]] = [[], [], [], []]
        self.rivers: List[List[RiverTile]] = [[], [], [], []]
        self.flowers: List[List[int]] = [[], [], [], []]
        self.won_tiles: List[List[int]] = [[], [], [], []]
        self.declared = [False] * 4
        self.won = [False] * 4
        self.void: List[Optional[str]] = [None] * 4
        self.piao: List[Optional[int]] = [None] * 4
        self.totals = [0] * 4
        self.turn: Optional[int] = None
        self.wall: Optional[int] = len(self.wall_tiles) or None
        self.last_discard: Optional[int] = None
        self.dealing = False
        self.finished = False
        self.wins: List[Dict[str, Any]] = []
        self.revealed = [False] * 4   # a winner's hand is laid down
        self.applied = 0  # events applied so far

    def __repr__(self) -> str:
        """`<TableTracker mcr, 45 events applied, wall 55>` (`, hand over` once the end applied)."""
        wall = "" if self.wall is None else f", wall {self.wall}"
        return f"<TableTracker {self.ruleset}, {self.applied} events applied{wall}{', hand over' if self.finished else ''}>"

    # -- applying events ---------------------------------------------------------------------

    def apply(self, event: Mapping[str, Any]) -> None:
        self.applied += 1
        kind = event["type"]
        handler = getattr(self, "_on_" + kind, None)
        if kind not in ("flower", "void", "piao", "deal"):
            self.dealing = False
        if handler is not None:
            handler(event)

    def _take(self, seat: int, tile: int, n: int = 1) -> None:
        self.counts[seat][tile] -= n
        drawn = self.drawn[seat]
        if drawn is not None and (self.counts[seat][drawn] <= 0 or drawn == tile):
            self.drawn[seat] = None

    def _on_deal(self, e: Mapping[str, Any]) -> None:
        self.dealer = e.get("dealer", self.dealer)
        self.turn = self.dealer
        hands = e.get("hands")
        self.dealing = hands is None  # explicit hands (Botzone) come with their flowers replaced
        if hands is None:
            wall, d = self.wall_tiles, self.dealer
            hands = [[] for _ in range(4)]
            for k in range(4):
                hands[(d + k) % 4] = wall[13 * k: 13 * k + 13] + ([wall[52]] if k == 0 else [])
            self.wall = len(wall) - 53
            first = wall[52]
            self.drawn[d] = first if first < 34 else None
        else:
            self.wall = e.get("wall", self.wall)
        for s in range(4):
            for t in hands[s]:
                self.counts[s][tile_index(t)] += 1
        for s, flowers in enumerate(e.get("flowers") or ()):
            self.flowers[s].extend(tile_index(f) for f in flowers)

    def _on_void(self, e: Mapping[str, Any]) -> None:
        self.void = list(e["values"])

    def _on_piao(self, e: Mapping[str, Any]) -> None:
        self.piao = list(e["values"])

    def _on_draw(self, e: Mapping[str, Any]) -> None:
        s, t = e["seat"], tile_index(e["tile"])
        self.counts[s][t] += 1
        self.drawn[s] = t
        self.turn = s
        self.last_discard = None
        if self.wall is not None:
            self.wall -= 1
        if "wall" in e:
            self.wall = e["wall"]

    _on_replacement = _on_draw

    def _on_flower(self, e: Mapping[str, Any]) -> None:
        s, f = e["seat"], tile_index(e["tile"])
        self.flowers[s].append(f)
        replacement = e.get("replacement")
        if self.dealing:  # the deal's flowers are in the hand; their replacements join it
            self.counts[s][f] -= 1
            if replacement is not None:
                r = tile_index(replacement)
                self.counts[s][r] += 1
                if s == self.dealer and r < 34:
                    self.drawn[s] = r
        if replacement is not None and self.wall is not None:
            self.wall -= 1
        if "wall" in e:
            self.wall = e["wall"]

    def _on_discard(self, e: Mapping[str, Any]) -> None:
        s, t = e["seat"], tile_index(e["tile"])
        self._take(s, t)
        self.drawn[s] = None
        declare = bool(e.get("declare"))
        self.rivers[s].append(RiverTile(t, declare=declare))
        if declare:
            self.declared[s] = True
        self.last_discard = s
        self.turn = s

    def _on_keep(self, e: Mapping[str, Any]) -> None:
        self.drawn[e["seat"]] = None

    def _claim(self, seat: int, frm: int) -> None:
        river = self.rivers[frm]
        if river and river[-1].taken_by is None:
            river[-1].taken_by = seat
        self.last_discard = None
        self.turn = seat

    def _on_chow(self, e: Mapping[str, Any]) -> None:
        s, t, frm, position = e["seat"], tile_index(e["tile"]), e["from"], e["position"]
        low = t - (position - 1)
        for x in (low, low + 1, low + 2):
            if x != t:
                self._take(s, x)
        self._claim(s, frm)
        self.melds[s].append(MeldShown("chow", [low, low + 1, low + 2], position - 1, frm))

    def _turned(self, seat: int, frm: int, size: int) -> int:
        offset = (seat - frm) % 4  # 1 left, 2 opposite, 3 right
        return {1: 0, 2: 1, 3: size - 1}[offset]

    def _on_pung(self, e: Mapping[str, Any]) -> None:
        s, t, frm = e["seat"], tile_index(e["tile"]), e["from"]
        self._take(s, t, 2)
        self._claim(s, frm)
        self.melds[s].append(MeldShown("pung", [t] * 3, self._turned(s, frm, 3), frm))

    def _on_kong(self, e: Mapping[str, Any]) -> None:
        s, t, frm = e["seat"], tile_index(e["tile"]), e["from"]
        self._take(s, t, 3)
        self._claim(s, frm)
        self.melds[s].append(MeldShown("kong", [t] * 4, self._turned(s, frm, 4), frm))

    def _on_concealed_kong(self, e: Mapping[str, Any]) -> None:
        s, t = e["seat"], tile_index(e["tile"])
        self._take(s, t, 4)
        self.drawn[s] = None
        self.melds[s].append(MeldShown("concealed_kong", [t] * 4))

    def _on_added_kong(self, e: Mapping[str, Any]) -> None:
        s, t = e["seat"], tile_index(e["tile"])
        self._take(s, t)
        self.drawn[s] = None
        for m in self.melds[s]:
            if m.kind == "pung" and m.tiles[0] == t:
                m.kind = "added_kong"
                m.tiles.append(t)
                break

    def _on_robbed(self, e: Mapping[str, Any]) -> None:
        s, t = e["seat"], tile_index(e["tile"])
        self._take(s, t)
        self.drawn[s] = None

    def _on_win(self, e: Mapping[str, Any]) -> None:
        s, t, frm = e["seat"], tile_index(e["tile"]), e.get("from")
        if frm is None:
            self._take(s, t)
            self.drawn[s] = None
        else:
            river = self.rivers[frm]
            if river and river[-1].taken_by is None and river[-1].tile == t and self.last_discard == frm:
                river[-1].taken_by = s
        self.won[s] = True
        self.won_tiles[s].append(t)
        self.revealed[s] = True
        concealed = sorted(x for x in range(34) for _ in range(self.counts[s][x]))
        self.wins.append({"seat": s, "tile": t, "from": frm, "score": e.get("score"), "hand": concealed,
                          "melds": [m.copy() for m in self.melds[s]], "flowers": list(self.flowers[s])})

    def _on_end(self, e: Mapping[str, Any]) -> None:
        self.finished = True
        self.turn = None
        if e.get("totals") is not None:
            self.totals = list(e["totals"])

    # -- what the table shows ----------------------------------------------------------------

    def state(self, viewer: Optional[int] = None, caption: str = "") -> TableState:
        """The table now, for everyone (`viewer` None) or as seat `viewer` sees it."""
        seats = []
        for s in range(4):
            counts = self.counts[s]
            drawn = self.drawn[s]
            tiles: List[Optional[int]] = [t for t in range(34) for _ in range(counts[t])]
            tiles += [t for t in range(34, 42) for _ in range(counts[t])]  # undealt-yet flowers (deal)
            if drawn is not None:
                tiles.remove(drawn)
            hidden = viewer is not None and viewer != s and not self.revealed[s]
            melds = [m.copy() for m in self.melds[s]]
            if hidden:
                tiles = [None] * len(tiles)
                drawn = None if drawn is None else -1
                for m in melds:
                    if m.kind == "concealed_kong":
                        m.tiles = [None] * 4
            seats.append(SeatState(
                hand=tiles, drawn=drawn, melds=melds, river=[r.copy() for r in self.rivers[s]],
                flowers=list(self.flowers[s]), won_tiles=list(self.won_tiles[s]), declared=self.declared[s],
                won=self.won[s], void=self.void[s],
                piao=self.piao[s], total=self.totals[s]))
        return TableState(self.ruleset, seats, self.dealer, self.turn, self.wall, self.prevalent_wind, self.hand_no,
                          self.last_discard, caption, viewer, self.finished)


def _wall_tiles(wall: Any) -> List[int]:
    """A log's `wall` as tile indices; InvalidArgumentError naming the first entry that is no tile."""
    if not isinstance(wall, (list, tuple)):
        raise InvalidArgumentError(f"log field 'wall' must be a list of tile names, got {type(wall).__name__} "
                                   f"{shown(wall)}")
    tiles = []
    for i, name in enumerate(wall):
        try:
            tiles.append(tile_index(name))
        except InvalidArgumentError as exc:
            raise InvalidArgumentError(f"log field 'wall[{i}]': {exc}") from None
    return tiles


def _tile_index(tile: Any) -> Any:
    """A view's tile (a name such as "5p" / "E" / flower "a", or an index) as the index the pictures use."""
    if isinstance(tile, str):
        from .tiles import NAMES  # the log's names; this module imports nothing of the game layer

        try:
            return NAMES.index(tile)
        except ValueError:
            from mahjong_core.errors import InvalidArgumentError

            raise InvalidArgumentError(f"a view tile is a name such as '5p', 'E' or a flower 'a'..'h'; got {tile!r}") from None
    return tile


def _tile_indices(tiles: Any) -> List[Any]:
    return [_tile_index(t) for t in tiles]


def from_view(view: Mapping[str, Any]) -> TableState:
    """The table of a `Game.view(seat)` dict (taken discards are not in a view's rivers). Tiles may be
    names (the JSON form of views) or indices."""
    me = view["seat"]
    seats = []
    last = view.get("last_discard")
    for s in range(4):
        melds = []
        for m in view["melds"][s]:
            kind, t, frm = m["kind"], _tile_index(m["tile"]), m["from"]
            if kind == "chow":
                marker = m.get("marker") or 1
                melds.append(MeldShown(kind, [t, t + 1, t + 2], marker - 1, frm))
            elif kind == "concealed_kong":
                melds.append(MeldShown(kind, [t] * 4))
            else:
                size = 3 if kind == "pung" else 4
                right = 2 if kind == "added_kong" else size - 1  # an added kong keeps its pung's turned tile
                turned = None if frm is None else {1: 0, 2: 1, 3: right}[(s - frm) % 4]
                melds.append(MeldShown(kind, [t] * size, turned, frm))
        void = (view.get("void") or [None] * 4)[s]
        piao = (view.get("piao") or [None] * 4)[s]
        tiles: List[Any]
        if s == me:
            tiles = _tile_indices(view["hand"])
            drawn = _tile_index(view.get("drawn"))
            if drawn is not None:
                tiles.remove(drawn)
        else:
            n = view["hand_sizes"][s]
            drawn = -1 if view.get("turn") == s and n % 3 == 2 else None
            tiles = [None] * (n - (drawn is not None))
        seats.append(SeatState(
            hand=tiles, drawn=drawn, melds=melds, river=[RiverTile(t) for t in _tile_indices(view["rivers"][s])],
            flowers=_tile_indices(view["flowers"][s]), won_tiles=_tile_indices((view.get("won_tiles") or [[]] * 4)[s]),
            declared=bool(view["declared"][s]), won=bool(view["won"][s]),
            void=void if isinstance(void, str) or void is None else _SUITS[void],
            piao=piao, total=view["totals"][s]))
    return TableState(view["ruleset"], seats, view["dealer"], None if view.get("finished") else view.get("turn"),
                      view.get("wall_remaining"), view.get("prevalent_wind"), view.get("hand_no"),
                      None if last is None else last["seat"], "", me, bool(view.get("finished")))


def events_of(log: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    return log.get("events") or ()
