"""Access rules (docs/model.md, Access), as pure values and functions.

Policies are Casbin rules: ``p, SUBJECT, OBJECT, ACTION, allow|deny`` and
``g, SUBJECT, ROLE``. Objects name a place or an attribute:

* ``path:/x``   — facts on /x itself;
* ``path:/x/*`` — the subtree of /x, /x included (``path:/*`` is everything);
* ``tag:k=v``   — facts whose effective tag k is v.

A deny beats each allow; no policy means no access. Reads are compiled from
these rules into one SQL fragment (:mod:`embornal.storage.common.access`); this
module also decides single requests, and the Casbin enforcer must agree with it
(a property test checks both).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum

from embornal.domain import paths as P
from embornal.domain.facts.tags import check_subject, parse_tag
from embornal.domain.records import record
from embornal.domain.values import FieldOrder, value
from embornal.errors import InvalidInput

__all__ = [
    "ACTIONS",
    "DEFAULT_RULES",
    "EVERYONE",
    "MAX_ROLE_DEPTH",
    "Action",
    "Decision",
    "ObjectPattern",
    "Rule",
    "decide",
    "default_token_rules",
    "parse_object",
    "parse_rule",
    "permissions_for",
    "role_depth",
    "roles_of",
]

EVERYONE = "everyone"
# A subject holds the roles at most this many ``g`` links away (its shortest chain to
# each counts); reads, writes and deletes all follow this bound, and policy_add refuses
# a ``g`` rule that would put a role further away.
MAX_ROLE_DEPTH = 8


class Action(StrEnum):
    """What a rule allows: ``read``; ``create`` a new fact (store it: the subject's own);
    ``write`` (change) a fact that exists, which allows creating too; ``delete`` (take it
    out of recall). Decision 0128 separates create from write."""

    READ = "read"
    WRITE = "write"
    CREATE = "create"
    DELETE = "delete"


ACTIONS: tuple[str, ...] = tuple(a.value for a in Action)


@value
class Rule(FieldOrder):
    """One line of ``casbin_rule``: ``p`` (sub, obj, act, eft) or ``g`` (sub, role)."""

    ptype: str
    values: tuple[str, ...]

    @property
    def subject(self) -> str:
        return self.values[0]

    def __str__(self) -> str:
        return ", ".join((self.ptype, *self.values))


@record
class ObjectPattern:
    """The object of a rule: a path, a subtree or a tag."""

    kind: str  # "path", "subtree" or "tag"
    path: str | None = None
    key: str | None = None
    value: str | None = None

    def matches(self, fact_path: str, tags: Mapping[str, str]) -> bool:
        if self.kind == "path":
            return fact_path == self.path
        if self.kind == "subtree":
            assert self.path is not None
            return P.is_under(fact_path, self.path)
        return tags.get(self.key or "") == self.value


@record
class Decision:
    """Allowed or not, and the rule that decided."""

    allowed: bool
    rule: Rule | None  # the rule that decided; None: no policy matched


def parse_object(obj: str) -> ObjectPattern:
    """Parse ``path:/x``, ``path:/x/*`` or ``tag:k=v``."""
    if obj.startswith("path:"):
        raw = obj[5:]
        if raw == "/*":
            return ObjectPattern("subtree", P.ROOT)
        if raw.endswith("/*"):
            return ObjectPattern("subtree", P.normalize_path(raw[:-2]))
        return ObjectPattern("path", P.normalize_path(raw))
    if obj.startswith("tag:"):
        tag = parse_tag(obj[4:], allow_owner=True)
        return ObjectPattern("tag", key=tag.key, value=tag.value)
    raise InvalidInput(
        f"policy object {obj!r} is neither path:/x, path:/x/* nor tag:k=v",
        hint="Examples: path:/work/*, path:/notes, tag:visibility=public.",
    )


def parse_rule(ptype: str, values: Sequence[str]) -> Rule:
    """Validate and normalize one policy or grouping rule."""
    vals = tuple(v.strip() for v in values)
    if ptype == "g":
        if len(vals) != 2:
            raise InvalidInput("a grouping rule is: g, SUBJECT, ROLE")
        return Rule("g", (check_subject(vals[0]), check_subject(vals[1])))
    if ptype != "p":
        raise InvalidInput(f"rule type must be p or g, not {ptype!r}")
    if len(vals) == 3:
        vals = (*vals, "allow")
    if len(vals) != 4:
        raise InvalidInput("a policy is: p, SUBJECT, OBJECT, ACTION[, allow|deny]")
    sub, obj, act, eft = vals
    check_subject(sub)
    pattern = parse_object(obj)
    if act not in {a.value for a in Action}:
        raise InvalidInput(f"action must be read, write, create or delete, not {act!r}")
    if eft not in ("allow", "deny"):
        raise InvalidInput(f"effect must be allow or deny, not {eft!r}")
    canonical = _canonical_object(pattern)
    return Rule("p", (sub, canonical, act, eft))


def _canonical_object(pattern: ObjectPattern) -> str:
    if pattern.kind == "tag":
        return f"tag:{pattern.key}={pattern.value}"
    if pattern.kind == "subtree":
        return "path:/*" if pattern.path == P.ROOT else f"path:{pattern.path}/*"
    return f"path:{pattern.path}"


def _role_edges(rules: Iterable[Rule]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for r in rules:
        if r.ptype == "g":
            edges.setdefault(r.values[0], set()).add(r.values[1])
    return edges


def _distances(subject: str, edges: Mapping[str, set[str]], limit: int | None) -> dict[str, int]:
    """Each role reachable from ``subject``, with its fewest links (up to ``limit``)."""
    dist = {subject: 0}
    level = [subject]
    while level and (limit is None or dist[level[0]] < limit):
        nxt = []
        for who in level:
            for role in edges.get(who, ()):
                if role not in dist:
                    dist[role] = dist[who] + 1
                    nxt.append(role)
        level = nxt
    return dist


def roles_of(subject: str, rules: Iterable[Rule]) -> set[str]:
    """The subject and every role it holds, directly or through at most
    :data:`MAX_ROLE_DEPTH` links (the same bound as the Casbin enforcer's)."""
    return set(_distances(subject, _role_edges(rules), MAX_ROLE_DEPTH))


def role_depth(rules: Iterable[Rule]) -> int:
    """The most links any subject needs to reach one of its roles (0: no ``g`` rule)."""
    edges = _role_edges(rules)
    return max((max(_distances(s, edges, None).values()) for s in edges), default=0)


def permissions_for(subject: str, action: str, rules: Sequence[Rule]) -> list[Rule]:
    """The ``p`` rules that apply to ``subject`` (roles included) for ``action``."""
    who = roles_of(subject, rules)
    return sorted(
        r for r in rules if r.ptype == "p" and r.values[0] in who and r.values[2] == action
    )


def decide(
    subject: str, action: str, fact_path: str, tags: Mapping[str, str], rules: Sequence[Rule]
) -> Decision:
    """Allow or deny one request: a matching deny beats every allow; nothing: deny."""
    allow: Rule | None = None
    for rule in permissions_for(subject, action, rules):
        if not parse_object(rule.values[1]).matches(fact_path, tags):
            continue
        if rule.values[3] == "deny":
            return Decision(False, rule)
        allow = allow or rule
    return Decision(allow is not None, allow)


DEFAULT_RULES: tuple[Rule, ...] = (
    Rule("p", ("default", "path:/*", "read", "allow")),
    Rule("p", ("default", "path:/*", "write", "allow")),
    Rule("p", ("default", "path:/*", "delete", "allow")),
    Rule("g", ("default", EVERYONE)),
    Rule("p", (EVERYONE, "tag:visibility=public", "read", "allow")),
)


def default_token_rules(subject: str) -> tuple[Rule, ...]:
    """The rules a new token's subject gets: its own facts, storing anywhere (``create``: a
    new fact is its own; another owner's fact is not changed by it), public reads."""
    check_subject(subject)
    own = f"tag:owner={subject}"
    return (
        Rule("p", (subject, own, "read", "allow")),
        Rule("p", (subject, own, "write", "allow")),
        Rule("p", (subject, own, "delete", "allow")),
        Rule("p", (subject, "path:/*", "create", "allow")),
        Rule("g", (subject, EVERYONE)),
        Rule("p", (EVERYONE, "tag:visibility=public", "read", "allow")),
    )
