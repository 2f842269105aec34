"""What the history protocol's MCP tools return (decision 0064): compact
models of :mod:`embornal.service.history.results`, each keyed ``memory_id`` as
memory-as-history's tools answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from embornal.interfaces.mcp.results import FactOut, iso
from embornal.interfaces.mcp.schemas import KEPT_NULL

__all__ = ["BY_OUTPUT", "RESULTS", "DueMemoriesOut", "ForgottenOut", "MemoryOut", "ProvenanceOut"]


class MemoryOut(FactOut):
    """A memory and where it stands: stage, tier, sensitivity."""

    keep_null: ClassVar[tuple[str, ...]] = (
        "origin_id",
        "capture_context",
        "event_at",
        "session_id",
        "session_position",
    )

    memory_id: str
    stage: str = Field(description="working (promote it to keep it) or consolidated.")
    status: str = Field(description="The stage again (memory-as-history's name).")
    tier: str = Field(description="archive, testimony or interpretation.")
    sensitive: bool = Field(description="Pinned only with independent corroboration.")
    security_sensitive: bool = Field(description="sensitive again (memory-as-history's name).")
    screened: list[str] = Field(default_factory=list, description="Injection shapes matched.")
    pinned: bool = False
    frame: str | None = Field(None, description="Its frame: a filter, not an access boundary.")
    canon: list[str] = Field(default_factory=list, description="The canon scopes it is in.")
    warnings: list[str] = Field(default_factory=list)
    session_id: str | None = Field(None, json_schema_extra=KEPT_NULL)
    event_at: str | None = Field(None, json_schema_extra=KEPT_NULL)
    session_position: int | None = Field(None, json_schema_extra=KEPT_NULL)
    source: str | None = Field(None, description="The source given at capture; null: unknown.")
    unpinned_by_sensitivity: bool | None = Field(
        None, description="flag_sensitive: whether the flag lifted its anchor."
    )
    material_type: str = Field("unspecified", description="What the material is, as declared.")
    origin_id: str | None = Field(
        None, description="The original it repeats; null: unknown.", json_schema_extra=KEPT_NULL
    )
    capture_context: str | None = Field(
        None, description="How it was collected; null: not said.", json_schema_extra=KEPT_NULL
    )

    @classmethod
    def of_status(cls, s: Any) -> MemoryOut:
        base = FactOut.of(s.fact).model_dump()
        return cls(
            **base,
            memory_id=s.fact.id,
            stage=s.stage,
            status=s.stage,
            tier=s.tier,
            sensitive=s.sensitive,
            security_sensitive=s.sensitive,
            screened=list(s.screened),
            pinned=s.fact.pinned,
            frame=s.frame,
            canon=list(s.canon),
            warnings=list(s.warnings),
            session_id=s.session,
            event_at=iso(s.event_at),
            session_position=s.session_position,
            source=s.origin,
            material_type=s.material_type,
            origin_id=s.origin_id,
            capture_context=s.capture_context,
        )


class ProvenanceOut(BaseModel):
    """The recorded sources of a memory and the corroboration gate."""

    memory_id: str
    tier: str
    sensitive: bool
    origin: str | None = Field(None, description="The source given at capture; null: unknown.")
    origin_known: bool = Field(description="Whether a source was given at capture.")
    sources: list[str] = Field(description="Distinct corroborating labels.")
    recorded: int = Field(description="Corroborations recorded, repeats too.")
    independent_count: int
    needed: int
    independent_corroboration_count: int = Field(
        description="Independent sources beyond those the gate needs besides one: 0 until it "
        "is met (memory-as-history's count; an unknown origin needs two)."
    )
    corroboration_satisfied: bool
    explanation: str
    warning: str | None = None

    @classmethod
    def of(cls, p: Any) -> ProvenanceOut:
        return cls(
            memory_id=p.fact_id,
            tier=p.tier,
            sensitive=p.sensitive,
            origin=p.origin,
            origin_known=p.origin is not None,
            sources=list(p.sources),
            recorded=p.recorded,
            independent_count=len(p.independent),
            needed=p.needed,
            independent_corroboration_count=max(len(p.independent) - p.needed + 1, 0),
            corroboration_satisfied=p.satisfied,
            explanation=p.explanation,
            warning=p.warning,
        )


class DueItemOut(FactOut):
    memory_id: str
    tier: str
    sensitive: bool
    security_sensitive: bool
    since: str | None = Field(None, description="Captured, or last reviewed.")


class DueMemoriesOut(BaseModel):
    memories: list[DueItemOut]

    @classmethod
    def of(cls, due: Any) -> DueMemoriesOut:
        return cls(
            memories=[
                DueItemOut(
                    **FactOut.of(d.fact).model_dump(),
                    memory_id=d.fact.id,
                    tier=d.tier,
                    sensitive=d.sensitive,
                    security_sensitive=d.sensitive,
                    since=iso(d.since),
                )
                for d in due
            ]
        )


class ForgottenItemOut(FactOut):
    memory_id: str
    forgotten_at: str | None
    reason: str | None
    actor: str


class ForgottenOut(BaseModel):
    memories: list[ForgottenItemOut]

    @classmethod
    def of(cls, rows: Any) -> ForgottenOut:
        return cls(
            memories=[
                ForgottenItemOut(
                    **FactOut.of(r.fact).model_dump(),
                    memory_id=r.fact.id,
                    forgotten_at=iso(r.forgotten_at),
                    reason=r.reason,
                    actor=r.actor,
                )
                for r in rows
            ]
        )


_Project = Callable[[Any, Mapping[str, Any]], BaseModel]

RESULTS: dict[str, tuple[type[BaseModel], _Project]] = {
    "flag_sensitive": (
        MemoryOut,
        lambda r, a: MemoryOut.of_status(r).model_copy(
            update={"unpinned_by_sensitivity": r.unpinned}
        ),
    ),
}

BY_OUTPUT: dict[str, tuple[type[BaseModel], _Project]] = {
    "MemoryStatus": (MemoryOut, lambda r, a: MemoryOut.of_status(r)),
    "ProvenanceReport": (ProvenanceOut, lambda r, a: ProvenanceOut.of(r)),
    "list[DueMemory]": (DueMemoriesOut, lambda r, a: DueMemoriesOut.of(r)),
    "list[ForgottenMemory]": (ForgottenOut, lambda r, a: ForgottenOut.of(r)),
}
