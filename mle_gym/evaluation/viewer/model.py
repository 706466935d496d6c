"""What the viewer shows of a run, as plain data, and the bounds that keep it small.

Every piece of text that comes from the run (agent actions, observations, file contents,
error messages) is held as a :class:`Clip`: the part kept and how much was cut, so the
page can say what it leaves out. :class:`Budget` hands out characters for one episode;
once it is spent, later text of that episode is cut entirely (and said to be).

These classes hold the run's text verbatim: escaping is the renderer's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Limits:
    """Bounds on what one page holds (characters unless named bytes)."""

    text_chars: int = 20_000  # one observation, argument or assistant message
    code_chars: int = 60_000  # one code block: a file written, an edit, a command
    file_chars: int = 60_000  # one final workspace file shown
    files_shown: int = 40  # final workspace files whose text is shown, per episode
    files_listed: int = 1_000  # final workspace files listed, per episode
    log_chars: int = 20_000  # the end of log.txt
    error_chars: int = 20_000  # one traceback
    value_chars: int = 2_000  # one value of a settings, grade or record table
    episode_chars: int = 2_000_000  # all text of one episode
    page_chars: int = 60_000_000  # all episodes' text, shared equally between them
    record_bytes: int = 8 * 2**20  # one line of trajectory.jsonl
    json_bytes: int = 32 * 2**20  # config.json, report.json, episode.json, grade.json
    plot_bytes: int = 8 * 2**20  # one PNG plot
    step_overhead: int = 200  # characters charged to the budget per step shown

    def per_episode(self, episodes: int) -> int:
        """The character budget of each of ``episodes`` episodes."""
        return min(self.episode_chars, self.page_chars // max(1, episodes))


@dataclass(frozen=True)
class Clip:
    """A bounded piece of untrusted text: ``head`` and ``tail`` kept, ``cut`` units
    (``unit``: characters or bytes) left out between them."""

    head: str
    tail: str = ""
    cut: int = 0
    unit: str = "characters"

    @property
    def shown(self) -> int:
        """Characters kept."""
        return len(self.head) + len(self.tail)

    @property
    def text(self) -> str:
        """The kept text (head and tail joined)."""
        return self.head + self.tail


def clip(text: str, limit: int, *, tail_share: float = 0.25) -> Clip:
    """``text`` cut to at most ``limit`` characters: the beginning and, for
    ``tail_share`` of the limit, the end."""
    limit = max(0, limit)
    if len(text) <= limit:
        return Clip(text)
    tail_len = int(limit * tail_share)
    head_len = limit - tail_len
    tail = text[len(text) - tail_len :] if tail_len else ""
    return Clip(text[:head_len], tail, len(text) - head_len - tail_len)


class Budget:
    """Characters left for one episode's text; :meth:`clip` takes from it."""

    def __init__(self, chars: int) -> None:
        self.total = chars
        self.left = chars

    @property
    def spent(self) -> bool:
        """Whether nothing is left."""
        return self.left <= 0

    def charge(self, chars: int) -> None:
        """Take ``chars`` for something that is not a clip (the markup of a step)."""
        self.left -= chars

    def clip(self, text: str, limit: int, *, tail_share: float = 0.25) -> Clip:
        """``text`` clipped to ``limit`` and to what is left; the kept part is taken."""
        kept = clip(text, min(limit, max(0, self.left)), tail_share=tail_share)
        self.left -= kept.shown
        return kept


@dataclass
class Argument:
    """One argument of a tool call; ``code`` when it is source or a command."""

    name: str
    value: Clip
    code: bool = False


@dataclass
class Step:
    """One step of the transcript (a ``step`` record of trajectory.jsonl)."""

    index: int | None
    tool: str | None
    arguments: list[Argument] = field(default_factory=list)
    action: Clip | None = None  # the raw action, when no tool call could be read
    assistant: Clip | None = None  # what the policy said besides the call
    observation: Clip = field(default_factory=lambda: Clip(""))
    ok: bool | None = None
    reward: float | None = None
    terminated: bool = False
    truncated: bool = False
    elapsed_s: float | None = None
    step_elapsed_s: float | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    graded: bool = False


@dataclass
class Prompt:
    """The start of an episode (a ``reset`` record): the task text and system prompt."""

    observation: Clip
    system_prompt: Clip | None = None
    tools: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class Code:
    """Code the agent wrote or ran at one step: ``kind`` is write, append, edit, shell
    or python; ``blocks`` are (label, text) pairs (an edit has the old and new text)."""

    step: int | None
    kind: str
    path: str | None
    language: str
    blocks: list[tuple[str, Clip]]


@dataclass
class FileEntry:
    """A file of the final workspace: ``kind`` is text, binary, link, other or
    unreadable; ``content`` the text shown (text files among the first shown)."""

    path: str
    size: int
    kind: str
    content: Clip | None = None


@dataclass
class ErrorEntry:
    """An error of the episode record (where, what, and its traceback)."""

    phase: str
    type: str
    message: Clip
    traceback: Clip | None = None


@dataclass
class Episode:
    """One planned (or found) episode and everything shown about it.

    ``status`` is done, failed or pending; ``outcome`` one of :data:`OUTCOMES`;
    ``medal`` gold/silver/bronze/none when the grade decides medals, else None."""

    number: int
    task_id: str
    seed: int
    env_id: str | None
    planned: bool
    status: str
    outcome: str
    medal: str | None = None
    score: Any = None
    reward: float | None = None
    steps: int | None = None
    started: bool = False  # a pending episode whose folder has a trajectory
    record: dict[str, Any] = field(default_factory=dict)  # episode.json's small fields
    timing: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] | None = None
    grade: dict[str, Any] | None = None
    prompt: Prompt | None = None
    transcript: list[Step] = field(default_factory=list)
    code: list[Code] = field(default_factory=list)
    files: list[FileEntry] = field(default_factory=list)
    skipped_files: list[dict[str, str]] = field(default_factory=list)
    errors: list[ErrorEntry] = field(default_factory=list)
    tool_errors: dict[str, Any] = field(default_factory=dict)
    log: Clip | None = None
    notes: list[str] = field(default_factory=list)  # what was cut or could not be read


#: every outcome an episode can have, in the order the filter lists them
OUTCOMES = ("valid", "invalid", "no submission", "not graded", "failed", "pending")


@dataclass
class Plot:
    """A PNG plot of the run, as base64 text."""

    name: str
    png_base64: str


@dataclass
class RunView:
    """The whole run: settings, provenance, summary, plots and episodes.

    ``report`` is report.json's content or the same report computed now from the
    episode folders (``report_note`` says which, and why)."""

    run_dir: str
    config: dict[str, Any]
    provenance: dict[str, Any] | None
    report: dict[str, Any] | None
    report_note: str | None
    plots: list[Plot]
    episodes: list[Episode]
    notes: list[str] = field(default_factory=list)
    limits: Limits = field(default_factory=Limits)
