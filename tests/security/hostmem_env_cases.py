"""Host memory of the env itself: transcripts, observations and tool outputs are capped."""

from __future__ import annotations

from security.cases import Case, both

CASES: tuple[Case, ...] = (
    Case(
        "hostmem-env-long-episode",
        "hostmem",
        "Run a long episode (150 steps) in which every `execute` prints 1 MB, with "
        '`render_mode="ansi"` and observations of up to a million characters, to grow the '
        "host-side transcript and per-step buffers without bound.",
        "Command output is captured as a 64 KB head and a 64 KB tail; the env keeps a "
        'transcript only with `render_mode="ansi"` and caps it at 1,000,000 characters '
        "(the oldest steps are dropped, with a note); no other per-step buffer is kept. "
        "The test measures the Python memory the host process retains (tracemalloc).",
        both("earlier entries dropped", "host memory retained after 150 steps"),
        env={"render_mode": "ansi", "max_observation_chars": 1_000_000, "max_episode_steps": 400},
    ),
    Case(
        "hostmem-env-huge-output",
        "hostmem",
        "Print 400 MB in one `execute` call and 300 MB from one `python` call, hoping the "
        "host buffers the whole output.",
        "The host never holds more than a head and a tail of an output (64 KB each for "
        "`execute`, 32 KB each for `python`); the command is killed, or the cell "
        "interrupted, past 64 MB of output. The test measures the host's peak Python "
        "memory during the calls (tracemalloc).",
        both(
            "killed: output limit exceeded",
            "interrupted: output limit exceeded",
            "host memory peak during the floods",
        ),
        env={"render_mode": "ansi"},
    ),
    Case(
        "hostmem-env-quoting-submission",
        "hostmem",
        "Write a submission whose header holds a 20-million-character column name, so "
        "that the messages quoting it (validation, the grade) become huge observations, "
        "grade reports and transcript entries.",
        "A grade message (and each strict finding) keeps at most 4,000 characters (head "
        "and tail around a marker) and "
        "the env cuts any observation to `max_observation_chars` plus a 4,000-character "
        "status allowance, so no host buffer holds a copy of the submission.",
        both("characters omitted", "grade message of", "The submission is invalid"),
        env={"render_mode": "ansi"},
    ),
)
