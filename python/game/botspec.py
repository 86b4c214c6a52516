"""Bot specs: name any bot once, build it anywhere (this process, a spawned worker, a Ray worker).

A *bot spec* is one of

- a built-in name: ``"random"``, ``"greedy"`` (`bots.BOTS`);
- an import path ``"package.module:ClassName"``, optionally with constructor arguments written as
  Python literals: ``"pkg.mod:MyBot(depth=2)"``, ``"pkg.mod:MyBot(3, style='safe')"``; a
  ``"package.module:factory"`` callable returning a bot works the same way;
- a ``(path, kwargs)`` pair: ``("pkg.mod:MyBot", {"depth": 2})``;
- a mapping ``{"bot": "pkg.mod:MyBot", "args": {"depth": 2}, "name": "mine"}`` (the league file's
  form; ``name`` is the label shown in results);
- a class whose instances have ``choose(game, seat, actions)`` — a `Bot` subclass or any plain class
  (``new_hand(rng)`` and ``release()`` are optional hooks, called when present);
- a bot instance: used as is in this process, and sent to other processes pickled;
- a Botzone-protocol program (MCR on the Botzone table, ``rules="botzone"``):
  ``"botzone:python3 my_bot.py"``, or with options ``"botzone(keep_running=True, timeout=2.0):./my_bot"``
  (`mahjong_core.botzone.program.ProgramBot`; the program starts in the process that plays);
- a `BotSpec` (what all of the above resolve to).

`bot_spec(x)` resolves any of these to a `BotSpec`: plain, picklable data (strings, literal
arguments, the file the bot's module was loaded from, and for an instance its pickled bytes). A
worker builds the bot with `BotSpec.build()`, importing the module by name — or, when that name is
not importable there (a test module, a script run as ``python my_script.py``), loading it from the
recorded file. Nothing depends on `fork` or on a global registry, so the same spec works with the
``spawn`` start method and on the workers of a Ray cluster (there the module must be installed, on
a shared filesystem, or shipped with Ray's ``runtime_env``; see docs/SCALING.md). A script whose
bot lives in ``__main__`` must guard its top-level code with ``if __name__ == "__main__":`` (as
`multiprocessing` already requires), because a worker loads the script to find the class.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import os
import pickle
import sys
from dataclasses import dataclass, replace
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from mahjong_core.errors import InvalidArgumentError

from .bots import BOTS, is_bot

# (`split_bot_list` and `parse_program_spec`, the command lines' parsing, are importable but not public)
__all__ = ["BotSpec", "bot_spec", "bot_specs", "build_bot", "PROGRAM_PREFIX"]


#: the bot spec prefix of a Botzone-protocol program (`mahjong_core.botzone.program.ProgramBot`):
#: "botzone:COMMAND" or "botzone(keep_running=True):COMMAND"
PROGRAM_PREFIX = "botzone"
_PROGRAM_OPTIONS = ("keep_running", "timeout", "interaction", "name", "stderr", "on_fault")


def parse_program_spec(text: str) -> Optional[Tuple[str, Dict[str, Any]]]:
    """(command, options) of a "botzone:COMMAND" / "botzone(opt=value, ...):COMMAND" spec; None
    when `text` is not one. Raises InvalidArgumentError for a malformed one."""
    stripped = text.strip()
    if not stripped.startswith(PROGRAM_PREFIX):
        return None
    rest = stripped[len(PROGRAM_PREFIX):]
    options: Dict[str, Any] = {}
    if rest.startswith("("):
        close = rest.find("):")
        if close < 0:
            raise InvalidArgumentError(f"bot spec {text!r}: write 'botzone(keep_running=True, timeout=2.0):COMMAND'")
        try:
            call = ast.parse(f"f{rest[:close + 1]}", mode="eval").body
            assert isinstance(call, ast.Call) and not call.args
            for kw in call.keywords:
                if kw.arg not in _PROGRAM_OPTIONS:
                    raise ValueError(kw.arg)
                options[kw.arg] = ast.literal_eval(kw.value)
        except (SyntaxError, ValueError, AssertionError):
            raise InvalidArgumentError(f"bot spec {text!r}: the options are {', '.join(_PROGRAM_OPTIONS)} as Python "
                                       f"literals, e.g. 'botzone(keep_running=True, timeout=2.0):./my_bot'") from None
        rest = rest[close + 1:]
    if not rest.startswith(":"):
        return None  # e.g. "botzone_pkg.mod:MyBot": an import path
    command = rest[1:].strip()
    if not command:
        raise InvalidArgumentError(f"bot spec {text!r}: the command is missing ('botzone:python3 my_bot.py')")
    return command, options


#: the class `build()` makes of a "botzone:COMMAND" spec
PROGRAM_BOT = "mahjong_core.botzone.program:ProgramBot"


@dataclass(frozen=True, repr=False)
class BotSpec:
    """A resolved bot spec (see the module docstring). `build()` makes a fresh bot from it."""

    #: a built-in name, or "module:attribute" (a class or a factory)
    target: str
    args: Tuple[Any, ...] = ()
    kwargs: Tuple[Tuple[str, Any], ...] = ()
    #: the label results show for this bot
    label: str = ""
    #: the file the module was loaded from (a fallback for workers that cannot import it by name)
    file: Optional[str] = None
    #: an instance's pickled bytes (its class is `target`)
    instance: Optional[bytes] = None

    def build(self) -> Any:
        """A new bot made from this spec (an instance spec: a fresh unpickled copy)."""
        if self.instance is not None:
            module, _ = _split_target(self.target)
            _load_module(module, self.file)
            return _SpecUnpickler(io.BytesIO(self.instance), self.file).load()
        factory = _resolve(self.target, self.file)
        try:
            bot = factory(*self.args, **dict(self.kwargs))
        except TypeError as exc:
            raise InvalidArgumentError(f"bot {self.label or self.target!r}: cannot construct it ({exc}); "
                                       f"check its arguments") from None
        _check_bot(bot, self.label or self.target)
        return bot

    def __str__(self) -> str:
        return self.label or self.target

    def __repr__(self) -> str:
        call = _format_call(self.target, self.args, self.kwargs)
        what = f"{self.label!r}" if self.label in ("", call) else f"{self.label!r}: {call}"
        return f"BotSpec({what}{', an instance' if self.instance is not None else ''})"


def _split_target(target: str) -> Tuple[str, str]:
    module, _, attr = target.partition(":")
    return module, attr


def _builtin_bots() -> Dict[str, Any]:
    return BOTS


def _load_module(name: str, file: Optional[str]) -> Any:
    """The module `name`: imported by name, or executed from `file` when that import fails."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if file is None:
            raise InvalidArgumentError(f"bot module {name!r} cannot be imported ({exc}); install it or put its "
                                       f"folder on sys.path (PYTHONPATH)") from None
        error = exc
    # The folder the module was imported from in the driver (its current directory, for the
    # command line): put it on this process's path too, so the module and its siblings import by name.
    root = _import_root(name, file)
    if root is not None and root not in sys.path:
        sys.path.append(root)
        importlib.invalidate_caches()
        try:
            return importlib.import_module(name)
        except ImportError:
            pass
    # A module that is not importable here under its name (a test module, a script's __main__): load it
    # from the file it came from, registered under its name so pickle finds its classes.
    alias = "__mp_main__" if name == "__main__" else name
    spec = importlib.util.spec_from_file_location(alias, file)
    if spec is None or spec.loader is None:
        raise InvalidArgumentError(f"bot module {name!r} cannot be imported ({error}) nor loaded from {file!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        del sys.modules[alias]
        raise InvalidArgumentError(f"bot module {name!r} cannot be imported ({error}) and its file {file!r} is "
                                   f"not on this machine; install the module on every worker") from None
    if name != alias:
        sys.modules.setdefault(name, module)
    return module


def _import_root(name: str, file: str) -> Optional[str]:
    """The sys.path folder from which `name` imports as `file` ('/a/pkg/mod.py' for 'pkg.mod': '/a');
    None when the two do not match (a module loaded under another name, a script's __main__)."""
    parts = name.split(".")
    if name == "__main__" or not all(p.isidentifier() for p in parts):
        return None
    folder, base = os.path.split(os.path.abspath(file))
    stem = base.partition(".")[0]
    names = parts if stem != "__init__" else parts + ["__init__"]
    if stem != names[-1]:
        return None
    for part in reversed(names[:-1]):
        folder, last = os.path.split(folder)
        if last != part:
            return None
    return folder


def _resolve(target: str, file: Optional[str]) -> Any:
    builtin = _builtin_bots()
    if ":" not in target:
        try:
            return builtin[target]
        except KeyError:
            raise InvalidArgumentError(f"unknown bot {target!r}; built-in bots: {', '.join(builtin)}, or give an "
                                       f"import path such as 'package.module:MyBot'") from None
    module_name, attr = _split_target(target)
    if not module_name or not attr:
        raise InvalidArgumentError(f"bot import path {target!r} must look like 'package.module:ClassName'")
    module = _load_module(module_name, file)
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidArgumentError(f"bot import path {target!r}: {module_name} has no {attr!r}") from None
    if not callable(obj):
        raise InvalidArgumentError(f"bot import path {target!r} names a {type(obj).__name__}, not a class or factory")
    return obj


def _check_bot(bot: Any, label: str) -> None:
    if not is_bot(bot):
        raise InvalidArgumentError(f"bot {label!r} made a {type(bot).__name__}, which has no choose(game, seat, "
                                   f"actions) method; a bot is any object with one (new_hand(rng) and "
                                   f"release() are optional)")


class _SpecUnpickler(pickle.Unpickler):
    """Finds classes through `_load_module`, so an instance of a test-module class unpickles anywhere."""

    def __init__(self, stream: Any, file: Optional[str]) -> None:
        super().__init__(stream)
        self._file = file

    def find_class(self, module: str, name: str) -> Any:
        if module not in sys.modules:
            _load_module(module, self._file)
        # look the class up in the loaded module itself: pickle's own lookup would import the
        # top-level package of a dotted name first, which a module loaded from its file may not have
        obj: Any = sys.modules[module]
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj


def _module_file(module_name: str) -> Optional[str]:
    module = sys.modules.get(module_name)
    return getattr(module, "__file__", None) if module is not None else None


def _format_call(target: str, args: Sequence[Any], kwargs: Sequence[Tuple[str, Any]]) -> str:
    if not args and not kwargs:
        return target
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs]
    return f"{target}({', '.join(parts)})"


def _parse_text(text: str) -> Tuple[str, Tuple[Any, ...], Tuple[Tuple[str, Any], ...]]:
    """'pkg.mod:MyBot(depth=2)' -> ('pkg.mod:MyBot', (), (('depth', 2),)); arguments must be literals."""
    text = text.strip()
    if not text:
        raise InvalidArgumentError("empty bot spec; give a built-in name or 'package.module:ClassName'")
    if "(" not in text:
        return text, (), ()
    head, _, rest = text.partition("(")
    if not rest.endswith(")"):
        raise InvalidArgumentError(f"bot spec {text!r}: unbalanced parentheses (write 'pkg.mod:MyBot(depth=2)')")
    target = head.strip()
    try:
        call = ast.parse(f"f({rest}", mode="eval").body
        assert isinstance(call, ast.Call)
        args = tuple(ast.literal_eval(a) for a in call.args)
        kwargs = []
        for kw in call.keywords:
            if kw.arg is None:
                raise ValueError("**kwargs")
            kwargs.append((kw.arg, ast.literal_eval(kw.value)))
    except (SyntaxError, ValueError, AssertionError):
        raise InvalidArgumentError(f"bot spec {text!r}: constructor arguments must be Python literals, "
                                   f"e.g. 'pkg.mod:MyBot(3, style=\"safe\")'") from None
    return target, args, tuple(kwargs)


def bot_spec(bot: Any) -> BotSpec:
    """Resolve any bot spec (see the module docstring) to a `BotSpec`; checks that it can be built."""
    if isinstance(bot, BotSpec):
        return bot
    label: Optional[str] = None
    if isinstance(bot, Mapping):
        unknown = set(bot) - {"bot", "spec", "args", "kwargs", "name"}
        if unknown or not ("bot" in bot or "spec" in bot):
            raise InvalidArgumentError(f"bot mapping {dict(bot)!r}: use keys 'bot' (the spec), optional 'args' "
                                       f"(constructor keyword arguments) and 'name' (the label)")
        label = bot.get("name")
        inner = bot.get("bot", bot.get("spec"))
        kwargs = bot.get("args", bot.get("kwargs")) or {}
        spec = bot_spec((inner, kwargs) if kwargs else inner)
        return _relabel(spec, label)
    if isinstance(bot, tuple) and len(bot) == 2 and isinstance(bot[1], Mapping):
        base = _unchecked(bot[0])
        if base.instance is not None:
            raise InvalidArgumentError("a bot instance takes no constructor arguments")
        kwargs = tuple(sorted({**dict(base.kwargs), **dict(bot[1])}.items()))
        label = base.label if base.target == PROGRAM_BOT else _format_call(base.target, base.args, kwargs)
        spec = BotSpec(base.target, base.args, kwargs, label, base.file)
        return _checked(spec)
    if isinstance(bot, (str, type)):
        return _checked(_unchecked(bot))
    if is_bot(bot):
        cls = type(bot)
        target = f"{cls.__module__}:{cls.__qualname__}"
        name = getattr(bot, "name", None)
        label = name if isinstance(name, str) and name not in ("", "bot") else cls.__qualname__
        try:
            blob = pickle.dumps(bot)
        except Exception:  # unpicklable: still usable in this process (see `local_bot`)
            blob = b""
        return _LocalBotSpec(target, label=label, file=_module_file(cls.__module__), instance=blob, bot=bot)
    raise InvalidArgumentError(f"not a bot spec: {bot!r}; give a built-in name ({', '.join(_builtin_bots())}), "
                               f"'package.module:ClassName', a Bot class or a Bot instance")


def _unchecked(bot: Any) -> BotSpec:
    """The spec of a string or class (not built yet: constructor arguments may follow)."""
    if isinstance(bot, str):
        program = parse_program_spec(bot)
        if program is not None:  # a Botzone-protocol program: built as ProgramBot(command, **options)
            command, options = program
            label = options.setdefault("name", bot.strip())
            return BotSpec(PROGRAM_BOT, (command,), tuple(sorted(options.items())), label)
        target, args, kwargs = _parse_text(bot)
        file = _module_file(target.partition(":")[0]) if ":" in target else None
        return BotSpec(target, args, kwargs, _format_call(target, args, kwargs), file)
    if isinstance(bot, type):
        builtin = {cls: name for name, cls in _builtin_bots().items()}
        if bot in builtin:
            return BotSpec(builtin[bot], label=builtin[bot])
        target = f"{bot.__module__}:{bot.__qualname__}"
        return BotSpec(target, label=target, file=_module_file(bot.__module__))
    return bot_spec(bot)


@dataclass(frozen=True, repr=False)
class _LocalBotSpec(BotSpec):
    """An instance spec that also keeps the instance, for runs in this process."""

    bot: Any = None

    def __reduce__(self) -> Any:  # workers get the plain spec (the pickled bytes)
        if not self.instance:
            raise InvalidArgumentError(f"bot {self.label!r} cannot be pickled, so it cannot be sent to worker "
                                       f"processes; pass its class or import path instead")
        return (BotSpec, (self.target, (), (), self.label, self.file, self.instance))


def _relabel(spec: BotSpec, label: Optional[str]) -> BotSpec:
    if not label:
        return spec
    if not isinstance(label, str):
        raise InvalidArgumentError(f"bot name must be a string, got {label!r}")
    if isinstance(spec, _LocalBotSpec):
        return _LocalBotSpec(spec.target, label=label, file=spec.file, instance=spec.instance, bot=spec.bot)
    return BotSpec(spec.target, spec.args, spec.kwargs, label, spec.file, spec.instance)


def _checked(spec: BotSpec) -> BotSpec:
    spec.build()  # fail here, in the caller's process, with the spec's own message
    if spec.file is None and ":" in spec.target and spec.instance is None:
        # the module was imported just now: record its file for the workers (`_load_module`)
        file = _module_file(_split_target(spec.target)[0])
        if file is not None:
            return replace(spec, file=file)
    return spec


def bot_specs(bots: Any) -> Tuple[BotSpec, ...]:
    """Four specs from one spec for all seats or a sequence of one or four."""
    if isinstance(bots, (str, BotSpec, Mapping, type)) or is_bot(bots):
        bots = [bots]
    elif isinstance(bots, tuple) and len(bots) == 2 and isinstance(bots[1], Mapping):
        bots = [bots]
    try:
        items = list(bots)
    except TypeError:
        raise InvalidArgumentError(f"bots must be one bot spec or a sequence of 4, got {bots!r}") from None
    specs = [bot_spec(b) for b in items]
    if len(specs) == 1:
        specs = specs * 4
    if len(specs) != 4:
        raise InvalidArgumentError(f"give one bot per seat (4) or one for all, got {len(specs)}")
    return tuple(specs)


def build_bot(spec: Any) -> Any:
    """A bot from any spec; an instance is returned as is (it is not copied)."""
    if is_bot(spec):
        return spec
    resolved = bot_spec(spec)
    return local_bot(resolved)


def local_bot(spec: BotSpec) -> Any:
    """The bot for `spec` in this process: an instance spec's own instance, else a new bot."""
    if isinstance(spec, _LocalBotSpec) and spec.bot is not None:
        return spec.bot
    return spec.build()


def split_bot_list(text: str) -> List[str]:
    """Split 'greedy,pkg.mod:MyBot(a=1, b=2),random' on the commas outside parentheses and quotes."""
    parts: List[str] = []
    depth = 0
    quote = ""
    current: List[str] = []
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]
