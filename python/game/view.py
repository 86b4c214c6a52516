"""`Game.view(seat)`: what one seat may see, as a JSON-serialisable dict.

Shown: the seat's own concealed tiles (and the tile it just drew), every river, every exposed meld,
flowers, the number of concealed tiles each other seat holds, the live wall's size, revealed
simultaneous choices (定缺 / 飘) and 报听 declarations, who has won, the ledger so far, and the seat's
own legal actions (`legal`: integer codes of the ruleset's ActionSpace; `actions`: their JSON
forms), and `step`, the id of the decision point open now (answer with `act(seat, a, step=...)`).
Hidden: others' concealed tiles, the wall's order, the tiles of others' concealed kongs (shown as
`tile: null`), and others' choices in a window that is still open.

Tiles are names, as in logs and event streams: "1m".."9s", "E" "S" "W" "N", "C" "F" "P" (中发白),
flowers "a".."h"; 定缺 suits are "m" "p" "s". The JSON Schema is docs/schema/view.schema.json.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from mahjong_core.errors import IllegalActionError, InvalidTypeError

from .constants import CHOOSE, MELD_CHOW, MELD_CONCEALED_KONG, MELD_NAMES, MELD_PUNG, PHASES
from .wall import tile_name

_NAMES = tuple(tile_name(t) for t in range(42))

__all__ = ["seat_view", "revealed_choices", "visible_tile_counts"]

# The engine's `Game` is passed in (typed `Any`): this module reads its public state and is imported
# by the engine, never the other way round.


def _melds(game: Any, seat: int, viewer: int) -> List[Dict[str, Any]]:
    out = []
    for kind, tile, marker, frm in game.melds[seat]:
        hidden = kind == MELD_CONCEALED_KONG and seat != viewer
        out.append({"kind": MELD_NAMES[kind], "tile": None if hidden else _NAMES[tile],
                    "from": None if frm < 0 else frm, "marker": marker or None})
    return out


def revealed_choices(game: Any, viewer: int, values: Sequence[int]) -> List[Optional[int]]:
    """Simultaneous choices (定缺, 飘) as `viewer` may see them: all once revealed; while the window is
    open only the viewer's own answer."""
    if game.phase == CHOOSE:
        own = game.answer_of(viewer)
        return [own.arg if (s == viewer and own is not None) else None for s in range(4)]
    return [None if v < 0 else v for v in values]


def seat_view(game: Any, seat: int) -> Dict[str, Any]:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise IllegalActionError(f"seat must be 0..3, got {seat!r}")
    if not hasattr(game, "hands") or not hasattr(game, "space"):
        raise InvalidTypeError(f"seat_view takes a Game, got {type(game).__name__}")
    hand = game.hands[seat]
    code_of = game.space.code_of_uid
    actions = game.legal_actions(seat)
    names = _NAMES
    drawn = game.drawn
    view: Dict[str, Any] = {
        "ruleset": game.ruleset,
        "seat": seat,
        "hand_no": game.hand_no,
        "dealer": game.dealer,
        "phase": PHASES[game.phase],
        "turn": game.turn,
        "step": game.step,
        "hand": [names[t] for t in range(34) for _ in range(hand[t])],
        "drawn": names[drawn] if game.turn == seat and drawn >= 0 else None,
        "hand_sizes": [sum(h) for h in game.hands],
        "melds": [_melds(game, s, seat) for s in range(4)],
        "rivers": [[names[t] for t in r] for r in game.rivers],
        "flowers": [[names[t] for t in f] for f in game.flowers],
        "won": list(game.won),
        "winners": list(game.winners),
        "won_tiles": [[names[t] for t in w] for w in game.won_tiles],
        "declared": list(game.declared),
        "wall_remaining": game.tail - game.head,
        "last_discard": None if game.discarder < 0 else {"seat": game.discarder, "tile": names[game.discard]},
        "totals": game.ledger.totals(),
        "finished": game.finished,
        "legal": [code_of[a.uid] for a in actions],
        "actions": [a.to_json() for a in actions],
    }
    view.update(game._view_extras(seat))
    return view


def visible_tile_counts(rivers: Sequence[Sequence[int]], melds: Sequence[Sequence[tuple]],
                        won_tiles: Sequence[Sequence[int]], viewer: int) -> bytearray:
    """Copies of each kind `viewer` sees outside its own concealed hand: every river, every won
    tile and every meld — others' concealed kongs excluded (their tile is unknown: -1 in a kit's
    state), one's own included. The engine's `Game.visible_counts` and the Botzone kit's."""
    out = bytearray(34)
    for s in range(4):
        for t in rivers[s]:
            out[t] += 1
        for t in won_tiles[s]:
            out[t] += 1
        for kind, t, _, _ in melds[s]:
            if kind == MELD_CHOW:
                out[t] += 1
                out[t + 1] += 1
                out[t + 2] += 1
            elif kind == MELD_PUNG:
                out[t] += 3
            elif t >= 0 and (kind != MELD_CONCEALED_KONG or s == viewer):
                out[t] += 4
    return out
