""" "Did you mean": one line for a mistyped command or option, naming the closest choices.

argparse answers ``embornal memory stroe`` with every command of the group (54 names)
and ``memory store --tgas x`` with "unrecognized arguments"; :func:`explain` turns such
an error into one line that names the nearest choices (:mod:`difflib`) and where the
whole list is. Imported only when the command line is wrong.
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["Explained", "explain"]

_CHOICE = re.compile(r"^argument (\S+): invalid choice: '(.*?)' \(choose from (.*)\)$", re.S)
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")
_UNKNOWN = "unrecognized arguments: "
#: How many close choices a line names, how close a choice must be (difflib's ratio), and
#: how far behind the closest one another may be.
MOST, CUTOFF, MARGIN = 3, 0.6, 0.1


class Explained:
    """The one line to print instead of argparse's error, and the hint of ``--json``."""

    __slots__ = ("hint", "message", "prog")

    def __init__(self, prog: str, message: str, hint: str) -> None:
        self.prog = prog
        self.message = message
        self.hint = hint

    def line(self) -> str:
        return f"{self.prog}: error: {self.message} (hint: {self.hint})"


def _close(word: str, choices: Sequence[str]) -> list[str]:
    """The choices nearest ``word``: difflib's close matches, but those clearly behind the
    best (by more than ``MARGIN``) left out."""
    close = difflib.get_close_matches(word, list(choices), n=MOST, cutoff=CUTOFF)
    score = [difflib.SequenceMatcher(None, word, c).ratio() for c in close]
    return [c for c, s in zip(close, score, strict=True) if s >= score[0] - MARGIN]


def _names(close: Sequence[str]) -> str:
    quoted = [f"'{c}'" for c in close]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, Any] | None:
    """The commands below ``parser`` (name to parser), or None for a command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return None


def _command_parser(root: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the command ``argv`` names (the deepest group or command it reaches)."""
    parser = root
    words = iter(argv)
    for word in words:
        if word == "--":
            break
        if word.startswith("-"):
            action = parser._option_string_actions.get(word.split("=", 1)[0])
            if action is not None and action.nargs != 0 and "=" not in word:
                next(words, None)  # the option's value
            continue
        sub = _subcommands(parser)
        if sub is not None and word in sub:
            parser = sub[word]
    return parser


def explain(
    root: argparse.ArgumentParser,
    parser: argparse.ArgumentParser,
    message: str,
    argv: Sequence[str],
) -> Explained | None:
    """One line for argparse's ``message`` (raised by ``parser``), or None to keep its own."""
    found = _CHOICE.match(message)
    if found is not None:
        what, typed, listed = found.groups()
        choices = _QUOTED.findall(listed)
        close = _close(typed, choices)
        see = f"`{parser.prog} --help` lists them all"
        if what == "COMMAND":
            said = f"unknown command '{typed}'"
            if not close:
                return Explained(parser.prog, said, f"{see} ({len(choices)} commands)")
            return Explained(parser.prog, f"{said}; did you mean {_names(close)}?", see)
        if not close:
            return None
        return Explained(
            parser.prog,
            f"argument {what}: invalid choice '{typed}'; did you mean {_names(close)}?",
            see,
        )
    if not message.startswith(_UNKNOWN):
        return None
    command = _command_parser(root, argv)
    options = [o for o in command._option_string_actions if o.startswith("--")]
    unknown = [w for w in message[len(_UNKNOWN) :].split() if w.startswith("-") and len(w) > 1]
    lines: list[str] = []
    for word in unknown:
        flag = word.split("=", 1)[0]
        close = _close(flag, options)
        if close:
            lines.append(f"unknown option '{flag}'; did you mean {_names(close)}?")
    if not lines:
        return None
    return Explained(command.prog, " ".join(lines), f"`{command.prog} --help` lists its options")
