"""`Hand`: a frozen hand (concealed counts, exposed melds, winning tile, MCR context)."""

from __future__ import annotations

import sys
from ._core import HandCore
from .errors import InvalidTypeError
from ._core import _format_hand, _register_context_type
from .model import MCRContext, Meld
from .tiles import Tile, as_tile

TYPE_CHECKING = False  # typing is not imported at run time (start-up); checkers read True
if TYPE_CHECKING:
    from typing import Any, Iterable, Optional, Sequence, Tuple

__all__ = ["Hand"]

_register_context_type(MCRContext)  # (HandCore checks a hand's context against it)


class Hand(HandCore):
    """A hand: `.counts` (34 concealed counts, winning tile included), `.melds` (tuple of `Meld`),
    `.win_tile` (Tile or None), `.context` (MCRContext or None).

    Construct with `mahjong_core.parse("...")`, `Hand.from_counts(counts, melds)` or
    `Hand(counts, melds, win_tile, context)`. The hand is validated once here (at most four copies
    of a kind counting the melds, 13 - 3*melds or 14 - 3*melds concealed tiles); every analysis
    call on it then skips validation. `repr()` is the notation.
    """

    __slots__ = ()

    @classmethod
    def from_counts(
        cls,
        counts: Sequence[int],
        melds: Iterable[Meld] = (),
        *,
        win_tile: Optional[int] = None,
        context: Optional[MCRContext] = None,
    ) -> "Hand":
        try:
            melds = tuple(melds)
        except TypeError:
            raise InvalidTypeError(f"Hand.from_counts: melds is a sequence of Meld objects, got {type(melds).__name__}") from None
        return cls(counts, melds, win_tile, context)

    @classmethod
    def parse(cls, text: str) -> "Hand":
        """The hand written in notation (`mahjong_core.parse`)."""
        return _notation().parse(text)

    @property
    def tiles(self) -> Tuple[Tile, ...]:
        """The concealed tiles in tile order (winning tile included)."""
        return tuple(Tile(i) for i, n in enumerate(self.counts) for _ in range(n))

    @property
    def is_concealed(self) -> bool:
        """No exposed meld (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def with_tile(self, tile: int, *, win: bool = True) -> "Hand":
        """This hand plus one tile (by default it becomes the winning tile)."""
        tile = int(as_tile(tile))
        counts = list(self.counts)
        counts[tile] += 1
        return Hand(counts, self.melds, Tile(tile) if win else None, self.context)

    def without_tile(self, tile: int) -> "Hand":
        """This hand less one copy of `tile` (the winning tile is cleared)."""
        tile = int(as_tile(tile))
        counts = list(self.counts)
        if counts[tile] == 0:
            from .errors import InvalidHandError

            raise InvalidHandError(f"the hand holds no {Tile(tile)} to remove")
        counts[tile] -= 1
        return Hand(counts, self.melds, None, self.context)

    def replace(self, **changes: Any) -> "Hand":
        """A copy with some of counts / melds / win_tile / context changed (validated again)."""
        unknown = set(changes) - {"counts", "melds", "win_tile", "context"}
        if unknown:
            raise InvalidTypeError(f"Hand.replace() got unknown field(s): {', '.join(sorted(unknown))}")
        return Hand(
            changes.get("counts", self.counts),
            changes.get("melds", self.melds),
            changes.get("win_tile", self.win_tile),
            changes.get("context", self.context),
        )

    @property
    def notation(self) -> str:
        # A Hand is always a HandCore, so the compiled formatter is called directly (this is every
        # repr, ~0.3 µs; through notation.format_hand it was ~1 µs).
        return _format_hand(self)

    def glyphs(self) -> str:
        """The hand as Unicode tiles: melds in brackets, then the concealed tiles."""
        parts = ["[" + "".join(t.glyph for t in m.tiles) + "]" for m in self.melds]
        concealed = list(self.tiles)
        if self.win_tile is not None:
            concealed.remove(self.win_tile)
            concealed.append(self.win_tile)
            return "".join(parts) + "".join(t.glyph for t in concealed[:-1]) + " " + concealed[-1].glyph
        return "".join(parts) + "".join(t.glyph for t in concealed)

    def _repr_svg_(self) -> str:
        """The hand as a picture (notebooks); see `mahjong_core.viz.hand_svg`."""
        # (mypy run on this folder alone, as test_stubs does in an editable install, cannot see
        # python/viz; an installed package has it, so the ignore may be unused there.)
        from mahjong_core.viz.svg import hand_svg  # type: ignore[import-not-found, unused-ignore]

        return hand_svg(self)

    def _key(self):
        return (self.counts, self.melds, self.win_tile, self.context)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self):
        return (Hand, (self.counts, self.melds, self.win_tile, self.context))

    def __repr__(self) -> str:
        return self.notation

    __str__ = __repr__


def _notation() -> Any:
    # The notation module builds Hands, so this module does not import it (no import cycle): the
    # package's __init__ imports it before any Hand exists, and it is found here at call time.
    return sys.modules["mahjong_core.notation"]
