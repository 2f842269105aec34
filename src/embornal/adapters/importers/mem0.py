"""A mem0 export: the JSON ``get_all`` gives, ``{"results": [memory, …]}`` (or a bare
list of memories, or ``{"memories": [...]}``), each memory an object with ``id`` and
``memory`` (its text) and optionally ``user_id``, ``agent_id``, ``run_id``,
``metadata`` (an object), ``categories`` (a list of texts), ``created_at`` and
``updated_at`` (other fields are left out). A record without ``id`` or ``memory``, a
duplicate id, or JSON of another shape stops the read naming the record."""

from __future__ import annotations

from typing import Any

from embornal.adapters.importers.common import read_json, text_of
from embornal.domain.portability.import_mapping import Mem0Memory, refuse, whole_text

__all__ = ["MAX_BYTES", "read_export"]

MAX_BYTES = 128 * 1024 * 1024


def _optional_text(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str | int):
        raise refuse(where, f"{key!r} must be text, not {text_of(value, 60)}")
    return str(value).strip() or None


def _memory(obj: object, where: str) -> Mem0Memory:
    if not isinstance(obj, dict):
        raise refuse(where, "a memory is an object with 'id' and 'memory'")
    whole_text(obj, where)
    mid = _optional_text(obj, "id", where)
    text = obj.get("memory")
    if mid is None:
        raise refuse(where, "the memory has no 'id'")
    if not isinstance(text, str) or not text.strip():
        raise refuse(f"{where} (id {mid[:40]})", "'memory' must be non-empty text")
    metadata = obj.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise refuse(f"{where} (id {mid[:40]})", "'metadata' must be an object")
    categories = obj.get("categories") or []
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        raise refuse(f"{where} (id {mid[:40]})", "'categories' must be a list of texts")
    return Mem0Memory(
        mid,
        text.strip(),
        f"{where} (id {mid[:40]})",
        _optional_text(obj, "user_id", where),
        _optional_text(obj, "agent_id", where),
        _optional_text(obj, "run_id", where),
        metadata,
        tuple(categories),
        _optional_text(obj, "created_at", where),
        _optional_text(obj, "updated_at", where),
    )


def read_export(source: str) -> tuple[Mem0Memory, ...]:
    path, data = read_json(source, what="the JSON file of a mem0 export", max_bytes=MAX_BYTES)
    if isinstance(data, dict):
        found = data.get("results", data.get("memories"))
        if not isinstance(found, list):
            raise refuse(str(path), 'a mem0 export is {"results": [memories]} or a list')
        data = found
    if not isinstance(data, list):
        raise refuse(str(path), 'a mem0 export is {"results": [memories]} or a list')
    out: list[Mem0Memory] = []
    seen: dict[str, str] = {}
    for n, obj in enumerate(data, 1):
        memory = _memory(obj, f"memory {n}")
        if memory.id in seen:
            raise refuse(memory.where, f"the id is also that of {seen[memory.id]}")
        seen[memory.id] = f"memory {n}"
        out.append(memory)
    return tuple(out)
