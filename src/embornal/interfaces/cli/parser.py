"""The argparse tree of ``embornal``: groups, commands, flags and help text.

Each command names its handler as ``"module:function"`` (a module of this
package), so parsing imports no command code; :mod:`.main` imports the one
handler that runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any, NoReturn, TypeVar, overload

from embornal.domain.bounds import MAX_EXPIRY_DAYS, MAX_LIMIT, MAX_REINDEX_LIMIT, in_range
from embornal.errors import InvalidInput

__all__ = ["EXIT_CODES", "ArgParser", "UsageError", "build_parser"]

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


POLICY_SHAPES = """\
rules:
  p SUBJECT OBJECT ACTION [allow|deny]   ACTION: read, write or delete
  g SUBJECT ROLE                         SUBJECT holds ROLE's rules
  OBJECT: path:/x (that path), path:/x/* (the subtree, /x too), tag:k=v
  A deny beats every allow; no rule means no access.
"""


class UsageError(Exception):
    """A command line argparse rejected; ``main`` prints it and exits 2."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


_N = TypeVar("_N")
_HIDE = "\x00"


class ArgParser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so ``--json`` can report it.

    A command (a parser with no subcommands) takes its flags anywhere among its
    arguments: ``store /x --at 2026-01-01 "text"`` parses as people write it.
    """

    _intermixing = False

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


def _late_options() -> ArgParser:
    """The global flags again, for after the command (``recall foo --json``)."""
    late = ArgParser(add_help=False)
    s = argparse.SUPPRESS
    late.add_argument("--json", action="store_true", default=s, help=s)
    late.add_argument("--db", metavar="PATH", default=s, help=s)
    late.add_argument("--as-subject", metavar="SUBJECT", default=s, help=s)
    return late


_FMT = argparse.RawDescriptionHelpFormatter


def _cmd(
    group: argparse._SubParsersAction[ArgParser],
    name: str,
    handler: str,
    help_text: str,
    late: ArgParser,
    description: str | None = None,
) -> ArgParser:
    parser = group.add_parser(
        name,
        help=help_text,
        description=description or help_text,
        parents=[late],
        formatter_class=_FMT,
    )
    parser.set_defaults(handler=handler)
    return parser


RECALL_MODES = ("auto", "keyword", "vector", "hybrid")


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


def _tag_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tag",
        dest="tags",
        action="append",
        metavar="KEY=VALUE",
        help="a tag for the fact (repeatable); the owner tag is written by the memory",
    )
    p.add_argument("--reason", help="why: kept in the history with the event")


def _memory(group: argparse._SubParsersAction[ArgParser], late: ArgParser) -> None:
    m = "memory_cmds:"
    p = _cmd(
        group,
        "store",
        m + "store",
        "store one fact on a path",
        late,
        "Store one fact on PATH and print its id and path. CONTENT omitted or '-' reads\n"
        "standard input (UTF-8; trailing line breaks are dropped).",
    )
    p.add_argument("path", metavar="PATH", help="topic path such as /projects/embornal")
    p.add_argument("content", metavar="CONTENT", nargs="?", help="the fact; '-' or none: stdin")
    _tag_options(p)
    p.add_argument("--at", metavar="TIME", help="ISO-8601 time the fact dates from (imports)")

    p = _cmd(group, "ls", m + "ls", "list the paths one level below PATH", late)
    p.add_argument("path", metavar="PATH", nargs="?", default="/")
    p.add_argument("--plain", action="store_true", help="one path a line, as ls -F")

    p = _cmd(group, "tree", m + "tree", "draw the tree of paths below PATH", late)
    p.add_argument("path", metavar="PATH", nargs="?", default="/")
    p.add_argument("--dirs-only", action="store_true", help="only paths that hold paths")

    p = _cmd(
        group,
        "cat",
        m + "cat",
        "print the facts of one path",
        late,
        "Print the live facts of PATH, oldest first. Reading them is not a recall\n"
        "unless --recall is given.",
    )
    p.add_argument("path", metavar="PATH")
    p.add_argument("--limit", type=_limit, metavar="N", help=f"at most N facts (1-{MAX_LIMIT})")
    p.add_argument("--order-by", choices=("date", "signal"), default="date")
    p.add_argument("--recall", action="store_true", help="count the read as a recall")
    p.add_argument("--meta", action="store_true", help="add the Owner and Tags columns")

    p = _cmd(
        group,
        "recall",
        m + "recall",
        "find facts by keyword or meaning (no query: the strongest facts)",
        late,
        "Find facts by keyword, by meaning (with an embedding model) or both, best\n"
        "first. Each hit counts as a recall and makes the fact stronger, unless\n"
        "--no-reinforce. Several QUERY words are joined.",
    )
    p.add_argument("query", metavar="QUERY", nargs="*")
    p.add_argument(
        "--limit",
        type=_limit,
        metavar="N",
        help=f"at most N hits, 1-{MAX_LIMIT} (default: config recall.limit)",
    )
    p.add_argument("--under", metavar="PATH", help="only facts at or below PATH")
    p.add_argument("--scores", action="store_true", help="add the total score column")
    p.add_argument("--explain", action="store_true", help="print every part of each score")
    p.add_argument("--plain", action="store_true", help="path TAB fact, one hit a line")
    p.add_argument("--meta", action="store_true", help="add the ID, Owner and Tags columns")
    p.add_argument("--no-reinforce", action="store_true", help="do not count as a recall")
    p.add_argument(
        "--mode",
        choices=RECALL_MODES,
        default="auto",
        help="keyword, vector (by meaning), hybrid (both), or auto: hybrid when a model "
        "is set up, else keyword (default: %(default)s)",
    )

    p = _cmd(group, "show", m + "show", "show one fact whole", late)
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")

    p = _cmd(group, "history", m + "history", "list the events of a fact or a path", late)
    p.add_argument("target", metavar="ID|PATH")

    p = _cmd(
        group,
        "supersede",
        m + "supersede",
        "correct a fact with a new one",
        late,
        "Write a new fact on the same path that supersedes ID. Without --tag the new\n"
        "fact keeps the tags of the old one. CONTENT '-' reads standard input.",
    )
    p.add_argument("id", metavar="ID")
    p.add_argument("content", metavar="CONTENT")
    _tag_options(p)

    for name, what in (
        ("forget", "hide a fact from recall (restorable)"),
        ("restore", "bring a forgotten fact back"),
        ("purge", "erase a fact's content for good"),
    ):
        p = _cmd(group, name, m + name, what, late)
        p.add_argument("id", metavar="ID")
        p.add_argument("--reason", required=True, help="why (kept in the history)")
        if name == "purge":
            p.add_argument("--yes", "-y", action="store_true", help="do not ask to confirm")

    p = _cmd(group, "tag", m + "tag", "put tags on a path (facts below inherit them)", late)
    p.add_argument("path", metavar="PATH")
    p.add_argument("tags", metavar="KEY=VALUE", nargs="+")

    p = _cmd(group, "untag", m + "untag", "remove tags from a path", late)
    p.add_argument("path", metavar="PATH")
    p.add_argument("keys", metavar="KEY", nargs="+")

    p = _cmd(
        group,
        "reindex",
        m + "reindex",
        "give a vector to each fact that waits for one",
        late,
        "Embed the facts stored while no model was there (or when it failed) with the\n"
        "embedding model of config.yaml. --all embeds every fact again (after a model\n"
        "change). A progress line shows on stderr when it is a terminal.",
    )
    p.add_argument("--limit", type=_reindex_limit, metavar="N", help="embed at most N facts")
    p.add_argument("--all", action="store_true", help="re-embed every fact, not only pending")

    p = _cmd(
        group,
        "wiki",
        "serve_cmds:wiki",
        "browse the memory in a web browser (127.0.0.1, no login)",
        late,
        "Serve the wiki pages of the memory on 127.0.0.1 as the subject default, with\n"
        "no login, until Ctrl-C. For other machines or subjects use `embornal serve`.",
    )
    p.add_argument("--port", type=_port, default=1337, help="TCP port (default: %(default)s)")


def build_parser() -> ArgParser:
    """The whole command line of ``embornal``."""
    from embornal import __version__

    late = _late_options()
    root = ArgParser(
        prog="embornal",
        description="embornal: a local-first, auditable memory for AI agents.",
        epilog=EPILOG,
        formatter_class=_FMT,
    )
    root.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    root.add_argument("--db", metavar="PATH", help="use this memory.db instead of the data dir's")
    root.add_argument(
        "--as-subject",
        metavar="SUBJECT",
        default="default",
        help="who asks (default: %(default)s)",
    )
    root.add_argument("--version", action="version", version=f"embornal {__version__}")
    groups = root.add_subparsers(dest="group", metavar="COMMAND", required=True)

    memory = groups.add_parser(
        "memory",
        help="store, find, inspect and correct facts",
        description="Store, find, inspect and correct facts.",
        epilog=EXIT_CODES,
        formatter_class=_FMT,
    )
    _memory(memory.add_subparsers(dest="command", metavar="COMMAND", required=True), late)

    _cmd(
        groups,
        "bootstrap",
        "admin_cmds:bootstrap",
        "print agent instructions to append to AGENTS.md",
        late,
        "Print Markdown instructions that teach an agent to use this memory.\n"
        "Touches no file:  embornal bootstrap >> AGENTS.md",
    )

    config = groups.add_parser(
        "config", help="where the files are, and the configuration in effect"
    )
    sub = config.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _cmd(sub, "path", "admin_cmds:config_path", "print the directories and files", late)
    _cmd(sub, "show", "admin_cmds:config_show", "print the configuration in effect", late)

    admin = groups.add_parser("admin", help="migrate, rebuild and verify the database")
    sub = admin.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _cmd(sub, "migrate", "admin_cmds:migrate", "apply pending migrations", late)
    _cmd(sub, "rebuild", "admin_cmds:rebuild", "replay the event log into the projections", late)
    _cmd(
        sub,
        "verify",
        "admin_cmds:verify",
        "check the projections against the event log",
        late,
        "Rebuild a scratch copy from the event log and compare it with the live\n"
        "projections. Exit 0 when they match, 8 when they differ.",
    )

    p = _cmd(groups, "mcp", "admin_cmds:mcp", "serve the memory over MCP (stdio)", late)
    p.add_argument(
        "--profile", choices=("core", "full"), default="core", help="which tools to offer"
    )

    _model(groups, late)
    _token(groups, late)
    _policy(groups, late)

    p = _cmd(
        groups,
        "serve",
        "serve_cmds:serve",
        "serve REST, MCP and the wiki over HTTP (tokens only)",
        late,
        "Serve the memory over HTTP until Ctrl-C: REST under /api/v1, MCP at /mcp and\n"
        "the wiki at /. Every request needs a token (`embornal token add`).\n"
        "It listens on 127.0.0.1 unless --bind names another address; a non-loopback\n"
        "bind needs an active token and prints a warning. Plain HTTP: put TLS in front.",
    )
    p.add_argument(
        "--bind",
        metavar="ADDRESS",
        help="address to listen on (default: 127.0.0.1); 0.0.0.0 reaches the network",
    )
    p.add_argument("--port", type=_port, default=1338, help="TCP port (default: %(default)s)")
    p.add_argument(
        "--mcp-profile",
        choices=("core", "full"),
        default="core",
        help="which MCP tools /mcp offers (default: %(default)s)",
    )
    return root


def _model(groups: argparse._SubParsersAction[ArgParser], late: ArgParser) -> None:
    model = groups.add_parser(
        "model",
        help="download, list and remove embedding models",
        description="The embedding models in the cache dir (see `embornal config path`).",
    )
    sub = model.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = _cmd(
        sub,
        "pull",
        "model_cmds:pull",
        "download an embedding model into the cache",
        late,
        "Download NAME, a hub repository with an ONNX export (owner/name), or with no\n"
        "NAME the model config.yaml asks for (embedding.model, else the default\n"
        "intfloat/multilingual-e5-base, about 1.1 GB). An interrupted pull resumes.",
    )
    p.add_argument("name", metavar="NAME", nargs="?", help="hub repository, e.g. owner/name")
    _cmd(sub, "ls", "model_cmds:ls", "list the models in the cache, with their size", late)
    p = _cmd(sub, "rm", "model_cmds:rm", "delete a model from the cache", late)
    p.add_argument("name", metavar="NAME", help="as `embornal model ls` shows it")


def _token(groups: argparse._SubParsersAction[ArgParser], late: ArgParser) -> None:
    token = groups.add_parser(
        "token",
        help="issue, list and revoke bearer tokens for `embornal serve`",
        description="Bearer tokens: each stands for one subject on `embornal serve`.",
    )
    sub = token.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = _cmd(
        sub,
        "add",
        "sharing_cmds:token_add",
        "issue a token for SUBJECT (shown once)",
        late,
        "Issue a bearer token for SUBJECT and print it, this once: only its hash is\n"
        "stored. Unless --no-rules, SUBJECT also gets the rules it lacks of the default\n"
        "set: its own facts (read, write, delete), writes anywhere, public reads.",
    )
    p.add_argument("subject", metavar="SUBJECT")
    p.add_argument("--name", metavar="TEXT", help="a label, e.g. the machine it is for")
    p.add_argument(
        "--expires-in",
        type=_days,
        metavar="DAYS",
        help=f"expire after DAYS, at most {MAX_EXPIRY_DAYS} (default: never)",
    )
    p.add_argument("--no-rules", action="store_true", help="add no rules for SUBJECT")
    p = _cmd(sub, "ls", "sharing_cmds:token_ls", "list tokens (never the tokens themselves)", late)
    p.add_argument("--all", action="store_true", help="include revoked and expired tokens")
    p = _cmd(
        sub,
        "revoke",
        "sharing_cmds:token_revoke",
        "revoke a token at once",
        late,
        "Revoke the token with this ID (a unique prefix is enough), or the token\n"
        "itself (it names its id). The subject's rules stay: see `embornal policy`.",
    )
    p.add_argument("id", metavar="ID|TOKEN")


def _policy(groups: argparse._SubParsersAction[ArgParser], late: ArgParser) -> None:
    policy = groups.add_parser(
        "policy",
        help="the access rules: who may read, write and delete what",
        description="The access rules (Casbin policies) of the memory.",
        epilog=POLICY_SHAPES,
        formatter_class=_FMT,
    )
    sub = policy.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, verb in (("add", "add"), ("rm", "remove")):
        p = _cmd(
            sub,
            name,
            f"sharing_cmds:policy_{name}",
            f"{verb} a rule: p SUBJECT OBJECT ACTION [allow|deny], or g SUBJECT ROLE",
            late,
            f"{verb.capitalize()} one rule.\n\n{POLICY_SHAPES}",
        )
        p.add_argument("ptype", choices=("p", "g"), metavar="p|g")
        p.add_argument("values", metavar="VALUE", nargs="+")
    _cmd(sub, "ls", "sharing_cmds:policy_ls", "list every rule", late)
    p = _cmd(
        sub,
        "check",
        "sharing_cmds:policy_check",
        "would SUBJECT be allowed ACTION on TARGET? and which rule decides",
        late,
        "Print allow or deny and the rule that decided (or 'no rule matched').\n"
        "TARGET is a path (a new fact there) or a fact id. Exit 0 either way.",
    )
    p.add_argument("subject", metavar="SUBJECT")
    p.add_argument("action", choices=("read", "write", "delete"), metavar="ACTION")
    p.add_argument("target", metavar="TARGET")
