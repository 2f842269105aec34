"""The Casbin enforcer of the access model (docs/model.md, Access), over our own
``casbin_rule`` table.

The model is built into the package; the policies come from the store through
a small read-only adapter (rules change through events, never through Casbin).
A request object is a :class:`FactObject`; the custom ``objMatch`` function
reads it against ``path:/x``, ``path:/x/*`` and ``tag:k=v``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from embornal.domain.access.rules import MAX_ROLE_DEPTH, Decision, Rule, parse_object, parse_rule

__all__ = ["MODEL_TEXT", "FactObject", "build_enforcer", "enforce", "rule_adapter"]

MODEL_TEXT = """
[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act, eft

[role_definition]
g = _, _

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = g(r.sub, p.sub) && objMatch(r.obj, p.obj) && r.act == p.act
"""


@dataclass(frozen=True)
class FactObject:
    """What a request is about: a fact (or a fact about to be written) at ``path``."""

    path: str
    tags: Mapping[str, str] = field(default_factory=dict)


def _obj_match(request_obj: Any, policy_obj: str) -> bool:
    if not isinstance(request_obj, FactObject):
        return False
    return parse_object(policy_obj).matches(request_obj.path, request_obj.tags)


def rule_adapter(load: Callable[[], Sequence[Rule]]) -> Any:
    """A Casbin adapter that loads rules from ``load`` (the store) and never writes."""
    from casbin import persist

    class RuleAdapter(persist.Adapter):  # type: ignore[misc]
        def load_policy(self, model: Any) -> None:
            for rule in load():
                persist.load_policy_line(", ".join((rule.ptype, *rule.values)), model)

        def save_policy(self, model: Any) -> bool:
            return False

    return RuleAdapter()


def build_enforcer(rules: Sequence[Rule]) -> Any:
    """A Casbin enforcer holding ``rules`` (imports Casbin lazily: ~50 ms)."""
    import casbin

    model = casbin.Enforcer.new_model(text=MODEL_TEXT)
    enforcer = casbin.Enforcer(model, rule_adapter(lambda: rules))
    enforcer.add_function("objMatch", _obj_match)
    # Casbin's level counts the subject itself: MAX_ROLE_DEPTH links need one more.
    # Its default (10) would stop at 9 links while roles_of went on (reads and writes
    # would disagree); the bound is set here and in roles_of alike.
    enforcer.get_role_manager().max_hierarchy_level = MAX_ROLE_DEPTH + 1
    return enforcer


def enforce(enforcer: Any, subject: str, obj: FactObject, action: str) -> Decision:
    """Ask Casbin, and name the rule that decided (``None`` when no rule matched)."""
    allowed, explain = enforcer.enforce_ex(subject, obj, action)
    rule = parse_rule("p", explain) if explain else None
    return Decision(bool(allowed), rule)
