"""Path tags: labels a subject puts on a path for its own facts below it.

A path tag reaches only the facts whose owner set it (the event's actor): tagging or
untagging a path never changes the effective tags, and so the readers, of another
owner's facts (decision 0014).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from embornal.domain import paths as P
from embornal.domain.events import DomainEvent, NewEvent, PathTagged, PathUntagged
from embornal.domain.tags import Tag, parse_tag_keys, parse_tags
from embornal.errors import InvalidInput
from embornal.service.access import Access
from embornal.storage.contract import Store

__all__ = ["PathTagging"]


class PathTagging:
    """The path tag use cases (a part of :class:`embornal.Memory`)."""

    _store: Store
    _access: Access
    _event: Callable[[str, DomainEvent, str | None], NewEvent]

    def tag_path(self, path: str, tags: Sequence[str] | Mapping[str, str]) -> list[Tag]:
        """Put tags on a path; the subject's facts below inherit them (their own tags win)."""
        norm = P.normalize_path(path)
        parsed = parse_tags(tags, allow_owner=True)
        if not parsed:
            raise InvalidInput("give at least one tag")
        self._access.require("write", self._access.new_fact_object(norm, {}))
        with self._store.transaction("tagging a path") as conn:
            self._store.append(
                conn,
                [self._event(f"path:{norm}", PathTagged(path=norm, tags=tuple(parsed)), None)],
            )
        return list(parsed)

    def untag_path(self, path: str, keys: Sequence[str]) -> None:
        """Take the subject's tags of these keys off a path (others' stay)."""
        norm = P.normalize_path(path)
        parse_tag_keys(keys)
        self._access.require("write", self._access.new_fact_object(norm, {}))
        with self._store.transaction("untagging a path") as conn:
            self._store.append(
                conn,
                [
                    self._event(
                        f"path:{norm}",
                        PathUntagged(path=norm, keys=tuple(parse_tag_keys(keys))),
                        None,
                    )
                ],
            )
