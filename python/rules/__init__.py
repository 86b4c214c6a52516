"""Rulesets: `mcr` (Chinese Official, 81 fans), `sichuan` (血战到底), `changbai` (长白麻将)."""
