"""One depth rule for roles: Casbin (writes, deletes, ``policy check``), the pure
``decide`` and the SQL read filter follow the same chains, however long."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.domain.access.rules import MAX_ROLE_DEPTH, Rule, decide, parse_rule
from embornal.domain.events import ActorKind, NewEvent, PolicyAdded
from embornal.errors import AccessDenied, Conflict


def _force(mem: Memory, rule: Rule) -> None:
    """Write a rule as an older memory may hold it, past the checks of policy_add."""
    store = mem._store
    event = NewEvent(
        stream_id="policy",
        body=PolicyAdded(ptype=rule.ptype, values=tuple(rule.values)),
        actor="default",
        actor_kind=ActorKind.PERSON,
        recorded_at=store.clock.now(),
    )
    with store.transaction("forcing a rule") as conn:
        store.append(conn, [event])


def _add_chain(mem: Memory, depth: int) -> None:
    """g, s, r1 / g, r1, r2 / ... / g, r(depth-1), r(depth): policy_add where it may."""
    names = ["s", *(f"r{i}" for i in range(1, depth + 1))]
    for i, (sub, role) in enumerate(itertools.pairwise(names), start=1):
        if i <= MAX_ROLE_DEPTH:
            mem.policy_add("g", [sub, role])
            continue
        with pytest.raises(Conflict, match="role chain"):
            mem.policy_add("g", [sub, role])
        _force(mem, parse_rule("g", [sub, role]))


@settings(max_examples=60, deadline=None)
@given(
    depth=st.integers(min_value=1, max_value=20),
    action=st.sampled_from(["read", "write", "delete"]),
    top_effect=st.sampled_from(["allow", "deny"]),
)
def test_casbin_decide_and_sql_agree_on_every_chain_depth(
    depth: int, action: str, top_effect: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        admin = Memory.open(Path(tmp) / "m.db", clock=FixedClock())
        try:
            fact = admin.store("/x/y", "A fact deep in the tree.")
            _add_chain(admin, depth)
            top = f"r{depth}"
            if top_effect == "deny":  # s may, unless the deny of its deepest role reaches it
                admin.policy_add("p", ["s", "path:/*", action, "allow"])
            admin.policy_add("p", [top, "path:/x/*", action, top_effect])
            if action != "read":  # s must see the fact to be asked about it
                admin.policy_add("p", ["s", "path:/*", "read", "allow"])
            reached = depth <= MAX_ROLE_DEPTH
            expected = reached if top_effect == "allow" else not reached

            rules = admin.policies()
            tags = {t.key: t.value for t, _ in admin.show(fact.id).effective_tags}
            pure = decide("s", action, "/x/y", tags, rules).allowed
            casbin = admin.policy_check("s", action, fact.id).decision.allowed
            assert pure == casbin == expected

            s = admin.as_subject("s")
            if action == "read":
                seen = {h.fact.id for h in s.recall(None, limit=1000, reinforce=False)}
                assert (fact.id in seen) == expected
            elif action == "write":
                assert admin.policy_check("s", "write", "/x/y").decision.allowed == expected
                _attempt(expected, lambda: s.store("/x/y", "Another fact."))
            else:
                _attempt(expected, lambda: s.forget(fact.id, reason="depth test"))
        finally:
            admin.close()


def _attempt(allowed: bool, call: object) -> None:
    assert callable(call)
    if allowed:
        call()
    else:
        with pytest.raises(AccessDenied):
            call()


def test_no_rule_may_lengthen_a_chain_past_the_bound(memory: Memory) -> None:
    memory.policy_remove("g", ["default", "everyone"])
    names = ["everyone", *(f"r{i}" for i in range(1, MAX_ROLE_DEPTH))]
    for sub, role in itertools.pairwise(names):
        memory.policy_add("g", [sub, role])
    memory.token_add("ok")  # its subject joins everyone: the bound exactly
    with pytest.raises(Conflict, match="role chain"):
        memory.policy_add("g", [names[-1], "deeper"])
    memory.policy_remove("g", ["ok", "everyone"])
    memory.policy_add("g", [names[-1], "deeper"])  # everyone is MAX_ROLE_DEPTH from deeper
    with pytest.raises(Conflict, match="role chain"):
        memory.token_add("late")  # g, late, everyone would be one link too many
    assert memory.token_add("late", rules=False).rules == ()
    assert all(r.values[0] != "late" for r in memory.policies())
