"""The Gymnasium ids, registered by `import mahjong_core.env` without importing Gymnasium.

    import gymnasium, mahjong_core.env             # either order
    env = gymnasium.make("mahjong_core/Sichuan-v0")
    gymnasium.register_envs(mahjong_core.env)      # Gymnasium 1.x's idiom: also fine
    gymnasium.make("mahjong_core.env:mahjong_core/Sichuan-v0")  # imports the module itself

Importing the package never imports an optional extra, so the ids cannot simply be registered
at import: `register_on_import()` registers them at once when Gymnasium is already imported, and
otherwise arranges for them to be registered right after Gymnasium's own import (an import hook
on `sys.meta_path` that watches the single name "gymnasium" and leaves once it has registered;
when Gymnasium is not installed it never fires). Registration names the entry point as a string, so creating an env
is what imports `gym_env` (and NumPy).
"""

from __future__ import annotations

import sys
from typing import Any, Optional

from mahjong_core.errors import InvalidTypeError

from ._deps import gymnasium

__all__ = ["ENV_IDS", "ENTRY_POINT", "VECTOR_ENTRY_POINT", "register_envs", "register_on_import"]

#: ruleset -> its Gymnasium id
ENV_IDS = {"sichuan": "mahjong_core/Sichuan-v0", "mcr": "mahjong_core/MCR-v0", "changbai": "mahjong_core/Changbai-v0"}
ENTRY_POINT = "mahjong_core.env.gym_env:MahjongEnv"
#: `gymnasium.make_vec(id, num_envs=N)`: the native `VectorEnv` of N learner rows, not N MahjongEnvs
VECTOR_ENTRY_POINT = "mahjong_core.env.vector:make_vector_env"


def register_envs(gym: Any = None) -> None:
    """Register the three ids with Gymnasium (idempotent). `gym`: the gymnasium module (imported
    here when None; ImportError naming the install line when it is missing)."""
    gym = gym if gym is not None else gymnasium()
    try:
        registry = gym.envs.registration.registry
    except AttributeError:
        raise InvalidTypeError(f"register_envs(gym): gym is the gymnasium module (or None to import it), got "
                               f"{type(gym).__name__}") from None
    for ruleset, env_id in ENV_IDS.items():
        if env_id not in registry:
            gym.register(id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT,
                         kwargs={"ruleset": ruleset})


def register_on_import() -> None:
    """Register now if Gymnasium is imported, else as soon as it is (see the module docstring)."""
    gym = sys.modules.get("gymnasium")
    if gym is not None and hasattr(gym, "register"):
        register_envs(gym)
    elif gym is None and not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())


class _AfterGymnasium:
    """A meta path finder for the one name "gymnasium": it finds the real spec with the other
    finders and wraps its loader so that the ids are registered once the module has run. It stays
    until then (a `find_spec` that only asks whether Gymnasium is installed imports nothing), and
    leaves `sys.meta_path` when it has registered."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Optional[Any]:
        if fullname != "gymnasium":
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None) if finder is not self else None
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _RegisterAfter(spec.loader, self)
                return spec
        return None  # not installed: the import fails as it would have


class _RegisterAfter:
    """Gymnasium's own loader, then `register_envs`; the module keeps its real loader."""

    def __init__(self, loader: Any, finder: _AfterGymnasium) -> None:
        self.loader = loader
        self.finder = finder

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        module.__loader__ = self.loader
        if getattr(module, "__spec__", None) is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        register_envs(module)
