"""Drive an mle_gym episode with any OpenAI-compatible Chat Completions endpoint.

    OPENAI_API_KEY=... python scripts/openai_chat_agent.py \\
        --base-url http://localhost:8000/v1 --model my-model \\
        --env MLEBench/spaceship-titanic-v0 --data replica

The loop is the whole integration: the ChatWrapper's observation is the message
list to send, the tool schemas go in ``tools=``, and the model's reply message
goes straight back into ``step()``. Works with native tool calling and with
models that write ``<tool_call>{...}</tool_call>`` in plain text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import gymnasium as gym

import mle_gym  # noqa: F401 - registers the envs
from mle_gym.wrappers import ChatWrapper


def run(
    base_url: str,
    model: str,
    env_id: str,
    *,
    api_key: str,
    data: str = "auto",
    seed: int = 0,
    max_steps: int = 30,
    temperature: float = 0.0,
) -> dict:
    """Play one episode; return the final reward and grade."""
    from openai import OpenAI

    client = OpenAI(base_url=base_url, api_key=api_key)
    env = ChatWrapper(gym.make(env_id, data=data, max_episode_steps=max_steps))
    try:
        messages, info = env.reset(seed=seed)
        reward, done = 0.0, False
        while not done:
            reply = client.chat.completions.create(
                model=model, messages=messages, tools=env.tools, temperature=temperature
            )
            message = reply.choices[0].message
            messages, reward, terminated, truncated, info = env.step(message)
            done = terminated or truncated
            turn = info["messages"][-1]["content"]
            print(f"--- step {info['step']} ({info.get('tool')}):\n{turn[:1500]}\n", flush=True)
        return {"reward": reward, "grade": info.get("grade"), "steps": info["step"]}
    finally:
        env.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"))
    parser.add_argument("--model", required=True)
    parser.add_argument("--env", default="MLEBench/spaceship-titanic-v0")
    parser.add_argument("--data", default="auto")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=30)
    parser.add_argument("--temperature", type=float, default=0.0)
    args = parser.parse_args(argv)
    result = run(
        args.base_url, args.model, args.env, api_key=os.environ.get("OPENAI_API_KEY", "none"),
        data=args.data, seed=args.seed, max_steps=args.max_steps, temperature=args.temperature,
    )  # fmt: skip
    print(json.dumps(result, indent=2))
    return 0 if (result["grade"] or {}).get("valid") else 1


if __name__ == "__main__":
    sys.exit(main())
