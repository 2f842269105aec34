"""The wiki's fixtures: a small memory and a test client of the wiki alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from wiki_helpers import Seeded, make_app, seed

from embornal import FixedClock, Memory


@pytest.fixture
def seeded(memory: Memory, clock: FixedClock) -> Seeded:
    return seed(memory, clock)


@pytest.fixture
def client(memory: Memory, seeded: Seeded) -> Iterator[TestClient]:
    with TestClient(make_app(lambda request: memory)) as test_client:
        yield test_client
