"""The commands of ``embornal``: each one's flags and help text, and its handler.

:func:`.tree.build_parser` names the groups; the functions here fill a group, or
add one command's flags, when argparse selects it.
"""

from __future__ import annotations

import argparse

from embornal.domain.bounds import MAX_EXPIRY_DAYS, MAX_LIMIT, MAX_REINDEX_LIMIT, in_range
from embornal.errors import InvalidInput
from embornal.interfaces.cli.parser import POLICY_SHAPES, ArgParser, Build, Commands, add_command

__all__ = [
    "RECALL_MODES",
    "admin",
    "config",
    "mcp_args",
    "memory",
    "model",
    "policy",
    "serve_args",
    "token",
]


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


_AT_HELP = (
    "answer as the memory was at TIME (as recorded then, read-only): an ISO-8601 date or "
    "time, UTC unless a zone is given (a date is its start), or now, yesterday, "
    "'N minutes|hours|days|weeks ago'"
)


def _at_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--at", metavar="TIME", help=_AT_HELP)


def _tag_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tag",
        dest="tags",
        action="append",
        metavar="KEY=VALUE",
        help="a tag for the fact (repeatable); the owner tag is written by the memory",
    )
    p.add_argument("--reason", help="why: kept in the history with the event")


def _attr_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--attr",
        dest="attrs",
        action="append",
        metavar="FIELD=VALUE",
        help=what + " (repeatable; `embornal memory kinds` lists the fields)",
    )


def _kind_options(p: argparse.ArgumentParser, default: str) -> None:
    p.add_argument("--kind", metavar="KIND", help=f"the kind of fact (default: {default})")
    _attr_option(p, "an attribute of the kind")


def _store_args(p: ArgParser) -> None:
    p.add_argument("path", metavar="PATH", help="topic path such as /projects/embornal")
    p.add_argument("content", metavar="CONTENT", nargs="?", help="the fact; '-' or none: stdin")
    _tag_options(p)
    p.add_argument("--at", metavar="TIME", help="ISO-8601 time the fact dates from (imports)")
    _kind_options(p, "fact")
    from embornal.interfaces.cli.visibility_cmds import store_options

    store_options(p)
    p.add_argument("--lifetime", metavar="L", help=_LIFETIME_HELP)


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


def _update_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
    _attr_option(p, "a new value; FIELD= (empty) removes an optional field")
    p.add_argument("--reason", help="why: kept in the history with the event")


def _find_args(p: ArgParser) -> None:
    p.add_argument("--kind", metavar="KIND", required=True, help="the kind to find")
    p.add_argument(
        "--where",
        dest="where",
        action="append",
        metavar="FIELD=VALUE",
        help="an attribute condition, all must hold (repeatable)",
    )
    p.add_argument("--under", metavar="PATH", help="only facts at or below PATH")
    p.add_argument(
        "--limit", type=_limit, metavar="N", help=f"at most N facts (1-{MAX_LIMIT}, default all)"
    )
    _at_option(p)


def _kinds_args(p: ArgParser) -> None:
    p.add_argument("kind", metavar="KIND", nargs="?", help="only this kind")


def _ls_args(p: ArgParser) -> None:
    p.add_argument("path", metavar="PATH", nargs="?", default="/")
    p.add_argument("--plain", action="store_true", help="one path a line, as ls -F")
    _at_option(p)


def _tree_args(p: ArgParser) -> None:
    p.add_argument("path", metavar="PATH", nargs="?", default="/")
    p.add_argument("--dirs-only", action="store_true", help="only paths that hold paths")
    _at_option(p)


def _cat_args(p: ArgParser) -> None:
    p.add_argument("path", metavar="PATH")
    p.add_argument("--limit", type=_limit, metavar="N", help=f"at most N facts (1-{MAX_LIMIT})")
    p.add_argument("--order-by", choices=("date", "signal"), default="date")
    p.add_argument("--recall", action="store_true", help="count the read as a recall")
    p.add_argument("--meta", action="store_true", help="add the Owner and Tags columns")
    _at_option(p)


def _recall_args(p: ArgParser) -> None:
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
    _at_option(p)


def _show_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
    _at_option(p)


_EVIDENCE_HELP = "TYPE:VALUE, TYPE one of quote, uri, conversation, document, observation"


def _evidence_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--evidence", metavar="TYPE:VALUE", help=_EVIDENCE_HELP + " (one per call)")


def _confirm_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
    _evidence_option(p)
    p.add_argument("--reason", help="why: kept in the history with the event")


def _contradict_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
    p.add_argument("--by", metavar="ID2", help="the fact that contradicts it")
    _evidence_option(p)
    p.add_argument("--reason", required=True, help="why (required): kept in the history")


def _evidence_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
    p.add_argument("evidence", metavar="TYPE:VALUE", help=_EVIDENCE_HELP)
    p.add_argument("--note", help="a short note on the evidence")


def _history_args(p: ArgParser) -> None:
    p.add_argument("target", metavar="ID|PATH")


def _undo_args(p: ArgParser) -> None:
    p.add_argument("event", metavar="EVENT_ID", help="the event's id: the # of `memory history`")
    p.add_argument("--reason", required=True, help="why (required): kept in the history")


def _supersede_args(p: ArgParser) -> None:
    p.add_argument("id", metavar="ID")
    p.add_argument("content", metavar="CONTENT")
    _tag_options(p)
    _kind_options(p, "the old fact's")


def _removal_args(purge: bool) -> Build:
    def args(p: ArgParser) -> None:
        p.add_argument("id", metavar="ID")
        p.add_argument("--reason", required=True, help="why (kept in the history)")
        if purge:
            p.add_argument("--yes", "-y", action="store_true", help="do not ask to confirm")

    return args


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
    m = "memory_cmds:"
    add_command(
        group,
        "store",
        m + "store",
        "store one fact on a path",
        late,
        "Store one fact on PATH and print its id and path. CONTENT omitted or '-' reads\n"
        "standard input (UTF-8; trailing line breaks are dropped).",
        _store_args,
    )
    add_command(group, "ls", m + "ls", "list the paths one level below PATH", late, args=_ls_args)
    add_command(
        group, "tree", m + "tree", "draw the tree of paths below PATH", late, args=_tree_args
    )
    add_command(
        group,
        "cat",
        m + "cat",
        "print the facts of one path",
        late,
        "Print the live facts of PATH, oldest first. Reading them is not a recall\n"
        "unless --recall is given.",
        _cat_args,
    )
    add_command(
        group,
        "recall",
        m + "recall",
        "find facts by keyword or meaning (no query: the strongest facts)",
        late,
        "Find facts by keyword, by meaning (with an embedding model) or both, best\n"
        "first. Each hit counts as a recall and makes the fact stronger, unless\n"
        "--no-reinforce. Several QUERY words are joined.",
        _recall_args,
    )
    add_command(group, "show", m + "show", "show one fact whole", late, args=_show_args)
    add_command(
        group,
        "history",
        m + "history",
        "list the events of a fact or a path",
        late,
        args=_history_args,
    )
    add_command(
        group,
        "supersede",
        m + "supersede",
        "correct a fact with a new one",
        late,
        "Write a new fact on the same path that supersedes ID. Without --tag the new\n"
        "fact keeps the tags of the old one, without --kind and --attr its kind and\n"
        "attributes. CONTENT '-' reads standard input.",
        _supersede_args,
    )
    k = "kinds_cmds:"
    add_command(
        group,
        "update",
        k + "update",
        "change some attributes of a typed fact",
        late,
        "Change the attributes given with --attr of the active fact ID; FIELD= (empty)\n"
        "removes an optional one. The result is validated against the fact's kind.",
        _update_args,
    )
    add_command(
        group,
        "find",
        k + "find",
        "list the facts of a kind whose attributes match",
        late,
        "List the live facts of --kind that match every --where FIELD=VALUE, oldest\n"
        "first: id, path, the kind's required fields and when each was created.",
        _find_args,
    )
    add_command(
        group,
        "kinds",
        k + "kinds",
        "print the schema of every kind (fields, types, vocabularies)",
        late,
        args=_kinds_args,
    )
    s = "spine_cmds:"
    add_command(
        group,
        "confirm",
        s + "confirm",
        "vouch for a fact: its confidence goes up",
        late,
        "Confirm the active fact ID: its confidence moves toward 1 and it counts as\n"
        "confirmed now. --evidence attaches what supports it (one per call).",
        _confirm_args,
    )
    add_command(
        group,
        "contradict",
        s + "contradict",
        "dispute a fact: its confidence goes down",
        late,
        "Dispute the active fact ID (--reason is required): its confidence decays.\n"
        "--by names the fact that contradicts it; --evidence what shows it (one).",
        _contradict_args,
    )
    add_command(
        group,
        "evidence",
        s + "evidence",
        "attach evidence to a fact (a weak confirmation)",
        late,
        "Append TYPE:VALUE evidence to the fact ID, e.g. uri:https://example.org or\n"
        "quote:'we picked uv'. Evidence is never edited or removed.",
        _evidence_args,
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
    for name, what in (
        ("forget", "hide a fact from recall (restorable)"),
        ("restore", "bring a forgotten fact back"),
        ("purge", "erase a fact's content for good"),
    ):
        add_command(group, name, m + name, what, late, args=_removal_args(name == "purge"))
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
