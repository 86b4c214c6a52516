"""The Botzone table round by round, as the judge sees it: requests out, responses in.

    table = Table(walltiles="W1 B2 ...", quan=0)     # or Table(seed=7)
    while not table.finished:
        lines = table.requests()                     # {seat: request line} of this round
        table.respond({s: my_bots[s](lines[s]) for s in range(4)})
    table.scores, table.display, table.log           # judge-format results

Every round of the judge is one `requests()` / `respond()` pair, and every seat answers every
round (PASS where it has nothing to say). `respond` checks the answers in the judge's order — the
checks decide who is punished when several answers are wrong — and plays the accepted ones on a
`BotzoneGame` (`self.game`), which holds the state and decides what is legal. An answer the judge
would reject is WA (−30 for that seat, +10 for each other, game over); a `HU` below 8 + flowers
fans is WH (the same); a verdict other than "OK" (e.g. "TLE", from a time-out) is charged the same
way under that name.

The order of the judge's checks, per round:
- INIT, DEAL, BUHUA: seats 0..3 must PASS. GANG (concealed or melded kong): seats in turn order
  from the kong's seat must PASS.
- DRAW by d: seats 0..3 in order; others must PASS; d answers PLAY/GANG/BUGANG T or HU (a HU ends
  the game at once: later seats are not checked).
- PLAY/PENG/CHI by d: d must PASS; then in turn order after d each verdict, and the first HU ends
  the game (win or WH); then seats 0..3 (index order) for PENG/GANG — the first valid claim is taken
  and later answers are not checked; then seats 0..3 for CHI.
- BUGANG by p: seats in turn order from p: PASS, or HU by another seat (robbing), else WA.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import Any, Deque, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from mahjong_core.errors import InvalidTypeError
from mahjong_core.game.actions import (
    ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, PASS, PUNG, WIN, Action, ActionKind,
)
from mahjong_core.rules.ledger import check_seat

from .game import BotzoneGame
from .protocol import BotzoneProtocolError, split_response
from .tiles import CODES, tile_index

__all__ = ["Table", "new_game", "walltiles_from_seed", "parse_walltiles"]

_STANDARD = sorted(t for t in range(34) for _ in range(4))
_WITH_FLOWERS = sorted(_STANDARD + list(range(34, 42)))


def parse_walltiles(walltiles: Union[str, Sequence[Any]]) -> List[int]:
    """The tiles of a `walltiles` string ("W1 B2 ...", Botzone's `initdata.walltiles`) or a sequence
    of codes / tile indices: 136 tiles, or 144 with the 8 flowers, each kind exactly four times."""
    try:
        items = walltiles.split(" ") if isinstance(walltiles, str) else list(walltiles)
    except TypeError:
        raise BotzoneProtocolError(f"initdata.walltiles is a string of tile codes ('W1 B2 ...') or a sequence of codes "
                                   f"or tile indices, got {type(walltiles).__name__}") from None
    tiles = []
    for i, item in enumerate(items):
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 42:
            tiles.append(item)
            continue
        try:
            tiles.append(tile_index(item))
        except Exception:
            raise BotzoneProtocolError(
                f"initdata.walltiles: tile {i + 1} is {item!r}, not a tile code (W1..W9 B1..B9 T1..T9 F1..F4 "
                "J1..J3 H1..H8) separated by single spaces") from None
    ordered = sorted(tiles)
    if ordered != _STANDARD and ordered != _WITH_FLOWERS:
        raise BotzoneProtocolError(
            f"initdata.walltiles: {len(tiles)} tiles, not a full set (136 tiles, every kind 4 times, or 144 "
            "with the flowers H1..H8 once each)")
    return tiles


def walltiles_from_seed(seed: int, *, flowers: bool = False) -> str:
    """A shuffled `walltiles` string (the engine's deterministic shuffle of `seed`), e.g. to hand a
    game to the real judge."""
    from mahjong_core.game.wall import shuffled_wall, tile_set

    return " ".join(CODES[t] for t in shuffled_wall(tile_set("mcr", flowers), seed, 0))


def botzone_rules(rules: Any = "botzone", *, flowers: bool) -> Any:
    """The rules of a Botzone table (`rules`: a preset name, Rules or dict) with or without flowers."""
    from mahjong_core.rules.mcr import Rules

    r = Rules.resolve(rules)
    return r if r.flowers == flowers else dataclasses.replace(r, flowers=flowers)


def new_game(walltiles: Union[str, Sequence[Any], None] = None, quan: int = 0, *, seed: Optional[int] = None,
             flowers: bool = False, rules: Any = "botzone") -> BotzoneGame:
    """A Botzone table as an engine game (`BotzoneGame`): from `walltiles` (a Botzone walltiles
    string, or codes / tile indices), or shuffled from `seed` (136 tiles; 144 with `flowers`).
    `quan` is the prevalent wind 0..3. Raises BotzoneProtocolError for a bad wall."""
    if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan < 4:
        raise BotzoneProtocolError(f"initdata.quan must be 0..3, got {quan!r}")
    shuffled = walltiles is None
    if shuffled:
        import secrets

        if seed is None:
            seed = secrets.randbits(63)
        walltiles = walltiles_from_seed(seed, flowers=flowers)
    tiles = parse_walltiles(walltiles)  # type: ignore[arg-type]
    game = BotzoneGame(botzone_rules(rules, flowers=len(tiles) == 144), tiles, seed=seed, shuffled=shuffled,
                       prevalent_wind=quan)
    return game


class _Finish(Exception):
    """The judge's `exit(0)`: the round ended the game."""


class _Round:
    __slots__ = ("kind", "seat", "requests", "display", "finish")

    def __init__(self, kind: str, seat: int, requests: Dict[int, str], display: Dict[str, Any],
                 finish: bool = False) -> None:
        self.kind = kind
        self.seat = seat
        self.requests = requests
        self.display = display
        self.finish = finish


class Table:
    """One Botzone game round by round (see the module docstring)."""

    def __init__(self, walltiles: Union[str, Sequence[Any], None] = None, quan: int = 0, *,
                 seed: Optional[int] = None, flowers: bool = False, srand: Optional[int] = None) -> None:
        self.game = new_game(walltiles, quan, seed=seed, flowers=flowers)
        self.walltiles = " ".join(CODES[t] for t in self.game.wall)
        self.quan = quan
        self.initdata: Dict[str, Any] = {"walltiles": self.walltiles, "quan": quan}
        if srand is not None:
            self.initdata["srand"] = srand
        self.finished = False
        #: the four final scores (None until finished)
        self.scores: Optional[List[int]] = None
        #: the judge's display fields of the last round shown (action, player, tile, fan list ...)
        self.display: Dict[str, Any] = {}
        self._log: List[Dict[str, Any]] = []
        self._rounds: Deque[_Round] = deque()
        self._last_claim: Optional[tuple] = None
        self._rounds.append(_Round("init", -1, {i: f"0 {i} {quan}" for i in range(4)},
                                   {"action": "INIT", "quan": quan}))
        self._rounds.append(self._deal_round())
        self._seen = self.game.deal_events
        self._collect()
        self._present()

    @classmethod
    def of_game(cls, game: BotzoneGame) -> "Table":
        """A table that reads the rounds of `game`, an engine game played elsewhere (by `simulate`,
        with `ProgramBot` seats): `take_rounds()` gives the rounds its events made so far. Nothing
        is judged or logged (the engine game holds the result)."""
        if not isinstance(game, BotzoneGame):
            raise BotzoneProtocolError(f"Table.of_game needs a BotzoneGame, got {type(game).__name__}")
        table = cls.__new__(cls)
        table.game = game
        table.walltiles = " ".join(CODES[t] for t in game.wall)
        table.quan = game.prevalent_wind
        table.initdata = {"walltiles": table.walltiles, "quan": table.quan}
        table.finished = False
        table.scores = None
        table.display = {}
        table._log = []
        table._rounds = deque()
        table._last_claim = None
        table._rounds.append(_Round("init", -1, {i: f"0 {i} {table.quan}" for i in range(4)},
                                    {"action": "INIT", "quan": table.quan}))
        table._rounds.append(table._deal_round())
        table._seen = game.deal_events
        return table

    def take_rounds(self) -> List[_Round]:
        """The rounds `game`'s events made since the last call (an `of_game` table): each has
        `kind`, `seat` and `requests` ({seat: request line}); the last one of a finished hand has
        `finish` set and no requests."""
        self._collect()
        rounds = list(self._rounds)
        self._rounds.clear()
        return rounds

    # -- public -------------------------------------------------------------------------------

    def requests(self) -> Dict[int, str]:
        """{seat: request line} of the current round ({} once finished)."""
        if self.finished:
            return {}
        return dict(self._rounds[0].requests)

    @property
    def round_kind(self) -> str:
        """The current round: "init" "deal" "draw" "buhua" "play" "peng" "chi" "gang" "bugang" ("" when finished)."""
        return "" if self.finished else self._rounds[0].kind

    def __repr__(self) -> str:
        """`<botzone.Table quan 0, 12 rounds, 83 tiles in the wall>` (or `..., finished, scores [...]`)."""
        state = f"finished, scores {self.scores}" if self.finished else f"{self.game.wall_remaining()} tiles in the wall"
        rounds = len(self._log)
        return f"<botzone.Table quan {self.quan}, {rounds} round{'' if rounds == 1 else 's'}, {state}>"

    @property
    def log(self) -> Dict[str, Any]:
        """The game in Botzone's format: `{"log": [judge output, responses, ...], "initdata": {...}}`."""
        return {"log": [dict(e) for e in self._log], "initdata": dict(self.initdata)}

    def legal_responses(self, seat: int) -> Set[str]:
        """Every answer of `seat` the judge accepts now without a penalty (HU only where it wins)."""
        if self.finished:
            return set()
        rnd = self._rounds[0]
        game = self.game
        if rnd.kind in ("draw", "play", "peng", "chi", "bugang") and seat in game._pending:
            return set(self.answer_actions(seat, game._pending[seat]))
        return {"PASS"}

    def answer_actions(self, seat: int, actions: Sequence[Action]) -> Dict[str, Tuple[Action, Optional[Action]]]:
        """{response text: (engine action, the discard after it or None)} for the engine's legal
        `actions` of `seat` now: the answers the judge accepts without a penalty (a pung or chow: one
        text per discard after it)."""
        out: Dict[str, Tuple[Action, Optional[Action]]] = {}
        seat = check_seat(seat)
        try:
            listed: List[Any] = list(actions)
        except TypeError:
            listed = [actions]
        if not all(isinstance(a, Action) for a in listed):
            raise InvalidTypeError(f"answer_actions takes the engine's legal Actions of the seat "
                                   f"(game.legal_actions(seat)), got {actions!r}")
        actions = listed
        for action in actions:
            for text in self._texts(seat, action):
                discard = DISCARD[tile_index(text.rsplit(" ", 1)[1])] if action.kind in (
                    ActionKind.PUNG, ActionKind.CHOW) else None
                out[text] = (action, discard)
        return out

    def respond(self, responses: Mapping[int, Any], verdicts: Optional[Mapping[int, str]] = None) -> None:
        """Play one round: `responses[seat]` is each seat's answer text (`verdicts[seat]` its verdict,
        "OK" by default; anything else — "TLE", "RE" — is punished like a WA under that name)."""
        if self.finished:
            raise BotzoneProtocolError("the game is over; no more responses are accepted")
        if not isinstance(responses, Mapping):
            raise InvalidTypeError(f"respond takes {{seat: response text}} for the four seats, got {type(responses).__name__}")
        if verdicts is not None and not isinstance(verdicts, Mapping):
            raise InvalidTypeError(f"respond: verdicts is {{seat: 'OK' | 'TLE' | ...}} or None, got {type(verdicts).__name__}")
        texts: Dict[int, str] = {}
        marks: Dict[int, str] = {}
        for seat in range(4):
            text = responses.get(seat, responses.get(str(seat), ""))  # type: ignore[call-overload]
            texts[seat] = text if isinstance(text, str) else ""
            mark = (verdicts or {}).get(seat, "OK")
            marks[seat] = mark if isinstance(mark, str) else "OK"
        self._log.append({str(s): {"verdict": marks[s], "response": texts[s]} for s in range(4)})
        rnd = self._rounds.popleft()
        try:
            self._judge(rnd, texts, marks)
        except _Finish:
            pass
        self._collect()
        self._present()

    # -- the judge's checks -------------------------------------------------------------------

    def _wa(self, seat: int, code: str = "WA") -> None:
        # (after a drawn hand too: the penalty and its end follow the drawn hand's events, and
        # `_collect` replaces the drawn hand's round by the penalty's)
        self.game.penalize(seat, code)
        raise _Finish

    def _must_pass(self, seat: int, text: str, mark: str) -> None:
        if mark != "OK":
            self._wa(seat, mark)
        if text != "PASS":
            self._wa(seat)

    def _judge(self, rnd: _Round, texts: Dict[int, str], marks: Dict[int, str]) -> None:
        kind = rnd.kind
        if kind in ("init", "deal", "buhua"):
            for s in range(4):
                self._must_pass(s, texts[s], marks[s])
            return
        if kind == "gang":
            for k in range(4):
                s = (rnd.seat + k) % 4
                self._must_pass(s, texts[s], marks[s])
            return
        if kind == "draw":
            self._judge_draw(rnd.seat, texts, marks)
        elif kind == "bugang":
            self._judge_bugang(rnd.seat, texts, marks)
        else:
            self._judge_discard(rnd.seat, texts, marks)

    def _act(self, seat: int, action: Action) -> None:
        self.game.act(seat, action)
        if self.game.finished:
            raise _Finish

    def _pass_others(self, but: int) -> None:
        for s in list(self.game._pending):
            if s != but and s not in self.game._answers:
                self.game.act(s, PASS)

    def _judge_draw(self, d: int, texts: Dict[int, str], marks: Dict[int, str]) -> None:
        game = self.game
        chosen: Optional[Action] = None
        for s in range(4):
            if s != d:
                self._must_pass(s, texts[s], marks[s])
                continue
            if marks[s] != "OK":
                self._wa(s, marks[s])
            fields = split_response(texts[s])
            if fields == ["HU"]:
                self._act(s, WIN)  # a win, or WH: the game is over either way
            if len(fields) != 2:
                self._wa(s)
            op, tile = fields[0], self._tile(fields[1])
            table = {"PLAY": DISCARD, "GANG": CONCEALED_KONG, "BUGANG": ADDED_KONG}.get(op)
            if table is None or tile < 0 or table[tile] not in game._pending.get(s, ()):
                self._wa(s)
            chosen = table[tile]  # type: ignore[index]
        assert chosen is not None
        self._act(d, chosen)

    def _judge_bugang(self, p: int, texts: Dict[int, str], marks: Dict[int, str]) -> None:
        for k in range(4):
            s = (p + k) % 4
            if marks[s] != "OK":
                self._wa(s, marks[s])
            if texts[s] == "PASS":
                continue
            if texts[s] == "HU" and s != p:
                self.game.act(s, WIN)
                self._pass_others(s)
                raise _Finish
            self._wa(s)
        self._pass_others(-1)

    def _judge_discard(self, d: int, texts: Dict[int, str], marks: Dict[int, str]) -> None:
        game = self.game
        self._must_pass(d, texts[d], marks[d])
        for k in (1, 2, 3):
            s = (d + k) % 4
            if marks[s] != "OK":
                self._wa(s, marks[s])
            if texts[s] == "HU":
                self.game.act(s, WIN)
                self._pass_others(s)
                raise _Finish
        tile = game.discard
        claim: Optional[Tuple[int, Action, Optional[Action]]] = None
        for s in range(4):  # PENG / GANG, in seat order
            if s == d:
                continue
            fields = split_response(texts[s])
            legal = game._pending.get(s, ())
            if len(fields) == 1:
                if fields[0] == "PASS":
                    continue
                if fields[0] == "GANG" and KONG in legal:
                    claim = (s, KONG, None)
                    break
                self._wa(s)
            if len(fields) == 2:
                after = self._after_claim(s, [tile, tile]) if PUNG in legal else None
                t = self._tile(fields[1])
                if fields[0] != "PENG" or after is None or t < 0 or not after[t]:
                    self._wa(s)
                claim = (s, PUNG, DISCARD[t])
                break
            if len(fields) != 3:
                self._wa(s)
        if claim is None:
            for s in range(4):  # CHI, in seat order
                if s == d:
                    continue
                fields = split_response(texts[s])
                if len(fields) != 3:
                    continue
                middle, t = self._tile(fields[1]), self._tile(fields[2])
                action = None
                if fields[0] == "CHI" and 0 <= middle < 27 and t >= 0 and abs(middle - tile) <= 1 \
                        and middle // 9 == tile // 9:
                    position = tile - middle + 2
                    action = CHOW[position] if CHOW[position] in game._pending.get(s, ()) else None
                if action is None:
                    self._wa(s)
                low = middle - 1
                after = self._after_claim(s, [x for x in (low, low + 1, low + 2) if x != tile])
                if not after[t]:
                    self._wa(s)
                claim = (s, action, DISCARD[t])  # type: ignore[assignment]
                break
        if claim is None:
            self._pass_others(-1)
            return
        s, action, discard = claim
        self._pass_others(s)
        self._act(s, action)
        if discard is not None:
            self._act(s, discard)

    def _after_claim(self, seat: int, used: List[int]) -> bytearray:
        hand = bytearray(self.game.hands[seat])
        for t in used:
            hand[t] -= 1
        return hand

    @staticmethod
    def _tile(text: str) -> int:
        try:
            t = tile_index(text)
        except Exception:
            return -1
        return t if t < 34 else -1

    def _texts(self, seat: int, action: Action) -> List[str]:
        """The response texts that play `action` (a pung or chow: one per discard after it)."""
        kind = action.kind
        if kind is ActionKind.PASS:
            return ["PASS"]
        if kind is ActionKind.WIN:
            return ["HU"]
        if kind is ActionKind.DISCARD:
            return [f"PLAY {CODES[action.arg]}"]
        if kind is ActionKind.CONCEALED_KONG:
            return [f"GANG {CODES[action.arg]}"]
        if kind is ActionKind.ADDED_KONG:
            return [f"BUGANG {CODES[action.arg]}"]
        if kind is ActionKind.KONG:
            return ["GANG"]
        tile = self.game.discard
        if kind is ActionKind.PUNG:
            after = self._after_claim(seat, [tile, tile])
            return [f"PENG {CODES[t]}" for t in range(34) if after[t]]
        middle = tile - action.arg + 2
        after = self._after_claim(seat, [x for x in (middle - 1, middle, middle + 1) if x != tile])
        return [f"CHI {CODES[middle]} {CODES[t]}" for t in range(34) if after[t]]

    # -- rounds from the engine's events ------------------------------------------------------

    def _deal_round(self) -> _Round:
        game = self.game
        hands: List[List[int]] = []
        shown: List[List[str]] = []
        flowers: List[str] = []
        counts_: List[int] = []
        for seat in range(4):
            taken = game.dealt_tiles(seat)
            hands.append([t for t in taken if t < 34])
            shown.append([CODES[t] for t in taken])
            flowers.extend(CODES[t] for t in taken if t >= 34)
            counts_.append(len(taken) - 13)
        counts = " ".join(map(str, counts_))
        tail = "".join(" " + f for f in flowers)
        requests = {s: f"1 {counts} " + " ".join(CODES[t] for t in hands[s]) + tail for s in range(4)}
        return _Round("deal", -1, requests, {"action": "DEAL", "hand": shown})

    def _collect(self) -> None:
        """Turn the engine's new events into rounds."""
        game = self.game
        events = game._events
        while self._seen < len(events):
            event = events[self._seen]
            self._seen += 1
            kind = event[0]
            if kind == "flower":
                s, t = event[1], CODES[event[2]]
                self._add("buhua", s, {i: f"3 {s} BUHUA {t}" for i in range(4)},
                          {"action": "BUHUA", "player": s, "tile": t})
            elif kind in ("draw", "replacement"):
                s, t = event[1], CODES[event[2]]
                self._add("draw", s, {i: (f"2 {t}" if i == s else f"3 {s} DRAW") for i in range(4)},
                          {"action": "DRAW", "player": s, "tile": t})
            elif kind in ("pung", "chow"):
                self._last_claim = event
            elif kind == "discard":
                s, t = event[1], CODES[event[2]]
                claim, self._last_claim = self._last_claim, None
                if claim is None:
                    self._add("play", s, {i: f"3 {s} PLAY {t}" for i in range(4)},
                              {"action": "PLAY", "player": s, "tile": t})
                elif claim[0] == "pung":
                    self._add("peng", s, {i: f"3 {s} PENG {t}" for i in range(4)},
                              {"action": "PENG", "player": s, "tile": t})
                else:
                    middle = CODES[claim[2] - claim[4] + 2]
                    self._add("chi", s, {i: f"3 {s} CHI {middle} {t}" for i in range(4)},
                              {"action": "CHI", "player": s, "tile": t, "tileCHI": middle})
            elif kind in ("kong", "concealed_kong"):
                s, t = event[1], CODES[event[2]]
                self._add("gang", s, {i: f"3 {s} GANG" for i in range(4)},
                          {"action": "GANG", "player": s, "tile": t})
            elif kind == "adding_kong":
                s, t = event[1], CODES[event[2]]
                self._add("bugang", s, {i: f"3 {s} BUGANG {t}" for i in range(4)},
                          {"action": "BUGANG", "player": s, "tile": t})
            elif kind == "exhausted":
                self._rounds.append(_Round("huang", -1, {}, {"action": "HUANG"}, finish=True))
            elif kind in ("win", "penalty"):
                self._rounds.clear()  # the game ended in the round just answered
                self._rounds.append(self._end_round(event))

    def _add(self, kind: str, seat: int, requests: Dict[int, str], display: Dict[str, Any]) -> None:
        self._rounds.append(_Round(kind, seat, requests, display))

    def _end_round(self, event: tuple) -> _Round:
        game = self.game
        totals = game.ledger.totals()
        if event[0] == "win":
            score = game._offers.get(event[1])
            display = {"action": "HU", "player": event[1], **self._fan_display(score), "score": totals}
        else:
            seat, code = event[1], event[2]
            display = {"action": code, "player": seat}
            if code == "WH":
                display = {"action": "WH", "player": seat, **self._fan_display(game.false_win_score)}
            display["score"] = totals
        return _Round("end", -1, {}, display, finish=True)

    @staticmethod
    def _fan_display(score: Any) -> Dict[str, Any]:
        if score is None:
            return {"fanCnt": -3}  # the judge's fan calculator: ERROR_NOT_WIN
        fans = [{"name": f.name_zh, "cnt": f.count, "value": f.points} for f in score.fans]
        return {"fanCnt": score.total, "fan": fans} if fans else {"fanCnt": score.total}

    def _present(self) -> None:
        """Log the output of the round now at the head (the judge's answer to the last responses)."""
        if not self._rounds:  # pragma: no cover - the engine always ends with a finish round
            raise AssertionError("no round to present")
        rnd = self._rounds[0]
        self.display = dict(rnd.display)
        if rnd.finish:
            self.finished = True
            scores = self.game.ledger.totals() if rnd.kind != "huang" else [0, 0, 0, 0]
            self.scores = list(scores)
            output = {"command": "finish", "content": {str(i): scores[i] for i in range(4)}, "display": self.display}
        else:
            output = {"command": "request", "content": {str(i): rnd.requests[i] for i in range(4)},
                      "display": self.display}
        if not self._log:
            output["initdata"] = dict(self.initdata)
        self._log.append({"output": output})
