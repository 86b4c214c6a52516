"""Type stubs of the native self-play loop (python/game/_selfplay.pyx)."""

from typing import Any, List, Optional, Sequence, Tuple

from mahjong_core.game.engine import Game

def native_seats(bots: Sequence[Any]) -> Optional[Tuple[List[Any], List[Any]]]: ...
def advance(g: Game, seats: Tuple[List[Any], List[Any]], ascending: bool = ...) -> None: ...
