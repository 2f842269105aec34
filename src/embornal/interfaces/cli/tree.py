"""The whole command line of ``embornal``: the root parser and its groups.

Each group's and command's parser is made on first use (``parser.Commands.later``): the
fillers live in :mod:`embornal.interfaces.cli.commands`, the primitives in
:mod:`embornal.interfaces.cli.parser`.
"""

from __future__ import annotations

from embornal.interfaces.cli import commands
from embornal.interfaces.cli.parser import (
    EPILOG,
    EXIT_CODES,
    FMT,
    POLICY_SHAPES,
    ArgParser,
    Build,
    add_command,
    commands_of,
    late_options,
)

__all__ = ["build_parser"]


def build_parser() -> ArgParser:
    """The whole command line of ``embornal`` (each parser below it made on first use)."""
    from embornal import __version__

    late = late_options()
    root = ArgParser(
        prog="embornal",
        description="embornal: a local-first, auditable memory for AI agents.",
        epilog=EPILOG,
        formatter_class=FMT,
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
    groups = commands_of(root, "group")

    def group_of(name: str) -> Build:
        """The catalogue's commands of the group, then the filler ``commands.<name>`` (when
        there is one), called when the group is used."""

        def fill(parser: ArgParser) -> None:
            from embornal.interfaces.cli.derived import add_group_commands

            group = commands_of(parser)
            add_group_commands(group, name, late)  # the catalogue's commands of the group
            # then those written by hand, if any (``import_``: a keyword's filler)
            written = getattr(commands, name, None) or getattr(commands, name + "_", None)
            if written is not None:
                written(group, late)

        return fill

    def args_of(name: str) -> Build:
        """The flags of ``commands.<name>``, added when the command is used."""

        def add(parser: ArgParser) -> None:
            getattr(commands, name)(parser)

        return add

    groups.later(
        "memory",
        "store, find, inspect and correct facts",
        group_of("memory"),
        description="Store, find, inspect and correct facts.",
        epilog=EXIT_CODES,
        formatter_class=FMT,
    )
    add_command(
        groups,
        "bootstrap",
        "admin_cmds:bootstrap",
        "print agent instructions to append to AGENTS.md",
        late,
        "Print Markdown instructions that teach an agent to use this memory; --guide:\n"
        "the MCP agent guide (AGENT_GUIDE.md), a system-prompt addendum saying when to\n"
        "call each tool. Touches no file:  embornal bootstrap >> AGENTS.md",
        args_of("bootstrap_args"),
    )
    groups.later(
        "conflict",
        "duplicates, contradictions and stale facts, and their resolution",
        group_of("conflict"),
        description="The conflict queue: nothing is merged or dropped until you resolve it.",
    )
    groups.later(
        "canon",
        "the active canon of task scopes: add, remove, end a scope, list",
        group_of("canon"),
        description="The active canon: the memories a task is about, per scope.",
    )
    groups.later(
        "narrative",
        "versioned accounts of a scope: add, current, review, history, list",
        group_of("narrative"),
        description="Narratives: versioned syntheses whose sources are checked (decision 0085).",
        epilog=EXIT_CODES,
        formatter_class=FMT,
    )
    groups.later(
        "claim",
        "the claims ledger: judgments about material, their evidence and history",
        group_of("claim"),
        description="Claims: judgments about specific material, adopted, revised or withdrawn\n"
        "with reasons; --as-of is record time, --valid-at valid time (decision 0081).",
        epilog=EXIT_CODES,
        formatter_class=FMT,
    )
    groups.later(
        "config", "where the files are, and the configuration in effect", group_of("config")
    )
    groups.later(
        "admin", "migrate, rebuild, verify, back up and restore the database", group_of("admin")
    )
    groups.later(
        "export",
        "write the memory out: Markdown files, or the event log",
        group_of("export"),
        description="Write the memory out as you may read it (decisions 0061, 0062).",
    )
    groups.later(
        "import",
        "read an export back, another memory tool's data, or chats, as proposals",
        group_of("import"),
        description="Read an export back into the memory (the event log, Markdown files), "
        "another memory tool's data (memory-as-history, basic-memory, mem0, mcp-memory) "
        "as one proposal, or a ChatGPT or Claude conversation export as one proposal per "
        "conversation.",
    )

    def mcp(parser: ArgParser) -> None:
        commands.mcp_args(parser)
        commands.mcp_commands(parser, late)

    add_command(
        groups,
        "mcp",
        "admin_cmds:mcp",
        "serve the memory over MCP (stdio); install: write it into a client's config",
        late,
        "Serve the memory over MCP on stdin/stdout until the client closes it.\n"
        "`embornal mcp install CLIENT` writes this command into an MCP client's config.",
        mcp,
    )
    groups.later(
        "proposal",
        "review proposed changes: list, show, approve, reject, edit",
        group_of("proposal"),
        description="Proposals: draft changes that become facts only once approved.",
        epilog=EXIT_CODES,
        formatter_class=FMT,
    )

    def prune(parser: ArgParser) -> None:  # `embornal prune` is `embornal memory prune`
        from embornal.interfaces.catalog import by_name
        from embornal.interfaces.cli.derived import fill

        fill(parser, by_name("prune"))

    op = "propose archiving the facts least worth keeping (deletes nothing)"
    groups.later("prune", op, prune, description=op, parents=[late], formatter_class=FMT)

    def ingest(parser: ArgParser) -> None:  # `embornal ingest` is `embornal memory ingest`
        from embornal.interfaces.catalog import by_name
        from embornal.interfaces.cli.derived import fill

        fill(parser, by_name("ingest"))

    op = "read a conversation or note (FILE or -) into one proposal of memories"
    groups.later("ingest", op, ingest, description=op, parents=[late], formatter_class=FMT)
    groups.later(
        "model",
        "download, list and remove embedding models",
        group_of("model"),
        description="The embedding models in the cache dir (see `embornal config path`).",
    )
    groups.later(
        "token",
        "issue, list and revoke bearer tokens for `embornal serve`",
        group_of("token"),
        description="Bearer tokens: each stands for one subject on `embornal serve`.",
    )
    groups.later(
        "policy",
        "the access rules: who may read, write and delete what",
        group_of("policy"),
        description="The access rules (Casbin policies) of the memory.",
        epilog=POLICY_SHAPES,
        formatter_class=FMT,
    )
    add_command(
        groups,
        "serve",
        "serve_cmds:serve",
        "serve REST, MCP and the wiki over HTTP (tokens only)",
        late,
        "Serve the memory over HTTP until Ctrl-C: REST under /api/v1, MCP at /mcp and\n"
        "the wiki at /. Every request needs a token (`embornal token add`).\n"
        "It listens on 127.0.0.1 unless --bind names another address; a non-loopback\n"
        "bind needs an active token and prints a warning. Plain HTTP: put TLS in front.",
        args_of("serve_args"),
    )
    add_command(
        groups,
        "status",
        "status_cmds:status",
        "the memory at a glance: where, how big, what it holds, what waits",
        late,
        "Print where the memory is and its size on disk, its facts by state, stage and\n"
        "kind, the embedding model and whether it is on disk, the facts waiting for a\n"
        "vector, the open proposals and conflicts, and the server of client mode. Reads\n"
        "only; loads no model. In client mode: what the server reports.",
    )
    add_command(
        groups,
        "doctor",
        "status_cmds:doctor",
        "check each part end to end and say what to do about a failure",
        late,
        "Check the configuration parses, the memory opens, its log verifies against the\n"
        "projections, the keyword index answers, the embedding model loads and embeds\n"
        "(when one is configured), and PostgreSQL answers (when configured). Each failed\n"
        "check says what to do. Exit 0 when every check passes, 8 when one fails.",
        args_of("doctor_args"),
    )
    add_command(
        groups,
        "completion",
        "completion_cmds:completion",
        "print a shell completion script (bash, zsh or fish)",
        late,
        "Print the completion script of SHELL, made from this command line's parser\n"
        "(every command, subcommand and option). Install it with, e.g.:\n"
        "  bash: embornal completion bash > ~/.local/share/bash-completion/completions/embornal\n"
        "  zsh:  embornal completion zsh > ~/.zfunc/_embornal   (fpath+=(~/.zfunc))\n"
        "  fish: embornal completion fish > ~/.config/fish/completions/embornal.fish",
        args_of("completion_args"),
    )
    return root
