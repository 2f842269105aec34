"""The catalogue's operations of the graph: link, unlink, links, merge and the dangling
report (docs/model.md, Links and merges; decisions 0052–0054).

:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG`` after the spine's. Stdlib-only
at import (plain data), as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_LIMIT
from embornal.interfaces.catalog_inputs import (
    EXAMPLE_ID,
    FACT_ID,
    FACT_ID_PATTERN,
    LINK_DIRECTION,
    OPTIONAL_REASON,
    READ_ERRORS,
    REQUIRED_REASON,
    SEARCH_MODE,
    limit,
    under,
)
from embornal.interfaces.catalog_types import Http, Input, Operation, part, replace

__all__ = ["INVERSE_NAMES", "OPERATIONS", "PLACE", "RELATIONS"]

#: The closed vocabulary (:class:`embornal.domain.graph.rules.Relation`; a test keeps them equal).
RELATIONS = (
    "about",
    "involves",
    "part_of",
    "owned_by",
    "works_at",
    "located_in",
    "relates_to",
    "supersedes",
    "derived_from",
    "contradicts",
)
#: The query names of the directed relations read backwards (``domain.graph.INVERSE``).
INVERSE_NAMES = (
    "subject_of",
    "involved_in",
    "contains",
    "owns",
    "employs",
    "location_of",
    "superseded_by",
    "basis_of",
)
_EXAMPLE_2 = "01KCZ8Q3W5R7T9V1X3Z5B7D9F2"
_GRAPH = "graph.commands:"

_SOURCE = Input(
    "source",
    "id",
    "The id of the fact the link leaves (a unique prefix works).",
    True,
    aliases=("source", "source_id", "from", "id", "fact_id"),
    http="id",
    metavar="SRC",
    cli_help="the fact the link leaves",
)
_RELATION = Input(
    "relation",
    "choice",
    "The relation, in its canonical direction: about (a fact -> what it concerns), involves "
    "(project/event/goal -> person/organization), part_of (member -> whole, same kind), "
    "owned_by (contact/asset -> person/organization), works_at (person -> organization), "
    "located_in (-> a location), relates_to, supersedes (new -> old), derived_from "
    "(conclusion -> source), contradicts.",
    True,
    aliases=("relation", "rel", "type", "predicate"),
    choices=RELATIONS,
    metavar="RELATION",
    cli_help=f"one of {', '.join(RELATIONS)}",
)
_TARGET = Input(
    "target",
    "id",
    "The id of the fact the link points at.",
    True,
    aliases=("target", "target_id", "to", "dst"),
    pattern=FACT_ID_PATTERN,
    metavar="DST",
    cli_help="the fact it points at",
)
_LINK_HTTP = (
    "The link is stored in the relation's canonical direction (a symmetric one, relates_to "
    "or contradicts, from the smaller id). It takes write on the source; the target must be "
    "readable (else 404, as a missing one). An unknown relation, one the source's kind may "
    "not emit, a target of the wrong kind or a self-link is 400"
)

PLACE = 30
"""Where :data:`OPERATIONS` go in the catalogue (decision 0177)."""

OPERATIONS: tuple[Operation, ...] = part(
    "graph",
    Operation(
        "link",
        "Link",
        (_SOURCE, _RELATION, _TARGET, OPTIONAL_REASON),
        title="Link two facts",
        cli="memory link",
        cli_show=_GRAPH + "show_link",
        cli_help="link two facts with a typed relation",
        cli_doc="Link SRC to DST with RELATION, in its canonical direction (e.g. a note\n"
        "`about` a person, a person `works_at` an organization). Inverse names\n"
        "(subject_of, employs...) are for `memory links` only.",
        guide="""Link two facts with a typed relation, from the fact it leaves to the one it
        points at: a note about a person, a person works_at an organization, a project
        involves a person, a contact owned_by a person, an event located_in a place.

        Call it when you learn how two stored facts relate. Each kind may emit only some
        relations (a person: works_at; a project: involves, part_of; any fact: about,
        located_in, relates_to, supersedes, derived_from, contradicts). A link made twice
        is refused.
        Returns the link as stored.
        Example: link(source="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", relation="about", target="01KD0A…")""",
        example=f'link(source="{EXAMPLE_ID}", relation="about", target="{_EXAMPLE_2}")',
        http=Http(
            "POST",
            "/facts/{id}/link",
            "linkFacts",
            f"{_LINK_HTTP}; the same link twice is 409.",
        ),
    ),
    Operation(
        "unlink",
        "Link",
        (_SOURCE, _RELATION, _TARGET, OPTIONAL_REASON),
        title="Unlink two facts",
        cli="memory unlink",
        cli_show=_GRAPH + "show_unlink",
        cli_help="take a typed link off",
        cli_doc="Take the link SRC RELATION DST off (a dangling one too); kept in the history.",
        guide="""Take a typed link off, when it was wrong or no longer holds; the history keeps
        it.

        Call it with the same source, relation and target the link was made with.
        Example: unlink(source="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", relation="about", target="01KD0A…")""",
        example=f'unlink(source="{EXAMPLE_ID}", relation="about", target="{_EXAMPLE_2}")',
        http=Http(
            "POST",
            "/facts/{id}/unlink",
            "unlinkFacts",
            f"{_LINK_HTTP}; a link that is not there is 404.",
            summary="Take a link off",
        ),
    ),
    Operation(
        "links",
        "LinkGraph",
        (
            FACT_ID,
            Input(
                "relation",
                "choice",
                "Only this relation; an inverse name reads it backwards (subject_of: the "
                "facts about this one; employs: the people who work at it).",
                aliases=("relation", "rel", "type"),
                choices=(*RELATIONS, *INVERSE_NAMES),
                metavar="R",
                cli_help="only this relation (inverse names work: subject_of...)",
            ),
            replace(LINK_DIRECTION, cli_help="in, out or both (default)"),
            Input(
                "depth",
                "int",
                "How many links away, 1 to 5 (default 1).",
                default=1,
                aliases=("depth", "hops"),
                low=1,
                high=5,
                metavar="N",
                cli_help="follow links N away, 1-5 (default 1)",
            ),
            limit(
                f"How many facts at most (default 100, up to {MAX_LIMIT}).",
                f"at most N facts (1-{MAX_LIMIT}, default 100)",
                aliases=("limit", "max_results"),
            ),
        ),
        title="A fact's links",
        cli="memory links",
        cli_show=_GRAPH + "show_links",
        cli_help="the facts linked to a fact (breadth first)",
        cli_doc="The facts linked to ID, nearest first, up to --depth links away (each fact\n"
        "once, so cycles end), with the [[/path]] links of its content and the\n"
        "relationship facts that name it. Forgotten facts are dead ends; a merged one\n"
        "is read as its survivor.",
        guide="""List the facts linked to a fact, nearest first: what a note is about, who
        works at an organization, what a project involves, up to depth links away.

        Call it to gather the context around an entity before answering about it.
        relation narrows it (an inverse name reads backwards: subject_of = the facts about
        it, employs = who works there); direction in/out/both.
        Returns the facts reached with their depth, the links followed (name as read from
        the fact they start at), the [[/path]] links of its content and the relationship
        facts naming it.
        Example: links(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", relation="subject_of", depth=2)""",
        example=f'links(id="{EXAMPLE_ID}", depth=2)',
        http=Http(
            "GET",
            "/facts/{id}/links",
            "factLinks",
            "Breadth first from the fact, up to `depth` (1-5) links away and `limit` "
            "facts, each fact once. Only facts the subject may read are followed or "
            "shown; forgotten and purged facts are dead ends; a merged fact reads as "
            "its survivor. An inverse relation name (subject_of...) reads the "
            "relation backwards.",
            summary="The facts linked to a fact",
        ),
    ),
    Operation(
        "similar",
        "list[RecallHit]",
        (
            FACT_ID,
            limit(
                f"How many facts at most (default 10, up to {MAX_LIMIT}).",
                f"at most N facts (1-{MAX_LIMIT}, default 10)",
                aliases=("limit", "max_results"),
            ),
            under("Only facts at or below this path.", aliases=("under", "path", "prefix")),
            SEARCH_MODE,
        ),
        tool_order=88,
        title="Facts like this one",
        cli="memory similar",
        cli_show="cascade.commands:show_hits",
        cli_help="the facts most like a fact (its content as the query)",
        cli_doc="The facts most like ID, best first: a recall of its content that leaves it\n"
        "out and reinforces nothing (a near duplicate, a related note, the same topic\n"
        "on another path).",
        guide="""Find the facts most like one fact: its content is the query, the fact
        itself left out. It does not count as a recall.

        Call it before storing a variant of a fact (is it known already?), or to gather
        the notes on the same topic stored on other paths.
        Returns hits, best first: id, path, content, score, strength.
        Example: similar(id="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", limit=5)""",
        example=f'similar(id="{EXAMPLE_ID}", limit=5)',
        http=Http(
            "GET",
            "/facts/{id}/similar",
            "similarFacts",
            "A recall of the fact's content, the fact itself left out: the best `limit` "
            "facts the subject may read, at or below `under`; nothing is reinforced.",
            summary="The facts most like a fact",
            items="hits",
            errors=READ_ERRORS,
        ),
    ),
    Operation(
        "merge",
        "Fact",
        (
            replace(
                FACT_ID,
                name="survivor",
                description="The fact that stays (keeps its id).",
                aliases=("survivor", "survivor_id", "id", "into"),
                metavar="SURVIVOR",
                cli_help="the fact that stays",
            ),
            Input(
                "source",
                "id",
                "The fact merged into it: archived, its aliases and evidence absorbed.",
                True,
                aliases=("source", "source_id", "duplicate"),
                pattern=FACT_ID_PATTERN,
                metavar="SOURCE",
                cli_help="the duplicate, archived by the merge",
            ),
            REQUIRED_REASON,
        ),
        title="Merge two facts",
        destructive=True,
        cli="memory merge",
        cli_help="merge a duplicate into the fact that stays",
        cli_doc="Merge SOURCE into SURVIVOR (same kind): the survivor keeps its id and absorbs\n"
        "the source's aliases and evidence; the source is archived (restorable) with a\n"
        "supersedes link from the survivor; links to it resolve to the survivor.",
        guide="""Merge two facts that are the same real-world thing (two person facts for
        one person): the survivor keeps its id and absorbs the other's aliases and
        evidence; the other is archived, and links to it now lead to the survivor.

        Call it only when the user agrees they are the same; both must be of one kind.
        A reason is required. Returns the survivor.
        Example: merge(survivor="01KCZ8Q3W5R7T9V1X3Z5B7D9F1", source="01KD0A…", reason="same")""",
        example=f'merge(survivor="{EXAMPLE_ID}", source="{_EXAMPLE_2}", reason="same person")',
        http=Http(
            "POST",
            "/facts/{id}/merge",
            "mergeFacts",
            "Merge `source` into the fact of the path (same kind, both active, not "
            "itself: else 400 or 409): aliases union, the source's evidence joins, the "
            "source is forgotten with a supersedes link from the survivor, in one "
            "transaction. It takes write and delete on the survivor and delete on the "
            "source; one the subject may not read answers 404.",
        ),
    ),
    Operation(
        "dangling_links",
        "list[DanglingLink]",
        (
            limit(
                f"How many at most (default 100, up to {MAX_LIMIT}).",
                f"at most N links (1-{MAX_LIMIT}, default 100)",
                aliases=("limit",),
            ),
        ),
        profile="none",
        tool_order=0,
        read_only=True,
        cli="memory dangling",
        cli_show=_GRAPH + "show_dangling",
        cli_help="list the links whose target is forgotten or purged",
        cli_doc="The maintenance report of the graph: each link whose target is forgotten or\n"
        "purged (a traversal skips it). Nothing is deleted; unlink or restore by hand.",
    ),
    profile="full",
    tools_from=24,
)
