"""The paths at or below one path that hold a visible live fact or lead to one, with each
path's own fact count and child count: one query for the store now and at a past time."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from embornal.hints import Any
from embornal.storage.common.access import Visibility
from embornal.storage.contract.rows import PathRow

__all__ = ["subtree_rows"]


def subtree_rows(
    rows: Callable[[str, Sequence[Any]], list[Any]], root_id: int, live: str, vis: Visibility
) -> list[PathRow]:
    """The subtree of the path ``root_id``: ``live`` is the SQL condition over ``f`` (the
    facts alive, now or then), ``vis`` the compiled read scope."""
    found = rows(
        "WITH own AS ("
        "  SELECT f.path_id AS pid, count(*) AS n FROM facts f "
        "  JOIN path_closure c ON c.descendant_id = f.path_id AND c.ancestor_id = ? "
        f"  JOIN paths p ON p.id = f.path_id WHERE {live} AND ({vis.sql}) "
        "  GROUP BY f.path_id), "
        "shown AS ("
        "  SELECT DISTINCT c.ancestor_id AS id FROM own "
        "  JOIN path_closure c ON c.descendant_id = own.pid "
        "  JOIN path_closure r ON r.descendant_id = c.ancestor_id AND r.ancestor_id = ?) "
        "SELECT p.id, p.parent_id, p.path, coalesce(own.n, 0) AS n FROM shown "
        "JOIN paths p ON p.id = shown.id LEFT JOIN own ON own.pid = p.id ORDER BY p.path",
        (root_id, *vis.params, root_id),
    )
    children: dict[int, int] = {}
    for r in found:
        if r["parent_id"] is not None:
            children[r["parent_id"]] = children.get(r["parent_id"], 0) + 1
    return [PathRow(r["path"], int(r["n"]), children.get(r["id"], 0)) for r in found]
