"""The catalogue's operation that reads a conversation or a note into ONE proposal of
memories (decision 0068). :mod:`.catalog` splices :data:`OPERATIONS` into
``CATALOG``. Stdlib-only at import (plain data), as the catalogue.
"""

from __future__ import annotations

from embornal.interfaces.catalog_inputs import OPTIONAL_REASON, WRITE_ERRORS, label
from embornal.interfaces.catalog_types import Http, Input, Operation, part

__all__ = ["OPERATIONS", "PLACE"]

PLACE = 50
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "proposals",
    Operation(
        "ingest",
        "Proposal",
        (
            Input(
                "text",
                "text",
                "The conversation or note to read: turns as `Speaker: text` lines, or free text.",
                True,
                aliases=("text", "content", "transcript", "note"),
                max_length=1_000_000,
                cli=False,
            ),
            label(
                "name",
                "A name for the source, kept with each memory's evidence "
                "(a file name, a chat's title).",
                aliases=("name", "title", "file"),
                cli=False,
            ),
            Input(
                "extractor",
                "text",
                "rules (no model, the default) or llm (the model set in the server's config).",
                default="rules",
                aliases=("extractor", "mode"),
                choices=("rules", "llm"),
                metavar="NAME",
                cli_help="rules (no model, default) or llm (ingest.model of config.yaml)",
            ),
            Input(
                "path",
                "path",
                "Put every memory at this path (default: by kind, plain facts in /inbox/NAME).",
                aliases=("path", "under"),
                max_length=1000,
                metavar="PATH",
                cli_help="put every memory at PATH (default: by kind)",
            ),
            label(
                "source",
                "Who or what made the text (kept as the proposal's source).",
                aliases=("source",),
                kind="source",
                metavar="S",
                cli_help="the proposal's source label (default ingest:EXTRACTOR)",
            ),
            OPTIONAL_REASON,
        ),
        tool_order=36,
        profile="full",
        title="Propose memories from a text",
        cli="memory ingest",
        cli_run="ingest.commands:ingest",
        cli_show="proposals.commands:show_proposal",
        cli_help="read a conversation or note (FILE or -) into one proposal of memories",
        cli_doc="Read FILE (- or nothing: standard input) and draft memories from it: explicit\n"
        'requests ("remember that..."), key: value lines, preferences, dated events and\n'
        "first-person statements (--extractor rules, no model), or what the chat model of\n"
        "config.yaml's ingest section finds (--extractor llm; every answer checked). Each\n"
        "draft keeps its line as evidence. They form ONE proposal: nothing is stored until\n"
        "`embornal proposal approve ID`.",
        cli_args=(
            Input(
                "file",
                "text",
                "the file to read (- for standard input)",
                flag="",
                nargs="?",
                metavar="FILE",
                mcp=False,
                rest=False,
            ),
        ),
        guide="""Turn a conversation or a note into proposed memories the user reviews:
        facts, preferences, dated events and contacts, each with the line it came from as
        evidence. Nothing is stored until the proposal is approved.

        Call it at the end of a conversation, or with a note the user shares, instead of
        storing many facts one by one. Returns the proposal with its numbered items; tell
        the user to review it (`embornal proposal show ID`).
        Example: ingest(text="User: remember that Ana lives in Porto", name="chat")""",
        example='ingest(text="User: remember that Ana lives in Porto", name="chat")',
        http=Http(
            "POST",
            "/ingest",
            "ingest",
            "Draft memories from a conversation or note (by rules, or by the server's "
            "configured chat model) and open one proposal of them; nothing is a fact "
            "until it is approved. 404 when nothing was found to remember.",
            status=201,
            errors=(*WRITE_ERRORS, 404),
            probe=True,
        ),
    ),
)
