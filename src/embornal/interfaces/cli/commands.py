"""The hand-written commands of ``embornal``: each one's flags and help text, and its handler.

:func:`.tree.build_parser` names the groups; the functions here fill a group, or add one
command's flags, when argparse selects it. The commands of the catalogue's operations
(``memory store``, ``recall``, ``memory tag``, ``token add``, ``policy check``...) are not
here: :mod:`.derived` makes them from :mod:`embornal.interfaces.catalog`, before a group's
filler runs (a group with no filler here, ``token`` and ``policy``, is the catalogue's
alone); a command written here under the same name replaces the derived one.
"""

from __future__ import annotations

from embornal.interfaces.cli.parser import ArgParser, Build, Commands, add_command, number

__all__ = [
    "admin",
    "completion_args",
    "config",
    "doctor_args",
    "import_",
    "mcp_args",
    "mcp_commands",
    "memory",
    "model",
    "serve_args",
]


_port = number(0, 65535, "--port")


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
        "browse the memory in a web browser (127.0.0.1, with the key it prints)",
        late,
        "Serve the wiki pages of the memory on 127.0.0.1 as the subject default until\n"
        "Ctrl-C. Open the URL it prints: it holds a key drawn at each start, without\n"
        "which the pages answer 401. For other machines or subjects use `embornal serve`.",
        _port_arg(1337),
    )


def bootstrap_args(p: ArgParser) -> None:
    p.add_argument(
        "--guide",
        action="store_true",
        help="print the MCP agent guide (AGENT_GUIDE.md) instead of the CLI instructions",
    )


def mcp_args(p: ArgParser) -> None:
    from embornal.interfaces.mcp.profiles import COMPAT_MODES

    p.add_argument(
        "--profile",
        choices=("core", "full"),
        default=None,
        help="which tools to offer (default: mcp.tools in config.yaml, or EMBORNAL_MCP_TOOLS;"
        " else core)",
    )
    p.add_argument(
        "--refusals",
        choices=("error", "result"),
        default="error",
        help="answer a refusal as an MCP error {error, message, hint} (default), or as"
        " memory-as-history does: a plain result named after its exception",
    )
    p.add_argument(
        "--compat",
        choices=COMPAT_MODES,
        default=None,
        help="serve as memory-as-history's clients expect it: its tool lists for core and"
        " full (an unknown profile falls back to core), refusals as results, times with"
        " +00:00, relative times refused (default: EMBORNAL_MCP_COMPAT, else none)",
    )


def mcp_commands(p: ArgParser, late: ArgParser) -> None:
    """``embornal mcp install CLIENT``, beside ``embornal mcp`` itself (which serves)."""
    from embornal.interfaces.cli.parser import Commands, add_command

    group = p.add_subparsers(dest="command", metavar="COMMAND", required=False, action=Commands)
    assert isinstance(group, Commands)

    def install_args(q: ArgParser) -> None:
        from embornal.adapters.mcp_clients import CLIENTS

        q.add_argument("client", metavar="CLIENT", choices=CLIENTS, help=" | ".join(CLIENTS))
        q.add_argument(
            "--profile",
            choices=("core", "full"),
            default=None,
            help="the tools the client gets (default: what embornal mcp picks when it starts)",
        )
        q.add_argument(
            "--config", metavar="PATH", help="write this file instead of the client's own"
        )
        q.add_argument("--yes", action="store_true", help="write without asking")
        q.add_argument(
            "--dry-run",
            "--print",
            dest="dry_run",
            action="store_true",
            help="only print the change; write nothing",
        )

    add_command(
        group,
        "install",
        "mcp_install_cmds:install",
        "write embornal into an MCP client's configuration",
        late,
        "Add the server `embornal` to the configuration of CLIENT (claude-code: ~/.claude.json;\n"
        "claude-desktop: claude_desktop_config.json; cursor: ~/.cursor/mcp.json; codex:\n"
        "~/.codex/config.toml), keeping its other servers: the absolute path of this\n"
        "embornal, `mcp` and --profile, and an env block with EMBORNAL_HOME. Shows the\n"
        "change and asks before writing (--yes: no question; --dry-run: write nothing).",
        install_args,
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
        default=None,
        help="which MCP tools /mcp offers (default: mcp.tools in config.yaml, or "
        "EMBORNAL_MCP_TOOLS; else core)",
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
    add_command(
        sub,
        "restore",
        "portability.commands:restore",
        "check a backup FILE, then write it over the memory",
        late,
        "Check FILE (a sound database, migrated to this version, its projections equal\n"
        "to a replay of its log), then write it over the memory in one transaction.\n"
        "A memory that holds facts is replaced only with --replace. Stop the servers\n"
        "of the memory first. A PostgreSQL --db: FILE is copied into the database,\n"
        "which must hold no memory.",
        _restore_args,
    )


def _restore_args(p: ArgParser) -> None:
    from embornal.interfaces.portability.commands import restore_args

    restore_args(p)


def _pull_args(p: ArgParser) -> None:
    p.add_argument("name", metavar="NAME", nargs="?", help="hub repository, e.g. owner/name")
    p.add_argument(
        "--reranker",
        action="store_true",
        help="the cross-encoder of `recall --rerank` (rerank.model, else the default)",
    )


def _rm_args(p: ArgParser) -> None:
    p.add_argument("name", metavar="NAME", help="as `embornal model ls` shows it")


def model(sub: Commands, late: ArgParser) -> None:
    add_command(
        sub,
        "pull",
        "model_cmds:pull",
        "download an embedding model (or the reranker) into the cache",
        late,
        "Download NAME, a hub repository with an ONNX export (owner/name), or with no\n"
        "NAME the model config.yaml asks for (embedding.model, else the default\n"
        "intfloat/multilingual-e5-small, 384-d: about 470 MB fetched, then quantized\n"
        "to int8, 118 MB, the file that loads). With --reranker: the cross-encoder of\n"
        "`memory recall --rerank` (rerank.model, else the default\n"
        "cross-encoder/ms-marco-MiniLM-L-6-v2, about 90 MB). An interrupted pull resumes.",
        _pull_args,
    )
    add_command(sub, "ls", "model_cmds:ls", "list the models in the cache, with their size", late)
    add_command(sub, "rm", "model_cmds:rm", "delete a model from the cache", late, args=_rm_args)


def _import_args(p: ArgParser) -> None:
    from embornal.interfaces.cli.conversation_cmds import import_args

    import_args(p)


def import_(sub: Commands, late: ArgParser) -> None:
    """``import chatgpt|claude``: an assistant's conversation export, as proposals (the
    other imports are the catalogue's)."""
    for fmt, who in (("chatgpt", "ChatGPT"), ("claude", "Claude")):
        add_command(
            sub,
            fmt,
            "conversation_cmds:import_conversations",
            f"propose memories from a {who} conversation export (conversations.json)",
            late,
            f"Read FILE, the conversations.json of a {who} data export, check it whole,\n"
            "then read each conversation as `embornal ingest` reads a transcript: ONE\n"
            "proposal per conversation of the memories drafted from your own turns (the\n"
            "assistant's give context only). Nothing is stored until `embornal proposal\n"
            "approve ID`. A malformed file stops with the conversation it names, and\n"
            "nothing is proposed. Works in client mode too. See docs/importing.md.",
            _import_args,
        )


def doctor_args(p: ArgParser) -> None:
    p.add_argument(
        "--no-embed",
        action="store_true",
        help="do not load the embedding model (the check that takes longest)",
    )


def completion_args(p: ArgParser) -> None:
    p.add_argument(
        "shell", metavar="SHELL", choices=("bash", "zsh", "fish"), help="bash, zsh or fish"
    )
