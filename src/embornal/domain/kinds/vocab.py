"""The closed vocabularies of the kind schemas and of the typed links (docs/model.md).

"Vocabulary rule: every closed vocabulary above is a StrEnum in code. Extending one is a
schema version bump with an upcaster, reviewed like any event schema change."
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from embornal.domain.graph.relations import INVERSE, Relation

__all__ = [
    "INVERSE_RELATIONS",
    "AssetType",
    "Channel",
    "GoalStatus",
    "Horizon",
    "Kind",
    "LocationType",
    "OrgType",
    "Polarity",
    "Proficiency",
    "ProjectStatus",
    "Relation",
    "allowed_values",
]


class Kind(StrEnum):
    """The twelve kinds of v1 (docs/model.md, Fact and path)."""

    FACT = "fact"
    PREFERENCE = "preference"
    PERSON = "person"
    ORGANIZATION = "organization"
    PROJECT = "project"
    SKILL = "skill"
    GOAL = "goal"
    CONTACT = "contact"
    EVENT = "event"
    LOCATION = "location"
    ASSET = "asset"
    RELATIONSHIP = "relationship"


class Polarity(StrEnum):
    LIKES = "likes"
    DISLIKES = "dislikes"
    WANTS = "wants"
    AVOIDS = "avoids"
    PREFERS = "prefers"


class OrgType(StrEnum):
    COMPANY = "company"
    TEAM = "team"
    COMMUNITY = "community"
    INSTITUTION = "institution"
    OTHER = "other"


class ProjectStatus(StrEnum):
    IDEA = "idea"
    ACTIVE = "active"
    PAUSED = "paused"
    DONE = "done"
    ABANDONED = "abandoned"


class Proficiency(StrEnum):
    NOVICE = "novice"
    COMPETENT = "competent"
    PROFICIENT = "proficient"
    EXPERT = "expert"


class Horizon(StrEnum):
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


class GoalStatus(StrEnum):
    ACTIVE = "active"
    ACHIEVED = "achieved"
    DROPPED = "dropped"


class Channel(StrEnum):
    EMAIL = "email"
    PHONE = "phone"
    HANDLE = "handle"
    ADDRESS = "address"
    OTHER = "other"


class LocationType(StrEnum):
    HOME = "home"
    WORK = "work"
    CITY = "city"
    VENUE = "venue"
    OTHER = "other"


class AssetType(StrEnum):
    FILE = "file"
    DOCUMENT = "document"
    DEVICE = "device"
    ACCOUNT = "account"
    DOMAIN = "domain"
    REPOSITORY = "repository"
    OTHER = "other"


# "store only the canonical direction (inverses are query-time aliases)"; the symmetric
# relations (relates_to, contradicts) have no inverse name.
INVERSE_RELATIONS: Mapping[str, Relation] = MappingProxyType(
    {name: relation for relation, name in INVERSE.items()}
)


def allowed_values(vocabulary: type[StrEnum]) -> str:
    """``likes, dislikes, wants, avoids, prefers``: the values, in declaration order."""
    return ", ".join(member.value for member in vocabulary)
