"""The closed vocabulary of typed links (decision 0052) and the query name of each directed
relation read backwards: written once for the graph's rules and the kinds' vocabularies.

It imports nothing, so the kinds name it without importing the graph's rules (and the events
they decide), and the graph's rules without importing the kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

__all__ = ["INVERSE", "Relation"]


class Relation(StrEnum):
    """The closed core vocabulary, each in its canonical direction (decision 0052)."""

    ABOUT = "about"
    INVOLVES = "involves"
    PART_OF = "part_of"
    OWNED_BY = "owned_by"
    WORKS_AT = "works_at"
    LOCATED_IN = "located_in"
    RELATES_TO = "relates_to"
    SUPERSEDES = "supersedes"
    DERIVED_FROM = "derived_from"
    CONTRADICTS = "contradicts"


#: The query name of each directed relation read backwards (the symmetric relations,
#: ``relates_to`` and ``contradicts``, have none).
INVERSE: Mapping[Relation, str] = {
    Relation.ABOUT: "subject_of",
    Relation.INVOLVES: "involved_in",
    Relation.PART_OF: "contains",
    Relation.OWNED_BY: "owns",
    Relation.WORKS_AT: "employs",
    Relation.LOCATED_IN: "location_of",
    Relation.SUPERSEDES: "superseded_by",
    Relation.DERIVED_FROM: "basis_of",
}
