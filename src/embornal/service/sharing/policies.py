"""Policies and tokens: the use cases of a memory shared by several subjects.

These run on the machine that holds the memory (CLI), never through a server:
a server needs a token before it can answer, so the first token is local.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from embornal.domain import paths as P
from embornal.domain.access.rules import (
    ACTIONS,
    MAX_ROLE_DEPTH,
    Decision,
    Rule,
    default_token_rules,
    parse_rule,
    role_depth,
)
from embornal.domain.bounds import MAX_EXPIRY_DAYS, in_range
from embornal.domain.clock import parse_time
from embornal.domain.events import (
    ActorKind,
    NewEvent,
    PolicyAdded,
    PolicyRemoved,
    TokenIssued,
    TokenRevoked,
)
from embornal.domain.facts.tags import check_subject
from embornal.domain.ids import new_id, normalize_prefix
from embornal.errors import Conflict, InvalidInput, NotFound
from embornal.service.access import expiry, hash_token, new_token_secret
from embornal.service.context import ServiceContext
from embornal.service.sharing.tokens import TokenInfo, token_info

__all__ = [
    "IssuedToken",
    "PolicyCheck",
    "authenticate",
    "policies",
    "policy_add",
    "policy_check",
    "policy_remove",
    "token_add",
    "token_revoke",
    "tokens",
]


@dataclass(frozen=True)
class IssuedToken:
    info: TokenInfo
    token: str  # shown once; only its hash is stored
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class PolicyCheck:
    subject: str
    action: str
    target: str
    path: str
    tags: tuple[tuple[str, str], ...]
    decision: Decision


# -- policies ----------------------------------------------------------------------------


def policies(ctx: ServiceContext) -> list[Rule]:
    return ctx.store.rules()


def policy_add(ctx: ServiceContext, ptype: str, values: Sequence[str]) -> Rule:
    rule = parse_rule(ptype, values)
    existing = ctx.store.rules()
    if rule in existing:
        raise Conflict(f"rule already exists: {rule}")
    _check_role_depth(existing, [rule])
    ctx.append("adding a policy", [_rule_event(ctx, PolicyAdded, rule)])
    return rule


def narrow_token_rules(ctx: ServiceContext) -> list[Rule]:
    """Each subject holding the rules an older ``token add`` gave (its own facts, and
    ``write`` on ``path:/*``) gets ``create`` on ``path:/*`` in place of that write: it
    still stores anywhere, and no longer changes other owners' facts (decision 0128).
    One transaction; returns the rules added (none: nothing to narrow)."""
    rules = ctx.store.rules()
    have = set(rules)
    events = []
    added: list[Rule] = []
    for rule in rules:
        sub = rule.values[0]
        if rule.ptype != "p" or rule.values[1:] != ("path:/*", "write", "allow"):
            continue
        if sub == "default" or Rule("p", (sub, f"tag:owner={sub}", "write", "allow")) not in have:
            continue  # a rule a person wrote, not a token's default set
        create = Rule("p", (sub, "path:/*", "create", "allow"))
        events.append(_rule_event(ctx, PolicyRemoved, rule))
        if create not in have:
            events.append(_rule_event(ctx, PolicyAdded, create))
            added.append(create)
    if events:
        ctx.append("narrowing the rules of tokens", events)
    return added


def policy_remove(ctx: ServiceContext, ptype: str, values: Sequence[str]) -> Rule:
    rule = parse_rule(ptype, values)
    if rule not in ctx.store.rules():
        raise NotFound(f"no such rule: {rule}", hint="List the rules with `embornal policy ls`.")
    ctx.append("removing a policy", [_rule_event(ctx, PolicyRemoved, rule)])
    return rule


def _rule_event(
    ctx: ServiceContext, kind: type[PolicyAdded | PolicyRemoved], rule: Rule
) -> NewEvent:
    return ctx.event("policy", kind(ptype=rule.ptype, values=tuple(rule.values)))


def policy_check(ctx: ServiceContext, subject: str, action: str, target: str) -> PolicyCheck:
    check_subject(subject)
    if action not in ACTIONS:
        raise InvalidInput(f"action must be read, write, create or delete, not {action!r}")
    if target.startswith("/"):
        path = P.normalize_path(target)
        obj = ctx.access.new_fact_object(path, {}, owner=subject)
    else:
        fact_id = ctx.store.resolve_id(normalize_prefix(target))
        fact = ctx.store.get_fact(fact_id)
        assert fact is not None
        obj = ctx.access.fact_object(fact)
    decision = ctx.access.decide(subject, action, obj)
    return PolicyCheck(subject, action, target, obj.path, tuple(sorted(obj.tags.items())), decision)


# -- tokens --------------------------------------------------------------------------------


def token_add(
    ctx: ServiceContext,
    subject: str,
    *,
    name: str | None,
    expires_in_days: float | None,
    rules: bool,
    person: bool = False,
) -> IssuedToken:
    check_subject(subject)
    if expires_in_days is not None and not in_range(expires_in_days, MAX_EXPIRY_DAYS):
        raise InvalidInput(
            f"--expires-in must be a number of days above 0 and at most "
            f"{MAX_EXPIRY_DAYS} (100 years), not {expires_in_days!r}",
            hint="Leave --expires-in out for a token that never expires.",
        )
    now = ctx.now()
    token_id = new_id(now)
    secret = new_token_secret(token_id)
    existing = set(ctx.store.rules())
    new_rules = tuple(r for r in default_token_rules(subject) if r not in existing) if rules else ()
    _check_role_depth(list(existing), new_rules)
    expires = expiry(ctx.clock, expires_in_days)
    issued = TokenIssued(
        token_id=token_id,
        subject=subject,
        token_hash=hash_token(secret),
        name=name,
        expires_at=parse_time(expires) if expires is not None else None,
        actor_kind=(ActorKind.PERSON if person else ActorKind.ASSISTANT).value,
    )
    ctx.append(
        "issuing a token",
        [
            ctx.event(f"token:{token_id}", issued),
            *(_rule_event(ctx, PolicyAdded, r) for r in new_rules),
        ],
    )
    return IssuedToken(_token(ctx, token_id), secret, new_rules)


def tokens(ctx: ServiceContext, *, include_inactive: bool) -> list[TokenInfo]:
    now = ctx.now()
    infos = [token_info(r) for r in ctx.store.tokens(include_inactive=True)]
    return [t for t in infos if include_inactive or t.active(now)]


def _token(ctx: ServiceContext, token_id: str) -> TokenInfo:
    (info,) = [t for t in tokens(ctx, include_inactive=True) if t.id == token_id]
    return info


def token_revoke(ctx: ServiceContext, token_id: str) -> TokenInfo:
    prefix = normalize_prefix(token_id.removeprefix("emb_").split("_")[0])
    matches = [t for t in tokens(ctx, include_inactive=True) if t.id.startswith(prefix)]
    if not matches:
        raise NotFound(f"no token {token_id}", hint="List tokens with `embornal token ls --all`.")
    if len(matches) > 1:
        raise InvalidInput(f"token id {token_id} is ambiguous; give more characters")
    info = matches[0]
    if info.revoked_at is not None:
        raise Conflict(f"token {info.id} is already revoked")
    ctx.append("revoking a token", [ctx.event(f"token:{info.id}", TokenRevoked(token_id=info.id))])
    return _token(ctx, info.id)


def authenticate(ctx: ServiceContext, token: str) -> str:
    return ctx.access.authenticate(token, ctx.clock)


def token_of(ctx: ServiceContext, token: str) -> TokenInfo:
    return ctx.access.token_of(token, ctx.clock)


def _check_role_depth(existing: Sequence[Rule], new: Sequence[Rule]) -> None:
    """Refuse ``g`` rules that would put a role beyond the reach of the access checks."""
    if not any(r.ptype == "g" for r in new):
        return
    depth = role_depth([*existing, *new])
    if depth > MAX_ROLE_DEPTH:
        names = ", ".join(str(r) for r in new if r.ptype == "g")
        raise Conflict(
            f"{names} would make a role chain of {depth} links; "
            f"at most {MAX_ROLE_DEPTH} are followed",
            hint="Give the subject the deeper role directly (`embornal policy add g ...`).",
        )
