"""Type stubs of the compiled engine's C entries (python/game/_capi.pyx): a capsule for the other
compiled modules, nothing to call from Python."""

from typing import Any

ENGINE_CAPI: Any
