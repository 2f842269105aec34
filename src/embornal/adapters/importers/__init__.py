"""Readers of other memory tools' files (decisions 0076, 0077): each turns one tool's
data into the plain records of :mod:`embornal.domain.portability.import_mapping` (or
:mod:`embornal.domain.portability.import_history`), or stops with the error naming the line, file
or record that breaks the tool's format. Standard library only (and PyYAML for
basic-memory's front matter); they read, never write.
"""

from __future__ import annotations

from collections.abc import Callable

from embornal.domain.portability.import_history import HistoryData
from embornal.domain.portability.import_mapping import Graph, Mem0Memory

__all__ = ["Progress", "Read", "read_source"]

Progress = Callable[[int, int], None]
Read = Graph | tuple[Mem0Memory, ...] | HistoryData


def read_source(fmt: str, source: str, progress: Progress | None = None) -> Read:
    """The records of ``source`` in the tool format ``fmt``."""
    if fmt == "mcp-memory":
        from embornal.adapters.importers.mcp_memory import read_jsonl

        return read_jsonl(source, progress)
    if fmt == "basic-memory":
        from embornal.adapters.importers.basic_memory import read_project

        return read_project(source, progress)
    if fmt == "mem0":
        from embornal.adapters.importers.mem0 import read_export

        return read_export(source)
    from embornal.adapters.importers.memory_as_history import read_database

    return read_database(source)
