"""Ingest: a conversation or a note becomes ONE proposal of memories (decision 0068).

The extractor drafts (:mod:`embornal.domain.proposals.ingest` by rules, or
:mod:`embornal.adapters.llm_extract` by a model); each draft becomes a ``create`` item
with the line it came from as ``conversation`` or ``document`` evidence, the import
source and the assistant-inferred prior, on the path ``path`` or one its kind suggests;
each name a draft mentions that resolves to one live entity fact the subject may read
(the conflicts' entity resolution) adds a ``link`` item ``about`` it (decision 0072).
Nothing is a fact until a person (or a configured rule) approves the proposal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from embornal.domain.conflicts.resolution import (
    blocking_keys,
    mention_profiles,
    profile_of,
    resolve_mention,
)
from embornal.domain.paths import normalize_path
from embornal.domain.proposals.ingest import Draft, SourceText, extract_rules
from embornal.errors import InvalidInput, NotFound
from embornal.service.conflicts.detect import CANDIDATE_LIMIT
from embornal.service.context import ServiceContext
from embornal.service.proposals import drafts as proposals
from embornal.service.proposals.results import Proposal

__all__ = ["EXTRACTORS", "MAX_INGEST_CHARS", "ingest", "path_for"]

EXTRACTORS = ("rules", "llm")
#: The most text one ingest reads (split a longer transcript into parts).
MAX_INGEST_CHARS = 1_000_000

_BY_KIND = {
    "preference": "/preferences",
    "event": "/events",
    "contact": "/contacts",
    "goal": "/goals",
    "project": "/projects",
    "skill": "/skills",
    "location": "/places",
    "asset": "/assets",
}


def ingest(
    ctx: ServiceContext,
    text: str,
    *,
    name: str | None = None,
    extractor: str = "rules",
    path: str | None = None,
    source: str | None = None,
    reason: str | None = None,
) -> Proposal:
    """Draft memories from ``text`` with ``extractor`` and open one proposal of them."""
    if extractor not in EXTRACTORS:
        raise InvalidInput(
            f"extractor must be one of {', '.join(EXTRACTORS)}, not {extractor!r}",
            hint="Use rules (no model) or llm (the model of ingest in config.yaml).",
        )
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("there is no text to ingest", hint="Give a file, or text on stdin.")
    if len(text) > MAX_INGEST_CHARS:
        raise InvalidInput(
            f"the text has {len(text):,} characters; ingest reads at most {MAX_INGEST_CHARS:,}",
            hint="Split it into parts and ingest each.",
        )
    base = normalize_path(path) if path else None
    label = (name or "input").strip()[:200] or "input"
    found = SourceText(text, label)
    left_out: list[str] = []
    if extractor == "rules":
        drafts = extract_rules(found, ctx.now())
    else:
        from embornal.adapters.config import IngestConfig
        from embornal.adapters.llm_extract import extract_llm

        got = extract_llm(found, ctx.now(), ctx.ingest or IngestConfig())
        drafts, left_out = got.drafts, got.problems
    if not drafts:
        raise NotFound(
            f"found nothing to remember in {label} with the {extractor} extractor; "
            "nothing was proposed",
            hint="Store what matters with `embornal memory store`, or try --extractor llm.",
        )
    items = [_item(d, base, label, extractor) for d in drafts]
    links = _about_links(ctx, drafts)
    title = f"ingest {label} ({extractor}: {len(items)} memories"
    title += f", {len(links)} about link{'s' if len(links) > 1 else ''}" if links else ""
    items += links
    title += f"; {len(left_out)} left out: {'; '.join(left_out)[:300]})" if left_out else ")"
    return proposals.propose(
        ctx, items, title=title, source=source or f"ingest:{extractor}", reason=reason
    )


def _about_links(ctx: ServiceContext, drafts: Sequence[Draft]) -> list[dict[str, Any]]:
    """A ``link`` item ``about`` each entity a draft's mentions resolve to (``#N``: the
    draft's create item), after all the creates."""
    resolved: dict[str, str | None] = {}
    out: list[dict[str, Any]] = []
    for n, d in enumerate(drafts, 1):
        targets: dict[str, str] = {}
        for name in d.mentions:
            if name not in resolved:
                resolved[name] = _entity(ctx, name)
            found = resolved[name]
            if found is not None and found not in targets:
                targets[found] = name
        out += [
            {
                "type": "link",
                "source": f"#{n}",
                "relation": "about",
                "target": t,
                "reason": f"mentions {name[:100]}",
            }
            for t, name in targets.items()
        ]
    return out


def _entity(ctx: ServiceContext, name: str) -> str | None:
    """The one live entity fact the subject may read that ``name`` names, by the entity
    resolution of the conflicts (decision 0058); None when none does or several do."""
    keys: set[str] = set()
    for profile in mention_profiles(name):
        keys |= blocking_keys(profile)
    if not keys:
        return None
    ids = ctx.store.conflicts.entity_matches(sorted(keys), exclude="", limit=CANDIDATE_LIMIT)
    known = [
        p
        for f in ctx.store.get_facts(ids, ctx.scope())
        if f.state == "active" and (p := profile_of(f.id, f.kind, f.attributes)) is not None
    ]
    return resolve_mention(name, known)


def _item(d: Draft, base: str | None, label: str, extractor: str) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "create",
        "path": base or path_for(d, label),
        "content": d.content,
        "kind": d.kind,
        "source": f"ingest:{extractor}",
        "evidence": [
            {"type": e.type.value, "value": e.value, **({"note": e.note} if e.note else {})}
            for e in d.evidence
        ],
        "reason": f"{d.rule or extractor} (line {d.line} of {label})",
    }
    if d.attributes:
        item["attributes"] = {k: _json(v) for k, v in d.attributes.items()}
    return item


def _json(value: object) -> object:
    from datetime import datetime

    return value.isoformat().replace("+00:00", "Z") if isinstance(value, datetime) else value


def path_for(d: Draft, label: str) -> str:
    """Where a draft goes when no path is given: a person under /people by name, an
    organization under /organizations, other kinds in their own place, a plain fact in
    the inbox of its source."""
    if d.kind == "person" and isinstance(d.attributes.get("full_name"), str):
        return f"/people/{_slug(d.attributes['full_name'])}"
    if d.kind == "organization" and isinstance(d.attributes.get("name"), str):
        return f"/organizations/{_slug(d.attributes['name'])}"
    return _BY_KIND.get(d.kind, f"/inbox/{_slug(label)}")


def _slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:60].strip("-")
    return slug or "untitled"
