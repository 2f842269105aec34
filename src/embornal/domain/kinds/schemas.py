"""The twelve kind schemas of v1 and their attributes (docs/model.md, Fact and path).

"Each kind has a versioned attribute schema: a frozen dataclass validated at command
time, stored as structured data, projected into queryable SQL." A field with no default is
required; every other field is optional. Constructing a schema checks and
normalizes every value (text trimmed, vocabulary text turned into its enum, ISO text into
dates and times, lists into tuples) and then the kind's cross-field rules, so an instance is
always valid. :meth:`KindSchema.to_payload` gives the canonical JSON object the log and the
projection store (absent fields and empty lists are left out).

Links (to another kind: ``works_at``, ``owned_by``, ``involves``…) are typed edges,
not attributes, and are not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import ClassVar

from embornal.domain.facts.fact import MAX_CONTENT_BYTES
from embornal.domain.kinds.fields import (
    FieldSpec,
    TextFormat,
    convert,
    field_specs,
    meta,
    to_json,
)
from embornal.domain.kinds.vocab import (
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
)
from embornal.errors import InvalidAttribute

__all__ = [
    "V1_SCHEMAS",
    "AssetAttributes",
    "ContactAttributes",
    "EventAttributes",
    "FactAttributes",
    "GoalAttributes",
    "KindSchema",
    "LocationAttributes",
    "OrganizationAttributes",
    "PersonAttributes",
    "PreferenceAttributes",
    "ProjectAttributes",
    "RelationshipAttributes",
    "SkillAttributes",
]

_URI = TextFormat.URI
_ID = TextFormat.FACT_ID


@dataclass(frozen=True, kw_only=True)
class KindSchema:
    """The base of every attribute schema: validation on construction, a JSON payload."""

    KIND: ClassVar[str] = ""
    RULES: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def fields(cls) -> tuple[FieldSpec, ...]:
        return field_specs(cls, cls.KIND)

    def __post_init__(self) -> None:
        for spec in self.fields():
            value = getattr(self, spec.name)
            if value is None or value == ():
                if spec.required:
                    raise InvalidAttribute(f"{spec.label} is required")
                continue
            object.__setattr__(self, spec.name, convert(spec, value))
        self.check()

    def check(self) -> None:
        """The kind's rules across fields (its ``RULES``); every field is already valid."""

    def to_payload(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for spec in self.fields():
            value = getattr(self, spec.name)
            if value is not None and value != ():
                out[spec.name] = to_json(value)
        return out

    def _refuse(self, problem: str) -> InvalidAttribute:
        return InvalidAttribute(f"{self.KIND}: {problem}")


@dataclass(frozen=True, kw_only=True)
class FactAttributes(KindSchema):
    """The atom: one assertion. Everything it relates to is edges (``about →`` any kind).

    Untyped facts (every fact stored before kinds) have no attributes, and their content is
    their statement. The decision for the service: when ``kind`` is ``fact`` and no
    ``statement`` is given, use the content as the statement; a read of an old fact that has
    no attributes derives ``{"statement": content}`` the same way. So ``statement`` may be as
    long as content.
    """

    KIND: ClassVar[str] = Kind.FACT.value
    statement: str = field(metadata=meta(multiline=True, max_length=MAX_CONTENT_BYTES))


@dataclass(frozen=True, kw_only=True)
class PreferenceAttributes(KindSchema):
    """A like, dislike, want, avoid or preference, with a strength and a context."""

    KIND: ClassVar[str] = Kind.PREFERENCE.value
    polarity: Polarity = field(metadata=meta())
    strength: float | None = field(default=None, metadata=meta(minimum=0.0, maximum=1.0))
    context: str | None = field(default=None, metadata=meta())


@dataclass(frozen=True, kw_only=True)
class PersonAttributes(KindSchema):
    """A human the user knows or references; the alias set feeds entity resolution."""

    KIND: ClassVar[str] = Kind.PERSON.value
    full_name: str = field(metadata=meta())
    aliases: tuple[str, ...] = field(default=(), metadata=meta())
    roles: tuple[str, ...] = field(default=(), metadata=meta())
    notes: str | None = field(default=None, metadata=meta(multiline=True))


@dataclass(frozen=True, kw_only=True)
class OrganizationAttributes(KindSchema):
    """A company, team, community or institution."""

    KIND: ClassVar[str] = Kind.ORGANIZATION.value
    name: str = field(metadata=meta())
    aliases: tuple[str, ...] = field(default=(), metadata=meta())
    org_type: OrgType | None = field(default=None, metadata=meta())
    url: str | None = field(default=None, metadata=meta(fmt=_URI))


@dataclass(frozen=True, kw_only=True)
class ProjectAttributes(KindSchema):
    """An undertaking with a status; participants are ``involves →person`` edges."""

    KIND: ClassVar[str] = Kind.PROJECT.value
    name: str = field(metadata=meta())
    status: ProjectStatus = field(metadata=meta())
    summary: str | None = field(default=None, metadata=meta(multiline=True))
    target_date: date | None = field(default=None, metadata=meta())


@dataclass(frozen=True, kw_only=True)
class SkillAttributes(KindSchema):
    """An ability with a proficiency; its evidence lives in the spine's evidence list."""

    KIND: ClassVar[str] = Kind.SKILL.value
    name: str = field(metadata=meta())
    proficiency: Proficiency | None = field(default=None, metadata=meta())
    last_used_at: datetime | None = field(default=None, metadata=meta())


@dataclass(frozen=True, kw_only=True)
class GoalAttributes(KindSchema):
    """An intended outcome with a horizon and a status; hierarchy is ``part_of →goal``."""

    KIND: ClassVar[str] = Kind.GOAL.value
    statement: str = field(metadata=meta(multiline=True))
    horizon: Horizon | None = field(default=None, metadata=meta())
    status: GoalStatus = field(metadata=meta())
    target_date: date | None = field(default=None, metadata=meta())


@dataclass(frozen=True, kw_only=True)
class ContactAttributes(KindSchema):
    """A communication channel, always linked ``owned_by →person|organization``."""

    KIND: ClassVar[str] = Kind.CONTACT.value
    channel: Channel = field(metadata=meta())
    value: str = field(metadata=meta())
    label: str | None = field(default=None, metadata=meta())
    preferred: bool | None = field(default=None, metadata=meta())


@dataclass(frozen=True, kw_only=True)
class EventAttributes(KindSchema):
    """Something that happened at a time (episodic): ``occurred_at``, or ``start_at``/``end_at``."""

    KIND: ClassVar[str] = Kind.EVENT.value
    RULES: ClassVar[tuple[str, ...]] = (
        "occurred_at or start_at is required",
        "end_at needs start_at and is not before it",
    )
    occurred_at: datetime | None = field(default=None, metadata=meta())
    start_at: datetime | None = field(default=None, metadata=meta())
    end_at: datetime | None = field(default=None, metadata=meta())
    outcome: str | None = field(default=None, metadata=meta(multiline=True))

    def check(self) -> None:
        if self.occurred_at is None and self.start_at is None:
            raise self._refuse("give occurred_at, or start_at (and end_at)")
        if self.end_at is not None:
            if self.start_at is None:
                raise self._refuse("end_at needs a start_at")
            if self.end_at < self.start_at:
                raise self._refuse("end_at is before start_at")


@dataclass(frozen=True, kw_only=True)
class LocationAttributes(KindSchema):
    """A place."""

    KIND: ClassVar[str] = Kind.LOCATION.value
    RULES: ClassVar[tuple[str, ...]] = ("latitude and longitude come together",)
    name: str = field(metadata=meta())
    address: str | None = field(default=None, metadata=meta(multiline=True))
    latitude: float | None = field(default=None, metadata=meta(minimum=-90.0, maximum=90.0))
    longitude: float | None = field(default=None, metadata=meta(minimum=-180.0, maximum=180.0))
    location_type: LocationType | None = field(default=None, metadata=meta())

    def check(self) -> None:
        if (self.latitude is None) != (self.longitude is None):
            raise self._refuse("give latitude and longitude together, or neither")


@dataclass(frozen=True, kw_only=True)
class AssetAttributes(KindSchema):
    """A thing owned or used: file, document, device, account, domain, repository."""

    KIND: ClassVar[str] = Kind.ASSET.value
    asset_type: AssetType = field(metadata=meta())
    uri: str | None = field(default=None, metadata=meta(fmt=_URI))
    identifier: str | None = field(default=None, metadata=meta())
    notes: str | None = field(default=None, metadata=meta(multiline=True))


@dataclass(frozen=True, kw_only=True)
class RelationshipAttributes(KindSchema):
    """A reified edge, subject —predicate→ object, for a connection that needs confidence,
    evidence and a lifetime ("Alice manages Bob, since 2024, per standup 3/12")."""

    KIND: ClassVar[str] = Kind.RELATIONSHIP.value
    RULES: ClassVar[tuple[str, ...]] = (
        "subject_id and object_id differ",
        "until is not before since",
    )
    subject_id: str = field(metadata=meta(fmt=_ID))
    predicate: str = field(metadata=meta(max_length=128))
    object_id: str = field(metadata=meta(fmt=_ID))
    since: date | None = field(default=None, metadata=meta())
    until: date | None = field(default=None, metadata=meta())

    def check(self) -> None:
        if self.subject_id == self.object_id:
            raise self._refuse("subject_id and object_id are the same fact")
        if self.since is not None and self.until is not None and self.until < self.since:
            raise self._refuse("until is before since")


V1_SCHEMAS: tuple[type[KindSchema], ...] = (
    FactAttributes,
    PreferenceAttributes,
    PersonAttributes,
    OrganizationAttributes,
    ProjectAttributes,
    SkillAttributes,
    GoalAttributes,
    ContactAttributes,
    EventAttributes,
    LocationAttributes,
    AssetAttributes,
    RelationshipAttributes,
)
