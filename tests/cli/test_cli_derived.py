"""The catalogue's commands are derived from its records: every input reachable, no code per
command, and a new operation gets its command from its record alone."""

from __future__ import annotations

import argparse
import io

import pytest

from embornal.errors import InvalidInput
from embornal.interfaces.catalog import CATALOG, Input, Operation
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.derived import HANDLER, fill, flag_of, show
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


@pytest.mark.parametrize(
    "op",
    [op for op in CATALOG if op.cli is not None and (op.cli_help or op.inputs)],
    ids=lambda op: op.name,
)
def test_every_input_of_a_catalogue_command_is_on_its_parser(op: Operation) -> None:
    assert op.cli is not None
    parser = _command_parser(op.cli)
    assert parser.get_default("handler") == HANDLER
    assert parser.get_default("operation") == op.name
    actions = {a.dest: a for a in parser._actions}
    for item in (*op.inputs, *op.cli_args):
        if not item.cli:
            continue
        assert item.name in actions, f"{op.cli}: no argument for {item.name}"
        assert list(actions[item.name].option_strings) == flag_of(item), (op.cli, item.name)


def test_local_only_commands_without_inputs_are_written_by_hand() -> None:
    """tag, untag, reindex, policy and token: the catalogue names them, the CLI writes them."""
    for op in CATALOG:
        if op.cli is not None and not op.inputs and not op.cli_help and op.call != "kinds":
            assert _command_parser(op.cli).get_default("handler") != HANDLER, op.cli


_NEW = Operation(
    "weigh",
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


def test_a_result_with_no_renderer_prints_its_wire_shape() -> None:
    out = io.StringIO()
    ctx = Context(argparse.Namespace(json=False), out=out)
    plain = Operation("odd", "odd", "dict", cli="memory odd")
    assert show(ctx, plain, {"id": "01ABC", "weight": 3}) == 0
    assert out.getvalue() == "id:     01ABC\nweight: 3\n"


def test_main_leaves_the_collector_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    from embornal.interfaces.cli import main as cli_main

    assert gc.isenabled()
    assert cli_main.main(["--json", "memory", "kinds", "project"]) == 0
    assert gc.isenabled()
    assert '"kind": "project"' in capsys.readouterr().out
