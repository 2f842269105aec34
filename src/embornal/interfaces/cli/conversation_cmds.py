"""``embornal import chatgpt|claude FILE``: an assistant's conversation export, as proposals
(decision 0145).

The export is read and checked whole first (:mod:`embornal.adapters.importers.conversations`);
then each conversation goes through ingest, as ``embornal ingest`` would read its
transcript: one proposal per conversation (per part of a very long one) of the memories
drafted from the user's turns, nothing stored until a person approves it. It runs the same
in client mode (each conversation is one ``POST /ingest``). A conversation in which
nothing is found is counted, not proposed.
"""

from __future__ import annotations

from typing import Any

from embornal.errors import EmbornalError, NotFound
from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.parser import ArgParser

__all__ = ["import_args", "import_conversations"]

REASON = "import"


def import_args(p: ArgParser) -> None:
    p.add_argument("file", metavar="FILE", help="the export's conversations.json")
    p.add_argument(
        "--extractor",
        choices=("rules", "llm"),
        default="rules",
        help="rules (no model, default) or llm (ingest.model of config.yaml)",
    )
    p.add_argument("--path", metavar="PATH", help="put every memory at PATH (default: by kind)")


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def import_conversations(ctx: Context) -> int:
    """Read the export whole, then open one proposal per conversation with memories."""
    from embornal.adapters.importers.conversations import read_conversations
    from embornal.domain.portability.conversations import label_of, transcripts
    from embornal.interfaces.cli.progress import ProgressLine

    fmt = str(ctx.opt("command"))
    source = str(ctx.opt("file"))
    with ProgressLine(ctx.err) as shown:
        found = read_conversations(
            fmt, source, lambda done, total: shown.update("reading", done, total)
        )
    proposed: list[dict[str, Any]] = []
    empty: list[str] = []
    with ctx.open_memory_api() as mem, ProgressLine(ctx.err) as shown:
        for n, conversation in enumerate(found, 1):
            shown.update("proposing", n - 1, len(found))
            parts = transcripts(conversation)
            label = label_of(conversation)
            made = 0
            for k, text in enumerate(parts, 1):
                name = label if len(parts) == 1 else f"{label} part {k} of {len(parts)}"
                try:
                    proposal = mem.ingest(
                        text,
                        name=name,
                        extractor=ctx.opt("extractor", "rules"),
                        path=ctx.opt("path"),
                        source=f"import:{fmt}",
                        reason=REASON,
                    )
                except NotFound:  # nothing to remember in this part
                    continue
                except EmbornalError as e:
                    if proposed:
                        ids = ", ".join(p["proposal_id"] for p in proposed)
                        e.message += f" (at {conversation.where}; proposals opened: {ids})"
                    raise
                made += 1
                proposed.append(
                    {
                        "conversation": conversation.where,
                        "title": name,
                        "proposal_id": proposal.id,
                        "status": proposal.status,
                        "memories": sum(1 for i in proposal.items if i.type == "create"),
                    }
                )
            if not made:
                empty.append(conversation.where)
        shown.update("proposing", len(found), len(found))
    result = {
        "format": fmt,
        "source": source,
        "conversations": len(found),
        "proposals": proposed,
        "nothing_found": empty,
    }
    if ctx.json:
        ctx.emit(result)
        return 0
    ctx.say(
        f"read {_n(len(found), 'conversation')} from {fmt}: {_n(len(proposed), 'proposal')}"
        f" opened, {len(empty)} with nothing to remember"
    )
    for p in proposed:
        memories = _n(p["memories"], "memory", "memories")
        ctx.say(f"  {p['proposal_id']}  {memories}  {p['title']}  [{p['status']}]")
    if any(p["status"] == "open" for p in proposed):
        ctx.say("review each: `embornal proposal show ID`, then `embornal proposal approve ID`")
    return 0
