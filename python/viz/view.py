"""`View`: a `Game.view(seat)` dict that a notebook shows as a table picture."""

from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping

__all__ = ["View"]


class View(Mapping[str, Any]):
    """Wraps a view dict (read-only mapping of the same keys) and adds `_repr_svg_`.

        View(game.view(0))          # in a notebook: the table as seat 0 sees it
    """

    def __init__(self, view: Mapping[str, Any]) -> None:
        if not isinstance(view, Mapping) or "seat" not in view or "hand" not in view:
            from mahjong_core.errors import InvalidArgumentError

            raise InvalidArgumentError("View takes a Game.view(seat) dict (with 'seat', 'hand', 'rivers', ...)")
        self.view_dict: Dict[str, Any] = dict(view)

    def __getitem__(self, key: str) -> Any:
        return self.view_dict[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.view_dict)

    def __len__(self) -> int:
        return len(self.view_dict)

    def __repr__(self) -> str:
        v = self.view_dict
        return f"View(seat {v['seat']}, {v['ruleset']}, {v['phase']}, wall {v['wall_remaining']})"

    def _repr_svg_(self) -> str:
        from .svg import table_svg

        return table_svg(self.view_dict)
