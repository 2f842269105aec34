"""Facts: one small immutable statement on a path, and the rules for content."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from datetime import datetime

from embornal.domain.bounds import MAX_CONTENT_BYTES, MAX_REASON_LENGTH
from embornal.domain.facts.tags import Tag
from embornal.domain.spine.strength import Signals
from embornal.domain.values import value
from embornal.errors import InvalidContent, InvalidInput
from embornal.hints import Any

__all__ = [
    "DEFAULT_KIND",
    "MAX_CONTENT_BYTES",
    "MAX_REASON_LENGTH",
    "Fact",
    "check_content",
    "check_reason",
]

DEFAULT_KIND = "fact"


@value
class Fact:
    """A fact as the projection holds it, with its stored signals (never its strength)."""

    id: str
    path: str
    content: str
    kind: str
    owner: str
    created_at: datetime
    last_recall_at: datetime | None
    recall_count: int
    stability_days: float
    supersedes_id: str | None
    superseded_by: str | None
    deleted_at: datetime | None
    purged_at: datetime | None
    tags: tuple[Tag, ...] = ()
    # Superseded by a fact the reader may not see: ``superseded_by`` is then None.
    successor_hidden: bool = False
    # The kind's stored attributes as JSON data, at the kind's latest schema version; a
    # ``fact`` whose statement is its content stores none (its statement is derived), nor
    # does a kind this build does not register. Read-only (a plain dict: it serializes).
    attributes: Mapping[str, Any] = field(default_factory=dict, hash=False)
    # The stored confidence (0..1: the one given at creation or the creator's prior, then
    # folded with every confirm, contradiction and piece of evidence) and when it was last
    # vouched for; None on a fact built without them. ``c_eff`` is derived (``show``).
    confidence: float | None = None
    last_confirmed_at: datetime | None = None
    # Who may see it: ``shared``, ``private`` or ``restricted:alice,bob`` (decision 0038).
    visibility: str = "shared"
    # Importance and lifetime (docs/model.md, The spine): the pin, the explicit user weight (0..1,
    # None: none), the lifetime as text (``standard``, ``permanent``, ``ephemeral``,
    # ``until:YYYY-MM-DD``) and, for until and ephemeral, the moment it leaves recall.
    pinned: bool = False
    user_weight: float | None = None
    lifetime: str = "standard"
    expires_at: datetime | None = None
    # What the call that returned it warns about (an anchor past the soft limit); never
    # stored.
    warnings: tuple[str, ...] = ()

    def expired(self, now: datetime) -> bool:
        """Whether its lifetime has run out at ``now`` (it has left recall)."""
        return self.expires_at is not None and now >= self.expires_at

    @property
    def signals(self) -> Signals:
        return Signals(self.created_at, self.last_recall_at, self.recall_count, self.stability_days)

    @property
    def state(self) -> str:
        """``active``, ``superseded``, ``forgotten`` or ``purged``."""
        if self.purged_at is not None:
            return "purged"
        if self.deleted_at is not None:
            return "forgotten"
        if self.superseded_by is not None or self.successor_hidden:
            return "superseded"
        return "active"


def check_content(content: object) -> str:
    """Return valid content or raise :class:`InvalidContent` (nothing is written)."""
    if not isinstance(content, str):
        raise InvalidContent("fact content must be text")
    if not content.strip():
        raise InvalidContent("fact content is empty", hint="Give the statement to remember.")
    if "\x00" in content:
        raise InvalidContent(
            "fact content holds a NUL character", hint="Remove NUL bytes from the text."
        )
    size = len(content.encode("utf-8", errors="surrogatepass"))
    if size > MAX_CONTENT_BYTES:
        raise InvalidContent(
            f"fact content is {size:,} bytes; at most {MAX_CONTENT_BYTES:,} are allowed",
            hint="A fact is one small statement: split the text into several facts.",
        )
    try:
        content.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidContent("fact content is not valid Unicode text") from e
    return content


def check_reason(reason: object, *, required: bool = True) -> str | None:
    """A reason is non-blank text; ``forget``, ``restore`` and ``purge`` require one."""
    if reason is None or (isinstance(reason, str) and not reason.strip()):
        if required:
            raise InvalidInput("a reason is required", hint="Say why, e.g. --reason 'outdated'.")
        return None
    if not isinstance(reason, str):
        raise InvalidInput("the reason must be text")
    if len(reason) > MAX_REASON_LENGTH or "\x00" in reason:
        raise InvalidInput(f"the reason must be under {MAX_REASON_LENGTH} characters, no NUL")
    try:
        reason.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidInput("the reason is not valid Unicode text") from e
    return reason.strip()
