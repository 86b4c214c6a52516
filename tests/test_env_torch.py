"""examples/train_torch.py: PPO with a masked policy on VectorEnv, a few hundred steps on the CPU."""

import importlib.util
import math
import os

import pytest

from mahjong_core.env import VectorEnv

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "train_torch.py")


def load():
    spec = importlib.util.spec_from_file_location("example_train_torch", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# torch is imported by the tests that use it, not at collection: importing it costs every pytest-xdist
# worker 1.5 s, and only one of them runs these tests


@pytest.fixture(scope="module")
def torch():
    pytest.importorskip("numpy")
    return pytest.importorskip(
        "torch", reason="PyTorch is not installed (pip install torch, the CPU build): the training example needs it")


@pytest.fixture(scope="module")
def train_torch(torch):
    return load()


def test_masked_policy_gives_illegal_actions_probability_zero(torch, train_torch):
    torch.manual_seed(1)
    env = VectorEnv("mcr", 16)
    obs, _ = env.reset(seed=4)
    policy = train_torch.Policy(obs["observation"].shape[1], env.single_action_space.n)
    for _ in range(20):
        mask = torch.from_numpy(obs["action_mask"]).bool()
        dist, value = policy(torch.from_numpy(obs["observation"]), mask)
        assert value.shape == (16,)
        assert torch.all(dist.probs[~mask] == 0)
        assert torch.allclose(dist.probs.sum(-1), torch.ones(16))
        action = dist.sample()
        assert bool(mask[torch.arange(16), action].all())
        obs, *_ = env.step(action.numpy())


def test_ppo_runs_a_few_hundred_steps(torch, train_torch):
    lines = []
    result = train_torch.train("sichuan", num_envs=8, steps=300, rollout=32, seed=0, log=lines.append)
    # every sampled action was legal: VectorEnv.step raises IllegalActionError otherwise
    assert result["steps"] == 300 and result["decisions"] == 2400
    assert result["hands"] > 50  # a Sichuan hand takes the learner ~20 decisions
    assert math.isfinite(result["mean_return"])
    assert all(math.isfinite(v) for v in result["losses"].values()) and result["losses"]["entropy"] > 0
    assert len(lines) == math.ceil(300 / 32) and lines[-1].startswith("step    300")
    torch.manual_seed(0)
    untrained = train_torch.Policy(68, 88)  # the same initial weights: train() seeds torch with 0 first
    changed = [not torch.equal(a, b) for a, b in zip(untrained.parameters(), result["policy"].parameters())]
    assert all(changed), "every layer of the policy is trained"


def test_without_torch_the_example_says_what_to_install():
    """Run where PyTorch cannot be imported (blocked in sys.modules), the example ends in one line
    naming the pip command, not a traceback."""
    import subprocess
    import sys

    pytest.importorskip("numpy")
    code = ("import runpy, sys; sys.modules['torch'] = None; "
            f"runpy.run_path({os.path.abspath(EXAMPLE)!r}, run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.strip() == "examples/train_torch.py needs PyTorch: pip install torch (the CPU build is enough)"
