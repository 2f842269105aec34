"""The catalogue's operations of the spine and of importance: confirm, contradict,
add_evidence, undo, visibility, pin, unpin, set_weight, set_lifetime and due.

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG``, in this order, after the
core operations (store, recall, the tree, the life cycle, kinds). Stdlib-only at import,
as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT
from embornal.interfaces.catalog_inputs import (
    EVIDENCE_CLI,
    EVIDENCE_LENGTH,
    EVIDENCE_NOTE_LENGTH,
    EVIDENCE_TYPES,
    EXAMPLE_ID,
    FACT_ID,
    FACT_ID_PATTERN,
    FACTS_UNDER,
    LIFETIME,
    LIMIT,
    OPTIONAL_REASON,
    REQUIRED_REASON,
    VISIBILITY,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["OPERATIONS", "PLACE"]

#: pin, unpin, weight, lifetime: the text says the fact's importance after the change,
#: ``--json`` its detail (a second call).
_IMPORTANCE = "spine.importance_commands:change"

_VISIBILITY_HELP = (
    "shared (default), private (you only, never an assistant) or restricted:a,b (you and "
    "the subjects or roles listed)"
)
_EVIDENCE = Input(
    "evidence",
    "evidence",
    f"What supports it, as TYPE:VALUE; TYPE is {EVIDENCE_TYPES}, e.g. "
    '"uri:https://example.org/notes" or "quote:We picked uv.".',
    aliases=("evidence",),
    max_length=EVIDENCE_LENGTH,
    metavar="TYPE:VALUE",
    cli_help=f"{EVIDENCE_CLI} (one per call)",
)

PLACE = 10
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "facts",
    Operation(
        "confirm",
        "Fact",
        (FACT_ID, _EVIDENCE, OPTIONAL_REASON),
        title="Confirm a fact",
        cli="memory confirm",
        cli_help="vouch for a fact: its confidence goes up",
        cli_run="spine.commands:vouch",
        cli_doc="Confirm the active fact ID: its confidence moves toward 1 and it counts as\n"
        "confirmed now. --evidence attaches what supports it (one per call).",
        guide="""Vouch for a fact that still holds: its confidence goes up and its last
        confirmation is now.

        Call it when the user or a source you just read confirms a fact you recalled;
        give the evidence when there is some. It does not change what the fact says.
        Returns the fact with its confidence.
        Example: confirm(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", evidence="quote:Still uv.")""",
        example=f'confirm(id="{EXAMPLE_ID}", evidence="quote:still true")',
        http=Http(
            "POST",
            "/facts/{id}/confirm",
            "confirmFact",
            "Vouch for an active fact: its confidence moves toward 1 by the weight of "
            "the token's actor kind and `last_confirmed_at` is now; the evidence, if "
            "given, joins the fact's. It takes write on the fact; one the subject may "
            "not read answers 404.",
        ),
    ),
    Operation(
        "contradict",
        "Fact",
        (
            FACT_ID,
            REQUIRED_REASON,
            Input(
                "by",
                "id",
                "The id of the fact that contradicts it, if there is one.",
                aliases=("by", "by_id", "contradicted_by"),
                pattern=FACT_ID_PATTERN,
                metavar="ID2",
                cli_help="the fact that contradicts it",
            ),
            _EVIDENCE,
        ),
        title="Contradict a fact",
        cli="memory contradict",
        cli_help="dispute a fact: its confidence goes down",
        cli_run="spine.commands:vouch",
        cli_doc="Dispute the active fact ID (--reason is required): its confidence decays.\n"
        "--by names the fact that contradicts it; --evidence what shows it (one).",
        guide="""Dispute a fact that something now contradicts: its confidence goes down; it
        stays in recall and in the history.

        Call it when a source or the user says a fact may be wrong but you do not know the
        right one (when you do, supersede it). A reason is required.
        Returns the fact with its confidence.
        Example: contradict(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="The README says Poetry.")""",
        example=f'contradict(id="{EXAMPLE_ID}", reason="the README says otherwise")',
        http=Http(
            "POST",
            "/facts/{id}/contradict",
            "contradictFact",
            "Dispute an active fact (a reason is required): its confidence decays by "
            "the weight of the token's actor kind. `by` names the fact that "
            "contradicts it (readable to the subject). It takes write on the fact.",
        ),
    ),
    Operation(
        "add_evidence",
        "Fact",
        (
            FACT_ID,
            replace(_EVIDENCE, required=True, cli_help=EVIDENCE_CLI),
            Input(
                "note",
                "text",
                "A short note on the evidence (optional).",
                aliases=("note", "comment"),
                max_length=EVIDENCE_NOTE_LENGTH,
                cli_help="a short note on the evidence",
            ),
        ),
        title="Add evidence",
        cli="memory evidence",
        cli_help="attach evidence to a fact (a weak confirmation)",
        cli_run="spine.commands:vouch",
        cli_doc="Append TYPE:VALUE evidence to the fact ID, e.g. uri:https://example.org or\n"
        "quote:'we picked uv'. Evidence is never edited or removed.",
        guide="""Attach evidence to a fact: a quote, a link, a document, a conversation or
        an observation that supports it. Evidence is never edited or removed.

        Call it when you find where a fact comes from; it counts as a weak confirmation.
        With claim_id it cites material for a claim instead (memory_id or source, stance
        supports|challenges|context, note, quote, common_origin) and returns the claim.
        Returns the fact with its confidence.
        Example: add_evidence(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", evidence="uri:https://x.org/adr")""",
        example=f'add_evidence(id="{EXAMPLE_ID}", evidence="uri:https://example.org/adr/12")',
        http=Http(
            "POST",
            "/facts/{id}/evidence",
            "addEvidence",
            "Append one piece of evidence (`TYPE:VALUE`, TYPE one of quote, uri, "
            "conversation, document, observation) with an optional note: a weak "
            "confirmation. It takes write on the fact.",
            summary="Add evidence to a fact",
        ),
    ),
    Operation(
        "undo",
        "list[Event]",
        (
            Input(
                "event_id",
                "event",
                "The event to undo: its id, the number in the # column (position) of history.",
                True,
                aliases=("event_id", "event", "id", "position"),
                low=1,
                http="position",
                metavar="EVENT_ID",
                cli_help="the event's id: the # of `memory history`",
            ),
            REQUIRED_REASON,
        ),
        title="Undo an event",
        destructive=True,
        cli="memory undo",
        cli_show="undo_cmds:show_undone",
        cli_help="undo one event of a history (a purge cannot be undone)",
        cli_doc="Append the events that undo EVENT_ID (the # column of `memory history`): a\n"
        "store is forgotten, a forget restored, attributes and confidence set back.",
        guide="""Undo one event of a fact's history: a store, forget, restore, attribute
        update, confirm, contradiction or evidence; the undo is itself kept in the history.

        Call it when you or the user made a change by mistake: first call history to find
        the event's position, then undo it with a reason. It appends the opposite change
        (a store is forgotten, a forget restored, attributes and confidence set back); a
        purge cannot be undone, and an event a later one changed is refused until that one
        is undone. Undoing an undo redoes the change.
        Returns the events it appended, each with undoes (the position undone).
        Example: undo(event_id=42, reason="Confirmed the wrong fact.")""",
        example='undo(event_id=42, reason="stored by mistake")',
        http=Http(
            "POST",
            "/events/{position}/undo",
            "undoEvent",
            "Append the events that compensate the event at log `position` (the "
            "`position` of a history event: its id), each with `undoes` = it and the "
            "reason. "
            "A purge cannot be undone, nor an event a later one overrode (409, naming "
            "it); an event of a stream the subject may not read answers 404, as a "
            "missing one. It takes the rights of the compensation (forget and restore: "
            "delete; an attribute update: write and delete; the rest: write).",
            summary="Undo one event",
            items="events",
            tag="events",
        ),
    ),
    Operation(
        "visibility",
        "Fact",
        (
            FACT_ID,
            replace(
                VISIBILITY, required=True, probe=False, full_only=False, cli_help=_VISIBILITY_HELP
            ),
            OPTIONAL_REASON,
        ),
        call="set_visibility",
        title="Set who may see a fact",
        cli="memory visibility",
        cli_show="spine.visibility_commands:show_visibility",
        cli_help="set who may see a fact (shared, private, restricted:a,b)",
        cli_doc="Set who may see the fact ID (yours only): shared, private (you only; never an\n"
        "assistant) or restricted:a,b (you and the subjects or roles listed).",
        guide="""Change who may see a fact you stored: shared, private (you only, and never an
        assistant: you will not see it again) or restricted:alice,bob (you and those listed).

        Call it when the user asks to keep a fact to themselves or to a few people.
        Example: visibility(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", visibility="restricted:alice")""",
        example=f'visibility(id="{EXAMPLE_ID}", visibility="restricted:alice")',
        http=Http(
            "POST",
            "/facts/{id}/visibility",
            "setVisibility",
            "shared, private or restricted:a,b; only the fact's owner, with write and "
            "delete on it (else 403). A private fact never reaches an assistant (every "
            "token is one).",
        ),
    ),
    # -- importance and lifetime (docs/model.md, Lifecycle, The spine) --------------------
    Operation(
        "pin",
        "Fact",
        (FACT_ID, OPTIONAL_REASON),
        profile="core",
        title="Pin a fact",
        idempotent=True,
        cli="memory pin",
        cli_help="pin a fact: recall lifts it",
        cli_doc="Pin the active fact ID.",
        cli_run=_IMPORTANCE,
        brief=(
            "Anchor a consolidated memory (promote first) so recall always returns it, with "
            'why. Example: pin(memory_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="who the user '
            'is")'
        ),
        guide="""Pin a fact the user says matters: it ranks higher in recall from now on.

        Call it when the user asks you to keep something in mind for good ("remember this,
        it is important"). Pinning a pinned fact changes nothing.
        Returns the fact with its importance.
        Example: pin(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="the user's standing rule")""",
        example=f'pin(id="{EXAMPLE_ID}", reason="the user asked")',
        http=Http(
            "POST",
            "/facts/{id}/pin",
            "pinFact",
            "Pin an active fact: recall lifts it. It takes write on the fact; an already "
            "pinned fact is answered as it is and nothing is written.",
        ),
    ),
    Operation(
        "unpin",
        "Fact",
        (FACT_ID, OPTIONAL_REASON),
        profile="core",
        title="Unpin a fact",
        idempotent=True,
        cli="memory unpin",
        cli_help="take the pin off a fact",
        cli_doc="Unpin the active fact ID.",
        cli_run=_IMPORTANCE,
        brief=(
            'Remove an anchor, with why. Example: unpin(memory_id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1",'
            ' reason="no longer true")'
        ),
        guide="""Take the pin off a fact: it ranks as any other fact again.

        Call it when the user says a pinned fact no longer matters that much.
        Returns the fact with its importance.
        Example: unpin(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1")""",
        example=f'unpin(id="{EXAMPLE_ID}")',
        http=Http(
            "POST",
            "/facts/{id}/unpin",
            "unpinFact",
            "Take the pin off an active fact (one not pinned: nothing is written). It "
            "takes write on the fact.",
        ),
    ),
    Operation(
        "set_weight",
        "Fact",
        (
            FACT_ID,
            Input(
                "weight",
                "weight",
                "How much it matters, 0 to 1 (0.5 is neutral: above lifts it in recall, below "
                "lowers it); null takes the weight off.",
                True,
                aliases=("weight", "importance"),
                low=0,
                high=1,
                metavar="W",
                cli_help="0 to 1 (0.5 neutral), or none",
            ),
            OPTIONAL_REASON,
        ),
        title="Weight a fact",
        idempotent=True,
        cli="memory weight",
        cli_help="set how much a fact matters (0-1)",
        cli_run=_IMPORTANCE,
        cli_doc="Set the user weight of the fact ID to W, 0..1 (0.5 neutral: above lifts it in\n"
        "recall, below lowers it); none takes the weight off.",
        guide="""Say how much a fact matters, from 0 to 1 (0.5 is neutral): above 0.5 it
        ranks higher in recall, below it lower.

        Call it when the user says something matters more or less than the rest.
        Returns the fact with its importance.
        Example: set_weight(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", weight=0.9)""",
        example=f'set_weight(id="{EXAMPLE_ID}", weight=0.9)',
        http=Http(
            "POST",
            "/facts/{id}/weight",
            "setWeight",
            "The user weight of an active fact, 0..1 (outside: 400, nothing written); "
            "null takes it off. It takes write on the fact.",
        ),
    ),
    Operation(
        "set_lifetime",
        "Fact",
        (
            FACT_ID,
            replace(
                LIFETIME,
                required=True,
                full_only=False,
                probe=False,
                cli_help="permanent, standard (default), ephemeral (a day) or until:YYYY-MM-DD",
            ),
            OPTIONAL_REASON,
        ),
        title="Set a fact's lifetime",
        idempotent=True,
        cli="memory lifetime",
        cli_help="set how long a fact lives",
        cli_run=_IMPORTANCE,
        cli_doc="Set the lifetime of the fact ID: permanent, standard, ephemeral (a day) or\n"
        "until:YYYY-MM-DD (today or later). It leaves recall once the lifetime runs out;\n"
        "a new lifetime brings it back.",
        guide="""Say how long a fact should live: permanent, standard (the default),
        ephemeral (a day) or until:YYYY-MM-DD, after which it leaves recall by itself.

        Call it when the user gives a fact an end ("parking spot C4 until Friday") or says
        it must never fade. A new lifetime brings back a fact whose lifetime ran out.
        Returns the fact with its lifetime.
        Example: set_lifetime(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", lifetime="until:2027-01-31")""",
        example=f'set_lifetime(id="{EXAMPLE_ID}", lifetime="until:2027-01-31")',
        http=Http(
            "POST",
            "/facts/{id}/lifetime",
            "setLifetime",
            "permanent, standard, ephemeral (one day) or until:YYYY-MM-DD (today or "
            "later; a past date is 400 and nothing is written). An until or ephemeral "
            "fact leaves recall once its lifetime runs out, without an event; a new "
            "lifetime brings it back. It takes write on the fact.",
        ),
    ),
    Operation(
        "due",
        "list[DueFact]",
        (
            replace(
                LIMIT,
                description="How many at most (default 10).",
                cli_help=f"at most N facts (1-{MAX_LIMIT})",
            ),
            FACTS_UNDER,
        ),
        title="Facts due for confirmation",
        cli="memory due",
        cli_show="spine.importance_commands:show_due",
        cli_help="list the stale facts to confirm again",
        cli_doc="The facts whose confidence has decayed below their kind's staleness threshold\n"
        "since they were last confirmed, most urgent first.",
        guide="""List the stale facts that need confirming again, most urgent first: their
        confidence has decayed below their kind's threshold since they were last vouched for.

        Call it when the user asks what may be out of date, then confirm, correct or forget
        each with them.
        Returns facts with confidence, c_eff (decayed now) and the threshold.
        Example: due(under="/projects", limit=5)""",
        example="due(limit=5)",
        http=Http(
            "GET",
            "/due",
            "dueFacts",
            "The live facts the subject may read whose confidence, decayed by their "
            "kind's half-life since the last confirmation, is below the kind's "
            "staleness threshold; lowest c_eff / threshold first.",
            summary="Stale facts to confirm again",
            items="facts",
        ),
    ),
    profile="full",
    tools_from=14,
    probe=True,
)
