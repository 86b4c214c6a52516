"""`BotzoneState`: one seat's view of a Botzone game, rebuilt from the requests it received.

    state = BotzoneState.from_requests(requests, responses)   # the history Botzone hands a bot
    state.legal          # the legal answers now, as engine Actions (mahjong_core.game.actions)
    state.mask()         # 0/1 per MCR action code, the engine's encoding
    state.view()         # the same dict as BotzoneGame.view(seat) at this point
    state.respond(action)  # -> "PLAY W1", "PENG T3" ... (a pung or chow needs the discard after it)

The view and the actions are the engine's (`mahjong_core.botzone.new_game(...).view(seat)`), so a
bot trained on `new_game("mcr", rules="botzone")` runs on Botzone unchanged. A pung or chow is
two decisions as in the engine: `decide` picks PUNG / CHOW[k], then `state.claim(action)` moves the
state to the discard that follows (phase "after_claim", legal = the discards), and `decide` picks it.

Tiles are core indices (0..33, flowers 34..41); `tiles.code(t)` gives the Botzone code. WIN is
legal only where it wins (8 fans besides the flowers): a HU anywhere else is a false win (WH).
"""

from __future__ import annotations

from itertools import compress
from typing import Any, Dict, List, Optional, Sequence, Tuple

from mahjong_core.errors import InvalidTypeError
from mahjong_core.game.view import visible_tile_counts
from mahjong_core.game.wall import tile_name
from mahjong_core.game.actions import (
    ADDED_KONG, CHOW, CHOW_PATTERNS, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, SPACES, WIN, Action, ActionKind,
)
# Meld kinds from the engine's constants module, which imports nothing: the kit stays lean for a bot
# that starts a process per turn.
from mahjong_core.game.constants import (
    MELD_ADDED_KONG, MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_NAMES, MELD_PUNG,
)

from . import protocol as P
from .protocol import BotzoneProtocolError, parse_request, quote_input, split_response
from .tiles import CODES, tile_index

__all__ = ["BotzoneState", "parse_response"]

_MELD_NAMES = MELD_NAMES
_NO_WON_TILES: Tuple[List[int], ...] = ([], [], [], [])  # a Botzone hand ends at its first win
_SPACE = SPACES["mcr"]


def _copied(value: Any) -> Any:
    """`value` with its containers copied all the way down (lists, dicts, bytearrays; tuples, tiles,
    actions and requests are immutable and shared): a snapshot of a state's field, faster than
    `copy.deepcopy` (no memo) for these few small nested lists."""
    kind = value.__class__
    if kind is list:
        return [_copied(v) for v in value]
    if kind is bytearray:
        return bytearray(value)
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    return value


class BotzoneState:
    """One seat's knowledge of a Botzone game (see the module docstring)."""

    def __init__(self, rules: Any = "botzone", wall_size: int = 136) -> None:
        if wall_size not in (136, 144):
            raise BotzoneProtocolError(f"wall_size is 136 or 144 (with flowers), got {wall_size!r}")
        self._rules_spec = rules
        self._part = wall_size // 4
        self._rules: Any = None
        self.seat = -1
        self.quan = 0
        self.lines = 0
        # The engine's step id (`Game.step`): one per decision request after the deal (补花 rounds are
        # automatic), one more for a PENG / CHI round, which the judge sends as one request but the
        # engine plays as two decisions (the claim, then the claimer's discard), and none for the draw
        # that follows a GANG round (the engine opens the kong player's turn with the kong itself).
        self.step = -1
        self._gang_round = False
        self.hand = bytearray(34)                       # own concealed tiles (counts)
        self.melds: List[List[Tuple[int, int, int, int]]] = [[], [], [], []]  # engine meld tuples
        self.rivers: List[List[int]] = [[], [], [], []]
        self.flowers: List[List[int]] = [[], [], [], []]
        self.hand_sizes = [0, 0, 0, 0]
        self.walls = [0, 0, 0, 0]
        self.phase = "deal"
        self.turn = 0
        self.drawn = -1
        self.discard = -1
        self.discarder = -1
        self.kong_seat = -1
        self.kong_tile = -1
        self.replacement = False     # the turn seat's tile is a kong replacement (杠上开花)
        self.legal: List[Action] = []
        self.request: Optional[P.Request] = None
        self._claim: Optional[Action] = None
        self._last: Optional[P.Request] = None
        self._my_kong = -1            # the tile of my own concealed kong (from my response)
        self._kong_next = False       # the next draw of `turn` is a kong replacement

    # -- building -----------------------------------------------------------------------------

    @classmethod
    def from_requests(cls, requests: Sequence[str], responses: Sequence[str] = (), rules: Any = "botzone",
                      wall_size: int = 136) -> "BotzoneState":
        """The state after `requests` (all of them, the first "0 ..." included) and the seat's own
        `responses` to all but the last. Raises BotzoneProtocolError naming the bad line and field."""
        for name, lines in (("requests", requests), ("responses", responses)):
            if isinstance(lines, str) or not hasattr(lines, "__len__"):
                raise InvalidTypeError(f"from_requests: {name} is a list of protocol lines, got {type(lines).__name__}")
        if len(responses) not in (len(requests), len(requests) - 1):
            raise BotzoneProtocolError(
                f"{len(requests)} requests need {len(requests) - 1} responses (one per request but the last), "
                f"got {len(responses)}")
        state = cls(rules, wall_size)
        for i, line in enumerate(requests):
            state._feed(line, responses[i - 1] if i > 0 else None)  # (a failure drops the state: no snapshot)
        return state

    def feed(self, request: str, previous_response: Optional[str] = None) -> "BotzoneState":
        """Take the next request line (and, optionally, this seat's response to the previous one,
        which names the tile of its own concealed kong). Returns self. A request that raises
        BotzoneProtocolError leaves the state as it was (a keep-running bot may log it and go on)."""
        saved = {name: _copied(value) for name, value in self.__dict__.items()}
        try:
            return self._feed(request, previous_response)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(saved)
            raise

    def _feed(self, request: str, previous_response: Optional[str]) -> "BotzoneState":
        self.lines += 1
        req = parse_request(request, self.lines)
        if previous_response is not None and self._last is not None:
            self._note_response(previous_response)
        self._apply(req)
        if req.kind in (P.DRAW, P.OTHER_DRAW) and self._gang_round:
            self._gang_round = False
        elif req.kind not in (P.INIT, P.DEAL, P.BUHUA):
            self.step += 2 if req.kind in (P.PENG, P.CHI) else 1
            self._gang_round = req.kind == P.GANG
        self.request = req
        self._last = req
        return self

    def _note_response(self, text: str) -> None:
        fields = split_response(text) if isinstance(text, str) else []
        if len(fields) == 2 and fields[0] == "GANG":
            try:
                self._my_kong = tile_index(fields[1])
            except Exception:
                self._my_kong = -1

    def _error(self, req: P.Request, why: str) -> BotzoneProtocolError:
        return BotzoneProtocolError(f"request line {self.lines} ({req.kind}): {why}")

    def _apply(self, req: P.Request) -> None:
        kind = req.kind
        self.legal = []
        self._claim = None
        if self.seat < 0 and kind != P.INIT:
            raise self._error(req, "the first request must be '0 myID quan'")
        if kind == P.INIT:
            if self.seat >= 0:  # (a new hand is a new state: `BotzoneState()`, as `run` makes one)
                raise self._error(req, "the hand has started already: '0 myID quan' comes once, first")
            self.seat, self.quan = req.seat, req.quan
            self.phase = "deal"
            return
        me = self.seat
        if kind == P.DEAL:
            if self.hand_sizes[0]:  # (seat 0 always holds tiles once dealt); a second deal would count past 4
                raise self._error(req, "the hand was dealt already; a game has one deal ('1 ...'), after '0 myID quan'")
            for t in req.hand:
                self.hand[t] += 1
            i = 0
            for s, n in enumerate(req.flower_counts):
                self.flowers[s] = list(req.flowers[i:i + n])
                i += n
            if req.flowers:
                self._flowers_seen()
            part = self._part
            self.hand_sizes = [13, 13, 13, 13]
            self.walls = [part - 13 - n for n in req.flower_counts]
            return
        if kind == P.DRAW:
            self._draw(req, me, req.tile)
            self._turn_legal()
            return
        s = req.seat
        if kind == P.OTHER_DRAW:
            if s == me:
                raise self._error(req, "'3 p DRAW' names this seat; its own draw is '2 T'")
            self._draw(req, s, -1)
            return
        if kind == P.BUHUA:
            self._flowers_seen()
            self._take(req, s)
            self.flowers[s].append(req.tile)
            self._kong_next = False
            self.phase = "turn"
            self.turn = s
            return
        if kind in (P.PLAY, P.PENG, P.CHI):
            if kind != P.PLAY:
                self._claimed(s, kind, req)
            if s == me:
                self._remove(req, req.tile, 1)
            self.hand_sizes[s] -= 1
            self.rivers[s].append(req.tile)
            self.discard, self.discarder = req.tile, s
            self.drawn = -1
            self.replacement = False
            self.phase = "claim"
            self.turn = s
            if s != me:
                self._claim_legal()
            return
        if kind == P.GANG:
            last = self._last
            concealed = last is not None and (last.kind == P.DRAW or (last.kind == P.OTHER_DRAW and last.seat == s))
            if concealed:
                tile = self._my_kong if s == me else -1
                if s == me:
                    if tile < 0 or self.hand[tile] < 4:
                        raise self._error(req, "this seat's concealed kong does not match its GANG response")
                    self._remove(req, tile, 4)
                self.melds[s].append((MELD_CONCEALED_KONG, tile, 0, -1))
                self.hand_sizes[s] -= 4
            else:
                d, tile = self.discarder, self.discard
                if d < 0 or d == s or not self.rivers[d] or self.rivers[d][-1] != tile:
                    raise self._error(req, "a melded kong needs another seat's discard before it")
                self.rivers[d].pop()
                if s == me:
                    self._remove(req, tile, 3)
                self.melds[s].append((MELD_KONG, tile, (s - d) % 4, d))
                self.hand_sizes[s] -= 3
            self._my_kong = -1
            self._kong_next = True
            self.turn = s
            self.drawn = -1
            self.phase = "turn"
            return
        if kind == P.BUGANG:
            tile = req.tile
            for i, (k, t, marker, frm) in enumerate(self.melds[s]):
                if k == MELD_PUNG and t == tile:
                    break
            else:
                raise self._error(req, f"seat {s} has no pung of {CODES[tile]} to add to")
            if s == me and not self.hand[tile]:
                raise self._error(req, f"this seat holds no {CODES[tile]} to add to its pung")
            self.kong_seat, self.kong_tile = s, tile
            self._pending_added = i
            self.turn = s
            self.drawn = -1
            self.phase = "rob"
            if s != me:
                legal = [PASS]
                if self._wins(tile, self_drawn=False, robbing=True, turn_seat=s):
                    legal.insert(0, WIN)
                self.legal = legal
            self._kong_next = True
            return
        raise self._error(req, f"unexpected request {kind}")  # pragma: no cover

    # -- helpers --------------------------------------------------------------------------------

    def _remove(self, req: P.Request, tile: int, n: int) -> None:
        if self.hand[tile] < n:
            raise self._error(req, f"this seat holds {self.hand[tile]} {CODES[tile]}, the request needs {n}")
        self.hand[tile] -= n

    def _flowers_seen(self) -> None:
        """A flower shows the wall has 144 tiles (36 per seat), whatever `wall_size` said."""
        if self._part == 34:
            self._part = 36
            self._rules = None
            if self.hand_sizes[0]:  # already dealt: every wall had two more
                self.walls = [w + 2 for w in self.walls]

    def _take(self, req: P.Request, s: int) -> None:
        if self.walls[s] <= 0:
            raise self._error(req, f"seat {s} draws from an empty wall")
        self._finish_added_kong(req)
        self.walls[s] -= 1

    def _finish_added_kong(self, req: P.Request) -> None:
        if self.kong_seat >= 0:  # nobody robbed: the added kong is complete
            s = self.kong_seat
            k, t, marker, frm = self.melds[s][self._pending_added]
            if s == self.seat and not self.hand[t]:
                raise self._error(req, f"this seat's added kong of {CODES[t]} needs its fourth {CODES[t]}, which the "
                                       f"requests since the BUGANG took from the hand (a BUGANG is followed by the "
                                       f"kong player's draw)")
            self.melds[s][self._pending_added] = (MELD_ADDED_KONG, t, marker, frm)
            self.hand_sizes[s] -= 1
            if s == self.seat:
                self.hand[t] -= 1
            self.kong_seat = self.kong_tile = -1

    def _draw(self, req: P.Request, s: int, tile: int) -> None:
        self._take(req, s)
        self.replacement = self._kong_next
        self._kong_next = False
        self.hand_sizes[s] += 1
        if tile >= 0:
            self.hand[tile] += 1
        self.turn = s
        self.drawn = tile
        self.phase = "turn"

    def _claimed(self, s: int, kind: str, req: P.Request) -> None:
        d, tile = self.discarder, self.discard
        if d < 0 or d == s or not self.rivers[d] or self.rivers[d][-1] != tile:
            raise self._error(req, "a PENG / CHI needs another seat's discard before it")
        self.rivers[d].pop()
        if kind == P.PENG:
            if s == self.seat:
                self._remove(req, tile, 2)
            self.melds[s].append((MELD_PUNG, tile, (s - d) % 4, d))
        else:
            low = req.middle - 1
            if not low <= tile <= low + 2 or low // 9 != tile // 9:
                raise self._error(req, f"the chow around {CODES[req.middle]} does not hold the discard {CODES[tile]}")
            if s == self.seat:
                for t in (low, low + 1, low + 2):
                    if t != tile:
                        self._remove(req, t, 1)
            self.melds[s].append((MELD_CHOW, low, tile - low + 1, d))
        self.hand_sizes[s] -= 2

    def _rules_obj(self) -> Any:
        if self._rules is None:
            from .table import botzone_rules

            self._rules = botzone_rules(self._rules_spec, flowers=self._part == 36)
        return self._rules

    def visible_counts(self) -> bytearray:
        """Copies of each kind this seat sees outside its concealed hand (rivers, melds; others'
        concealed kongs excluded, its own included) — the engine's `Game.visible_counts`."""
        return visible_tile_counts(self.rivers, self.melds, _NO_WON_TILES, self.seat)

    def _wins(self, tile: int, *, self_drawn: bool, robbing: bool, turn_seat: int) -> bool:
        from mahjong_core import waits_mask
        from mahjong_core.tiles import Forms

        me = self.seat
        hand = bytearray(self.hand)
        if self_drawn:
            hand[tile] -= 1
        if not (waits_mask(bytes(hand), Forms.MCR, melds=len(self.melds[me])) >> tile) & 1:
            return False
        from mahjong_core.rules import mcr

        from .scoring import is_win, judge_score

        visible = self.visible_counts()[tile]
        if not self_drawn and not robbing:
            visible -= 1
        rules = self._rules_obj()
        score = judge_score(
            mcr, self.hand, self.melds[me], tile, self_drawn=self_drawn, robbing=robbing, visible=visible,
            wall_last=self.walls[(turn_seat + 1) % 4] == 0, replacement=self.replacement,
            seat=me, quan=self.quan, flowers=len(self.flowers[me]), rules=rules)
        return is_win(score, len(self.flowers[me]), rules)

    def _turn_legal(self) -> None:
        me, hand = self.seat, self.hand
        legal = list(compress(DISCARD, hand))
        pungs = [t for k, t, _, _ in self.melds[me] if k == MELD_PUNG]
        if (4 in hand or pungs) and self.walls[me] and self.walls[(me + 1) % 4]:
            legal.extend(CONCEALED_KONG[t] for t in range(34) if hand[t] == 4)
            legal.extend(ADDED_KONG[t] for t in pungs if hand[t])
        if self._wins(self.drawn, self_drawn=True, robbing=False, turn_seat=me):
            legal.insert(0, WIN)
        self.legal = legal

    def _claim_legal(self) -> None:
        me, d, tile, hand = self.seat, self.discarder, self.discard, self.hand
        legal: List[Action] = []
        if self._wins(tile, self_drawn=False, robbing=False, turn_seat=d):
            legal.append(WIN)
        if self.walls[(d + 1) % 4]:
            if hand[tile] >= 2:
                legal.append(PUNG)
                if hand[tile] == 3:
                    legal.append(KONG)
            if me == (d + 1) % 4:
                legal.extend(a for a, x, y in CHOW_PATTERNS[tile] if hand[x] and hand[y])
        legal.append(PASS)
        self.legal = legal

    # -- deciding -------------------------------------------------------------------------------

    def mask(self) -> bytearray:
        """0/1 per MCR action code (the engine's `ActionSpace("mcr")`) of `legal`."""
        return _SPACE.mask(self.legal)

    def claim(self, action: Action) -> "BotzoneState":
        """After choosing PUNG or CHOW[k]: the state of the discard that follows (phase
        "after_claim"; `legal` = the discards of the hand after the claim). Returns self; `respond`
        then takes the discard."""
        if action not in self.legal or action.kind not in (ActionKind.PUNG, ActionKind.CHOW):
            raise BotzoneProtocolError(f"claim: {action!r} is not a legal pung or chow now")
        tile, d, me = self.discard, self.discarder, self.seat
        hand = self.hand
        if action is PUNG:
            used = [tile, tile]
            meld = (MELD_PUNG, tile, (me - d) % 4, d)
        else:
            low = tile - action.arg + 1
            used = [t for t in (low, low + 1, low + 2) if t != tile]
            meld = (MELD_CHOW, low, action.arg, d)
        for t in used:
            hand[t] -= 1
        # as the engine has it after the claim: the meld made, the discard out of the river
        self.melds[me].append(meld)
        self.rivers[d].pop()
        self.hand_sizes[me] -= 2
        self._claim_used = used
        self._claim = action
        self.phase = "after_claim"
        self.turn = me
        self.legal = list(compress(DISCARD, hand))
        return self

    def unclaim(self) -> "BotzoneState":
        """Undo `claim`: back to the discard window as the requests left it."""
        if self._claim is not None:
            for t in self._claim_used:
                self.hand[t] += 1
            self.melds[self.seat].pop()
            self.rivers[self.discarder].append(self.discard)
            self.hand_sizes[self.seat] += 2
            self._claim = None
            self.phase = "claim"
            self.turn = self.discarder
            self._claim_legal()
        return self

    def respond(self, action: Any, discard: Any = None) -> str:
        """The response text of `action` (after `claim`, `action` is the discard); a chow or pung
        with its discard as `respond(claim, discard)` or as the pair `(claim, discard)` that
        `decide` may return. Raises BotzoneProtocolError when it is not legal now (a HU is always
        accepted: the judge may settle it as WH)."""
        if discard is None and type(action) is tuple and len(action) == 2:
            action, discard = action
        if self._claim is not None:
            if discard is None:
                discard, action = action, self._claim
            claim = self._claim
            if not isinstance(discard, Action):
                discard = DISCARD[discard] if isinstance(discard, int) and 0 <= discard < 34 else discard
            if discard not in self.legal:
                raise BotzoneProtocolError(f"respond: {discard!r} is not a legal discard after {claim!r}")
            text = P.format_response(claim, discard, claimed=self.discard)
            self.unclaim()
            return text
        if isinstance(action, int) and not isinstance(action, bool):
            action = _SPACE.action(action)
        if action is WIN:
            return "HU"
        if action not in self.legal and not (action is PASS and not self.legal):
            raise BotzoneProtocolError(f"respond: {action!r} is not legal now; legal: {self.legal}")
        if action.kind in (ActionKind.PUNG, ActionKind.CHOW):
            return P.format_response(action, discard, claimed=self.discard)
        return P.format_response(action)

    def view(self) -> Dict[str, Any]:
        """The engine's `Game.view(seat)` of this seat now (a JSON-serialisable dict)."""
        me = self.seat
        name = tile_name  # tiles in the engine's JSON form: names ("5p", "E", flowers "a".."h")
        melds = []
        for s in range(4):
            out = []
            for kind, tile, marker, frm in self.melds[s]:
                hidden = kind == MELD_CONCEALED_KONG and s != me
                out.append({"kind": _MELD_NAMES[kind], "tile": None if hidden or tile < 0 else name(tile),
                            "from": None if frm < 0 else frm, "marker": marker or None})
            melds.append(out)
        code_of = _SPACE.code_of_uid
        return {
            "ruleset": "mcr", "seat": me, "hand_no": 0, "dealer": 0, "phase": self.phase, "turn": self.turn,
            "step": self.step,
            "hand": [name(t) for t in range(34) for _ in range(self.hand[t])],
            "drawn": name(self.drawn) if self.turn == me and self.drawn >= 0 else None,
            "hand_sizes": list(self.hand_sizes), "melds": melds,
            "rivers": [[name(t) for t in r] for r in self.rivers],
            "flowers": [[name(t) for t in f] for f in self.flowers],
            "won": [False] * 4, "winners": [], "won_tiles": [[], [], [], []], "declared": [False] * 4,
            "wall_remaining": sum(self.walls),
            "last_discard": None if self.discarder < 0 else {"seat": self.discarder, "tile": name(self.discard)},
            "totals": [0, 0, 0, 0], "finished": False, "legal": [code_of[a.uid] for a in self.legal],
            "actions": [a.to_json() for a in self.legal],
            "prevalent_wind": self.quan, "walls": list(self.walls),
        }

    def hand_text(self) -> str:
        """The concealed hand in notation ("123m456p789s11sEP"; `state.hand` holds the 34 counts)."""
        from mahjong_core.notation import format_tiles

        return format_tiles(t for t in range(34) for _ in range(self.hand[t]))

    def __repr__(self) -> str:
        """`<BotzoneState seat=1 claim turn=0 hand=123m456p789s11sEP walls=[...] legal=[Pung, Pass]>`."""
        return (f"<BotzoneState seat={self.seat} {self.phase} turn={self.turn} hand={self.hand_text()} "
                f"walls={self.walls} legal={self.legal}>")


def parse_response(text: str, state: BotzoneState) -> Tuple[Action, Optional[Action]]:
    """The engine actions of a response in `state`: (action, discard) — the discard only after a
    pung or chow. Raises BotzoneProtocolError for a response that is malformed or not legal there
    (a HU parses as WIN even where it is a false win)."""
    fields = split_response(text) if isinstance(text, str) else []

    def tile(i: int) -> int:
        try:
            t = tile_index(fields[i])
        except Exception:
            t = -1
        if t < 0 or t >= 34:
            raise BotzoneProtocolError(f"response {quote_input(text)}: field {i + 1} is not a tile code W1..J3")
        return t

    legal = state.legal
    if fields == ["HU"]:
        return WIN, None
    if fields == ["PASS"]:
        action: Action = PASS
    elif fields == ["GANG"]:
        action = KONG
    elif len(fields) == 2 and fields[0] in ("PLAY", "GANG", "BUGANG"):
        action = {"PLAY": DISCARD, "GANG": CONCEALED_KONG, "BUGANG": ADDED_KONG}[fields[0]][tile(1)]
    elif len(fields) == 2 and fields[0] == "PENG":
        if PUNG not in legal:
            raise BotzoneProtocolError(f"response {quote_input(text)}: a pung is not legal now")
        t = tile(1)
        if state.hand[t] - (2 if t == state.discard else 0) <= 0:
            raise BotzoneProtocolError(f"response {quote_input(text)}: {CODES[t]} is not in the hand after the pung")
        return PUNG, DISCARD[t]
    elif len(fields) == 3 and fields[0] == "CHI":
        middle, t = tile(1), tile(2)
        position = state.discard - middle + 2
        if not 1 <= position <= 3 or CHOW[position] not in legal:
            raise BotzoneProtocolError(f"response {quote_input(text)}: that chow is not legal now")
        hand = bytearray(state.hand)
        for x in (middle - 1, middle, middle + 1):
            if x != state.discard:
                hand[x] -= 1
        if not hand[t]:
            raise BotzoneProtocolError(f"response {quote_input(text)}: {CODES[t]} is not in the hand after the chow")
        return CHOW[position], DISCARD[t]
    else:
        raise BotzoneProtocolError(f"response {quote_input(text)} is not a Botzone answer "
                                   "(PASS HU PLAY T GANG [T] BUGANG T PENG T CHI M T)")
    if action not in legal and not (action is PASS and not legal):
        raise BotzoneProtocolError(f"response {quote_input(text)} is not legal now; legal: {legal}")
    return action, None
