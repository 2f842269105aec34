"""The catalogue's operations of the claims ledger (docs/model.md, Claims; decisions
0081–0083): create_claim, claim_evidence (the MCP tool ``add_evidence`` with a
``claim_id``), adopt_claim, revise_claim, withdraw_claim, retract_evidence, recall_claims
and inspect_claim, on the chronicle facade (``mem.chronicle``). ``claim_evidence`` is no
tool of its own: the MCP tool ``add_evidence`` runs it when given ``claim_id`` (its
``extra`` says so), and the fact's evidence otherwise (decision 0082).

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG``. The tools are in the MCP
``full`` profile under memory-as-history's names; the CLI group is ``embornal claim``; REST is under
``/claims``. Stdlib-only at import, as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT, MAX_QUERY_LENGTH
from embornal.interfaces.catalog_inputs import (
    EXAMPLE_ID,
    LIMIT,
    common_origin,
    content,
    identifier,
    label,
    moment,
    reason,
    route_id,
    security_sensitive,
    switch,
    words,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["EXAMPLE_CLAIM", "OPERATIONS", "PLACE"]

EXAMPLE_CLAIM = "C01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
_SHOW = "claims.commands:"
#: The longest label of the ledger: who asserted it, where in the material, a source.
_LABEL = 500
#: The ledger's times (record or valid time) are text the service reads.
_TIME = "an ISO-8601 date or time (UTC unless zoned)"


CLAIM_ID = route_id(
    "claim_id",
    f"The claim's id from create_claim or recall_claims (a unique prefix "
    f"works), e.g. {EXAMPLE_CLAIM}.",
    ("claim_id", "id", "claim"),
    "the claim's id, or a unique prefix of it",
)
_REASON = reason(
    "Why: recorded with the decision in the claim's history.",
    "why (kept in the claim's history)",
    aliases=("reason", "why", "note"),
)
_VALID_FROM = moment(
    "valid_from",
    f"Valid time: from when the statement holds, {_TIME} (blank: unknown).",
    ("valid_from", "from"),
    "when the statement starts to hold (valid time)",
    kind="text",
)
_VALID_UNTIL = moment(
    "valid_until",
    f"Valid time: until when it holds (exclusive), {_TIME}.",
    ("valid_until", "until"),
    "when it stops holding (exclusive)",
    kind="text",
)
_AS_OF = moment(
    "as_of",
    "Record time: the ledger as it stood then (what was recorded by that "
    f"time; later evidence never enters), {_TIME} or '3 days ago'.",
    ("as_of", "at", "recorded_by"),
    "the ledger as recorded by TIME (record time)",
    flag="--as-of",
    kind="text",
)
_CLAIM_TYPE = Input(
    "claim_type",
    "text",
    "plan, observation, commitment, self_report, assertion or interpretation.",
    True,
    aliases=("claim_type", "kind", "type"),
    max_length=32,
    flag="--type",
    metavar="TYPE",
    cli_help="plan, observation, commitment, self_report, assertion, interpretation",
)
_SCOPE = label(
    "scope",
    "A label grouping claims (default global); a replacement stays in its scope.",
    aliases=("scope",),
    metavar="SCOPE",
    cli_help="the claims' scope (default global)",
)
_ABOUT = Input(
    "about",
    "list",
    "The ids of the memories it is about.",
    aliases=("about", "memory_ids", "memories"),
    metavar="ID",
    nargs="*",
    cli_help="a memory it is about (repeatable)",
)
_MEMORY_ID = identifier(
    "memory_id",
    "A memory of this store that bears on the claim.",
    ("memory_id", "fact_id"),
    "a memory of this store (or give --source)",
    kind="id",
    flag="--memory",
)
_STANCE = Input(
    "stance",
    "text",
    "supports (default), challenges (contradicts) or context.",
    aliases=("stance", "relation"),
    max_length=32,
    metavar="STANCE",
    cli_help="supports (default), challenges or context",
)
_REPLACEMENT_ID = identifier(
    "replacement_id",
    "Instead: a supported proposed claim that replaces this adopted "
    "one (it is adopted, this one superseded).",
    ("replacement_id", "replacement", "new_claim_id"),
    "a proposed claim replacing it",
    flag="--replacement",
)
_EVIDENCE_ID = Input(
    "evidence_id",
    "text",
    "The evidence's id (the claim's id, '-', a number).",
    True,
    aliases=("evidence_id", "id"),
    max_length=80,
    http="id",
    metavar="EVIDENCE_ID",
    cli_help="the evidence's id, e.g. C01K…-2",
)
_QUERY = Input(
    "query",
    "text",
    "Words to look for in the claims (optional).",
    aliases=("query", "q", "text"),
    max_length=MAX_QUERY_LENGTH,
    flag="",
    nargs="?",
    metavar="QUERY",
    cli_help="words to look for",
)
_STATUS = Input(
    "status",
    "text",
    "current (default: adopted, review current), adopted, proposed, withdrawn, superseded or all.",
    aliases=("status", "state"),
    max_length=16,
    metavar="STATUS",
    cli_help="current (default), adopted, proposed, withdrawn, superseded or all",
)
_ASSERTED_BY = label(
    "asserted_by",
    "Who asserted it (a person, a team, a document).",
    aliases=("asserted_by", "speaker", "by"),
    max_length=_LABEL,
    metavar="WHO",
    cli_help="who asserted it",
)
_STATEMENT_AT = moment(
    "statement_at",
    f"When it was stated, {_TIME}.",
    ("statement_at", "stated_at"),
    "when it was stated",
    kind="text",
)
_SECURITY_SENSITIVE = security_sensitive(
    "True for identity, permission or instruction-like claims (known "
    "injection shapes are flagged anyway).",
)
_SOURCE = label(
    "source",
    "A source label instead of a memory (a document, a site).",
    aliases=("source", "source_label"),
    kind="source",
    max_length=_LABEL,
    metavar="SOURCE",
    cli_help="a source label instead of a memory",
)
_NOTE = words(
    "note", "What it shows, in a few words.", ("note", "reason", "comment"), "what it shows"
)
_QUOTE = words(
    "quote",
    "The memory's exact words that bear on it.",
    ("quote",),
    "the memory's exact words",
)
_LOCATOR = label(
    "locator",
    "Where in the material (page, section).",
    aliases=("locator",),
    max_length=_LABEL,
    metavar="WHERE",
    cli_help="where in the material",
)
_COMMON_ORIGIN = common_origin(_LABEL)
_VALID_AT = moment(
    "valid_at",
    f"Valid time: only claims holding then, {_TIME} (unknown bounds admit).",
    ("valid_at", "true_at", "when"),
    "only claims that hold at TIME (valid time)",
    flag="--valid-at",
    kind="text",
)
_INCLUDE_INACTIVE = switch(
    "include_inactive",
    "Also proposed, withdrawn, superseded and review-pending claims (as status=all).",
    "as --status all",
    aliases=("include_inactive",),
)
_STATEMENT = content(
    "The claim, one sentence (apart from the material it is about).",
    "the claim, one sentence",
    aliases=("statement", "content", "claim", "text"),
    name="statement",
    metavar="STATEMENT",
)

_CREATE_GUIDE = """Record a claim: a judgment about material, kept apart from the material.
It starts proposed; add_evidence then adopt_claim records the judgment.

Call it when you extract something to rely on from what was said or read: a plan, an
observation, a commitment, a self-report (claim_type). A plan never becomes an outcome by
itself; a self-report is what someone said of themselves. valid_from/valid_until say when
it holds (valid time), apart from when it was recorded.
Returns the claim with its id and status "proposed".
Example: create_claim(statement="The release is planned for June.", claim_type="plan",
reason="from the project notice")"""

_EVIDENCE_GUIDE = """Cite specific material for a claim: a memory of this store (memory_id)
or a source label (source), with a stance: supports, challenges (contradicts) or context.

Call it before adopt_claim, and whenever new material bears on a claim; evidence added to
an adopted claim asks for its review again. quote must be the memory's exact words.
Reposts of one origin count once: say common_origin. Without claim_id this tool attaches
evidence to a fact (id, evidence="TYPE:VALUE").
Returns the claim with its evidence and support.
Example: add_evidence(claim_id="C01KCZ8Q3W5R7T9V1X3Z5B7D9F1", source="notice", stance="supports")"""

PLACE = 110
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "claims",
    Operation(
        "create_claim",
        "ClaimRecord",
        (
            _STATEMENT,
            _CLAIM_TYPE,
            replace(_REASON, required=False, description="Why it was extracted (optional)."),
            _SCOPE,
            _ABOUT,
            _ASSERTED_BY,
            _STATEMENT_AT,
            _VALID_FROM,
            _VALID_UNTIL,
            _SECURITY_SENSITIVE,
        ),
        title="Create a claim",
        cli="claim create",
        cli_help="record a proposed claim about material",
        cli_doc="Record STATEMENT as a proposed claim of --type TYPE. Add evidence, then adopt\n"
        "it: adoption records a judgment about specific material, never its truth.",
        guide=_CREATE_GUIDE,
        example='create_claim(statement="The release is planned for June.", claim_type="plan")',
        http=Http(
            "POST",
            "/claims",
            "createClaim",
            "Record a proposed claim (its own stream; decision 0081). Known injection "
            "shapes in the statement flag it sensitive.",
            status=201,
        ),
    ),
    Operation(
        "claim_evidence",
        "ClaimRecord",
        (
            replace(CLAIM_ID, aliases=("claim_id", "claim")),
            _MEMORY_ID,
            _SOURCE,
            _STANCE,
            _NOTE,
            _QUOTE,
            _LOCATOR,
            _COMMON_ORIGIN,
        ),
        call="chronicle.add_claim_evidence",
        profile="none",
        title="Add evidence to a claim",
        cli="claim evidence",
        cli_help="cite a memory or a source for a claim",
        guide=_EVIDENCE_GUIDE,
        example=f'add_evidence(claim_id="{EXAMPLE_CLAIM}", memory_id="{EXAMPLE_ID}", '
        'stance="supports")',
        extra={"mcp_tool": "add_evidence", "mcp_route": "claim_id"},
        http=Http(
            "POST",
            "/claims/{id}/evidence",
            "addClaimEvidence",
            "Cite a memory the subject may read (or a source label) with a stance; a "
            "repeat of active evidence adds nothing.",
        ),
    ),
    Operation(
        "adopt_claim",
        "ClaimRecord",
        (CLAIM_ID, _REASON),
        title="Adopt a claim",
        cli="claim adopt",
        cli_help="record the judgment: adopt a supported claim",
        guide="""Adopt a claim: record the judgment about its cited material (not a
        certificate of truth). It needs active supporting evidence; a sensitive claim needs
        independent origins. Calling it again re-reviews an adopted claim after new evidence.

        Call it when the evidence you added is enough to rely on the claim.
        Returns the claim with status "adopted".
        Example: adopt_claim(claim_id="C01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="as the notice")""",
        example=f'adopt_claim(claim_id="{EXAMPLE_CLAIM}", reason="the notice says so")',
        http=Http(
            "POST",
            "/claims/{id}/adopt",
            "adoptClaim",
            "Record the adoption (or re-review) of a claim with active supporting "
            "evidence; a withdrawn or superseded claim is refused (409).",
        ),
    ),
    Operation(
        "revise_claim",
        "ClaimRecord",
        (
            replace(CLAIM_ID, aliases=(*CLAIM_ID.aliases, "old_id")),
            _REASON,
            replace(
                _STATEMENT,
                required=False,
                description="The new statement (optional).",
                not_empty=True,
                flag="--statement",
                cli_help="the new statement",
            ),
            _REPLACEMENT_ID,
            _VALID_FROM,
            _VALID_UNTIL,
        ),
        title="Revise a claim",
        cli="claim revise",
        cli_help="a new version of a claim, or its replacement",
        guide="""Revise a claim: a new statement or valid time (the earlier version stays
        in its history), or replacement_id: a supported proposed claim adopted in its place,
        this one superseded. A reason is required.

        Call it when the judgment changes.
        Returns the revised claim (with replacement_id: the replacement).
        Example: revise_claim(claim_id="C01KCZ8Q3W5R7T9V1X3Z5B7D9F1", statement="July.", reason="new notice")""",  # noqa: E501
        example=f'revise_claim(claim_id="{EXAMPLE_CLAIM}", statement="Planned for July.", '
        'reason="the new notice")',
        http=Http(
            "POST",
            "/claims/{id}/revise",
            "reviseClaim",
            "A new version (statement, valid time) of an open claim, or the adopted "
            "claim superseded by `replacement_id`, adopted in the same transaction.",
        ),
    ),
    Operation(
        "withdraw_claim",
        "ClaimRecord",
        (CLAIM_ID, _REASON),
        title="Withdraw a claim",
        cli="claim withdraw",
        destructive=True,
        cli_help="end a claim (terminal)",
        guide="""Withdraw a claim: the judgment ends (terminal; the material and history
        stay). A later change of course is a new create_claim.

        Call it when a claim should no longer be relied on and nothing replaces it.
        Returns the claim with status "withdrawn".
        Example: withdraw_claim(claim_id="C01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="plan dropped")""",
        example=f'withdraw_claim(claim_id="{EXAMPLE_CLAIM}", reason="the plan was dropped")',
        http=Http(
            "POST",
            "/claims/{id}/withdraw",
            "withdrawClaim",
            "End a proposed or adopted claim (terminal).",
        ),
    ),
    Operation(
        "retract_evidence",
        "ClaimRecord",
        (
            _EVIDENCE_ID,
            _REASON,
        ),
        call="chronicle.retract_claim_evidence",
        title="Retract claim evidence",
        cli="claim retract",
        cli_help="retire one evidence association",
        guide="""Retire one evidence association of a claim (the material is untouched; the
        history keeps it). An adopted claim then needs adopt_claim again.

        Call it when evidence was cited by mistake.
        Returns the claim.
        Example: retract_evidence(evidence_id="C01KCZ8Q3W5R7T9V1X3Z5B7D9F1-1", reason="a typo")""",
        example=f'retract_evidence(evidence_id="{EXAMPLE_CLAIM}-1", reason="cited by mistake")',
        http=Http(
            "POST",
            "/claim-evidence/{id}/retract",
            "retractClaimEvidence",
            "Retire one evidence association.",
        ),
    ),
    Operation(
        "recall_claims",
        "ClaimList",
        (
            _QUERY,
            _STATUS,
            replace(_SCOPE, description="Only this scope.", cli_help="only this scope"),
            _AS_OF,
            _VALID_AT,
            replace(
                LIMIT,
                description="How many at most (default 10).",
                cli_help=f"at most N claims (1-{MAX_LIMIT})",
            ),
            _INCLUDE_INACTIVE,
        ),
        title="Recall claims",
        cli="claim list",
        cli_help="the adopted claims (now, or as recorded by a time)",
        guide="""Find the claims the memory has adopted (default) with their evidence.
        as_of is record time: what had been recorded by then; evidence recorded later never
        enters that view. valid_at is valid time: only claims that hold at that time.

        Call it before relying on a judgment, or to ask what was known at a past time.
        Material recall (recall) is separate: a memory is not an adopted claim.
        Returns claims, newest first (best matches first for a query).
        Example: recall_claims(query="release", as_of="2026-04-15")""",
        example='recall_claims(query="release", as_of="2026-04-15")',
        http=Http(
            "GET",
            "/claims",
            "recallClaims",
            "The claims the subject may see (decision 0083), as recorded now or by "
            "`as_of`, holding at `valid_at`.",
        ),
    ),
    Operation(
        "inspect_claim",
        "ClaimRecord",
        (CLAIM_ID, _AS_OF),
        call="chronicle.claim",
        title="Inspect a claim",
        cli="claim show",
        cli_help="a claim with its evidence and history",
        guide="""Inspect one claim: statement, status, evidence with stances, support by
        origin groups, and every decision with its reason; as_of shows it as recorded then.

        Call it before adopting, revising or citing a claim.
        Returns the claim.
        Example: inspect_claim(claim_id="C01KCZ8Q3W5R7T9V1X3Z5B7D9F1", as_of="yesterday")""",
        example=f'inspect_claim(claim_id="{EXAMPLE_CLAIM}")',
        http=Http(
            "GET",
            "/claims/{id}",
            "getClaim",
            "One claim with its evidence and history (at `as_of`: as recorded then).",
            summary="Show a claim",
        ),
    ),
    facade="chronicle",
    profile="full",
    tools_from=60,
    shows={
        "ClaimRecord": _SHOW + "show_claim",
        "ClaimList": _SHOW + "show_claims",
    },
)
