"""Early stop: a run whose first episodes all fail the same way stops instead of going on.

A wrong endpoint, a missing API key, a sandbox that cannot start or data that
cannot be read makes every episode fail with the same error; running the rest
of the plan would only produce a 0 % report. :class:`FailFast` watches the
episodes as they finish (it wraps the backend's :class:`RunEvents`): when
``limit`` episodes in a row have failed with the same error — the first error's
type and message, with the episode's own label and folder blanked out — and no
episode of this session has succeeded, it raises :class:`SystematicFailure`
from the backend's callback. The backend then stops its workers as on Ctrl-C:
the failed episodes keep their records, the others stay unfinished, and the
run can be continued with ``--resume --retry-failed`` once the cause is fixed.

One success in the session turns the check off for the rest of it (the setup
works; later failures are results). ``limit`` 0 never stops early.
"""

from __future__ import annotations

from typing import Any

from mle_gym.evaluation.episode import EpisodeJob
from mle_gym.evaluation.errors import EvalConfigError
from mle_gym.evaluation.events import RunEvents

DEFAULT_LIMIT = 3


class SystematicFailure(EvalConfigError):
    """The run stopped early: ``failures`` episodes in a row failed with ``error``
    (``"Type: message"``) and none succeeded — a setup problem, not a result."""

    def __init__(self, error: str, failures: int) -> None:
        self.error = error
        self.failures = failures
        super().__init__(
            f"stopped early: {failures} episodes in a row failed the same way and none "
            f"succeeded: {error}"
        )


def failure_signature(job: EpisodeJob, record: dict[str, Any]) -> str:
    """``"Type: message"`` of a failed record's first error, with the episode's label and
    folder replaced, so the same cause reads the same in every episode."""
    errors = record.get("errors") or [{}]
    first = errors[0] if isinstance(errors[0], dict) else {}
    message = str(first.get("message", ""))
    message = message.replace(str(job.folder), "<episode folder>")
    message = message.replace(job.label, "<episode>")
    return f"{first.get('type', '?')}: {message}"


class FailFast:
    """:class:`RunEvents` that forwards to ``inner`` and stops the run on a systematic
    failure (see the module docstring)."""

    def __init__(self, inner: RunEvents, limit: int = DEFAULT_LIMIT) -> None:
        self.inner = inner
        self.limit = limit
        self.succeeded = False
        self.signature: str | None = None
        self.count = 0

    def started(self, job: EpisodeJob) -> None:
        self.inner.started(job)

    def finished(self, job: EpisodeJob, record: dict[str, Any]) -> None:
        self.inner.finished(job, record)
        if self.limit <= 0 or self.succeeded:
            return
        if record.get("status") == "done":
            self.succeeded = True
            return
        signature = failure_signature(job, record)
        if signature == self.signature:
            self.count += 1
        else:
            self.signature, self.count = signature, 1
        if self.count >= self.limit:
            raise SystematicFailure(signature, self.count)

    def tick(self) -> None:
        self.inner.tick()
