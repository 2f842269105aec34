"""The catalogue's operations of proposals and retention: propose, proposals, proposal,
approve, reject, edit_proposal, retention and prune (decisions 0055–0057).

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG``. Stdlib-only at import,
as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT, MAX_PROPOSAL_ITEMS
from embornal.interfaces.catalog_inputs import (
    OPTIONAL_REASON,
    REQUIRED_REASON,
    label,
    limit,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["EXAMPLE_PROPOSAL", "OPERATIONS", "PLACE"]

EXAMPLE_PROPOSAL = "01KCZ9A1B2C3D4E5F6G7H8J9K0"
_SHOW = "proposals.commands:"

PROPOSAL_ID = Input(
    "proposal_id",
    "id",
    "The proposal id from proposals() or propose() (a unique prefix works).",
    True,
    aliases=("id", "proposal_id", "proposal"),
    http="id",
    metavar="ID",
    cli_help="proposal id or a unique prefix of one",
)
ITEMS = Input(
    "items",
    "items",
    'The draft items, a list of objects: {"type": "create", "path": "/notes", "content": '
    '"..."} (also kind, attributes, tags, evidence, source), {"type": "update", "fact_id": '
    'ID, "attributes": {...}}, {"type": "archive", "fact_id": ID, "reason": "..."} or '
    '{"type": "supersede", "fact_id": ID, "content": "..."}, {"type": "link", "source": ID, '
    '"relation": "about", "target": ID} or {"type": "merge", "survivor": ID, "source": ID}; '
    'in a link or merge "#N" names the fact the earlier create item N makes.',
    True,
    aliases=("items", "changes", "drafts"),
    max_items=MAX_PROPOSAL_ITEMS,
    not_empty=True,
    cli=False,
)
_STATUS = Input(
    "status",
    "choice",
    "Only proposals of this status: open, approved or rejected.",
    aliases=("status", "state"),
    choices=("open", "approved", "rejected"),
    cli_help="only open, approved or rejected proposals",
)
_CHOSEN = Input(
    "items",
    "list",
    "The numbers of the items to approve (default: all of them).",
    aliases=("items", "item", "numbers"),
    max_items=MAX_PROPOSAL_ITEMS,
    flag="--item",
    metavar="N",
    nargs="+",
    cli_help="approve only item N (repeat --item; default: every item)",
)
_VERSION = Input(
    "version",
    "int",
    "The proposal's version you were shown (`version` of proposal()); when it was edited "
    "since, nothing is applied and the answer is a conflict (proposal_changed). Left out: "
    "the proposal as it is now.",
    aliases=("version", "expected_version", "seen_version"),
    low=1,
    metavar="N",
    probe=True,
    cli_help="approve only if the proposal is still at version N (`proposal show` prints it)",
)
_NO_ASSISTANT = (
    "An assistant may call it only when the configuration lets assistants decide "
    "(proposals.assistants_decide); otherwise it is refused with a hint to ask the user."
)

PLACE = 40
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "proposals",
    Operation(
        "propose",
        "Proposal",
        (
            ITEMS,
            label(
                "title",
                "A short title for the person who reviews it.",
                aliases=("title", "summary"),
            ),
            label(
                "source",
                "Who or what made it (an importer, a chat client).",
                aliases=("source",),
                kind="source",
            ),
            OPTIONAL_REASON,
        ),
        title="Propose changes for review",
        guide="""Propose memories or changes for the user to review instead of writing them:
        new facts, attribute updates, archiving or correcting facts. Nothing is stored
        or recallable until a person approves the proposal.

        Call it when you infer something the user has not confirmed, or when you want to
        change many facts at once. Each item is checked now (a bad one refuses the whole
        proposal). Returns the proposal with its id and numbered items; tell the user to
        review it with `embornal proposal show ID`.
        Example: propose(items=[{"type": "create", "path": "/ana", "content": "Likes tea."}])""",
        example='propose(items=[{"type": "create", "path": "/notes", "content": "..."}])',
        http=Http(
            "POST",
            "/proposals",
            "propose",
            "Open a proposal of draft items (create, update, archive, supersede, link, "
            "merge), each "
            "checked as its own command would be; nothing of it is a fact until an "
            "approval applies it. An auto-approve rule of the server's configuration "
            "may approve it at once (then its status is `approved`).",
            summary="Open a proposal",
            status=201,
        ),
    ),
    Operation(
        "proposals",
        "list[ProposalSummary]",
        (
            _STATUS,
            limit(
                "How many at most (default 50).",
                f"at most N proposals, 1-{MAX_LIMIT}",
                aliases=("limit",),
            ),
        ),
        title="List proposals",
        cli="proposal list",
        cli_show=_SHOW + "show_list",
        cli_help="list the proposals waiting for review (and decided ones)",
        guide="""List the proposals, newest first: each with its status (open, approved,
        rejected), title, source and how many items it holds.

        Call it to see what waits for the user's review. Returns proposal summaries.
        Example: proposals(status="open")""",
        example='proposals(status="open")',
        http=Http(
            "GET",
            "/proposals",
            "listProposals",
            "The proposals the subject may see (its own, and those whose every target "
            "fact it may read), newest first.",
            items="proposals",
        ),
    ),
    Operation(
        "proposal",
        "Proposal",
        (PROPOSAL_ID,),
        title="Show a proposal",
        cli="proposal show",
        cli_help="one proposal with its numbered items",
        guide="""Show one proposal whole: its numbered items and, once decided, who decided
        and which items were applied.

        Call it before asking the user to approve or reject a proposal.
        Example: proposal(id="01KCZ9A1B2C3D4E5F6G7H8J9K0")""",
        example=f'proposal(id="{EXAMPLE_PROPOSAL}")',
        http=Http(
            "GET",
            "/proposals/{id}",
            "showProposal",
            "One proposal with its items; one the subject may not see answers 404, as "
            "an absent one.",
        ),
    ),
    Operation(
        "approve",
        "Proposal",
        (PROPOSAL_ID, _CHOSEN, OPTIONAL_REASON, _VERSION),
        title="Approve a proposal",
        destructive=True,
        cli="proposal approve",
        cli_help="apply a proposal's items (all, or --item N ...)",
        cli_doc="Apply the items of proposal ID in one transaction (all, or only --item N\n"
        "...; the others are declined) and close it. Approving a decided proposal fails.\n"
        "--version N (printed by `proposal show`) refuses it, exit 4, when the proposal\n"
        "was edited after you read it.",
        guide=f"""Approve a proposal: its chosen items are applied in one transaction
        and it is closed. {_NO_ASSISTANT}

        Call it only when the user said to approve this proposal, with the version the
        user was shown (proposal() gives it): an edit since then is refused, not applied.
        Example: approve(id="01KCZ9A1B2C3D4E5F6G7H8J9K0", items=["1", "3"], version=1)""",
        example=f'approve(id="{EXAMPLE_PROPOSAL}")',
        http=Http(
            "POST",
            "/proposals/{id}/approve",
            "approveProposal",
            "Apply the chosen items (default: all) and the approval in one "
            "transaction: all of them, or none (409 when it is decided already, or an "
            "item no longer applies; 409 `proposal_changed` when `version`, the one "
            "the approver was shown, is not the proposal's any more). A person's token "
            "(`token add --person`) decides; an assistant's is refused (403) unless "
            "the configuration lets assistants decide.",
        ),
    ),
    Operation(
        "reject",
        "Proposal",
        (PROPOSAL_ID, REQUIRED_REASON),
        title="Reject a proposal",
        destructive=True,
        cli="proposal reject",
        cli_help="close a proposal with nothing applied (--reason required)",
        guide=f"""Reject a proposal: nothing of it is applied; the reason is kept.
        {_NO_ASSISTANT}

        Call it only when the user said to reject it.
        Example: reject(id="01KCZ9A1B2C3D4E5F6G7H8J9K0", reason="Not true any more.")""",
        example=f'reject(id="{EXAMPLE_PROPOSAL}", reason="wrong")',
        http=Http(
            "POST",
            "/proposals/{id}/reject",
            "rejectProposal",
            "Close an open proposal with nothing applied; a reason is required. "
            "As approve: a person's token decides, an assistant's is refused (403) "
            "unless the configuration lets assistants decide.",
        ),
    ),
    Operation(
        "edit_proposal",
        "Proposal",
        (
            PROPOSAL_ID,
            Input(
                "drop",
                "list",
                "The numbers of the items to take out.",
                aliases=("drop", "remove"),
                max_items=MAX_PROPOSAL_ITEMS,
                flag="--drop",
                metavar="N",
                nargs="+",
                cli_help="take item N out (repeat --drop)",
            ),
            Input(
                "replace",
                "replacements",
                'Items to replace in place, by number: {"2": item} (the shapes of propose). '
                "Each keeps its number and, of the same type, the id of the fact it makes.",
                aliases=("replace", "replacements", "replace_items"),
                max_items=MAX_PROPOSAL_ITEMS,
                flag="--replace",
                metavar="N=JSON",
                nargs="+",
                probe=True,
                cli_help="replace item N in place by a JSON object (repeat)",
            ),
            replace(
                ITEMS,
                name="add",
                required=False,
                not_empty=False,
                cli=True,
                flag="--add",
                metavar="JSON",
                nargs="+",
                description="Items to add at the end (the shapes of propose).",
                aliases=("add",),
                cli_help="add an item given as a JSON object (repeat)",
            ),
            OPTIONAL_REASON,
            replace(
                _VERSION,
                cli_help="edit only if the proposal is still at version N",
                description="The proposal's version you read (`version` of proposal()); "
                "when it was edited since, nothing is edited and the answer is a conflict "
                "(proposal_changed). Left out: the proposal as it is now.",
            ),
        ),
        tool_order=34,
        title="Edit a proposal",
        cli="proposal edit",
        cli_help="drop, replace or add items of an open proposal",
        cli_doc="Edit the open proposal ID: drop items (--drop N), replace one in place\n"
        "(--replace N=JSON: it keeps its number and the id of the fact it makes) or add\n"
        "some (--add JSON); the items after the edit are checked as a whole. --version N\n"
        "(printed by `proposal show`) refuses it, exit 4, when it changed since you read it.",
        guide="""Edit an open proposal: drop items by number, replace an item in place, or
        add items. Its proposer edits it; anyone else only when they may decide it.

        Call it to correct a proposal before the user reviews it, with the version you
        read (proposal() gives it): an edit since then is refused, nothing changed. An item
        replaced whole: replace={"2": {"type": "create", "path": "/ana", "content": "..."}}.
        Example: edit_proposal(id="01KCZ9A1B2C3D4E5F6G7H8J9K0", version=1, drop=["3"])""",
        example=f'edit_proposal(id="{EXAMPLE_PROPOSAL}", drop=["2"])',
        http=Http(
            "POST",
            "/proposals/{id}/edit",
            "editProposal",
            "Drop items by number, replace items in place (`replace`: {number: item}; "
            "each keeps its number and, of the same type, the id of the fact it "
            "makes) or add items while the proposal is open; the items after the "
            "edit are checked as a whole, and a bad one changes nothing. 409 "
            "`proposal_changed` when `version`, the one the editor read, is not the "
            "proposal's any more.",
        ),
    ),
    Operation(
        "retention",
        "list[RetentionScore]",
        (
            Input(
                "lowest",
                "int",
                "How many facts, lowest score first (default 10).",
                aliases=("lowest", "limit"),
                low=1,
                high=MAX_LIMIT,
                metavar="N",
                cli_help=f"the N facts least worth keeping, 1-{MAX_LIMIT}",
            ),
        ),
        title="Retention scores",
        cli="memory retention",
        cli_show=_SHOW + "show_retention",
        cli_args=(
            Input(
                "explain",
                "bool",
                "Show each score's parts.",
                cli_help="show each score's parts (recency, access, links, c_eff, weight)",
            ),
        ),
        cli_help="the facts least worth keeping, by retention score",
        guide="""List the live facts least worth keeping, lowest retention score first:
        recency of use, how often recalled, links pointing at them, confidence decayed to
        now and the user's weight. Pinned and permanent facts are exempt.

        Call it when the user asks what could be cleaned up; then propose archiving.
        Example: retention(lowest=5)""",
        example="retention(lowest=5)",
        http=Http(
            "GET",
            "/retention",
            "retentionScores",
            "The live facts the subject may read, lowest retention score first, each "
            "with the parts of its score (pinned and permanent ones exempt, last).",
            items="facts",
        ),
    ),
    Operation(
        "prune",
        "PruneResult",
        (
            Input(
                "threshold",
                "float",
                "Propose archiving the facts scoring below this (0 to 1, default 0.2).",
                aliases=("threshold",),
                low=0,
                high=1,
                metavar="T",
                cli_help="score below which a fact is proposed (default 0.2)",
            ),
            limit(
                "At most this many facts, lowest first.",
                "at most N facts (1-10000)",
                aliases=("limit",),
                high=10_000,
            ),
            OPTIONAL_REASON,
        ),
        profile="none",
        tool_order=0,
        cli="memory prune",
        cli_show=_SHOW + "show_prune",
        cli_help="propose archiving the facts least worth keeping (deletes nothing)",
        cli_doc="Score every live fact and open ONE archive proposal of those below the\n"
        "threshold, each with its score's parts as evidence. Nothing is archived until\n"
        "the proposal is approved (`embornal proposal approve ID`).",
        http=Http(
            "POST",
            "/prune",
            "prune",
            "Score every live fact the subject may read and open one archive "
            "proposal of those below the threshold; nothing is archived until it is "
            "approved.",
            summary="Propose archiving by retention",
        ),
    ),
    profile="full",
    tools_from=30,
    probe=True,
    shows={
        "Proposal": _SHOW + "show_proposal",
    },
)
