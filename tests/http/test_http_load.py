"""Load over loopback: several client processes send mixed requests (recall, store, ls, cat)
to one ``embornal serve`` process; no request fails and no acknowledged write is lost."""

from __future__ import annotations

import sys
from pathlib import Path

from embornal import Memory

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from benchmarks.http_load import Served, lost_writes, run_load  # noqa: E402


def _load(tmp_path: Path, clients: int, requests: int) -> None:
    db = tmp_path / "load.db"
    with Memory.open(db) as memory:
        memory.store("/shared/readme", "Everyone reads this.", tags=["visibility=public"])
        tokens = [memory.token_add(f"client{i}").token for i in range(clients)]
    served = Served(db)
    try:
        result = run_load(served.url, tokens, requests, tmp_path)
    finally:
        served.stop()
    assert result["errors"] == 0, result["error_samples"]
    assert result["requests"] == clients * requests
    stored = result["stored"]
    assert len(stored) > clients * requests // 5  # ~30% of the mix are stores
    assert lost_writes(db, stored) == 0
    with Memory.open(db) as memory:
        # Each client's facts belong to its own subject, on its own paths.
        for i in range(clients):
            mine = [row for row in stored if row[1].startswith(f"/load/c{i}/")]
            assert mine
            fact = memory.show(mine[0][0]).fact
            assert fact.owner == f"client{i}"
        assert memory.verify() == []


def test_eight_clients_of_five_hundred_requests(tmp_path: Path) -> None:
    """About 10 s here, so it stays in the default run (the brief: slow only past 30 s)."""
    _load(tmp_path, clients=8, requests=500)
