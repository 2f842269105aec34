"""Path tags: labels a subject puts on a path for its own facts below it.

A path tag reaches only the facts whose owner set it (the event's actor): tagging or
untagging a path never changes the effective tags, and so the readers, of another
owner's facts (decision 0014).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from embornal.domain import paths as P
from embornal.domain.events import PathTagged, PathUntagged
from embornal.domain.facts.tags import Tag, parse_tag_keys, parse_tags
from embornal.errors import InvalidInput
from embornal.service.context import ServiceContext

__all__ = ["tag_path", "untag_path"]


def tag_path(ctx: ServiceContext, path: str, tags: Sequence[str] | Mapping[str, str]) -> list[Tag]:
    norm = P.normalize_path(path)
    parsed = parse_tags(tags, allow_owner=True)
    if not parsed:
        raise InvalidInput("give at least one tag")
    ctx.access.require("create", ctx.access.new_fact_object(norm, {}))
    body = PathTagged(path=norm, tags=tuple(parsed))
    ctx.append("tagging a path", [ctx.event(f"path:{norm}", body)])
    return list(parsed)


def untag_path(ctx: ServiceContext, path: str, keys: Sequence[str]) -> None:
    norm = P.normalize_path(path)
    parse_tag_keys(keys)
    ctx.access.require("create", ctx.access.new_fact_object(norm, {}))
    body = PathUntagged(path=norm, keys=tuple(parse_tag_keys(keys)))
    ctx.append("untagging a path", [ctx.event(f"path:{norm}", body)])
