"""Kinds: the typed shapes of memories (docs/model.md, Fact and path; decision 0030).

One mechanism, twelve kinds: every memory is the same event-sourced object, and its
``kind`` picks a versioned attribute schema from :data:`KINDS`.
"""

from __future__ import annotations

from embornal.domain.kinds.fields import FieldSpec, FieldType, TextFormat
from embornal.domain.kinds.registry import (
    KINDS,
    KindEntry,
    KindRegistry,
    Upcaster,
    default_registry,
)
from embornal.domain.kinds.schemas import (
    V1_SCHEMAS,
    AssetAttributes,
    ContactAttributes,
    EventAttributes,
    FactAttributes,
    GoalAttributes,
    KindSchema,
    LocationAttributes,
    OrganizationAttributes,
    PersonAttributes,
    PreferenceAttributes,
    ProjectAttributes,
    RelationshipAttributes,
    SkillAttributes,
)
from embornal.domain.kinds.vocab import (
    INVERSE_RELATIONS,
    AssetType,
    Channel,
    GoalStatus,
    Horizon,
    Kind,
    LocationType,
    OrgType,
    Polarity,
    Proficiency,
    ProjectStatus,
    Relation,
    allowed_values,
)

__all__ = [
    "INVERSE_RELATIONS",
    "KINDS",
    "V1_SCHEMAS",
    "AssetAttributes",
    "AssetType",
    "Channel",
    "ContactAttributes",
    "EventAttributes",
    "FactAttributes",
    "FieldSpec",
    "FieldType",
    "GoalAttributes",
    "GoalStatus",
    "Horizon",
    "Kind",
    "KindEntry",
    "KindRegistry",
    "KindSchema",
    "LocationAttributes",
    "LocationType",
    "OrgType",
    "OrganizationAttributes",
    "PersonAttributes",
    "Polarity",
    "PreferenceAttributes",
    "Proficiency",
    "ProjectAttributes",
    "ProjectStatus",
    "Relation",
    "RelationshipAttributes",
    "SkillAttributes",
    "TextFormat",
    "Upcaster",
    "allowed_values",
    "default_registry",
]
