"""What the wiki tests share: a seeded memory and a tiny app around ``wiki_routes``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.requests import Request

from embornal import FixedClock, Memory
from embornal.domain.facts.fact import Fact
from embornal.interfaces.http.wiki import wiki_routes

XSS_SCRIPT = "<script>window.__xss=1</script>"
XSS_IMG = '<img src=x onerror="window.__xss=1">'
XSS_LINK = "[[javascript:alert(1)]]"


@dataclass
class Seeded:
    """The facts the wiki tests read, by role."""

    sqlite: Fact
    wal: Fact
    linker: Fact
    xss: Fact
    deep: Fact


def seed(memory: Memory, clock: FixedClock) -> Seeded:
    sqlite = memory.store(
        "/projects/embornal",
        "The memory lives in one SQLite file.",
        tags=["topic=storage"],
    )
    clock.advance(days=1)
    wal = memory.store(
        "/projects/embornal/storage",
        "SQLite runs in WAL mode,\nso readers never block the writer.",
    )
    clock.advance(days=1)
    linker = memory.store(
        "/projects/embornal",
        "Storage details live at [[/Projects/Embornal/Storage]]; "
        "a broken link [[/bad path!]] stays text.",
        tags={"status": "current"},
    )
    deep = memory.store("/projects/embornal/storage/wal", "Checkpoints run on close.")
    xss = memory.store(
        "/notes/xss",
        f"Hostile text: {XSS_SCRIPT} {XSS_IMG} {XSS_LINK} & done",
        tags=["note=<i>tag</i>"],
    )
    return Seeded(sqlite, wal, linker, xss, deep)


def make_app(get_memory: Callable[[Request], Memory]) -> Starlette:
    return Starlette(routes=wiki_routes(get_memory))
