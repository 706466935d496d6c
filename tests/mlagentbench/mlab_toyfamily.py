"""A minimal task family for the extension-point tests: a repository-style episode (the
shape ML-Bench needs) built only from the hooks of mle_gym.families.base."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from mle_gym.families.base import Episode, TaskFamily
from mle_gym.tools.spec import ToolResult

EXAMPLES = {"greet": ("print hello", "hello"), "count": ("print 1 2 3", "1 2 3")}


@dataclass
class ToyGrade:
    valid: bool
    score: float | None
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "score": self.score, "message": self.message, **self.details}


class ToyFamily(TaskFamily):
    name: ClassVar[str] = "toy"
    reset_options: ClassVar[tuple[str, ...]] = ("example",)
    reward_modes: ClassVar[tuple[str, ...]] = ("auto",)

    def resolve_data(self, data, options):
        return None

    def parse_reset_options(self, options):
        parsed = super().parse_reset_options(options)
        if parsed.setdefault("example", "greet") not in EXAMPLES:
            raise ValueError(f"unknown example {parsed['example']!r}")
        return parsed

    def populate_workspace(self, episode: Episode) -> None:
        sub = episode.workspace / "repo" / "tool"
        sub.mkdir(parents=True)
        (sub / "README.md").write_text("run.sh must print what is asked\n")
        (episode.episode_dir / "expected.txt").write_text(EXAMPLES[episode.options["example"]][1])

    def workdir(self, episode: Episode) -> str:
        return "/workspace/repo/tool"

    def observation(self, episode, listing, tools, max_steps, limits) -> str:
        return f"Instruction: {EXAMPLES[episode.options['example']][0]}\n{listing}"

    def submission_path(self, episode: Episode) -> str:
        return "/workspace/repo/tool/run.sh"

    def validate(self, episode: Episode, path: str) -> ToolResult:
        return ToolResult(
            "run.sh exists" if (episode.workspace / "repo/tool/run.sh").is_file() else "no run.sh",
            ok=True,
        )

    def grade(self, episode: Episode) -> ToyGrade:
        # The episode's own sandbox is frozen while a family grades (nothing the agent
        # left running may race the grader): the submission runs in a fresh sandbox.
        with episode.fresh_sandbox(episode.workspace) as sandbox:
            result = sandbox.exec("cd /workspace/repo/tool && sh run.sh", 10)
        printed = (result.head + result.tail).decode().strip()
        expected = (episode.episode_dir / "expected.txt").read_text()
        return ToyGrade(True, 1.0 if printed == expected else 0.0, details={"printed": printed})

    def reward(self, grade, mode, data_source) -> float:
        return float(grade["score"] or 0.0)

    def end_summary(self, grade, reward, reason) -> str:
        return f"graded: {grade.score}"
