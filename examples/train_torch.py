"""Train a masked policy with PyTorch on `VectorEnv`: PPO (clipped objective, a value baseline, GAE).

The learner is seat 0 of every sub-env against three built-in bots (`opponents`); the reward is its
ledger change (× `reward_scale`). The policy never plays an illegal action: its logits are masked
with the observation's "action_mask" (an illegal code gets probability 0), so `VectorEnv.step`,
which raises IllegalActionError on an illegal action, is never refused.

1. Rollout: `rollout` steps of all `num_envs` sub-envs (no gradient), keeping observations, masks,
   actions, their log-probabilities, values and rewards. Autoreset is same-step: when
   `terminations[i]` is True the hand ended on that step and row i already holds the next hand.
2. Advantages: GAE(γ, λ) per sub-env, cut at the ends of hands; returns = advantages + values.
3. Update: `epochs` passes over shuffled minibatches of the rollout — the PPO clipped policy loss,
   the value loss and an entropy bonus, Adam.

    python examples/train_torch.py --ruleset sichuan --envs 16 --steps 20000 --opponents greedy

Needs `pip install torch` (the CPU build is enough) and the `[rl]` extra. `train()` returns what
the run measured (steps, hands finished, mean return per hand, the last losses) for a caller.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, Dict, Optional

import numpy as np

try:
    import torch
    from torch import nn
except ImportError:
    raise SystemExit("examples/train_torch.py needs PyTorch: pip install torch (the CPU build is enough)") from None

from mahjong_core.env import VectorEnv


class Policy(nn.Module):
    """An MLP over the flattened (C, 34) planes: action logits (A) and a value."""

    def __init__(self, planes: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(planes * 34, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> Any:
        h = self.body(obs.float())
        logits = self.logits(h).masked_fill(~mask, float("-inf"))  # illegal actions: probability 0
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


def train(ruleset: str = "sichuan", num_envs: int = 8, steps: int = 300, *, opponents: Any = "random",
          rollout: int = 32, epochs: int = 4, minibatch: int = 64, lr: float = 3e-4, gamma: float = 0.99,
          lam: float = 0.95, clip: float = 0.2, entropy: float = 0.01, reward_scale: float = 1 / 16,
          seed: int = 0, threads: int = 1, log: Optional[Callable[[str], None]] = print) -> Dict[str, Any]:
    """Run PPO for `steps` vector steps (`steps * num_envs` decisions); see the module docstring."""
    # a small MLP gains nothing from intra-op threads, and on a busy machine their hand-offs cost
    # several times the work (300 steps: 4 s with one thread, 22 s with the default on 2 shared cores)
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    env = VectorEnv(ruleset, num_envs, opponents=opponents, reward_scale=reward_scale)
    obs, _ = env.reset(seed=seed)
    planes = env.single_observation_space["observation"].shape[0]
    n_actions = env.single_action_space.n
    policy = Policy(planes, n_actions)
    optimiser = torch.optim.Adam(policy.parameters(), lr=lr)

    buf_obs = torch.zeros((rollout, num_envs, planes, 34), dtype=torch.uint8)
    buf_mask = torch.zeros((rollout, num_envs, n_actions), dtype=torch.bool)
    buf_act = torch.zeros((rollout, num_envs), dtype=torch.long)
    buf_logp = torch.zeros((rollout, num_envs))
    buf_val = torch.zeros((rollout, num_envs))
    buf_rew = torch.zeros((rollout, num_envs))
    buf_done = torch.zeros((rollout, num_envs))

    hand_return = np.zeros(num_envs)
    finished: list = []
    done_steps = 0
    losses: Dict[str, float] = {}
    start = time.perf_counter()
    while done_steps < steps:
        t_max = min(rollout, steps - done_steps)
        for t in range(t_max):
            # the env's arrays are reused every step: copy them into the rollout buffers
            o = torch.from_numpy(obs["observation"]).clone()
            m = torch.from_numpy(obs["action_mask"]).bool()
            with torch.no_grad():
                dist, value = policy(o, m)
                action = dist.sample()
            obs, reward, terminated, truncated, _ = env.step(action.numpy())
            buf_obs[t], buf_mask[t], buf_act[t] = o, m, action
            buf_logp[t], buf_val[t] = dist.log_prob(action), value
            buf_rew[t] = torch.from_numpy(reward).float()
            buf_done[t] = torch.from_numpy(terminated | truncated).float()
            hand_return += reward
            for i in np.flatnonzero(terminated | truncated):
                finished.append(hand_return[i])
                hand_return[i] = 0.0
        done_steps += t_max

        with torch.no_grad():  # GAE, bootstrapped from the value of the observation after the rollout
            _, next_value = policy(torch.from_numpy(obs["observation"]), torch.from_numpy(obs["action_mask"]).bool())
        adv = torch.zeros((t_max, num_envs))
        running = torch.zeros(num_envs)
        for t in reversed(range(t_max)):
            alive = 1.0 - buf_done[t]
            following = next_value if t == t_max - 1 else buf_val[t + 1]
            delta = buf_rew[t] + gamma * following * alive - buf_val[t]
            running = delta + gamma * lam * alive * running
            adv[t] = running
        ret = adv + buf_val[:t_max]

        flat = lambda x: x[:t_max].reshape(t_max * num_envs, *x.shape[2:])  # noqa: E731
        b_obs, b_mask, b_act, b_logp = flat(buf_obs), flat(buf_mask), flat(buf_act), flat(buf_logp)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        for _ in range(epochs):
            for idx in torch.randperm(len(b_act)).split(minibatch):
                dist, value = policy(b_obs[idx], b_mask[idx])
                ratio = torch.exp(dist.log_prob(b_act[idx]) - b_logp[idx])
                pg = -torch.min(ratio * b_adv[idx], ratio.clamp(1 - clip, 1 + clip) * b_adv[idx]).mean()
                v_loss = 0.5 * (value - b_ret[idx]).pow(2).mean()
                ent = dist.entropy().mean()
                loss = pg + 0.5 * v_loss - entropy * ent
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimiser.step()
        losses = {"policy": pg.item(), "value": v_loss.item(), "entropy": ent.item()}
        if log is not None:
            recent = finished[-100:]
            mean = float(np.mean(recent)) if recent else float("nan")
            log(f"step {done_steps:6d}  hands {len(finished):5d}  mean return (last 100) {mean:+.3f}  "
                f"policy {losses['policy']:+.3f}  value {losses['value']:.3f}  entropy {losses['entropy']:.3f}")
    env.close()
    return {"steps": done_steps, "decisions": done_steps * num_envs, "hands": len(finished),
            "mean_return": float(np.mean(finished)) if finished else float("nan"), "losses": losses,
            "seconds": time.perf_counter() - start, "policy": policy}


def main(argv: Optional[list] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="sichuan", choices=["sichuan", "mcr", "changbai"])
    parser.add_argument("--envs", type=int, default=16, help="sub-envs stepped together")
    parser.add_argument("--steps", type=int, default=2000, help="vector steps (x envs decisions)")
    parser.add_argument("--opponents", default="random", help="the three opponents' bot name")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    args = parser.parse_args(argv)
    result = train(args.ruleset, args.envs, args.steps, opponents=args.opponents, seed=args.seed,
                   threads=args.threads)
    print(f"{result['decisions']} decisions, {result['hands']} hands in {result['seconds']:.1f} s; "
          f"mean return per hand {result['mean_return']:+.3f}")


if __name__ == "__main__":
    main()
