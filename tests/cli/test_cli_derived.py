"""The catalogue's commands are derived from its records: every input reachable, no code per
command, and a new operation gets its command from its record alone."""

from __future__ import annotations

import argparse
import io

import pytest

from embornal.errors import InvalidInput
from embornal.interfaces.catalog import CATALOG, Input, Operation
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.derived import HANDLER, fill, flag_of, inputs, show
from embornal.interfaces.cli.parser import ArgParser
from embornal.interfaces.cli.tree import build_parser


def _command_parser(cli: str) -> argparse.ArgumentParser:
    root = build_parser()
    group, command = cli.split()
    (groups,) = [a for a in root._actions if a.dest == "group"]
    assert isinstance(groups.choices, dict)
    parser = groups.choices[group]
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert isinstance(commands.choices, dict)
    found = commands.choices[command]
    assert isinstance(found, argparse.ArgumentParser)
    return found


#: Catalogue commands whose records have no inputs, so still written by hand (decision
#: 0046); none since the local-only ones (tag, untag, reindex, policy, token) have theirs.
WRITTEN_BY_HAND: set[str] = set()


@pytest.mark.parametrize("op", [op for op in CATALOG if op.cli is not None], ids=lambda op: op.name)
def test_every_catalogue_command_takes_each_of_its_inputs(op: Operation) -> None:
    """A derived command has an argument for each input, with the flag the rules give; a
    command written by hand (decision 0046: it replaces the derived one) is one of the list."""
    assert op.cli is not None
    parser = _command_parser(op.cli)
    if parser.get_default("handler") != HANDLER:  # written by hand: there, and runs
        assert parser.get_default("handler"), op.cli
        assert op.name in WRITTEN_BY_HAND, f"{op.cli} is written by hand: derive it"
        return
    assert op.name not in WRITTEN_BY_HAND, f"{op.cli} is derived now: drop it from the list"
    assert parser.get_default("operation") == op.name
    actions = {a.dest: a for a in parser._actions}
    for item in (*op.inputs, *op.cli_args):
        if not item.cli:
            continue
        assert item.name in actions, f"{op.cli}: no argument for {item.name}"
        assert list(actions[item.name].option_strings) == flag_of(item), (op.cli, item.name)


def test_the_local_only_commands_are_derived_with_the_methods_arguments() -> None:
    """Each local-only operation's inputs are the keyword arguments of its ``Memory``
    method (the callbacks aside), and its command is the derived one."""
    import inspect

    from embornal.interfaces.catalog_types import resolve_call
    from embornal.service.memory import Memory

    for op in CATALOG:
        if not op.local_only:
            continue
        assert op.cli is not None and op.call is not None, op.name
        params = inspect.signature(resolve_call(Memory, op.call)).parameters
        wanted = [n for n in params if n not in ("self", "progress")]
        assert [i.name for i in op.inputs] == wanted, op.name
        assert _command_parser(op.cli).get_default("handler") == HANDLER, op.cli
        assert op.http is None and op.profile == "none", op.name


def test_a_number_of_days_is_above_0_and_at_most_its_bound() -> None:
    op = Operation(
        "expire",
        "Fact",
        (Input("days", "days", "Days.", high=730, flag="--in", metavar="DAYS"),),
        call="expire",
        cli="memory expire",
    )
    parser = ArgParser(prog="embornal memory expire")
    fill(parser, op)
    assert parser.parse_args(["--in", "0.5"]).days == 0.5
    assert parser.parse_args(["--in", "730"]).days == 730
    for bad in ("0", "-1", "730.5", "nan", "inf", "x"):
        with pytest.raises(
            InvalidInput,
            match=r"--in must be a number of days above 0 and "
            r"at most 730 \(2 years\)",
        ):
            parser.parse_args(["--in", bad])


_NEW = Operation(
    "weigh",
    "Fact",
    (
        Input("fact_id", "id", "The fact id.", True, metavar="ID"),
        Input("weight", "int", "The weight.", True, low=0, high=10, flag="--weight"),
        Input("mode", "choice", "How.", default="soft", choices=("soft", "hard")),
        Input("tags", "tags", "Tags.", flag="--tag"),
        Input("pinned", "bool", "Pin it.", default=False),
        Input("reinforce", "bool", "Reinforce it.", default=True),
    ),
    call="weigh",
    cli="memory weigh",
)


def _new_parser() -> ArgParser:
    parser = ArgParser(prog="embornal memory weigh")
    fill(parser, _NEW)
    return parser


def test_a_new_operation_gets_its_command_from_its_record() -> None:
    args = _new_parser().parse_args(
        ["01ABC", "--weight", "3", "--tag", "a=b", "--tag", "c=d", "--pinned", "--no-reinforce"]
    )
    assert args.fact_id == "01ABC" and args.weight == 3 and args.mode == "soft"
    assert args.tags == ["a=b", "c=d"] and args.pinned is True and args.reinforce is False
    assert args.operation == "weigh" and args.handler == HANDLER


def test_a_new_operation_checks_bounds_and_choices() -> None:
    with pytest.raises(InvalidInput, match="--weight must be a whole number from 0 to 10"):
        _new_parser().parse_args(["01ABC", "--weight", "11"])
    with pytest.raises(Exception, match="invalid choice"):
        _new_parser().parse_args(["01ABC", "--weight", "1", "--mode", "odd"])


def test_the_types_the_domain_reads_convert_on_the_command_line() -> None:
    """A weight of ``none`` is passed as None (it takes the weight off), an event id may
    be ``#12``, and each bad word is the domain's one-line error."""
    op = Operation(
        "mark",
        "Fact",
        (
            Input("event_id", "event", "The event.", True, metavar="EVENT_ID"),
            Input("weight", "weight", "The weight.", True, metavar="W"),
            Input("lifetime", "lifetime", "How long."),
            Input("visibility", "visibility", "Who sees it."),
        ),
        call="mark",
        cli="memory mark",
    )
    parser = ArgParser(prog="embornal memory mark")
    fill(parser, op)
    args = parser.parse_args(["#12", "none", "--lifetime", "PERMANENT", "--visibility", "private"])
    assert inputs(Context(args), op) == {
        "event_id": 12,
        "weight": None,
        "lifetime": "permanent",
        "visibility": "private",
    }
    assert parser.parse_args([" 7 ", "0.25"]).weight == 0.25
    for bad, message in (
        (["#0", "0.5"], "an event id is a whole number from 1"),
        (["1", "1.5"], "is outside 0..1"),
        (["1", "0.5", "--lifetime", "until:2020-01-01"], "is in the past"),
        (["1", "0.5", "--visibility", "secret"], "is not one of"),
    ):
        with pytest.raises(InvalidInput, match=message):
            parser.parse_args(bad)


def test_a_result_with_no_renderer_prints_its_wire_shape() -> None:
    out = io.StringIO()
    ctx = Context(argparse.Namespace(json=False), out=out)
    plain = Operation("odd", "dict", call="odd", cli="memory odd")
    assert show(ctx, plain, {"id": "01ABC", "weight": 3}) == 0
    assert out.getvalue() == "id:     01ABC\nweight: 3\n"


def test_main_leaves_the_collector_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    from embornal.interfaces.cli import main as cli_main

    assert gc.isenabled()
    assert cli_main.main(["--json", "memory", "kinds", "project"]) == 0
    assert gc.isenabled()
    assert '"kind": "project"' in capsys.readouterr().out


def test_a_number_input_and_a_repeatable_flag() -> None:
    op = Operation(
        "rate",
        "Fact",
        (
            Input("weight", "float", "The weight.", True, low=0, high=1, flag="--weight"),
            Input("evidence", "evidence", "What supports it.", nargs="+"),
        ),
        call="rate",
        cli="memory rate",
    )
    parser = ArgParser(prog="embornal memory rate")
    fill(parser, op)
    args = parser.parse_args(["--weight", "0.5", "--evidence", "uri:x", "--evidence", "quote:y"])
    assert args.weight == 0.5 and args.evidence == ["uri:x", "quote:y"]
    for bad in ("1.5", "nan", "x"):
        with pytest.raises(InvalidInput, match="--weight must be a number from 0 to 1"):
            parser.parse_args(["--weight", bad])


def test_a_positional_number_and_a_repeated_positional() -> None:
    op = Operation(
        "weight",
        "Fact",
        (
            Input("fact_id", "id", "The fact id.", True, metavar="ID"),
            Input("weight", "float", "The weight.", True, low=0, high=1, metavar="W"),
            Input("tags", "tags", "Tags.", True, flag="", metavar="KEY=VALUE"),
        ),
        call="weight",
        cli="memory weight",
    )
    parser = ArgParser(prog="embornal memory weight")
    fill(parser, op)
    args = parser.parse_args(["01ABC", "0.25", "a=b", "c=d"])
    assert args.weight == 0.25 and args.tags == ["a=b", "c=d"]
    with pytest.raises(InvalidInput, match="W must be a number from 0 to 1, not '2'"):
        parser.parse_args(["01ABC", "2", "a=b"])
