"""The MCP reference memory server's file: JSON Lines, one object a line, each
``{"type": "entity", "name", "entityType", "observations": [...]}`` or ``{"type":
"relation", "from", "to", "relationType"}``. A line that is not such an object (a
truncated last line, another shape, an entity named twice) stops the read naming it."""

from __future__ import annotations

import json
from typing import Any

from embornal.adapters.importers.common import existing, text_of
from embornal.domain.portability.import_mapping import (
    NESTED_TOO_DEEP,
    Entity,
    Graph,
    Observation,
    Related,
    refuse,
    whole_text,
)

__all__ = ["MAX_LINE_BYTES", "read_jsonl"]

MAX_LINE_BYTES = 4 * 1024 * 1024
TOOL = "mcp-memory"


def _text(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise refuse(where, f"{key!r} must be non-empty text, not {text_of(value, 60)}")
    return value.strip()


def _entity(obj: dict[str, Any], where: str) -> Entity:
    name = _text(obj, "name", where)
    kind = _text(obj, "entityType", where)
    observations = obj.get("observations", [])
    if not isinstance(observations, list) or not all(isinstance(o, str) for o in observations):
        raise refuse(where, "'observations' must be a list of texts")
    unknown = sorted(set(obj) - {"type", "name", "entityType", "observations"})
    if unknown:
        raise refuse(where, f"an entity has no field {unknown[0]!r}")
    obs = tuple(Observation(o.strip()) for o in observations if o.strip())
    return Entity(name, name, kind, where, obs)


def _relation(obj: dict[str, Any], where: str) -> Related:
    unknown = sorted(set(obj) - {"type", "from", "to", "relationType"})
    if unknown:
        raise refuse(where, f"a relation has no field {unknown[0]!r}")
    return Related(
        _text(obj, "from", where), _text(obj, "relationType", where), _text(obj, "to", where), where
    )


def read_jsonl(source: str, progress: Any = None) -> Graph:
    path = existing(source, directory=False, what="the memory.jsonl file the server wrote")
    total = path.stat().st_size
    entities: dict[str, Entity] = {}
    relations: list[Related] = []
    seen: set[tuple[str, str, str]] = set()
    done = 0
    with open(path, "rb") as lines:
        number = 0
        while raw := lines.readline(MAX_LINE_BYTES + 1):
            number += 1
            where = f"line {number}"
            done += len(raw)
            if len(raw) > MAX_LINE_BYTES:
                raise refuse(where, f"the line is over {MAX_LINE_BYTES} bytes")
            if progress is not None:
                progress(done, total)
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                truncated = not raw.endswith(b"\n")
                why = (
                    "the line is cut short (not valid JSON)"
                    if truncated
                    else ("the line is not valid JSON")
                )
                raise refuse(where, why) from None
            except RecursionError:
                raise refuse(where, NESTED_TOO_DEEP) from None
            whole_text(obj, where)
            if not isinstance(obj, dict) or obj.get("type") not in ("entity", "relation"):
                raise refuse(where, 'each line is an object of "type" entity or relation')
            if obj["type"] == "entity":
                entity = _entity(obj, where)
                if entity.key in entities:
                    first = entities[entity.key].where
                    raise refuse(where, f"entity {entity.key[:60]!r} is named twice ({first})")
                entities[entity.key] = entity
            else:
                rel = _relation(obj, where)
                key = (rel.source, rel.verb, rel.target)
                if key not in seen:
                    seen.add(key)
                    relations.append(rel)
    return Graph(TOOL, tuple(entities.values()), tuple(relations))
