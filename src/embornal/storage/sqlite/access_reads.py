"""The store's reads of access: the policy rules, the tags a path hands down, the policy
version and the tokens. Each takes the store's ``rows`` (SQL and parameters to rows)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from embornal.domain.access.rules import Rule
from embornal.hints import Any

__all__ = ["inherited_path_tags", "policy_version", "rules", "token_by_hash", "tokens"]

Rows = Callable[[str, Sequence[Any]], list[Any]]
_TOKEN_COLS = "id, subject, name, created_at, expires_at, revoked_at, actor_kind"


def _as_dict(row: Any) -> dict[str, Any]:
    """A driver row as a plain mapping (a row iterates over its values, not its keys)."""
    return dict(zip(row.keys(), tuple(row), strict=True))


def rules(rows: Rows) -> list[Rule]:
    found = rows("SELECT ptype, v0, v1, v2, v3, v4, v5 FROM casbin_rule ORDER BY id", ())
    return [Rule(r[0], tuple(r[1:3] if r[0] == "g" else r[1:5])) for r in found]


def inherited_path_tags(rows: Rows, ancestors: Sequence[str], owner: str) -> dict[str, str]:
    """Tags a fact of ``owner`` at the last of ``ancestors`` would inherit: those
    ``owner`` set on these paths, the nearest path winning."""
    marks = ",".join("?" * len(ancestors))
    found = rows(
        f"SELECT t.key, t.value FROM path_tags t JOIN paths p ON p.id = t.path_id "
        f"WHERE p.path IN ({marks}) AND t.tagger = ? ORDER BY p.depth",
        (*ancestors, owner),
    )
    return {r[0]: r[1] for r in found}


def policy_version(rows: Rows) -> int:
    found = rows("SELECT value FROM counters WHERE name = 'policy_version'", ())
    return int(found[0][0]) if found else 0


def token_by_hash(rows: Rows, token_hash: str) -> Mapping[str, Any] | None:
    found = rows(f"SELECT {_TOKEN_COLS} FROM tokens WHERE token_hash = ?", (token_hash,))
    return _as_dict(found[0]) if found else None


def tokens(rows: Rows, *, include_inactive: bool) -> list[Mapping[str, Any]]:
    found = rows(
        f"SELECT {_TOKEN_COLS} FROM tokens "
        + ("" if include_inactive else "WHERE revoked_at IS NULL ")
        + "ORDER BY created_at, id",
        (),
    )
    return [_as_dict(r) for r in found]
