"""``mle-gym view``: one self-contained HTML page showing an evaluation run.

The page has the run's settings and provenance, the summary (report.md's, made from
report.json — or from the episode folders when report.json is missing or out of date)
and plots, and every episode: its outcome, transcript, the code the agent wrote or ran,
its final workspace files, grade, errors and log — filterable by task, seed, outcome and
text. It loads nothing from anywhere (plots are ``data:`` URIs, style
and script inline, a Content-Security-Policy forbids the rest), and everything taken from
the run is escaped: agent text cannot become markup or script.

Modules, one concern each:

* ``model`` — the plain data shown, text clips and the size limits;
* ``load`` — reading a run directory into that data, within the limits (read only),
  with ``steps`` (the trajectory), ``workspace`` (final files, log) and ``reading``
  (bounded file reads);
* ``render`` — the HTML page, with ``render_episodes`` (the episodes), ``markdown``
  (report.md's summary as HTML) and ``markup`` (escaping, folding, tables);
* ``serve`` — serving the page on 127.0.0.1 (``--serve``);
* ``errors`` — the errors, ValueErrors the CLI prints as one line.

:func:`write_view` ties loading, rendering and writing together.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.evaluation.viewer.errors import NotARunError, ServeError, ViewError
from mle_gym.evaluation.viewer.load import load_run
from mle_gym.evaluation.viewer.model import Limits, RunView
from mle_gym.evaluation.viewer.render import Page, render_page

DEFAULT_NAME = "view.html"
HTML_SUFFIXES = (".html", ".htm")


def default_out(run_dir: Path | str) -> Path:
    """``RUN_DIR/view.html``."""
    return Path(run_dir) / DEFAULT_NAME


def write_view(
    run_dir: Path | str, out: Path | str | None = None, *, limits: Limits | None = None
) -> tuple[Path, Page]:
    """Render ``run_dir`` into ``out`` (default ``RUN_DIR/view.html``, written atomically;
    the one file this writes) and return its path and the page. ``out`` must end in
    .html or .htm, so no file of the run can be overwritten by mistake."""
    from mle_gym.evaluation import layout

    target = Path(out) if out is not None else default_out(run_dir)
    if target.suffix.lower() not in HTML_SUFFIXES:
        raise ViewError(f"--out must name an .html file, not {target}")
    if target.is_dir():
        raise ViewError(f"--out {target} is a directory; name an .html file")
    page = render_page(load_run(run_dir, limits))
    layout.write_text_atomic(target, page.html)
    return target, page


__all__ = [
    "DEFAULT_NAME",
    "Limits",
    "NotARunError",
    "Page",
    "RunView",
    "ServeError",
    "ViewError",
    "default_out",
    "load_run",
    "render_page",
    "write_view",
]
