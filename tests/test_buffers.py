"""Per-episode host buffers are capped: run_episode's errors, grade messages, observations."""

from __future__ import annotations

from typing import Any

import pytest

from mle_gym.agents.base import Agent
from mle_gym.episode_runner import MAX_ERRORS, run_episode
from mle_gym.families.mlebench.grade_report import MAX_MESSAGE_CHARS, GradeReport


def test_a_grade_message_keeps_its_head_and_tail() -> None:
    message = "head " + "W" * 1_000_000 + " tail"
    report = GradeReport("t", "t", "replica", None, False, message, True, False)
    assert len(report.message) <= MAX_MESSAGE_CHARS + 100
    assert report.message.startswith("head ") and report.message.endswith(" tail")
    assert "characters omitted" in report.message
    short = GradeReport("t", "t", "replica", None, False, "no file", False, False)
    assert short.message == "no file"


class BadCalls(Agent):
    """Sends an unknown tool every step."""

    def reset(self, task_info: dict[str, Any]) -> None:
        pass

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        return {"tool": "no_such_tool", "args": {}}


@pytest.mark.slow
@pytest.mark.sandbox
def test_run_episode_keeps_the_first_errors_and_counts_all(make_env) -> None:
    steps = MAX_ERRORS + 20
    env = make_env(max_episode_steps=steps, grade_on_truncation=False)
    result = run_episode(env, BadCalls(), seed=0)
    assert result.steps == steps and result.truncated
    assert result.error_count == steps and len(result.errors) == MAX_ERRORS
    assert "unknown tool" in result.errors[0]


@pytest.mark.slow
@pytest.mark.sandbox
def test_an_observation_quoting_a_huge_submission_is_cut(make_env) -> None:
    env = make_env(max_observation_chars=2000)
    env.reset(seed=0)
    header = "PassengerId," + "W" * 3_000_000
    env.step(
        {
            "tool": "write_file",
            "args": {"path": "submission.csv", "content": header + "\n0013_01,False\n"},
        }
    )
    obs, *_, info = env.step({"tool": "validate_submission", "args": {}})
    assert obs.startswith("invalid: ") and "characters omitted" in obs
    assert len(obs) <= 2000 + 4000 + 200 and info["error"] == obs
    obs, reward, terminated, _, info = env.step({"tool": "submit", "args": {}})
    assert terminated and reward == 0.0 and not info["grade"]["valid"]
    assert len(info["grade"]["message"]) <= MAX_MESSAGE_CHARS + 100
