"""The catalogue's operations of the history protocol facade (``Memory.chronicle``;
decision 0084): the audit, and the canon, frames, narratives, claims and timelines of
the history protocol as they come (each area in a catalogue module of its own).

Each operation's ``call`` is dotted (``"chronicle.audit_log"``): the interfaces resolve
it with :func:`~embornal.interfaces.catalog_types.resolve_call`. :mod:`.catalog` puts
:data:`OPERATIONS` in ``CATALOG``. Stdlib-only at import, as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT
from embornal.interfaces.catalog_inputs import LIMIT
from embornal.interfaces.catalog_types import Http, Operation, part, replace

__all__ = ["OPERATIONS", "PLACE"]


PLACE = 70
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "history",
    Operation(
        "audit_log",
        "list[AuditEntry]",
        (
            replace(
                LIMIT,
                description="How many decisions at most, the newest first (default 10).",
                cli_help=f"at most N, 1-{MAX_LIMIT}",
            ),
        ),
        call="chronicle.audit_log",
        tool_order=49,
        profile="core",
        title="Audit log",
        cli="memory audit",
        cli_show="chronicle.commands:show_audit",
        cli_help="every decision on memories, claims and narratives, with its reason",
        cli_doc="List the decisions on the memories you may read (remember, promote, pin,\n"
        "unpin, corroborate, review, forget, restore, flag-sensitive, store, supersede ...),\n"
        "on the claims (create, evidence, adopt, revise, withdraw) and narratives (narrate,\n"
        "review) you may see, the newest first, each with its event id, time, actor and\n"
        "reason. It is a view of the event log, not a second record.",
        brief=(
            "List the latest decisions on memories with who made them and why, to explain what "
            "changed. Example: audit_log(limit=20)"
        ),
        guide="""List the latest decisions on the memories (promote, pin, unpin, corroborate,
        review, forget, restore, flag_sensitive, store...), claims (create_claim,
        add_evidence, adopt_claim, revise_claim, withdraw_claim) and narratives (narrate,
        review_narrative), newest first, each with who made it and why.

        Call it to explain why a memory is anchored, forgotten or trusted, or what
        changed recently. Each entry's position is what undo(event_id=...) takes.
        Example: audit_log(limit=20)""",
        example="audit_log(limit=20)",
        http=Http(
            "GET",
            "/history/audit",
            "auditLog",
            "The events of the facts the subject may read (forgotten ones too), and of "
            "the claims and narrative versions it may see, the newest first, each with "
            "its action, actor and reason; recalls left out.",
            items="entries",
        ),
    ),
)
