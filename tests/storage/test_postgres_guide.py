"""Migration ``pg_0011_guide_anchors`` on PostgreSQL (decision 0154): a database whose
guide was written before it gets each guide fact pinned and permanent, and an earlier
text that named an MCP tool superseded, through events of the system actor."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from embornal import FixedClock, Memory
from embornal.storage.common import guide
from embornal.storage.common.guide import GUIDE_FACTS, GUIDE_PATH
from embornal.storage.postgres import migrations as pg_migrations
from pg_server import PgServer

pytestmark = pytest.mark.postgresql

NEW = "pg_0011_guide_anchors"


@pytest.fixture
def blank_url(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.blank_database()
    yield pg_server.url(name)
    pg_server.drop(name)


def test_pg_0010_pins_and_rewrites_the_guide_of_an_older_database(
    blank_url: str, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = (t for t in GUIDE_FACTS if t not in guide._EARLIER.values())
    with monkeypatch.context() as m:
        before = [g.name for g in pg_migrations.MIGRATIONS].index(NEW)
        m.setattr(pg_migrations, "MIGRATIONS", pg_migrations.MIGRATIONS[:before])
        m.setattr(guide, "GUIDE_FACTS", (*guide._EARLIER, *kept))
        with Memory.open(blank_url, clock=clock) as old:
            assert not any(v.fact.pinned for v in old.cat(GUIDE_PATH))
    with Memory.open(blank_url, clock=clock) as mem:
        assert mem.migrations_applied[0] == NEW
        views = mem.cat(GUIDE_PATH)
        assert sorted(v.fact.content for v in views) == sorted(GUIDE_FACTS)
        assert all(v.fact.pinned and v.fact.lifetime == "permanent" for v in views)
        kinds = {(e.type, e.actor) for v in views for e in mem.history(v.fact.id)}
        assert ("FactImportanceAdjusted", "system") in kinds
        assert mem.recall("uv", mode="keyword", reinforce=False) == []
        assert mem.verify() == []
