"""What a new user of the learning environments meets first: the Gymnasium ids after
`import mahjong_core.env` (README.md's lines, run as written), docs/OBSERVATION.md's first example
(Gymnasium's checker), `action_masks()` and `render()`."""

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from mahjong_core.env import MahjongEnv, VectorEnv, aec_env, parallel_env  # noqa: E402
from mahjong_core.env.render import table_rgb, table_text  # noqa: E402
from mahjong_core.errors import IllegalActionError, InvalidArgumentError  # noqa: E402
from mahjong_core.game import new_game  # noqa: E402
from mahjong_core.notation import format_tiles, parse_tiles  # noqa: E402
from mahjong_core.tiles import Tile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
IDS = ("mahjong_core/Sichuan-v0", "mahjong_core/MCR-v0", "mahjong_core/Changbai-v0")


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", (ROOT / path).read_text(encoding="utf-8"), re.S)


def run(code, **kw):
    """`code` in a fresh interpreter (the Gymnasium registry is per process), from / (not the checkout)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/", **kw)
    assert out.returncode == 0, out.stderr
    return out.stdout


# -- Gymnasium ids -------------------------------------------------------------------------------

def test_readme_gymnasium_lines_run_as_written():
    blocks = [b for b in python_blocks("README.md") if "gymnasium" in b]
    assert len(blocks) == 1 and 'gymnasium.make("mahjong_core/Sichuan-v0"' in blocks[0]
    out = run(blocks[0])
    assert re.fullmatch(r"\d+ legal actions\n", out) and int(out.split()[0]) > 0


@pytest.mark.parametrize("order", ["mahjong_core.env first", "gymnasium first"])
def test_import_registers_the_ids_in_either_order(order):
    imports = "import mahjong_core.env, gymnasium" if order == "mahjong_core.env first" else \
        "import gymnasium, mahjong_core.env"
    out = run(f"{imports}\n"
              f"for env_id in {IDS!r}:\n"
              "    env = gymnasium.make(env_id)\n"
              "    print(env.spec.id, type(env.unwrapped).__name__, env.unwrapped.ruleset)\n")
    assert out.split("\n")[:3] == [f"{i} MahjongEnv {r}" for i, r in zip(IDS, ("sichuan", "mcr", "changbai"))]


def test_register_envs_idiom_and_module_prefix():
    out = run("import gymnasium, mahjong_core.env\n"
              "gymnasium.register_envs(mahjong_core.env)\n"
              "print(gymnasium.make('mahjong_core/MCR-v0').unwrapped.ruleset)\n")
    assert out == "mcr\n"
    out = run("import sys, gymnasium\n"
              "assert 'mahjong_core.env' not in sys.modules\n"
              "env = gymnasium.make('mahjong_core.env:mahjong_core/Changbai-v0')\n"
              "print(env.unwrapped.ruleset)\n")
    assert out == "changbai\n"


def test_import_neither_imports_gymnasium_nor_needs_it():
    # the import hook waits for Gymnasium without importing it ...
    out = run("import sys, mahjong_core.env\n"
              "print('gymnasium' in sys.modules, 'numpy' in sys.modules)\n")
    assert out == "False False\n"
    # ... and without Gymnasium installed (simulated by a finder that refuses it) the import still
    # works and an import of gymnasium fails as it would have; installed later, it gets the ids
    out = run("import sys\n"
              "class Absent:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'gymnasium':\n"
              "            raise ModuleNotFoundError(\"No module named 'gymnasium'\", name=name)\n"
              "absent = Absent()\n"
              "sys.meta_path.insert(0, absent)\n"
              "import mahjong_core, mahjong_core.env\n"
              "print(type(sys.meta_path[0]).__name__)\n"
              "try:\n"
              "    import gymnasium\n"
              "except ModuleNotFoundError as exc:\n"
              "    print('missing', exc.name)\n"
              "from mahjong_core.env import registration\n"
              "try:\n"
              "    registration.register_envs()\n"
              "except ImportError as exc:\n"
              "    print(exc)\n"
              "import importlib.util\n"
              "sys.meta_path.remove(absent)\n"
              "assert importlib.util.find_spec('gymnasium') is not None  # asking imports nothing\n"
              "import gymnasium\n"
              "print(gymnasium.make('mahjong_core/Sichuan-v0').unwrapped.ruleset)\n"
              "print(any(type(f).__name__ == '_AfterGymnasium' for f in sys.meta_path))\n")
    assert out.split("\n") == ["_AfterGymnasium", "missing gymnasium",
                               'mahjong_core.env needs gymnasium: pip install "mahjong_core[rl]"', "sichuan",
                               "False", ""]


# -- Gymnasium's checker: docs/OBSERVATION.md's first example --------------------------------------

def test_observation_doc_first_example_passes_the_checker():
    first = python_blocks("docs/OBSERVATION.md")[0]
    assert 'illegal_action="default"' in first and "check_env(" in first
    namespace = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(first, "docs/OBSERVATION.md", "exec"), namespace)  # noqa: S102
    assert namespace["env"].unwrapped.illegal_action == "default"


def test_the_first_example_passes_with_the_rl_extra_alone(monkeypatch):
    """Without a rasteriser (CairoSVG, Pillow: not in `[rl]`) the envs list only "ansi" among their
    render modes, so the checker, which draws every mode listed, still passes the first example."""
    from mahjong_core.env import aec_env
    from mahjong_core.env.render import available_render_modes

    assert available_render_modes()[0] == "ansi"
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    assert available_render_modes() == ("ansi",)
    assert aec_env("mcr").metadata["render_modes"] == ["ansi"]
    test_observation_doc_first_example_passes_the_checker()


def test_why_the_first_example_needs_the_option():
    """Without it the checker's unmasked samples are refused, as the doc says."""
    from gymnasium.utils.env_checker import check_env

    import mahjong_core.env  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(IllegalActionError, match="is not legal"):
            check_env(gymnasium.make("mahjong_core/Sichuan-v0").unwrapped)


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_checker_with_render_modes(mode):
    from gymnasium.utils.env_checker import check_env

    import mahjong_core.env  # noqa: F401

    if mode == "rgb_array":
        pytest.importorskip("cairosvg", reason="render_mode='rgb_array' needs pip install cairosvg pillow")
        pytest.importorskip("PIL", reason="render_mode='rgb_array' needs pip install cairosvg pillow")
    env = gymnasium.make("mahjong_core/MCR-v0", illegal_action="default", render_mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


# -- action_masks ----------------------------------------------------------------------------------

def test_action_masks_are_the_observation_masks():
    import mahjong_core.env  # noqa: F401

    env = gymnasium.make("mahjong_core/Sichuan-v0", opponents="greedy").unwrapped
    assert not env.action_masks().any()  # before reset
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=5)
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and np.array_equal(mask, obs["action_mask"].astype(bool))
        legal = {env.table.game.space.code(a) for a in env.table.game.legal_actions(env.seat)}
        assert set(np.flatnonzero(mask).tolist()) == legal
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.action_masks().any()

    aec = aec_env("changbai")
    aec.reset(seed=2)
    for _ in range(30):
        agent = aec.agent_selection
        mask = aec.action_masks()
        assert np.array_equal(mask, aec.observe(agent)["action_mask"].astype(bool)) and mask.any()
        others = [a for a in aec.agents if a != agent]
        for other in others:
            assert np.array_equal(aec.action_masks(other), aec.observe(other)["action_mask"].astype(bool))
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    with pytest.raises(InvalidArgumentError, match="player_0"):
        aec.action_masks("player_9")

    par = parallel_env("mcr")
    obs, _ = par.reset(seed=1)
    for _ in range(30):
        masks = par.action_masks()
        assert all(np.array_equal(masks[a], obs[a]["action_mask"].astype(bool)) for a in par.agents)
        acts = {a: int(rng.choice(np.flatnonzero(m))) for a, m in masks.items() if m.any()}
        obs, *_ = par.step(acts)

    vec = VectorEnv("mcr", 5)
    with pytest.raises(IllegalActionError, match="reset"):
        vec.action_masks()
    obs, _ = vec.reset(seed=0)
    for _ in range(30):
        masks = vec.action_masks()
        assert masks.shape == (5, 143) and masks.dtype == np.bool_
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        masks[:] = False  # a copy: the env's own arrays are untouched
        assert obs["action_mask"].any(axis=1).all()
        obs, *_ = vec.step(vec.sample_actions(1))


# -- render ----------------------------------------------------------------------------------------

def played(ruleset, seed, steps):
    game = new_game(ruleset, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        pending = game.pending()
        if not pending:
            break
        seat = min(pending)
        game.act(seat, pending[seat][int(rng.integers(len(pending[seat])))])
    return game


def seat_blocks(text):
    """seat -> its lines (the header line dropped)."""
    blocks, seat = {}, None
    for line in text.split("\n")[1:]:
        m = re.match(r"[> ] seat (\d) ", line)
        if m:
            seat = int(m.group(1))
            blocks[seat] = [line]
        else:
            blocks[seat].append(line)
    return blocks


@pytest.mark.parametrize("ruleset,seed,steps", [("sichuan", 1, 60), ("mcr", 2, 80), ("changbai", 3, 70),
                                                ("sichuan", 4, 400), ("mcr", 5, 0)])
def test_table_text_shows_the_engine_state(ruleset, seed, steps):
    game = played(ruleset, seed, steps)
    text = table_text(game)
    head = text.split("\n")[0]
    assert f"wall {game.wall_remaining()}" in head
    waiting = sorted(game.pending())
    if game.finished:
        assert "hand over" in head
    else:
        assert "to act: " + ", ".join(f"seat {s}" for s in waiting) in re.sub(r" \(\w+\)", "", head)
    blocks = seat_blocks(text)
    assert sorted(blocks) == [0, 1, 2, 3]
    for s in range(4):
        lines = blocks[s]
        assert lines[0].startswith(">" if s in waiting else " ")
        counts = list(game.hands[s])
        hand_line = next(line for line in lines if line.startswith("    hand "))
        tokens = hand_line.split()[1:]
        notation = tokens.pop(0)
        if tokens and tokens[0].startswith("+"):
            counts[parse_tiles(tokens.pop(0)[1:])[0]] -= 1
        expected = format_tiles([t for t in range(34) for _ in range(counts[t])])
        assert notation == (expected or "-")
        glyphs = "".join(Tile(t).glyph for t in range(34) for _ in range(counts[t]))
        assert (tokens[0] if glyphs else "") == glyphs
        river = next(line for line in lines if line.startswith("    river "))[len("    river  "):]
        kept = [tok.rstrip("!") for tok in river.split() if "→" not in tok and tok != "-"]
        assert kept == [str(Tile(t)) for t in game.rivers[s]]
        melds = [line for line in lines if line.startswith("    melds ")]
        assert len(melds[0].split("[")) - 1 == len(game.melds[s]) if melds else not game.melds[s]
        if getattr(game, "void", None) is not None and game.void[s] >= 0:
            assert f"void {'mps'[game.void[s]]}" in lines[0]
        assert f"total {game.ledger.totals()[s]:+d}" in lines[0]


def test_envs_render_text_and_reject_bad_modes():
    import mahjong_core.env  # noqa: F401

    env = gymnasium.make("mahjong_core/Changbai-v0", render_mode="ansi").unwrapped
    assert env.render() is None  # nothing dealt yet
    env.reset(seed=3)
    assert env.render() == table_text(env.table.game) and env.render().startswith("Changbai · hand 0")
    aec = aec_env("sichuan", render_mode="ansi")
    aec.reset(seed=1)
    aec.step(int(np.flatnonzero(aec.action_masks())[0]))
    text = aec.render()
    assert text == table_text(aec.table.game) and "river" in text and "[" not in text.split("\n")[0]
    assert aec_env("sichuan").render() is None
    for bad in ("human", "rgb", 3):
        with pytest.raises(InvalidArgumentError, match="render_mode"):
            aec_env("mcr", render_mode=bad)
        with pytest.raises(InvalidArgumentError, match="render_mode"):
            MahjongEnv("mcr", render_mode=bad)


def test_rgb_array_without_a_rasteriser_names_the_install_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    with pytest.raises(ImportError, match=r"pip install cairosvg pillow"):
        table_rgb(new_game("mcr", seed=1))
    env = parallel_env("mcr", render_mode="rgb_array")
    env.reset(seed=1)
    with pytest.raises(ImportError, match=r"pip install cairosvg pillow"):
        env.render()


def test_rgb_array_is_the_table_picture():
    pytest.importorskip("cairosvg", reason="render_mode='rgb_array' needs pip install cairosvg pillow")
    pytest.importorskip("PIL", reason="render_mode='rgb_array' needs pip install cairosvg pillow")
    import mahjong_core.env  # noqa: F401

    env = gymnasium.make("mahjong_core/Sichuan-v0", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    first = env.render()
    assert first.shape == (800, 800, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 50  # tiles drawn, not a blank frame
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert not np.array_equal(env.render(), first)


def test_observation_doc_vector_example_runs():
    blocks = [b for b in python_blocks("docs/OBSERVATION.md") if "VectorEnv(" in b]
    assert len(blocks) == 1
    namespace = {}
    exec(compile(blocks[0], "docs/OBSERVATION.md", "exec"), namespace)  # noqa: S102
    assert namespace["total"].shape == (16,) and namespace["total"].any()  # 200 steps: hands ended, points moved


def test_observation_doc_torch_excerpt_is_the_example():
    """The "train with PyTorch" excerpt is made of lines of examples/train_torch.py, as it says."""
    doc = (ROOT / "docs/OBSERVATION.md").read_text(encoding="utf-8")
    section = doc.split("## Train with PyTorch", 1)[1]
    excerpt = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    example = {line.strip() for line in (ROOT / "examples/train_torch.py").read_text(encoding="utf-8").splitlines()}
    lines = [line.strip() for line in excerpt.splitlines() if line.strip()]
    assert lines and all(line in example for line in lines), [x for x in lines if x not in example]
    assert "examples/train_torch.py" in section and "tests/test_env_torch.py" in section


class FirstLegal:
    """A bot that is only `choose` (no Bot base class, no new_hand)."""

    def __init__(self):
        self.calls = 0

    def choose(self, game, seat, actions):
        self.calls += 1
        return actions[0]


def test_duck_typed_opponents():
    import mahjong_core.env  # noqa: F401

    bots = [FirstLegal() for _ in range(3)]
    env = gymnasium.make("mahjong_core/MCR-v0", opponents=bots).unwrapped
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        obs, _, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(b.calls > 0 for b in bots) and sum(info["totals"]) == 0
    one = FirstLegal()
    vec = VectorEnv("sichuan", 3, opponents=one)
    vec.reset(seed=0)
    for _ in range(40):
        vec.step(vec.sample_actions(0))
    # each sub-env plays its own copy (the same copy at its three seats), the object given none
    copies = [[bot for bot in row if bot is not None] for row in vec.bots]
    assert [len({id(bot) for bot in row}) for row in copies] == [1, 1, 1]
    assert len({id(row[0]) for row in copies} | {id(one)}) == 4
    assert all(row[0].calls > 0 for row in copies) and sum(row[0].calls for row in copies) > 40 and one.calls == 0
    with pytest.raises(InvalidArgumentError, match=r"pass an instance, e.g. MyBot\(\)"):
        MahjongEnv("mcr", opponents=FirstLegal)
    with pytest.raises(InvalidArgumentError, match="choose"):
        MahjongEnv("mcr", opponents=[FirstLegal(), FirstLegal(), object()])


# -- reprs ---------------------------------------------------------------------------------------


def test_each_environment_says_what_it_is_and_where_play_stands():
    """`repr` of every environment: the ruleset, and the seed, hand, engine step and (AEC) agent to
    act, read from the state they describe; before `reset()` it says so. (`str` stays the
    libraries' own: Gymnasium's wrappers and PettingZoo print it.)"""
    import random

    single = MahjongEnv("mcr", seat="random")
    assert repr(single) == "MahjongEnv('mcr', seat 0 (random each hand), before reset())"
    single.reset(seed=5)
    game = single.table.game
    assert repr(single) == (f"MahjongEnv('mcr', seat {single.seat} (random each hand), seed 5, hand 0, "
                            f"step {game.step})")
    assert str(single) == "<MahjongEnv instance>"

    env = aec_env("sichuan")
    assert repr(env) == "MahjongAECEnv('sichuan', before reset())"
    env.reset(seed=2)
    rng = random.Random(0)
    for _ in range(30):
        env.last()
        env.step(env.sample_action(rng))
    step = env.table.game.step
    assert step > 0
    assert repr(env) == f"MahjongAECEnv('sichuan', seed 2, hand 0, step {step}, agent_selection={env.agent_selection!r})"
    assert str(env) == "mahjong_core_sichuan_v0"
    for _ in env.agent_iter():  # to the end of the hand
        env.step(env.sample_action(rng))
    assert repr(env) == f"MahjongAECEnv('sichuan', seed 2, hand 0, step {env.table.game.step}, hand over)"

    parallel = parallel_env("changbai")
    parallel.reset(seed=7)
    assert repr(parallel) == f"MahjongParallelEnv('changbai', seed 7, hand 0, step {parallel.table.game.step})"

    vector = VectorEnv("mcr", 3, "greedy")
    assert repr(vector) == "VectorEnv('mcr', num_envs=3, learner at seat 0 against bots, before reset())"
    vector.reset(seed=1)
    actions_rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        finished += int(vector.step(vector.sample_actions(actions_rng))[2].sum())
    assert finished > 0
    assert repr(vector) == (f"VectorEnv('mcr', num_envs=3, learner at seat 0 against bots, "
                            f"{3 + finished:,} hands dealt since reset)")
