"""Train PPO on the spaceship-titanic replica through MacroActionWrapper; compare with random.

    python scripts/train_sb3.py --seed 0 --timesteps 12288 --eval-episodes 100 --out runs/sb3

Contract:

* Environment: ``MLEBench/spaceship-titanic-v0`` on replica data (``--replica-seed``,
  default 0) with ``reward_mode="normalized"`` (sample submission 0, reference solution 1),
  wrapped in :class:`mle_gym.wrappers.macro.MacroActionWrapper` (18 fit moves + submit-best,
  ``--move-budget`` moves, ``--move-cost`` per move). Every fit really runs in the sandbox
  the first time; afterwards it is replayed from the host cache under
  ``$MLE_GYM_HOME/macro_cache`` (``--cache-dir``), which makes training affordable.
* Training: stable-baselines3 PPO with ``MlpPolicy`` for ``--timesteps`` steps, seeded
  with ``--seed`` (torch on one thread), TensorBoard logs in ``<out>/tb``, episode
  statistics in ``<out>/monitor.monitor.csv``.
* Evaluation: the trained policy (deterministic actions) and a uniformly random policy,
  ``--eval-episodes`` (>= 10) episodes each, on a fresh wrapper over the same data.
* Progress goes to stderr, one plain line at a time (readable in a log file as on a
  terminal, no extra library): training every ``--progress-every`` timesteps (default:
  about 20 lines a run; 0 turns them off) with the episodes so far, the mean reward of the
  last 50 and the time left; evaluation every tenth of its episodes.
* Outputs in ``--out`` (default ``runs/sb3``): ``learning_curve.png`` (training episode
  rewards and their moving average, with both evaluation means), ``results.json`` (both
  means, standard deviations and per-episode rewards, the trained policy's moves, timings,
  the command) and ``ppo_model.zip``; both means (+- std) are printed.
* Reproducible: the same seed and options give the same figures (fits are deterministic,
  the wrapper's observation has no wall-clock noise, PPO and the random policy are seeded).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np

if TYPE_CHECKING:
    from mle_gym.wrappers.macro import MacroActionWrapper

ENV_ID = "MLEBench/spaceship-titanic-v0"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--seed", type=int, default=0, help="seed of PPO and the random policy")
    p.add_argument("--timesteps", type=int, default=12_288, help="PPO training steps (moves)")
    p.add_argument("--eval-episodes", type=int, default=100, help="episodes per policy (>= 10)")
    p.add_argument("--out", type=Path, default=Path("runs/sb3"), help="output folder")
    p.add_argument("--replica-seed", type=int, default=0, help="replica data variant")
    p.add_argument("--move-budget", type=int, default=6, help="moves per episode")
    p.add_argument("--move-cost", type=float, default=0.0, help="reward cost of each move")
    p.add_argument("--n-steps", type=int, default=256, help="PPO rollout length")
    p.add_argument("--sandbox", default=None, help="sandbox backend (default: local)")
    p.add_argument("--cache-dir", type=Path, default=None, help="fit cache folder")
    p.add_argument("--no-memoize", action="store_true", help="run every fit in the sandbox")
    p.add_argument(
        "--progress-every",
        type=int,
        default=None,
        help="print a training progress line every N timesteps (default: ~20 lines; 0: none)",
    )
    args = p.parse_args(argv)
    if args.eval_episodes < 10:
        p.error("--eval-episodes must be at least 10")
    if args.timesteps < 1:
        p.error("--timesteps must be positive")
    if args.progress_every is None:
        args.progress_every = max(1, args.timesteps // 20)
    if args.progress_every < 0:
        p.error("--progress-every must be >= 0")
    return args


def _eta(elapsed: float, done: float, total: float) -> str:
    """``", ~2.5 min left"`` from the rate so far (empty before any progress)."""
    if done <= 0 or done >= total:
        return ""
    left = elapsed / done * (total - done)
    return f", ~{left / 60:.1f} min left" if left >= 60 else f", ~{left:.0f} s left"


def progress_callback(total: int, every: int) -> Any:
    """An SB3 callback printing ``train: <done>/<total> timesteps (<%>), <n> episodes, mean
    reward of the last 50 <r>, <s> s, ~<eta> left`` to stderr every ``every`` timesteps
    and at the end (episode rewards from the Monitor's ``info["episode"]``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def _on_training_start(self) -> None:
            self.started = time.monotonic()
            self.episodes = 0
            self.recent: deque[float] = deque(maxlen=50)
            self.next_line = every

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", []):
                if "episode" in info:
                    self.episodes += 1
                    self.recent.append(float(info["episode"]["r"]))
            done = self.num_timesteps
            if done >= self.next_line or done >= total:
                while self.next_line <= done:
                    self.next_line += every
                elapsed = time.monotonic() - self.started
                mean = f"{np.mean(self.recent):.3f}" if self.recent else "-"
                print(
                    f"train: {done:,}/{total:,} timesteps ({100 * done / total:.0f}%), "
                    f"{self.episodes} episodes, mean reward of the last "
                    f"{len(self.recent)}: {mean}, {elapsed:.1f} s"
                    f"{_eta(elapsed, done, total)}",
                    file=sys.stderr,
                    flush=True,
                )
            return True

    return Progress() if every > 0 else None


def make_env(args: argparse.Namespace) -> MacroActionWrapper:
    """A macro-action env over the spaceship-titanic replica."""
    import mle_gym  # noqa: F401  (registers the env ids)
    from mle_gym.wrappers.macro import MacroActionWrapper

    inner = gym.make(
        ENV_ID,
        data="replica",
        replica_seed=args.replica_seed,
        reward_mode="normalized",
        sandbox=args.sandbox,
    )
    return MacroActionWrapper(
        inner,
        move_budget=args.move_budget,
        move_cost=args.move_cost,
        memoize=not args.no_memoize,
        cache_dir=args.cache_dir,
    )


def run_episodes(
    env: gym.Env, choose: Any, episodes: int, seed: int, label: str = "eval"
) -> dict[str, Any]:
    """Run ``episodes`` episodes with ``choose(obs) -> action``; rewards and move names.
    Prints ``<label>: <done>/<episodes> episodes, mean reward <r>`` to stderr every tenth."""
    started = time.monotonic()
    every = max(1, episodes // 10)
    rewards: list[float] = []
    plans: list[list[str]] = []
    submitted: list[str | None] = []
    for i in range(episodes):
        obs, _ = env.reset(seed=seed + i)
        total, plan, done = 0.0, [], False
        info: dict[str, Any] = {}
        while not done:
            obs, reward, terminated, truncated, info = env.step(choose(obs))
            total += float(reward)
            plan.append(str(info["move"]))
            done = terminated or truncated
        rewards.append(round(total, 6))
        plans.append(plan)
        submitted.append(info.get("submitted"))
        if (i + 1) % every == 0 or i + 1 == episodes:
            elapsed = time.monotonic() - started
            print(
                f"{label}: {i + 1}/{episodes} episodes, mean reward {np.mean(rewards):.3f}, "
                f"{elapsed:.1f} s{_eta(elapsed, i + 1, episodes)}",
                file=sys.stderr,
                flush=True,
            )
    arr = np.asarray(rewards, dtype=float)
    return {
        "mean": round(float(arr.mean()), 4),
        "std": round(float(arr.std()), 4),
        "episodes": episodes,
        "share_at_reference": round(float(np.mean(arr >= 0.99)), 4),
        "rewards": rewards,
        "plans": plans,
        "submitted": submitted,
    }


def margin_ci(a: list[float], b: list[float]) -> list[float]:
    """A 95% normal-approximation interval of mean(a) - mean(b) (independent samples)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    se = float(np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y)))
    diff = float(x.mean() - y.mean())
    return [round(diff - 1.96 * se, 4), round(diff + 1.96 * se, 4)]


def plot_curve(
    monitor_csv: Path, png: Path, ppo_mean: float, random_mean: float, window: int = 50
) -> int:
    """Save the learning curve; returns the number of training episodes plotted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    data = pd.read_csv(monitor_csv, skiprows=1)
    steps = data["l"].cumsum().to_numpy()
    rewards = data["r"].to_numpy()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(steps, rewards, ".", ms=2, alpha=0.25, color="tab:blue", label="training episode")
    if len(rewards):
        win = max(1, min(window, len(rewards)))
        smooth = pd.Series(rewards).rolling(win, min_periods=1).mean().to_numpy()
        ax.plot(steps, smooth, color="tab:blue", lw=2, label=f"moving average ({win} episodes)")
    ax.axhline(ppo_mean, color="tab:green", ls="--", label=f"PPO eval mean {ppo_mean:.3f}")
    ax.axhline(random_mean, color="tab:red", ls=":", label=f"random eval mean {random_mean:.3f}")
    ax.set_xlabel("timesteps (moves)")
    ax.set_ylabel("episode reward (normalized score)")
    ax.set_title("PPO on spaceship-titanic (replica) through MacroActionWrapper")
    ax.set_ylim(-0.05, 1.05)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return len(rewards)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, plot and write results.json; returns the results."""
    args = parse_args(argv)
    started = time.monotonic()
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.utils import set_random_seed

    torch.set_num_threads(1)
    set_random_seed(args.seed)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "tb", ignore_errors=True)  # one run per folder: fresh event files

    env = make_env(args)
    train_env = Monitor(env, filename=str(out / "monitor"))
    model = PPO(
        "MlpPolicy",
        train_env,
        n_steps=args.n_steps,
        batch_size=64,
        n_epochs=10,
        learning_rate=3e-4,
        gamma=0.99,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [64, 64]},
        seed=args.seed,
        device="cpu",
        verbose=0,
        tensorboard_log=str(out / "tb"),
    )
    model.learn(
        total_timesteps=args.timesteps,
        tb_log_name="ppo",
        callback=progress_callback(args.timesteps, args.progress_every),
        progress_bar=False,  # its bar needs rich, an extra this project does not install
    )
    train_s = time.monotonic() - started
    hits, misses = env.cache_hits, env.cache_misses
    train_env.close()
    model.save(out / "ppo_model.zip")

    eval_env = make_env(args)
    try:
        ppo = run_episodes(
            eval_env,
            lambda obs: int(model.predict(obs, deterministic=True)[0]),
            args.eval_episodes,
            args.seed + 100_000,
            "eval PPO",
        )
        rng = np.random.default_rng(args.seed)
        n_actions = int(eval_env.action_space.n)  # type: ignore[attr-defined]
        rand = run_episodes(
            eval_env,
            lambda obs: int(rng.integers(n_actions)),
            args.eval_episodes,
            args.seed + 200_000,
            "eval random",
        )
    finally:
        eval_env.close()

    episodes = plot_curve(
        out / "monitor.monitor.csv", out / "learning_curve.png", ppo["mean"], rand["mean"]
    )
    wall = time.monotonic() - started
    results = {
        "env": ENV_ID,
        "data": f"replica seed {args.replica_seed}",
        "reward_mode": "normalized",
        "seed": args.seed,
        "timesteps": args.timesteps,
        "eval_episodes": args.eval_episodes,
        "move_budget": args.move_budget,
        "move_cost": args.move_cost,
        "ppo": ppo,
        "random": rand,
        "margin": round(ppo["mean"] - rand["mean"], 4),
        "margin_95ci": margin_ci(ppo["rewards"], rand["rewards"]),
        "training_episodes": episodes,
        "train_cache_hits": hits,
        "train_cache_misses": misses,
        "train_seconds": round(train_s, 1),
        "wall_seconds": round(wall, 1),
        "command": shlex.join(
            ["python", "scripts/train_sb3.py", *(sys.argv[1:] if argv is None else argv)]
        ),
    }
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(
        f"PPO ({args.timesteps} timesteps, seed {args.seed}), deterministic, "
        f"{args.eval_episodes} episodes: {ppo['mean']:.4f} +- {ppo['std']:.4f}"
    )
    print(f"random policy, {args.eval_episodes} episodes: {rand['mean']:.4f} +- {rand['std']:.4f}")
    low, high = results["margin_95ci"]
    print(f"margin {results['margin']:.4f} (95% CI {low:.4f} .. {high:.4f})")
    print(f"PPO plan: {' -> '.join(ppo['plans'][0])}")
    print(f"wall time {wall:.1f} s (training {train_s:.1f} s); outputs in {out}")
    return results


if __name__ == "__main__":
    main()
