"""The summary ``mle-gym prepare --split/--benchmark`` prints: one row per task.

Each task's outcome is one of :data:`STATUSES`: ``prepared``, ``already prepared`` (the
cache held it: nothing was built), ``nothing to prepare`` (its family has no prepare
step), ``needs credentials`` (no Kaggle API credentials), ``needs rules accepted`` (Kaggle
refused the download; the detail is the rules page to accept), ``not yet supported``
(this version cannot prepare its data) or ``failed`` (the detail says why). The first
three count as done (:data:`DONE`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

STATUSES = (
    "prepared",
    "already prepared",
    "nothing to prepare",
    "needs credentials",
    "needs rules accepted",
    "not yet supported",
    "failed",
)
DONE = frozenset(STATUSES[:3])
#: the longest detail a row shows (`mle-gym prepare TASK` prints the whole message)
MAX_DETAIL = 200


@dataclass(frozen=True)
class Outcome:
    """How preparing one task went: its env id, one of :data:`STATUSES`, a detail."""

    env_id: str
    status: str
    detail: str = ""

    @property
    def done(self) -> bool:
        """Whether the task's data is there now (or it needs none)."""
        return self.status in DONE


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from (``__cause__``/``__context__``)."""
    out: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in out:
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_DETAIL else line[: MAX_DETAIL - 4] + " ..."


def outcome_of_error(env_id: str, exc: BaseException) -> Outcome:
    """The outcome of a task whose preparation raised ``exc``."""
    from mle_gym.data.kaggle import MissingCredentials, RulesNotAccepted, competition_url
    from mle_gym.data.store import NotYetSupported

    for link in _chain(exc):
        if isinstance(link, MissingCredentials):  # the detail: where to download it by hand
            return Outcome(env_id, "needs credentials", competition_url(link.competition, "data"))
        if isinstance(link, RulesNotAccepted):
            return Outcome(env_id, "needs rules accepted", link.url)
        if isinstance(link, NotYetSupported):
            return Outcome(env_id, "not yet supported")
    if isinstance(exc, NotImplementedError):
        return Outcome(env_id, "nothing to prepare", _one_line(str(exc)))
    return Outcome(env_id, "failed", _one_line(str(exc) or type(exc).__name__))


def run_each(
    tasks: list[str], prepare: Callable[[str], Outcome], progress: Callable[[str], None]
) -> list[Outcome]:
    """``prepare(env_id)`` for every task, in order, whatever happens to the others; a
    raised exception becomes the task's outcome (:func:`outcome_of_error`).
    ``progress`` is told before each task starts."""
    outcomes = []
    for number, env_id in enumerate(tasks, 1):
        progress(f"[{number}/{len(tasks)}] {env_id}")
        try:
            outcomes.append(prepare(env_id))
        except Exception as exc:  # reported in its row; the others go on
            outcomes.append(outcome_of_error(env_id, exc))
    return outcomes


def summary_lines(outcomes: list[Outcome]) -> list[str]:
    """The table (task, status, detail) and the lines after it: the counts, and once
    (not per task) what to do about missing Kaggle credentials."""
    header = Outcome("task", "status", "detail")
    rows = [header, *outcomes]
    w_task = max(len(o.env_id) for o in rows)
    w_status = max(len(o.status) for o in rows)
    lines = [
        f"{o.env_id.ljust(w_task)}  {o.status.ljust(w_status)}  {o.detail}".rstrip() for o in rows
    ]
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    done = sum(1 for o in outcomes if o.done)
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items(), key=_order))
    lines += ["", f"{done} of {len(outcomes)} task(s) ready ({tally})"]
    lacking = counts.get("needs credentials", 0)
    if lacking:
        who = (
            "every task asked for needs them"
            if lacking == len(outcomes)
            else f"{lacking} task(s) need them"
        )
        lines.append(
            f"no Kaggle credentials found ({who}): create an API token at "
            "https://www.kaggle.com/settings and save it as ~/.kaggle/kaggle.json (or set "
            "KAGGLE_USERNAME and KAGGLE_KEY), or download a competition's data from "
            "kaggle.com and run `mle-gym prepare TASK --from PATH.zip`"
        )
    if counts.get("needs rules accepted"):
        lines.append("accept each competition's rules at the URL shown, then run this again")
    if counts.get("failed"):
        lines.append("`mle-gym prepare TASK` shows a failed task's whole message")
    return lines


def _order(item: tuple[str, int]) -> int:
    return STATUSES.index(item[0]) if item[0] in STATUSES else len(STATUSES)
