"""One ML-Bench example, validated.

ML-Bench (Hugging Face dataset ``super-dainiu/ml-bench``) stores one example per
row with these fields:

==============  ========================================================================
``github_id``   integer id of the repository within the benchmark
``github``      the repository's URL (``mle-gym://<name>`` for repositories shipped here)
``repo_id``     integer id of the example within its repository
``id``          integer id of the example, unique in the whole dataset
``path``        the folder of the repository the task runs in (``./examples/x``)
``arguments``   the argument values the instruction asks for: a dict, or its text as a
                Python or JSON literal (``"{'dataset': 'Citeseer', 'lr': '0'}"``)
``instruction`` what the user asks for, in natural language
``oracle``      the README segment relevant to the task
``type``        ``"Bash Script"`` (a shell command) or ``"Python Code"`` (a script)
``output``      the reference solution (a command or Python code)
``prefix_code`` shell commands that prepare the environment before the solution runs
==============  ========================================================================

Rows exported here may add two optional fields that ML-Bench does not have:
``artifacts`` (paths, relative to ``path``, that a correct run must create) and
``expected_stdout`` (a regular expression a correct run must print). Other extra
fields are kept in :attr:`MLBenchExample.extra` and otherwise ignored.

:func:`parse_example` turns a row into an :class:`MLBenchExample` or raises
:class:`ExampleError` naming the example and the field at fault.
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

REQUIRED_FIELDS = (
    "github_id",
    "github",
    "repo_id",
    "id",
    "path",
    "arguments",
    "instruction",
    "oracle",
    "type",
    "output",
    "prefix_code",
)
OPTIONAL_FIELDS = ("artifacts", "expected_stdout")
BASH = "Bash Script"
PYTHON = "Python Code"
KINDS = (BASH, PYTHON)


class ExampleError(ValueError):
    """An example row is malformed; the message names the example and the field."""


@dataclass(frozen=True)
class MLBenchExample:
    """A validated ML-Bench example (see the module docstring for the fields)."""

    id: int
    github_id: int
    github: str
    repo_id: int
    path: str  # normalised, relative to the repository root, "." for the root
    arguments: dict[str, str]
    instruction: str
    oracle: str
    type: str  # one of KINDS
    output: str
    prefix_code: str
    artifacts: tuple[str, ...] = ()
    expected_stdout: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def repo_name(self) -> str:
        """The repository's short name: the last component of its URL, without ``.git``."""
        return repo_name_of(self.github)

    @property
    def is_python(self) -> bool:
        """True if the expected solution is a Python script rather than a shell command."""
        return self.type == PYTHON

    @property
    def submission_file(self) -> str:
        """The file the agent writes in the task folder: ``run.sh`` or ``run.py``."""
        return "run.py" if self.is_python else "run.sh"

    def to_record(self) -> dict[str, Any]:
        """The example as a row of the Hugging Face schema (arguments as a dict literal)."""
        record: dict[str, Any] = {
            "github_id": self.github_id,
            "github": self.github,
            "repo_id": self.repo_id,
            "id": self.id,
            "path": "./" if self.path == "." else f"./{self.path}",
            "arguments": repr(dict(self.arguments)),
            "instruction": self.instruction,
            "oracle": self.oracle,
            "type": self.type,
            "output": self.output,
            "prefix_code": self.prefix_code,
        }
        if self.artifacts:
            record["artifacts"] = list(self.artifacts)
        if self.expected_stdout is not None:
            record["expected_stdout"] = self.expected_stdout
        return record


def repo_name_of(url: str) -> str:
    """``https://github.com/dmlc/dgl.git`` -> ``dgl``; ``mle-gym://tabkit`` -> ``tabkit``."""
    name = url.rstrip("/").rsplit("/", 1)[-1]
    name = name.removesuffix(".git")
    return name.split(":")[-1]


def parse_arguments(raw: Any, where: str = "arguments") -> dict[str, str]:
    """The ``arguments`` field as ``{name: value-as-text}``.

    Accepts a mapping, or text holding a Python or JSON dict literal (ML-Bench stores
    ``"{'dataset': 'Citeseer', 'lr': '0'}"``). Values are kept as text because the
    argument check compares them with the submitted command's text; ``None`` values
    are rejected. An empty dict is allowed (nothing to check).
    """
    value: Any = raw
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            return {}
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                raise ExampleError(f"{where}: not a dict literal: {_clip(text)!r}") from None
    if not isinstance(value, Mapping):
        raise ExampleError(
            f"{where}: expected a dict of argument values, got {type(value).__name__}"
        )
    out: dict[str, str] = {}
    for key, val in value.items():
        if not isinstance(key, str) or not key.strip():
            raise ExampleError(f"{where}: argument names must be non-empty text, got {key!r}")
        if val is None or isinstance(val, Mapping | list | tuple | set):
            raise ExampleError(f"{where}: argument {key!r} has no single value ({val!r})")
        out[key.strip()] = _value_text(val)
    return out


def _value_text(val: Any) -> str:
    if isinstance(val, bool):
        return str(val)
    if isinstance(val, float) and val.is_integer() and abs(val) < 1e15:
        return repr(val)  # keep "1.0" as written
    return str(val).strip()


def normalize_task_path(raw: Any, where: str = "path") -> str:
    """``"./examples/x/"`` -> ``"examples/x"``; ``"./"`` -> ``"."``.

    The path must stay inside the repository: absolute paths and ``..`` are rejected.
    """
    if not isinstance(raw, str) or not raw.strip():
        raise ExampleError(f"{where}: expected the task folder as text, got {raw!r}")
    text = raw.strip().replace("\\", "/")
    if text.startswith("/"):
        raise ExampleError(f"{where}: must be relative to the repository root, got {raw!r}")
    norm = posixpath.normpath(text)
    if norm == ".." or norm.startswith("../"):
        raise ExampleError(f"{where}: leaves the repository ({raw!r})")
    return norm


def normalize_kind(raw: Any, where: str = "type") -> str:
    """ML-Bench's ``type`` as one of :data:`KINDS` (case and spacing tolerated)."""
    text = re.sub(r"\s+", " ", str(raw or "")).strip().lower()
    if "bash" in text or "shell" in text:
        return BASH
    if "python" in text:
        return PYTHON
    raise ExampleError(f"{where}: expected 'Bash Script' or 'Python Code', got {raw!r}")


def _int(record: Mapping[str, Any], name: str, where: str) -> int:
    value = record[name]
    if isinstance(value, bool):
        raise ExampleError(f"{where}: field '{name}' must be an integer, got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ExampleError(f"{where}: field '{name}' must be an integer, got {value!r}") from None
    if isinstance(value, float) and not value.is_integer():
        raise ExampleError(f"{where}: field '{name}' must be an integer, got {value!r}")
    return number


def _text(record: Mapping[str, Any], name: str, where: str, *, empty_ok: bool) -> str:
    value = record[name]
    if value is None and empty_ok:
        return ""
    if not isinstance(value, str):
        raise ExampleError(f"{where}: field '{name}' must be text, got {type(value).__name__}")
    if not empty_ok and not value.strip():
        raise ExampleError(f"{where}: field '{name}' is empty")
    return value


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _artifacts(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if hasattr(raw, "tolist"):  # a numpy array from parquet
        raw = raw.tolist()
    if not isinstance(raw, list | tuple):
        raise ExampleError(f"{where}: field 'artifacts' must be a list of paths, got {raw!r}")
    out = []
    for item in raw:
        norm = normalize_task_path(item, f"{where}: artifacts")
        if norm == ".":
            raise ExampleError(f"{where}: an artifact must name a file, got {item!r}")
        out.append(norm)
    return tuple(out)


def parse_example(record: Mapping[str, Any], where: str = "example") -> MLBenchExample:
    """Validate one row (a mapping of the Hugging Face schema) into an example.

    ``where`` says where the row came from (file and line) and starts every error.
    """
    if not isinstance(record, Mapping):
        raise ExampleError(f"{where}: expected an object, got {type(record).__name__}")
    missing = [name for name in REQUIRED_FIELDS if name not in record]
    if missing:
        raise ExampleError(
            f"{where}: missing field(s) {', '.join(missing)} (an ML-Bench example has "
            f"{', '.join(REQUIRED_FIELDS)})"
        )
    if "id" in record and not isinstance(record["id"], bool):
        where = f"{where} (id {record['id']})"
    example_id = _int(record, "id", where)
    expected = record.get("expected_stdout")
    if expected is not None:
        if not isinstance(expected, str):
            raise ExampleError(f"{where}: field 'expected_stdout' must be a regular expression")
        try:
            re.compile(expected)
        except re.error as exc:
            raise ExampleError(f"{where}: expected_stdout is not a valid pattern: {exc}") from None
    known = set(REQUIRED_FIELDS) | set(OPTIONAL_FIELDS)
    return MLBenchExample(
        id=example_id,
        github_id=_int(record, "github_id", where),
        github=_text(record, "github", where, empty_ok=False).strip(),
        repo_id=_int(record, "repo_id", where),
        path=normalize_task_path(record["path"], f"{where}: path"),
        arguments=parse_arguments(record["arguments"], f"{where}: arguments"),
        instruction=_text(record, "instruction", where, empty_ok=False),
        oracle=_text(record, "oracle", where, empty_ok=True),
        type=normalize_kind(record["type"], f"{where}: type"),
        output=_text(record, "output", where, empty_ok=True),
        prefix_code=_text(record, "prefix_code", where, empty_ok=True),
        artifacts=_artifacts(record.get("artifacts"), where),
        expected_stdout=expected,
        extra={k: v for k, v in record.items() if k not in known},
    )
