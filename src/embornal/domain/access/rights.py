"""The rights table: what every operation does to which object, and the action it needs.

One declaration per operation of the catalogue (decision 0128). Each :class:`Need` names a
*target* (an input that names a fact, such as ``fact_id``, or one of the objects below) and
the actions the subject must hold on it. The service checks them through
:meth:`embornal.service.context.ServiceContext.target` and its siblings, named by the
operation, so an operation's rights are read here and nowhere else; the catalogue refuses
to load an operation that has no entry (:func:`check_declared`), and the access property
test walks the whole table.

The rule of thumb (docs/security.md):

* whatever can take a fact out of anyone's recall (forget, supersede, update, expiry by a
  lifetime, an unpin or a canon entry lifted, a merge) needs ``delete`` on that fact;
* changing how a fact ranks or what it claims about itself (pin, weight, confirm,
  contradict, evidence, corroborate, history context, frame) needs ``write`` on it;
* storing a fact needs ``create`` where it goes (``write`` allows it too);
* a ledger entry (claim, narrative, link, conflict) needs ``write`` on what it is about,
  and on the ledger itself (``create`` on its path, as the subject's own) when it is
  about nothing;
* a read answers only what the read filter lets the subject see.

Pure data; stdlib only, cheap to import (the catalogue checks it at start-up).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = [
    "EVENT",
    "ITEMS",
    "LEDGER",
    "MACHINE",
    "NEW",
    "OVERDUE",
    "READ",
    "RIGHTS",
    "SCANNED",
    "SCOPE_ENTRIES",
    "Need",
    "check_declared",
    "markdown_table",
    "needs",
    "table_rows",
]

# -- objects that are not one input naming a fact ---------------------------------------------

NEW = "new fact"
"""A fact the operation stores, at its path with its tags, owned by the subject."""
READ = "readable facts"
"""What the operation reads, through the subject's read filter (nothing else is seen)."""
LEDGER = "the ledger"
"""A claim or narrative about no memory: the ledger's path, as the subject's own."""
ITEMS = "the proposal's items"
"""Each item of a proposal, with the rights the item's own operation needs, as the
person who approves it (a proposal itself asks for nothing: a request)."""
EVENT = "the undone event's fact"
"""The fact (or path) of the event an undo reverses, with the rights of that event."""
SCANNED = "facts scanned"
"""The facts a scan reads (the read filter) and the conflicts it opens (``write`` on both)."""
SCOPE_ENTRIES = "the scope's canon entries"
"""Every memory whose canon entry the operation lifts."""
OVERDUE = "each overdue interpretation"
"""An interpretation ``due_for_review`` finds overdue, which it marks stale when it may."""
MACHINE = "the memory itself"
"""Local-only: the person who holds the memory's file, on that machine (no token)."""

_READ_ONLY = ("read",)
_WRITE = ("write",)
_DELETE = ("delete",)
_REWRITE = ("write", "delete")


class Need(NamedTuple):
    """The ``actions`` the subject must hold on ``target``."""

    target: str
    actions: tuple[str, ...]


def _n(target: str, *actions: str) -> Need:
    return Need(target, tuple(actions))


def _names(text: str) -> list[str]:
    return text.split()


def _reads(*names: str) -> dict[str, tuple[Need, ...]]:
    return {n: (_n(READ, "read"),) for n in names}


def _on_fact(actions: tuple[str, ...], *names: str) -> dict[str, tuple[Need, ...]]:
    return {n: (Need("fact_id", actions),) for n in names}


def _local(*names: str) -> dict[str, tuple[Need, ...]]:
    return {n: (_n(MACHINE),) for n in names}


_TABLE: dict[str, tuple[Need, ...]] = {
    # -- the server itself
    "health": (),
    "whoami": (),
    # -- reads: the read filter decides what exists
    **_reads(
        *_names("""
        ls tree cat recall tags show history find kinds due conflicts conflict links
        proposals proposal retention provenance due_for_consolidation
        list_forgotten audit_log list_canon active_scopes list_frames list_conflicts
        timeline search_history memory_links current_narrative narrative_history
        list_narratives recall_claims inspect_claim recall_cascade search search_archive
        similar
        """)
    ),
    # it marks each overdue interpretation it may write stale (decision 0142)
    "due_for_review": (_n(READ, "read"), _n(OVERDUE, "write")),
    # -- storing
    "store": (_n(NEW, "create"),),
    "remember": (_n(NEW, "create"),),
    # -- out of recall: delete
    **_on_fact(_DELETE, "forget", "restore"),
    "supersede": (Need("fact_id", _REWRITE), _n(NEW, "create")),
    **_on_fact(_REWRITE, "update", "visibility", "set_lifetime", "unpin", "decanonize"),
    "flag_sensitive": (Need("fact_id", _REWRITE),),  # it lifts anchors and canon entries
    "end_scope": (Need(SCOPE_ENTRIES, _REWRITE),),
    "merge": (Need("survivor", _REWRITE), Need("source", _DELETE)),
    "prune": (_n(READ, "read"), _n("each pruned fact", "delete")),
    # -- how a fact ranks or what it claims about itself: write
    **_on_fact(
        _WRITE,
        "pin",
        "set_weight",
        "confirm",
        "add_evidence",
        "promote",
        "corroborate",
        "review",
        "canonize",
        "set_frame",
        "set_history_context",
    ),
    "contradict": (Need("fact_id", _WRITE), Need("by", _READ_ONLY)),
    # -- ledger entries: write on what they are about
    "link": (Need("source", _WRITE), Need("target", _READ_ONLY)),
    "unlink": (Need("source", _WRITE), Need("target", _READ_ONLY)),
    "link_memories": (Need("source_id", _WRITE), Need("target_id", _READ_ONLY)),
    "unlink_memories": (Need("source_id", _WRITE), Need("target_id", _READ_ONLY)),
    "mark_conflict": (Need("a", _WRITE), Need("b", _WRITE)),
    "resolve_conflict": (
        _n("the conflict's memories", "write"),
        _n("a memory the resolution archives", "delete"),
    ),
    "scan_conflicts": (_n(SCANNED, "read", "write"),),
    "narrate": (Need("memory_ids", _WRITE), _n(LEDGER, "create")),
    "review_narrative": (_n("the narrative's memories", "write"), _n(LEDGER, "create")),
    "create_claim": (Need("about", _WRITE), _n(LEDGER, "create")),
    **{
        n: (_n("the claim's memories", "write"), _n(LEDGER, "create"))
        for n in (
            "claim_evidence",
            "adopt_claim",
            "revise_claim",
            "withdraw_claim",
            "retract_evidence",
        )
    },
    # -- proposals: a request, applied with the approver's rights
    "propose": (),
    "ingest": (),
    "edit_proposal": (_n("the proposal", "its proposer or a person"),),
    "approve": (_n("the deciding subject", "a person"), Need(ITEMS, ("as each item",))),
    "reject": (_n("the deciding subject", "a person"),),
    # -- undo: the rights of what it reverses
    "undo": (Need(EVENT, ("as the event",)),),
    # -- on the machine that holds the memory
    "purge": (Need("fact_id", _DELETE), _n(MACHINE)),
    "tag_path": (_n(NEW, "create"), _n(MACHINE)),
    "untag_path": (_n(NEW, "create"), _n(MACHINE)),
    "dangling_links": (_n(READ, "read"), _n(MACHINE)),
    **_local(
        *_names("""
        reindex policies policy_add policy_remove narrow_token_rules policy_check token_add tokens
        token_revoke export_markdown export_events import_events import_markdown backup
        copy
        """)
    ),
    **{
        n: (_n(NEW, "create"), _n(MACHINE))
        for n in (
            "import_memory_as_history",
            "import_basic_memory",
            "import_mem0",
            "import_mcp_memory",
        )
    },
}

RIGHTS: Mapping[str, tuple[Need, ...]] = MappingProxyType(_TABLE)


def needs(operation: str, target: str) -> tuple[str, ...]:
    """The actions ``operation`` needs on ``target`` (KeyError: not declared)."""
    found = [n for n in RIGHTS[operation] if n.target == target]
    if not found:
        raise KeyError(f"operation {operation!r} declares no right on {target!r}")
    return found[0].actions


def check_declared(names: Iterable[str]) -> None:
    """Raise when an operation has no entry in the table (the catalogue calls it)."""
    missing = sorted(set(names) - set(RIGHTS))
    if missing:
        raise RuntimeError(f"operations without a rights declaration: {', '.join(missing)}")


def table_rows() -> list[tuple[str, str, str]]:
    """(operation, target, actions) for the docs, in the table's order."""
    rows: list[tuple[str, str, str]] = []
    for name, declared in RIGHTS.items():
        if not declared:
            rows.append((name, "—", "any authenticated subject"))
        for need in declared:
            rows.append((name, need.target, ", ".join(need.actions) or "—"))
    return rows


def markdown_table() -> str:
    """The table of ``docs/security.md`` (checked there by a test)."""
    lines = ["| operation | on what | needs |", "|---|---|---|"]
    lines += [f"| `{op}` | {target} | {actions} |" for op, target, actions in table_rows()]
    return "\n".join(lines) + "\n"
