"""The hand-written commands of ``embornal``: each one's flags and help text, and its handler.

:func:`.tree.build_parser` names the groups; the functions here fill a group, or add one
command's flags, when argparse selects it. The commands of the catalogue's operations
(``memory store``, ``recall``, ``memory tag``, ``token add``, ``policy check``...) are not
here: :mod:`.derived` makes them from :mod:`embornal.interfaces.catalog`, before a group's
filler runs (a group with no filler here, ``token`` and ``policy``, is the catalogue's
alone); a command written here under the same name replaces the derived one.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT
from embornal.errors import InvalidInput
from embornal.interfaces.cli.parser import ArgParser, Build, Commands, add_command

__all__ = [
    "admin",
    "config",
    "mcp_args",
    "memory",
    "model",
    "serve_args",
]


def _out_of_range(message: str) -> InvalidInput:
    """A number out of its range: one line and exit 2, not argparse's usage block."""
    return InvalidInput(message, hint="See the command's --help for the allowed range.")


def _number(text: str, low: int, flag: str, high: int) -> int:
    """A whole number from ``low`` to ``high``, or :class:`InvalidInput` naming ``flag``."""
    try:
        value = int(text)
    except ValueError:  # also a number of more than 4300 digits
        value = None
    if value is None or not low <= value <= high:
        raise _out_of_range(
            f"{flag} must be a whole number from {low} to {high}, not {text[:40]!r}"
        )
    return value


def _limit(text: str) -> int:
    return _number(text, 1, "--limit", MAX_LIMIT)


def _port(text: str) -> int:
    return _number(text, 0, "--port", 65535)


def _undo_args(p: ArgParser) -> None:
    p.add_argument("event", metavar="EVENT_ID", help="the event's id: the # of `memory history`")
    p.add_argument("--reason", required=True, help="why (required): kept in the history")


def _port_arg(default: int) -> Build:
    def args(p: ArgParser) -> None:
        p.add_argument(
            "--port", type=_port, default=default, help="TCP port (default: %(default)s)"
        )

    return args


def memory(group: Commands, late: ArgParser) -> None:
    """The ``memory`` commands outside the catalogue's derivation (the catalogue's own are
    made by :mod:`.derived`; a command added here by the same name takes its place)."""
    add_command(
        group,
        "wiki",
        "serve_cmds:wiki",
        "browse the memory in a web browser (127.0.0.1, no login)",
        late,
        "Serve the wiki pages of the memory on 127.0.0.1 as the subject default, with\n"
        "no login, until Ctrl-C. For other machines or subjects use `embornal serve`.",
        _port_arg(1337),
    )
    add_command(
        group,
        "undo",
        "undo_cmds:undo",
        "undo one event of a history (a purge cannot be undone)",
        late,
        "Append the events that undo EVENT_ID (the # column of `memory history`): a\n"
        "store is forgotten, a forget restored, attributes and confidence set back.",
        _undo_args,
    )
    add_command(
        group,
        "visibility",
        "visibility_cmds:visibility",
        "set who may see a fact (shared, private, restricted:a,b)",
        late,
        "Set who may see the fact ID (yours only): shared, private (you only; never an\n"
        "assistant) or restricted:a,b (you and the subjects or roles listed).",
        _visibility_args,
    )
    i = "importance_cmds:"
    for name, what, arg, about in (
        ("pin", "pin a fact: recall lifts it", None, "Pin the active fact ID."),
        ("unpin", "take the pin off a fact", None, "Unpin the active fact ID."),
        ("weight", "set how much a fact matters (0-1)", "weight",
         "Set the user weight of the fact ID to W, 0..1 (0.5 neutral: above lifts it in\n"
         "recall, below lowers it); none takes the weight off."),
        ("lifetime", "set how long a fact lives", "lifetime",
         "Set the lifetime of the fact ID: permanent, standard, ephemeral (a day) or\n"
         "until:YYYY-MM-DD (today or later). It leaves recall once the lifetime runs out;\n"
         "a new lifetime brings it back."),
    ):  # fmt: skip
        add_command(group, name, i + name, what, late, about, _importance_args(arg))
    add_command(
        group,
        "due",
        i + "due",
        "list the stale facts to confirm again",
        late,
        "The facts whose confidence has decayed below their kind's staleness threshold\n"
        "since they were last confirmed, most urgent first.",
        _due_args,
    )


def _visibility_args(p: ArgParser) -> None:
    from embornal.interfaces.cli.visibility_cmds import visibility_args

    visibility_args(p)


_LIFETIME_HELP = "permanent, standard (default), ephemeral (a day) or until:YYYY-MM-DD"


def _importance_args(what: str | None) -> Build:
    """ID, then ``what`` (a positional such as the weight), and --reason."""

    def args(p: ArgParser) -> None:
        p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
        if what == "weight":
            p.add_argument("weight", metavar="W", help="0 to 1 (0.5 neutral), or none")
        elif what == "lifetime":
            p.add_argument("lifetime", metavar="L", help=_LIFETIME_HELP)
        p.add_argument("--reason", help="why: kept in the history with the event")

    return args


def _due_args(p: ArgParser) -> None:
    p.add_argument("--under", metavar="PATH", help="only facts at or below PATH")
    p.add_argument("--limit", type=_limit, metavar="N", help=f"at most N facts (1-{MAX_LIMIT})")


def mcp_args(p: ArgParser) -> None:
    p.add_argument(
        "--profile", choices=("core", "full"), default="core", help="which tools to offer"
    )


def serve_args(p: ArgParser) -> None:
    p.add_argument(
        "--bind",
        metavar="ADDRESS",
        help="address to listen on (default: 127.0.0.1); 0.0.0.0 reaches the network",
    )
    _port_arg(1338)(p)
    p.add_argument(
        "--mcp-profile",
        choices=("core", "full"),
        default="core",
        help="which MCP tools /mcp offers (default: %(default)s)",
    )


def config(sub: Commands, late: ArgParser) -> None:
    add_command(sub, "path", "admin_cmds:config_path", "print the directories and files", late)
    add_command(sub, "show", "admin_cmds:config_show", "print the configuration in effect", late)


def admin(sub: Commands, late: ArgParser) -> None:
    add_command(sub, "migrate", "admin_cmds:migrate", "apply pending migrations", late)
    add_command(
        sub, "rebuild", "admin_cmds:rebuild", "replay the event log into the projections", late
    )
    add_command(
        sub,
        "verify",
        "admin_cmds:verify",
        "check the projections against the event log",
        late,
        "Rebuild a scratch copy from the event log and compare it with the live\n"
        "projections. Exit 0 when they match, 8 when they differ.",
    )


def _pull_args(p: ArgParser) -> None:
    p.add_argument("name", metavar="NAME", nargs="?", help="hub repository, e.g. owner/name")


def _rm_args(p: ArgParser) -> None:
    p.add_argument("name", metavar="NAME", help="as `embornal model ls` shows it")


def model(sub: Commands, late: ArgParser) -> None:
    add_command(
        sub,
        "pull",
        "model_cmds:pull",
        "download an embedding model into the cache",
        late,
        "Download NAME, a hub repository with an ONNX export (owner/name), or with no\n"
        "NAME the model config.yaml asks for (embedding.model, else the default\n"
        "intfloat/multilingual-e5-base, about 1.1 GB). An interrupted pull resumes.",
        _pull_args,
    )
    add_command(sub, "ls", "model_cmds:ls", "list the models in the cache, with their size", late)
    add_command(sub, "rm", "model_cmds:rm", "delete a model from the cache", late, args=_rm_args)
