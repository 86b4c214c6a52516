# Cython declarations for bots.py: GreedyBot's core calls (shanten, waits, best discards) are C calls
# into the core through the engine's wrappers (see engine.pxd), not Python calls.

from mahjong_core.game.engine cimport _best_discards_m, _shanten_m, _waits_mask_m
