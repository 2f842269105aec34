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

__all__ = ["path_tags", "tag_path", "untag_path"]


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


def path_tags(ctx: ServiceContext, path: str) -> list[Tag]:
    """The tags a fact the subject stores at ``path`` inherits: those it put on ``path``
    and on the paths above it, the nearest path's value where two set one key; sorted by
    key. Another owner's path tags are not its own and are left out (decision 0014)."""
    norm = P.normalize_path(path)
    inherited = ctx.store.inherited_path_tags(P.ancestors(norm), ctx.subject)
    return [Tag(key, value) for key, value in sorted(inherited.items())]
