"""Game engine for all three rulesets (see mahjong_core.game.engine)."""
