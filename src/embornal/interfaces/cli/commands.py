"""The hand-written commands of ``embornal``: each one's flags and help text, and its handler.

:func:`.tree.build_parser` names the groups; the functions here fill a group, or add one
command's flags, when argparse selects it. The commands of the catalogue's operations
(``memory store``, ``recall``...) are not here: :mod:`.derived` makes them from
:mod:`embornal.interfaces.catalog`, before a group's filler runs; a command written here
under the same name replaces the derived one.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_EXPIRY_DAYS, MAX_REINDEX_LIMIT, in_range
from embornal.errors import InvalidInput
from embornal.interfaces.cli.parser import POLICY_SHAPES, ArgParser, Build, Commands, add_command

__all__ = [
    "admin",
    "config",
    "mcp_args",
    "memory",
    "model",
    "policy",
    "serve_args",
    "token",
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


def _reindex_limit(text: str) -> int:
    return _number(text, 1, "--limit", MAX_REINDEX_LIMIT)


def _port(text: str) -> int:
    return _number(text, 0, "--port", 65535)


def _days(text: str) -> float:
    try:
        value: float | None = float(text)
    except ValueError:
        value = None
    if value is None or not in_range(value, MAX_EXPIRY_DAYS):
        raise _out_of_range(
            f"--expires-in must be a number of days above 0 and at most {MAX_EXPIRY_DAYS} "
            f"(100 years), not {text[:40]!r}"
        )
    return value


def _tag_args(p: ArgParser) -> None:
    p.add_argument("path", metavar="PATH")
    p.add_argument("tags", metavar="KEY=VALUE", nargs="+")


def _untag_args(p: ArgParser) -> None:
    p.add_argument("path", metavar="PATH")
    p.add_argument("keys", metavar="KEY", nargs="+")


def _reindex_args(p: ArgParser) -> None:
    p.add_argument("--limit", type=_reindex_limit, metavar="N", help="embed at most N facts")
    p.add_argument("--all", action="store_true", help="re-embed every fact, not only pending")


def _port_arg(default: int) -> Build:
    def args(p: ArgParser) -> None:
        p.add_argument(
            "--port", type=_port, default=default, help="TCP port (default: %(default)s)"
        )

    return args


def memory(group: Commands, late: ArgParser) -> None:
    """The ``memory`` commands outside the catalogue's derivation (the catalogue's own are
    made by :mod:`.derived`; a command added here by the same name takes its place)."""
    m = "memory_cmds:"
    add_command(
        group,
        "tag",
        m + "tag",
        "put tags on a path (facts below inherit them)",
        late,
        args=_tag_args,
    )
    add_command(group, "untag", m + "untag", "remove tags from a path", late, args=_untag_args)
    add_command(
        group,
        "reindex",
        m + "reindex",
        "give a vector to each fact that waits for one",
        late,
        "Embed the facts stored while no model was there (or when it failed) with the\n"
        "embedding model of config.yaml. --all embeds every fact again (after a model\n"
        "change). A progress line shows on stderr when it is a terminal.",
        _reindex_args,
    )
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


def _token_add_args(p: ArgParser) -> None:
    p.add_argument("subject", metavar="SUBJECT")
    p.add_argument("--name", metavar="TEXT", help="a label, e.g. the machine it is for")
    p.add_argument(
        "--expires-in",
        type=_days,
        metavar="DAYS",
        help=f"expire after DAYS, at most {MAX_EXPIRY_DAYS} (default: never)",
    )
    p.add_argument("--no-rules", action="store_true", help="add no rules for SUBJECT")


def _token_ls_args(p: ArgParser) -> None:
    p.add_argument("--all", action="store_true", help="include revoked and expired tokens")


def _token_revoke_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID|TOKEN")


def token(sub: Commands, late: ArgParser) -> None:
    add_command(
        sub,
        "add",
        "sharing_cmds:token_add",
        "issue a token for SUBJECT (shown once)",
        late,
        "Issue a bearer token for SUBJECT and print it, this once: only its hash is\n"
        "stored. Unless --no-rules, SUBJECT also gets the rules it lacks of the default\n"
        "set: its own facts (read, write, delete), writes anywhere, public reads.",
        _token_add_args,
    )
    add_command(
        sub,
        "ls",
        "sharing_cmds:token_ls",
        "list tokens (never the tokens themselves)",
        late,
        args=_token_ls_args,
    )
    add_command(
        sub,
        "revoke",
        "sharing_cmds:token_revoke",
        "revoke a token at once",
        late,
        "Revoke the token with this ID (a unique prefix is enough), or the token\n"
        "itself (it names its id). The subject's rules stay: see `embornal policy`.",
        _token_revoke_args,
    )


def _rule_args(p: ArgParser) -> None:
    p.add_argument("ptype", choices=("p", "g"), metavar="p|g")
    p.add_argument("values", metavar="VALUE", nargs="+")


def _check_args(p: ArgParser) -> None:
    p.add_argument("subject", metavar="SUBJECT")
    p.add_argument("action", choices=("read", "write", "delete"), metavar="ACTION")
    p.add_argument("target", metavar="TARGET")


def policy(sub: Commands, late: ArgParser) -> None:
    for name, verb in (("add", "add"), ("rm", "remove")):
        add_command(
            sub,
            name,
            f"sharing_cmds:policy_{name}",
            f"{verb} a rule: p SUBJECT OBJECT ACTION [allow|deny], or g SUBJECT ROLE",
            late,
            f"{verb.capitalize()} one rule.\n\n{POLICY_SHAPES}",
            _rule_args,
        )
    add_command(sub, "ls", "sharing_cmds:policy_ls", "list every rule", late)
    add_command(
        sub,
        "check",
        "sharing_cmds:policy_check",
        "would SUBJECT be allowed ACTION on TARGET? and which rule decides",
        late,
        "Print allow or deny and the rule that decided (or 'no rule matched').\n"
        "TARGET is a path (a new fact there) or a fact id. Exit 0 either way.",
        _check_args,
    )
