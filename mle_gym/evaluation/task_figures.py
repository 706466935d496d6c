"""What an evaluation report knows of a task: its metric, direction, data figures and
leaderboard (:class:`TaskInfo`), read from the task's spec when this installation has it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TaskInfo:
    """What the report needs to know about a task (all optional: the task may be unknown)."""

    metric: str | None = None
    lower_is_better: bool | None = None
    data: dict[str, Any] | None = None
    leaderboard: Any = None

    def baseline(self, source: str | None) -> float | None:
        """``baseline_score`` of the data source, if the task has one."""
        figures = (self.data or {}).get(source or "") or {}
        value = figures.get("baseline_score") if isinstance(figures, dict) else None
        return None if value is None else float(value)


def task_info(env_id: str) -> TaskInfo:
    """The task's figures, or an empty TaskInfo when this installation does not know it."""
    from mle_gym.tasks import TaskError, get_task

    try:
        task = get_task(env_id)
    except TaskError:
        return TaskInfo()
    board = getattr(task, "leaderboard", None)  # only tasks with a human leaderboard
    return TaskInfo(task.metric, task.lower_is_better, dict(task.data), board)
