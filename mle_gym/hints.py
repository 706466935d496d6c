"""Messages that suggest a setting, written for whoever reads them: Python or command line.

An error telling a ``gym.make`` caller to "use data='replica'" reads wrong on the command
line, where the same advice is "use --data replica". Such a message is built as a
:class:`Hinted` from text and :class:`Setting` parts::

    raise DataNotPrepared(Hinted("kaggle data is not prepared; use ", Setting("data", "replica")))

A :class:`Hinted` *is* the ``str`` of its Python rendering (``data='replica'``), so
``str(exc)``, logs and code that treats the message as text see exactly that; the
command line renders the settings as options (``--data replica``) with :meth:`Hinted.cli`,
or :func:`cli_message` for an exception whose message is one. The parts survive only as
long as the message is passed on whole (an f-string or ``+`` makes a plain ``str``); to
prefix one, build ``Hinted(prefix, message)``, which keeps the settings of ``message``.

This module imports nothing: every layer may use it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Hinted", "Setting", "cli_message"]


@dataclass(frozen=True)
class Setting:
    """A setting a message suggests: the keyword ``name`` with ``value`` (None: any value,
    written ``...``). On the command line it is the option ``--<name with dashes> value``,
    or, when ``option`` names the option that takes such settings as ``KEY=VALUE`` (e.g.
    ``--agent-arg`` for an agent's constructor arguments), ``<option> name=value``."""

    name: str
    value: str | int | float | bool | None = None
    option: str | None = None

    def python(self) -> str:
        """``name='value'``, as a keyword argument."""
        return f"{self.name}={'...' if self.value is None else repr(self.value)}"

    def cli(self) -> str:
        """``--name value`` (``_`` in the name becomes ``-``), or ``<option> name=value``."""
        value = "..." if self.value is None else str(self.value)
        if self.option:
            return f"{self.option} {self.name}={value}"
        return f"--{self.name.replace('_', '-')} {value}"


#: a part of a :class:`Hinted`: text (a :class:`Hinted` is text too) or a setting
Part = str | Setting


class Hinted(str):
    """Message text with :class:`Setting` parts; the ``str`` value is its Python rendering.

    ``parts`` are text, settings, or other :class:`Hinted` messages (whose settings are
    kept). :meth:`cli` renders the same message with command-line options.
    """

    parts: tuple[Part, ...]

    def __new__(cls, *parts: Part) -> Hinted:
        for part in parts:
            if not isinstance(part, str | Setting):
                raise TypeError(f"Hinted parts are str or Setting, got {type(part).__name__}")
        text = "".join(_render(p, cli=False) for p in parts)
        self = super().__new__(cls, text)
        self.parts = parts
        return self

    def __getnewargs__(self) -> tuple[Part, ...]:  # type: ignore[override]
        """Pickled with its parts (eval's workers send errors between processes)."""
        return self.parts

    def cli(self) -> str:
        """The message with every setting written as a command-line option."""
        return "".join(_render(p, cli=True) for p in self.parts)


def _render(part: Part, *, cli: bool) -> str:
    if isinstance(part, Setting):
        return part.cli() if cli else part.python()
    if isinstance(part, Hinted):
        return part.cli() if cli else str.__str__(part)
    return part


def cli_message(exc: BaseException) -> str:
    """``str(exc)``, with the settings written as command-line options when the
    exception's message (its one argument) is a :class:`Hinted`."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Hinted):
        return exc.args[0].cli()
    return str(exc)
