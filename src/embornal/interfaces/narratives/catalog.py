"""The catalogue's operations of narrative accounts (docs/model.md, Narratives;
decisions 0085–0087): narrate, current_narrative, review_narrative, narrative_history and
list_narratives, on ``Memory.chronicle``. MCP ``full`` profile under memory-as-history's names;
the CLI's ``embornal narrative add|current|review|history|list``; REST under
``/narratives``. Stdlib-only at import, as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_NARRATIVE_SOURCES
from embornal.interfaces.catalog_inputs import (
    EXAMPLE_ID,
    LIST_ERRORS,
    LIST_LIMIT,
    REASON,
    content,
    label,
    note,
    route_id,
    security_sensitive,
    words,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["OPERATIONS", "PLACE"]

_SHOW = "narratives.commands:"

_SCOPE = label(
    "scope",
    'The account\'s scope: a task, project or question (default "default").',
    aliases=("scope", "topic"),
    metavar="SCOPE",
    cli_help="the account's scope (default: default)",
)
_PERSPECTIVE = label(
    "perspective",
    'Whose view the account gives, for parallel accounts of one scope (default "default").',
    aliases=("perspective", "view"),
    metavar="NAME",
    cli_help="whose view (parallel accounts of one scope)",
)
_NARRATIVE_ID = route_id(
    "narrative_id",
    "The narrative version's id (from current_narrative or list_narratives).",
    ("narrative_id", "id"),
    "the narrative version's id",
    flag="",
)
_EXAMPLE_NARRATIVE = "01KCZ9A2B4C6D8E0F2G4H6J8K0"

PLACE = 100
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "history",
    Operation(
        "narrate",
        "Narrative",
        (
            content(
                "The synthesis: your account of what the memories say.",
                "the synthesis",
                aliases=("content", "text", "narrative"),
            ),
            REASON,
            Input(
                "memory_ids",
                "list",
                "The memories it rests on (each live and readable).",
                aliases=("memory_ids", "memories", "sources"),
                max_items=MAX_NARRATIVE_SOURCES,
                flag="--memory",
                nargs="+",
                metavar="ID",
                cli_help="a memory it rests on (repeatable)",
            ),
            Input(
                "claim_ids",
                "list",
                "Adopted claims it rests on (each current in "
                "recall_claims); a later withdrawal, revision or evidence change withholds "
                "the narrative until review_narrative.",
                aliases=("claim_ids", "claims"),
                max_items=MAX_NARRATIVE_SOURCES,
                flag="--claim",
                nargs="+",
                metavar="ID",
                cli_help="an adopted claim it rests on (repeatable)",
            ),
            Input(
                "link_ids",
                "list",
                "Typed links it rests on, each SOURCE:relation:TARGET as memory_links shows them.",
                aliases=("link_ids", "links"),
                max_items=MAX_NARRATIVE_SOURCES,
                flag="--link",
                nargs="+",
                metavar="LINK",
                cli_help="a link SOURCE:relation:TARGET it rests on",
            ),
            _SCOPE,
            _PERSPECTIVE,
            words(
                "coverage",
                "What the account covers (a period, a set of sources).",
                ("coverage",),
                "what it covers",
            ),
            security_sensitive(
                "True for an account about identity, "
                "permissions or instructions: every memory it rests on must then be "
                "corroborated.",
                "mark the synthesis security-sensitive",
            ),
        ),
        profile="core",
        title="Write a narrative version",
        cli="narrative add",
        cli_help="write a new version of a scope's account, with its dependencies",
        brief=(
            "Write the new version of a scope's account, naming the memories it rests on. "
            'Example: narrate(content="Ships Fridays.", reason="weekly", memory_ids=["01KC"])'
        ),
        cli_doc="Write CONTENT as the new version of the account of --scope (and\n"
        "--perspective). Each --memory and --link is validated now: live, readable, an\n"
        "interpretation not overdue, a sensitive one corroborated.",
        guide="""Write a new version of the account of a scope: your synthesis of what
        the memories say, naming the memories (and links) it rests on. The previous version
        stays in narrative_history.

        Call it at the end of a session or when the picture changed. A forgotten, missing,
        overdue or unsupported sensitive memory is refused; a sensitive synthesis needs
        corroborated memories. Without memory_ids it is accepted with a warning.
        Example: narrate(content="Ships Fridays.", reason="weekly", memory_ids=["01KCZ8Q3W5"])""",
        example=f'narrate(content="We ship on Fridays.", reason="weekly summary", '
        f'memory_ids=["{EXAMPLE_ID}"], scope="project")',
        http=Http(
            "POST",
            "/narratives",
            "narrate",
            "A new version of the account of (scope, perspective), its dependencies "
            "validated now; refused (409) for a forgotten, overdue or unsupported "
            "sensitive dependency.",
        ),
    ),
    Operation(
        "current_narrative",
        "NarrativeView",
        (_SCOPE, _PERSPECTIVE),
        profile="core",
        title="Current narrative",
        cli="narrative current",
        cli_help="the usable account of a scope, or its review notice",
        brief=(
            "Read a scope's usable account, or its review notice (resolve the issues, then "
            'review_narrative). Example: current_narrative(scope="project")'
        ),
        guide="""Read the current account of a scope: the narrative when it is usable,
        else narrative_review (its id and source issues, never its stale text); neither
        when the scope has none.

        Call it at the start of a session. On a review notice, resolve each issue (the
        hint names the call), then review_narrative or narrate a replacement.
        Example: current_narrative(scope="project")""",
        example='current_narrative(scope="project")',
        http=Http(
            "GET",
            "/narratives/current",
            "currentNarrative",
            "The usable current version of the scope's account, or its review notice "
            "(id, status, source issues, hint) without its text.",
            errors=LIST_ERRORS,
        ),
    ),
    Operation(
        "review_narrative",
        "Narrative",
        (
            _NARRATIVE_ID,
            note(
                "What you compared with the sources and found to hold.",
                "what was compared (required)",
            ),
        ),
        title="Review a narrative",
        cli="narrative review",
        cli_help="approve the current version again once its source issues are resolved",
        guide="""Approve a withheld narrative again, after you resolved its source issues
        and compared the account with its sources. Restoring or corroborating a source never
        approves it by itself. Refused while a source issue is live, or for a replaced
        version.
        Example: review_narrative(narrative_id="01KCZ9A2B4C6", note="matches the sources")""",
        example=f'review_narrative(narrative_id="{_EXAMPLE_NARRATIVE}", note="still holds")',
        http=Http(
            "POST",
            "/narratives/{id}/review",
            "reviewNarrative",
            "Approve the current version again (the note is required); 409 while a "
            "source issue is live.",
        ),
    ),
    Operation(
        "narrative_history",
        "list[Narrative]",
        (
            LIST_LIMIT,
            replace(
                _SCOPE,
                description="Only this scope's accounts (default: all).",
                cli_help="only this scope",
            ),
        ),
        title="Narrative history",
        cli="narrative history",
        cli_help="every version, newest first, with its text for inspection",
        guide="""List past and current narrative versions, newest first, with their text
        for deliberate inspection (stale and replaced ones too, marked so). Not for use as
        the current account: read current_narrative for that.
        Example: narrative_history(scope="project", limit=5)""",
        example='narrative_history(scope="project", limit=5)',
        http=Http(
            "GET",
            "/narratives/history",
            "narrativeHistory",
            "Every version the subject may see, the newest first, with its text.",
            items="narratives",
        ),
    ),
    Operation(
        "list_narratives",
        "list[Narrative]",
        (LIST_LIMIT,),
        title="List narrative accounts",
        cli="narrative list",
        cli_help="the accounts, each current version (stale text withheld)",
        guide="""Discover the narrative accounts (scope and perspective), each current
        version, the most recently written first; a stale one's text is withheld.
        Example: list_narratives(limit=10)""",
        example="list_narratives(limit=10)",
        http=Http(
            "GET",
            "/narratives",
            "listNarratives",
            "Each account's current version, the newest first; text withheld when not usable.",
            items="narratives",
        ),
    ),
    facade="chronicle",
    profile="full",
    tools_from=60,
    shows={
        "Narrative": _SHOW + "show_narrative",
        "NarrativeView": _SHOW + "show_view",
        "list[Narrative]": _SHOW + "show_narratives",
    },
)
