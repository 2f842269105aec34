"""The argparse tree of ``embornal``: groups, commands, flags and help text.

Each command names its handler as ``"module:function"`` (a module of this
package), so parsing imports no command code; :mod:`.main` imports the one
handler that runs.

The tree is described whole but built lazily: a group's or a command's parser
is made when argparse selects it, so ``embornal memory recall`` builds three
parsers, not forty. Help lists every choice all the same (the one-line help of
a choice needs no parser), and error messages name every choice.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable

from embornal.errors import InvalidInput
from embornal.hints import TYPE_CHECKING, Any, NoReturn, TypeVar, overload
from embornal.interfaces.catalog_inputs import POLICY_SHAPES

__all__ = [
    "EPILOG",
    "EXIT_CODES",
    "FMT",
    "POLICY_SHAPES",
    "ArgParser",
    "Build",
    "Commands",
    "UsageError",
    "add_command",
    "commands_of",
    "late_options",
    "number",
    "out_of_range",
]

EXIT_CODES = """\
exit codes:
  0    ok
  1    internal error
  2    invalid input or usage
  3    not found
  4    conflict (the state forbids the change)
  5    access denied
  6    configuration error
  7    storage error
  8    verification failed
  130  interrupted (Ctrl-C)
"""

EPILOG = (
    EXIT_CODES
    + """
examples:
  embornal memory store /projects/embornal "The memory lives in SQLite."
  embornal memory recall sqlite
  embornal memory tree /
  embornal bootstrap >> AGENTS.md
  embornal token add alice --name laptop
  embornal policy check alice read /projects/embornal
"""
)


class UsageError(Exception):
    """A command line argparse rejected; ``main`` prints it and exits 2."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


def out_of_range(message: str) -> InvalidInput:
    """A number out of its range: one line and exit 2, not argparse's usage block."""
    return InvalidInput(message, hint="See the command's --help for the allowed range.")


def number(low: int, high: int, flag: str) -> Callable[[str], int]:
    """The converter of a whole number from ``low`` to ``high`` (:class:`InvalidInput`
    naming ``flag`` otherwise)."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # also a number of more than 4300 digits
            value = None
        if value is None or not low <= value <= high:
            raise out_of_range(
                f"{flag} must be a whole number from {low} to {high}, not {text[:40]!r}"
            )
        return value

    return convert


_N = TypeVar("_N")
_HIDE = "\x00"


def _columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing shutil (and the
    compression modules it brings): ``COLUMNS``, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Width:
    """A help formatter as wide as the terminal, measured only when help is printed."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(  # type: ignore[call-arg]
            prog, indent_increment, max_help_position, _columns() - 2 if width is None else width
        )


class HelpFormatter(_Width, argparse.HelpFormatter):
    """argparse's formatter, without the shutil import argparse makes for every parser."""


class RawFormatter(_Width, argparse.RawDescriptionHelpFormatter):
    """argparse's formatter that keeps the description's line breaks, without shutil."""


class ArgParser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so ``--json`` can report it.

    A command (a parser with no subcommands) takes its flags anywhere among its
    arguments: ``store /x --at 2026-01-01 "text"`` parses as people write it.
    """

    _intermixing = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("formatter_class") in (None, argparse.HelpFormatter):
            kwargs["formatter_class"] = HelpFormatter
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(self, message)

    @overload
    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: None = None
    ) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(
        self, args: Iterable[str] | None, namespace: _N
    ) -> tuple[_N, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _N) -> tuple[_N, list[str]]: ...

    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        given = list(args) if args is not None else None
        escaped = given is not None and "--" in given
        if given is not None and escaped:
            # Intermixed parsing would read a "--foo" after "--" as an option again:
            # hide what follows "--" behind a NUL (argv never holds one), then unhide.
            cut = given.index("--")
            given = given[:cut] + [_HIDE + a for a in given[cut + 1 :]]
        self._intermixing = True
        try:
            ns, extras = self.parse_known_intermixed_args(given, namespace)
        finally:
            self._intermixing = False
        if escaped:
            for key, value in vars(ns).items():
                setattr(ns, key, _unhide(value))
            extras = [str(_unhide(a)) for a in extras]
        return ns, extras


def _unhide(value: object) -> object:
    if isinstance(value, str):
        return value.removeprefix(_HIDE)
    if isinstance(value, list):
        return [_unhide(v) for v in value]
    return value


def late_options() -> ArgParser:
    """The global flags again, for after the command (``recall foo --json``)."""
    late = ArgParser(add_help=False)
    s = argparse.SUPPRESS
    late.add_argument("--json", action="store_true", default=s, help=s)
    late.add_argument("--db", metavar="PATH", default=s, help=s)
    late.add_argument("--as-subject", metavar="SUBJECT", default=s, help=s)
    return late


FMT = RawFormatter
Build = Callable[[ArgParser], None]


class _ParsersOnLookUp(dict[str, Any]):
    """The parsers of a subcommand action: a name maps to its parser, or to the function
    that makes it until argparse first looks the name up. ``rest``, when set, registers
    the names not known yet: it runs once, the first time a name is missing or the whole
    list is read (a command's help, an unknown command's error)."""

    rest: Callable[[], None] | None = None

    def _all_known(self) -> None:
        rest, self.rest = self.rest, None
        if rest is not None:
            rest()

    def __contains__(self, name: object) -> bool:
        if not super().__contains__(name):
            self._all_known()
        return super().__contains__(name)

    def __getitem__(self, name: str) -> Any:
        if not super().__contains__(name):
            self._all_known()
        value = super().__getitem__(name)
        if not isinstance(value, argparse.ArgumentParser):
            value = value()
            super().__setitem__(name, value)
        return value

    def _build_all(self) -> None:
        self._all_known()
        for name in list(self):
            self[name]

    def __iter__(self) -> Any:
        self._all_known()
        return super().__iter__()

    def __len__(self) -> int:
        self._all_known()
        return super().__len__()

    def keys(self) -> Any:
        self._all_known()
        return super().keys()

    def values(self) -> Any:
        self._build_all()
        return super().values()

    def items(self) -> Any:
        self._build_all()
        return super().items()


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[ArgParser]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class Commands(_SubParsers):
    """Subcommands whose parsers are made on first use (see :class:`_ParsersOnLookUp`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._later = _ParsersOnLookUp()
        self._name_parser_map = self.choices = self._later

    def rest(self, register: Callable[[], None], order: Callable[[], list[str]]) -> None:
        """``register`` the group's other commands when one of them (or the whole list) is
        first wanted, then put the listed commands in ``order`` (names it lacks last, as
        they came): a short command registers and reads only its own."""

        def all_of_them() -> None:
            register()
            place = {name: i for i, name in enumerate(order())}
            self._choices_actions.sort(key=lambda a: place.get(a.dest, len(place)))
            made = sorted(dict.items(self._later), key=lambda kv: place.get(kv[0], len(place)))
            dict.clear(self._later)
            dict.update(self._later, made)

        self._later.rest = all_of_them

    def _get_subactions(self) -> list[argparse.Action]:
        self._later._all_known()
        return super()._get_subactions()

    def later(self, name: str, help_text: str, build: Build, **kwargs: Any) -> None:
        """``add_parser(name, help=help_text, **kwargs)``, then ``build`` on it, when used."""
        shown = self._ChoicesPseudoAction(name, (), help_text)
        if dict.__contains__(self._later, name):  # one written by hand replaces the derived
            at = [a.dest for a in self._choices_actions].index(name)
            self._choices_actions[at] = shown
        else:
            self._choices_actions.append(shown)
        kwargs.setdefault("prog", f"{self._prog_prefix} {name}")
        parser_class = self._parser_class

        def make() -> ArgParser:
            parser = parser_class(**kwargs)
            build(parser)
            return parser

        self._later[name] = make


def commands_of(parser: ArgParser, dest: str = "command") -> Commands:
    """The required COMMAND choice of ``parser``, its name stored as ``dest``."""
    # The commands' prog is the parser's usage up to them: with no positional before
    # them, its prog. Said here, argparse does not format that usage to find it.
    prog = None if any(not a.option_strings for a in parser._actions) else parser.prog
    action = parser.add_subparsers(
        dest=dest, metavar="COMMAND", required=True, action=Commands, prog=prog
    )
    assert isinstance(action, Commands)
    return action


def add_command(
    group: Commands,
    name: str,
    handler: str,
    help_text: str,
    late: ArgParser,
    description: str | None = None,
    args: Build | None = None,
) -> None:
    """A command: the global flags again, its handler, and the flags ``args`` adds."""

    def build(parser: ArgParser) -> None:
        parser.set_defaults(handler=handler)
        if args is not None:
            args(parser)

    group.later(
        name,
        help_text,
        build,
        description=description or help_text,
        parents=[late],
        formatter_class=FMT,
    )
