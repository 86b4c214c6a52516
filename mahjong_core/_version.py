"""The package version, in one place (pyproject.toml reads it; `mahjong_core.__version__` re-exports it)."""

__version__ = "0.2.0"
