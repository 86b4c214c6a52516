"""Deterministic Botzone protocol bots for the judge differential tests (test helper, not the kit).

Each bot speaks the Botzone Chinese-Standard-Mahjong protocol on plain strings and keeps its own
minimal state (hand, pungs, wall counts) from the requests, independently of `mahjong_core.botzone`,
so that the games they play exercise the table without being derived from it. Kinds:

- `random`   a uniformly random answer among the ones it believes legal; HU when its hand is complete;
- `claimer`  claims everything (kong > pung > chow), kongs everything, HU when complete;
- `falsehu`  random, but calls HU at random moments (false wins, WH) and rarely answers garbage (WA);
- `greedy`   discards to the lowest shanten (core `shanten`), claims when it does not raise it;
- `sloppy`   claimer that ignores the end-of-wall rules and sometimes answers out of turn (WA);
- `kit` / `kitclaim`  decide on `mahjong_core.botzone.BotzoneState`'s legal actions: WIN when legal
  (so that real wins happen), else a random legal action (`kitclaim`: claims and kongs first).

`make_bot(kind, seed, seat, wall_size)` -> an object with `respond(request) -> response`.
"""

from __future__ import annotations

import random
from typing import List, Optional

from mahjong_core import shanten as _shanten

KINDS = ("random", "claimer", "falsehu", "greedy", "sloppy", "kit", "kitclaim")

_SUITED = [f"{s}{r}" for s in "WBT" for r in range(1, 10)]
_CODES = _SUITED + [f"F{i}" for i in range(1, 5)] + [f"J{i}" for i in range(1, 4)]
_INDEX = {c: i for i, c in enumerate(_CODES)}


def _counts(tiles: List[str]) -> bytes:
    out = bytearray(34)
    for t in tiles:
        out[_INDEX[t]] += 1
    return bytes(out)


class ProtocolBot:
    def __init__(self, kind: str, seed: int, seat: int, wall_size: int) -> None:
        self.kind = kind
        self.rng = random.Random(f"{kind}-{seed}-{seat}")
        self.seat = seat
        self.part = wall_size // 4
        self.walls = [self.part] * 4
        self.hand: List[str] = []
        self.pungs: List[str] = []
        self.melds = 0
        self.last_tile: Optional[str] = None
        self.last_seat = -1
        self.my_kong: Optional[str] = None

    # -- state --------------------------------------------------------------------------------

    def _feed(self, req: str) -> str:
        """Update the state; returns what is asked: 'draw', 'discard', 'bugang' or 'none'."""
        f = req.split(" ")
        if f[0] == "0":
            self.seat = int(f[1])
            return "none"
        if f[0] == "1":
            flowers = [int(x) for x in f[1:5]]
            self.hand = f[5:18]
            for s in range(4):
                self.walls[s] = self.part - 13 - flowers[s]
            return "none"
        if f[0] == "2":
            self.walls[self.seat] -= 1
            self.hand.append(f[1])
            self.last_tile = f[1]
            return "draw"
        p, op = int(f[1]), f[2]
        me = p == self.seat
        if op in ("DRAW", "BUHUA"):
            self.walls[p] -= 1
            return "none"
        if op == "PLAY":
            if me:
                self.hand.remove(f[3])
            self.last_tile, self.last_seat = f[3], p
            return "none" if me else "discard"
        if op == "PENG":
            if me:
                for _ in range(2):
                    self.hand.remove(self.last_tile)
                self.pungs.append(self.last_tile)
                self.melds += 1
                self.hand.remove(f[3])
            self.last_tile, self.last_seat = f[3], p
            return "none" if me else "discard"
        if op == "CHI":
            if me:
                mid = f[3]
                chow = [mid[0] + str(int(mid[1]) + d) for d in (-1, 0, 1)]
                chow.remove(self.last_tile)
                for t in chow:
                    self.hand.remove(t)
                self.melds += 1
                self.hand.remove(f[4])
            self.last_tile, self.last_seat = f[4], p
            return "none" if me else "discard"
        if op == "GANG":
            if me:
                if self.my_kong is not None:  # concealed, on my own turn
                    for _ in range(4):
                        self.hand.remove(self.my_kong)
                else:
                    for _ in range(3):
                        self.hand.remove(self.last_tile)
                self.melds += 1
            self.my_kong = None
            return "none"
        if op == "BUGANG":
            if me:
                self.hand.remove(f[3])
                self.pungs.remove(f[3])
            self.last_tile = f[3]
            return "none" if me else "bugang"
        return "none"

    # -- choices ------------------------------------------------------------------------------

    def _complete(self, extra: Optional[str] = None) -> bool:
        tiles = self.hand + ([extra] if extra else [])
        if (len(tiles) - 2) % 3:
            return False
        return _shanten(_counts(tiles), melds=self.melds) == -1

    def _shanten_after(self, tiles: List[str], melds: int) -> int:
        return _shanten(_counts(tiles), melds=melds)

    def _walls_ok(self) -> bool:
        return self.kind == "sloppy" or (self.walls[self.seat] > 0 and self.walls[(self.seat + 1) % 4] > 0)

    def _claims_ok(self) -> bool:
        return self.kind == "sloppy" or self.walls[(self.last_seat + 1) % 4] > 0

    def _best_discard(self, tiles: List[str], melds: int) -> str:
        if self.kind != "greedy":
            return self.rng.choice(tiles)
        best, out = 99, tiles[0]
        for t in sorted(set(tiles)):
            rest = list(tiles)
            rest.remove(t)
            s = self._shanten_after(rest, melds)
            if s < best:
                best, out = s, t
        return out

    def respond(self, req: str) -> str:
        asked = self._feed(req)
        rng = self.rng
        if self.kind == "falsehu" and asked != "none" and rng.random() < 0.03:
            return "HU"
        if self.kind in ("falsehu", "sloppy") and rng.random() < 0.004:
            return rng.choice(["PASS", "HU", "PLAY W1", "PENG", "CHI B2 B3", "GANG", "BUGANG T5", "", "PLAY  W1"])
        if asked == "draw":
            return self._on_draw()
        if asked == "discard":
            return self._on_discard()
        if asked == "bugang":
            return "HU" if self._complete(self.last_tile) else "PASS"
        return "PASS"

    def _on_draw(self) -> str:
        if self._complete():
            return "HU"
        rng = self.rng
        kongs = []
        if self._walls_ok():
            kongs = [f"GANG {t}" for t in sorted(set(self.hand)) if self.hand.count(t) == 4]
            kongs += [f"BUGANG {t}" for t in self.pungs if t in self.hand]
        if kongs and (self.kind in ("claimer", "sloppy") or rng.random() < 0.3):
            choice = rng.choice(kongs)
            if choice.startswith("GANG"):
                self.my_kong = choice.split()[1]
            return choice
        return "PLAY " + self._best_discard(self.hand, self.melds)

    def _on_discard(self) -> str:
        t = self.last_tile
        if self._complete(t):
            return "HU"
        rng = self.rng
        options = []
        if self._claims_ok():
            n = self.hand.count(t)
            if n == 3:
                options.append(("GANG", None))
            if n >= 2:
                options.append(("PENG", None))
            if t[0] in "WBT" and (self.last_seat + 1) % 4 == self.seat:
                r = int(t[1])
                for mid in (r - 1, r, r + 1):
                    if 2 <= mid <= 8:
                        need = [f"{t[0]}{mid + d}" for d in (-1, 0, 1)]
                        need.remove(t)
                        if all(x in self.hand for x in need) and (need[0] != need[1] or self.hand.count(need[0]) >= 2):
                            options.append(("CHI", f"{t[0]}{mid}"))
        if not options:
            return "PASS"
        if self.kind == "greedy":
            before = self._shanten_after(self.hand, self.melds)
        elif self.kind not in ("claimer", "sloppy") and rng.random() < 0.5:
            return "PASS"
        for op, mid in options:  # kong > pung > chow
            if op == "GANG":
                if self.kind == "greedy":
                    continue
                return "GANG"
            rest = list(self.hand)
            if op == "PENG":
                rest.remove(t)
                rest.remove(t)
            else:
                chow = [mid[0] + str(int(mid[1]) + d) for d in (-1, 0, 1)]
                chow.remove(t)
                for x in chow:
                    rest.remove(x)
            out = self._best_discard(rest, self.melds + 1)
            if self.kind == "greedy":
                rest.remove(out)
                if self._shanten_after(rest, self.melds + 1) >= before:
                    continue
            return f"{op} {out}" if op == "PENG" else f"CHI {mid} {out}"
        return "PASS"


class KitBot:
    def __init__(self, kind: str, seed: int, seat: int, wall_size: int) -> None:
        from mahjong_core.botzone import BotzoneState

        self.kind = kind
        self.rng = random.Random(f"{kind}-{seed}-{seat}")
        self.state = BotzoneState(wall_size=wall_size)
        self.previous: Optional[str] = None

    def respond(self, req: str) -> str:
        from mahjong_core.game.actions import ActionKind, WIN

        state = self.state.feed(req, self.previous)
        legal = state.legal
        if not legal:
            out = "PASS"
        elif WIN in legal:
            out = "HU"
        else:
            eager = [a for a in legal if a.kind in (ActionKind.PUNG, ActionKind.CHOW, ActionKind.KONG,
                                                    ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)]
            action = self.rng.choice(eager if eager and self.kind == "kitclaim" else legal)
            if action.kind in (ActionKind.PUNG, ActionKind.CHOW):
                out = state.respond(self.rng.choice(state.claim(action).legal))
            else:
                out = state.respond(action)
        self.previous = out
        return out


def make_bot(kind: str, seed: int, seat: int, wall_size: int = 136) -> "ProtocolBot | KitBot":
    if kind not in KINDS:
        raise ValueError(f"unknown protocol bot {kind!r}; kinds: {', '.join(KINDS)}")
    if kind.startswith("kit"):
        return KitBot(kind, seed, seat, wall_size)
    return ProtocolBot(kind, seed, seat, wall_size)
