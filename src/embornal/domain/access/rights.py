"""The vocabulary of rights: what an operation does to which object, and the action it needs.

Each operation declares its rights on its facade method, beside the use case it calls
(decision 0179): ``pin = use_case(lambda: importance.pin, WRITES)``, or
``@declares(READS)`` on a method written out. A :class:`Need` names a *target* (an input
that names a fact, such as ``fact_id``, or one of the objects below) and the actions the
subject must hold on it. The service checks them through
:meth:`embornal.service.context.ServiceContext.target` and its siblings, named by the
method, so an operation's rights are read from that one declaration; gathering them
(:func:`embornal.interfaces.catalog.rights`) refuses an operation whose method declares
none, the access walks read every declaration, and ``docs/security.md`` shows them as one
table.

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

Pure data; stdlib only, cheap to import (the facade declares with it at start-up).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from embornal.hints import NamedTuple

__all__ = [
    "CLAIM_ENTRY",
    "DELETES",
    "EVENT",
    "IMPORTS",
    "ITEMS",
    "LEDGER",
    "LOCAL",
    "MACHINE",
    "NEW",
    "OVERDUE",
    "READ",
    "READS",
    "REQUEST",
    "REWRITES",
    "SCANNED",
    "SCOPE_ENTRIES",
    "STORES",
    "WRITES",
    "Need",
    "markdown_table",
    "need",
    "needs_on",
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


# Made from types, not written as a class: a class's annotations are text here, which
# ``typing`` would compile at start-up, as the facade declares with it (decision 0182).
Need = NamedTuple("Need", [("target", str), ("actions", tuple[str, ...])])  # noqa: UP014
Need.__doc__ = "The ``actions`` the subject must hold on ``target``."


def need(target: str, *actions: str) -> Need:
    """The ``actions`` on ``target``."""
    return Need(target, actions)


# -- the declarations most operations share ---------------------------------------------------

READS = (need(READ, "read"),)
"""A read: the read filter decides what exists."""
STORES = (need(NEW, "create"),)
"""Storing a new fact."""
WRITES = (need("fact_id", "write"),)
"""Changing how the fact ``fact_id`` ranks or what it claims about itself."""
DELETES = (need("fact_id", "delete"),)
"""Taking the fact ``fact_id`` out of recall (or back into it)."""
REWRITES = (need("fact_id", "write", "delete"),)
"""Changing the fact ``fact_id`` in a way that can take it out of someone's recall."""
LOCAL = (need(MACHINE),)
"""Local-only: the person who holds the memory's file."""
IMPORTS = (need(NEW, "create"), need(MACHINE))
"""Storing new facts, on the machine that holds the memory."""
REQUEST: tuple[Need, ...] = ()
"""A request that changes nothing until a person decides it (a proposal): no right."""
CLAIM_ENTRY = (need("the claim's memories", "write"), need(LEDGER, "create"))
"""A later entry of a claim: ``write`` on its memories and the ledger's right."""


def needs_on(declared: Iterable[Need], operation: str, target: str) -> tuple[str, ...]:
    """The actions ``declared`` (``operation``'s rights) asks on ``target`` (KeyError:
    none)."""
    found = [n for n in declared if n.target == target]
    if not found:
        raise KeyError(f"operation {operation!r} declares no right on {target!r}")
    return found[0].actions


def table_rows(rights: Mapping[str, tuple[Need, ...]]) -> list[tuple[str, str, str]]:
    """(operation, target, actions) for the docs, in the table's order."""
    rows: list[tuple[str, str, str]] = []
    for name, declared in rights.items():
        if not declared:
            rows.append((name, "—", "any authenticated subject"))
        for item in declared:
            rows.append((name, item.target, ", ".join(item.actions) or "—"))
    return rows


def markdown_table(rights: Mapping[str, tuple[Need, ...]]) -> str:
    """The table of ``docs/security.md`` (checked there by a test)."""
    lines = ["| operation | on what | needs |", "|---|---|---|"]
    lines += [f"| `{op}` | {target} | {actions} |" for op, target, actions in table_rows(rights)]
    return "\n".join(lines) + "\n"
