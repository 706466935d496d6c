"""Score of the "regenerate the replica with the public seed" attack against a fresh key.

    python scripts/measure_replica_attack.py [--sandbox local|docker]

In a temporary ``$MLE_GYM_HOME`` without ``$MLE_GYM_REPLICA_KEY`` (so a fresh random
replica key is created, as on a new installation), plays the security suite's
``reward-replica-regenerate`` attack on spaceship-titanic: the agent writes the public
generator into its workspace, runs it with the public seed 0 and submits the labels it
gets; then, in a new episode on the same data, the task's reference solution is run and
submitted. Prints the key id, the attack's score, the sample submission's score and the
reference solution's score.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sandbox", default="local", help="sandbox backend (default local)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mle_gym-attack-") as home:
        os.environ["MLE_GYM_HOME"] = home
        os.environ.pop("MLE_GYM_REPLICA_KEY", None)
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        import gymnasium as gym
        import security.reward_replica  # noqa: F401 - registers the attack
        from security.cases import CASES_BY_ID, ENV_KWARGS
        from security.harness import Agent, Ctx, HostTargets, Secrets
        from security.suite import ATTACKS

        import mle_gym  # noqa: F401 - registers the envs
        from mle_gym.data import replica_key

        case = CASES_BY_ID["reward-replica-regenerate"]
        env = gym.make(
            "MLEBench/spaceship-titanic-v0",
            data="replica",
            sandbox=args.sandbox,
            **{**ENV_KWARGS, **case.env},
        )
        host = HostTargets.start()
        try:
            agent = Agent(env, args.sandbox)
            agent.reset()
            print(f"fresh replica key {replica_key.key_id()} ({replica_key.key_path()})")
            evidence = ATTACKS[case.id](Ctx(agent, Secrets.of(env), host, args.sandbox))
        finally:
            host.close()
            env.close()
    for line in evidence.splitlines():
        if line.startswith(("regenerated", "test ids", "attack score")):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
