"""The assertions MLE-bench grading cases are made of: approximate equality with
``pytest.approx``'s rule, expected exceptions, explicit failures.

Part of :mod:`mle_gym.families.mlebench.testing` (which re-exports every public name here);
import from there. Nothing here uses the ``assert`` statement: every failure is an
``AssertionError`` raised explicitly, so the checks hold under ``python -O`` too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, NoReturn, TypeVar

E = TypeVar("E", bound=BaseException)

#: ``pytest.approx``'s default tolerances, used as pytest uses them (see :func:`tolerance`)
_DEFAULT_ABS = 1e-12
_DEFAULT_REL = 1e-6


def fail(message: str) -> NoReturn:
    """Raise ``AssertionError(message)``: a check's failure (whatever ``python -O`` says).

    For a folder's own checks as much as for the kit's: ``if x is None: fail(...)`` also
    tells a type checker that ``x`` is not None afterwards.
    """
    raise AssertionError(message)


def expect(condition: object, message: str) -> None:
    """``AssertionError(message)`` unless ``condition`` is true: an ``assert`` statement
    that ``python -O`` does not remove. ``message`` should say what was expected and what
    was got."""
    if not condition:
        fail(message)


def tolerance(expected: float, *, rel: float | None = None, abs: float | None = None) -> float:
    """The tolerance ``pytest.approx(expected, rel=rel, abs=abs)`` compares a finite
    number with (``ApproxScalar.tolerance``).

    * neither given: ``max(1e-6 * |expected|, 1e-12)``;
    * only ``abs``: ``abs`` (no relative tolerance at all);
    * only ``rel``: ``max(rel * |expected|, 1e-12)``;
    * both: ``max(rel * |expected|, abs)``.

    ``ValueError`` if the absolute tolerance is NaN or negative, or (when it is used) the
    relative tolerance ``rel * |expected|`` is NaN or negative (e.g. ``rel=inf`` with
    ``expected == 0``), with pytest's messages.
    """
    absolute = abs if abs is not None else _DEFAULT_ABS
    if math.isnan(absolute):
        raise ValueError("absolute tolerance can't be NaN.")
    if absolute < 0:
        raise ValueError(f"absolute tolerance can't be negative: {absolute}")
    if rel is None and abs is not None:
        return absolute
    relative = (rel if rel is not None else _DEFAULT_REL) * math.fabs(expected)
    if math.isnan(relative):
        raise ValueError("relative tolerance can't be NaN.")
    if relative < 0:
        raise ValueError(f"relative tolerance can't be negative: {relative}")
    return max(relative, absolute)


def close(
    actual: float | None,
    expected: float,
    *,
    rel: float | None = None,
    abs: float | None = None,
    nan_ok: bool = False,
) -> bool:
    """Whether ``actual == pytest.approx(expected, rel=rel, abs=abs, nan_ok=nan_ok)``.

    In pytest's order: ``None`` (the score of an invalid submission) matches nothing; an
    ``actual`` equal to ``expected`` matches (an infinity matches itself only); a NaN
    ``expected`` is matched by a NaN only with ``nan_ok``; an infinite ``expected`` by
    nothing else; otherwise ``|expected - actual| <= tolerance(expected, rel=, abs=)``
    (:func:`tolerance`, which also says when ``ValueError`` is raised), so a NaN or an
    infinite ``actual`` is not close to a finite ``expected`` unless the tolerance is
    infinite.
    """
    if actual is None:
        return False
    if actual == expected:
        return True
    if math.isnan(expected):
        return nan_ok and math.isnan(actual)
    if math.isinf(expected):
        return False
    return math.fabs(expected - actual) <= tolerance(expected, rel=rel, abs=abs)


def _approx_text(expected: float, rel: float | None, abs: float | None) -> str:
    """``expected ± tolerance`` as a failure message shows it (no tolerance for a NaN or an
    infinite ``expected``, which only an equal value matches)."""
    if math.isnan(expected) or math.isinf(expected):
        return repr(expected)
    try:
        return f"{expected!r} ± {tolerance(expected, rel=rel, abs=abs):.3g}"
    except ValueError:  # a bad tolerance, not reached by close(): shown as pytest shows it
        return f"{expected!r} ± ???"


def assert_close(
    actual: float | None,
    expected: float,
    *,
    rel: float | None = None,
    abs: float | None = None,
    nan_ok: bool = False,
    what: str = "value",
) -> None:
    """``AssertionError`` (``"<what> <actual> is not <expected> ± <tolerance>"``) unless
    :func:`close` (same arguments, the rule of ``pytest.approx``) holds."""
    if not close(actual, expected, rel=rel, abs=abs, nan_ok=nan_ok):
        fail(f"{what} {actual!r} is not {_approx_text(expected, rel, abs)}")


class Raised(Generic[E]):
    """What :func:`raises` caught: :attr:`value`, the exception (set when the block ends)."""

    def __init__(self) -> None:
        self._value: E | None = None

    @property
    def value(self) -> E:
        """The caught exception; ``AssertionError`` if asked inside the block."""
        if self._value is None:
            fail("nothing was raised (yet)")
        return self._value


@contextmanager
def raises(kind: type[E], *, match: str | None = None) -> Iterator[Raised[E]]:
    """A block that must raise ``kind`` (a subclass counts) whose message ``re.search``-es
    ``match``; the exception is then caught and kept in the yielded :class:`Raised`.

    ``AssertionError`` if the block raises nothing or a message that does not match; any
    other exception passes through unchanged.
    """
    caught: Raised[E] = Raised()
    try:
        yield caught
    except kind as err:
        if match is not None and not re.search(match, str(err)):
            raise AssertionError(
                f"{kind.__name__} was raised, but {str(err)!r} does not match {match!r}"
            ) from err
        caught._value = err
        return
    fail(f"no {kind.__name__} was raised")
