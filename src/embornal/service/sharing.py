"""Policies and tokens: the use cases of a memory shared by several subjects.

These run on the machine that holds the memory (CLI), never through a server:
a server needs a token before it can answer, so the first token is local.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from embornal.domain import paths as P
from embornal.domain.access import (
    MAX_ROLE_DEPTH,
    Decision,
    Rule,
    default_token_rules,
    parse_rule,
    role_depth,
)
from embornal.domain.bounds import MAX_EXPIRY_DAYS, in_range
from embornal.domain.clock import Clock, parse_time
from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    NewEvent,
    PolicyAdded,
    PolicyRemoved,
    TokenIssued,
    TokenRevoked,
)
from embornal.domain.ids import new_id, normalize_prefix
from embornal.domain.tags import check_subject
from embornal.errors import Conflict, InvalidInput, NotFound
from embornal.service.access import (
    Access,
    TokenInfo,
    expiry,
    hash_token,
    new_token_secret,
    token_info,
)
from embornal.storage.contract import Store

__all__ = ["IssuedToken", "PolicyCheck", "Sharing"]


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


class Sharing:
    """Policy and token use cases (a part of :class:`embornal.Memory`)."""

    _store: Store
    _clock: Clock
    _access: Access
    subject: str
    actor_kind: ActorKind

    def _admin_event(self, stream: str, body: DomainEvent) -> NewEvent:
        return NewEvent(
            stream_id=stream,
            body=body,
            actor=self.subject,
            actor_kind=self.actor_kind,
            recorded_at=self._clock.now(),
        )

    # -- policies ------------------------------------------------------------------------

    def policies(self) -> list[Rule]:
        """Every rule of ``casbin_rule``."""
        return self._store.rules()

    def policy_add(self, ptype: str, values: Sequence[str]) -> Rule:
        rule = parse_rule(ptype, values)
        existing = self._store.rules()
        if rule in existing:
            raise Conflict(f"rule already exists: {rule}")
        _check_role_depth(existing, [rule])
        with self._store.transaction("adding a policy") as conn:
            self._store.append(conn, [self._rule_event(PolicyAdded, rule)])
        return rule

    def policy_remove(self, ptype: str, values: Sequence[str]) -> Rule:
        rule = parse_rule(ptype, values)
        if rule not in self._store.rules():
            raise NotFound(
                f"no such rule: {rule}", hint="List the rules with `embornal policy ls`."
            )
        with self._store.transaction("removing a policy") as conn:
            self._store.append(conn, [self._rule_event(PolicyRemoved, rule)])
        return rule

    def _rule_event(self, kind: type[PolicyAdded | PolicyRemoved], rule: Rule) -> NewEvent:
        return self._admin_event("policy", kind(ptype=rule.ptype, values=tuple(rule.values)))

    def policy_check(self, subject: str, action: str, target: str) -> PolicyCheck:
        """Would ``subject`` be allowed ``action`` on ``target`` (a path or a fact id)?"""
        check_subject(subject)
        if action not in ("read", "write", "delete"):
            raise InvalidInput(f"action must be read, write or delete, not {action!r}")
        if target.startswith("/"):
            path = P.normalize_path(target)
            obj = self._access.new_fact_object(path, {}, owner=subject)
        else:
            fact_id = self._store.resolve_id(normalize_prefix(target))
            fact = self._store.get_fact(fact_id)
            assert fact is not None
            obj = self._access.fact_object(fact)
        decision = self._access.decide(subject, action, obj)
        return PolicyCheck(
            subject, action, target, obj.path, tuple(sorted(obj.tags.items())), decision
        )

    # -- tokens -----------------------------------------------------------------------------

    def token_add(
        self,
        subject: str,
        *,
        name: str | None = None,
        expires_in_days: float | None = None,
        rules: bool = True,
    ) -> IssuedToken:
        """Issue a token for ``subject`` (shown once) and, unless ``rules=False``, its rules."""
        check_subject(subject)
        if expires_in_days is not None and not in_range(expires_in_days, MAX_EXPIRY_DAYS):
            raise InvalidInput(
                f"--expires-in must be a number of days above 0 and at most "
                f"{MAX_EXPIRY_DAYS} (100 years), not {expires_in_days!r}",
                hint="Leave --expires-in out for a token that never expires.",
            )
        now = self._clock.now()
        token_id = new_id(now)
        secret = new_token_secret(token_id)
        existing = set(self._store.rules())
        new_rules = (
            tuple(r for r in default_token_rules(subject) if r not in existing) if rules else ()
        )
        _check_role_depth(list(existing), new_rules)
        expires = expiry(self._clock, expires_in_days)
        events = [
            self._admin_event(
                f"token:{token_id}",
                TokenIssued(
                    token_id=token_id,
                    subject=subject,
                    token_hash=hash_token(secret),
                    name=name,
                    expires_at=parse_time(expires) if expires is not None else None,
                ),
            ),
            *(self._rule_event(PolicyAdded, r) for r in new_rules),
        ]
        with self._store.transaction("issuing a token") as conn:
            self._store.append(conn, events)
        (info,) = [t for t in self.tokens(include_inactive=True) if t.id == token_id]
        return IssuedToken(info, secret, new_rules)

    def tokens(self, *, include_inactive: bool = False) -> list[TokenInfo]:
        now = self._clock.now()
        infos = [token_info(r) for r in self._store.tokens(include_inactive=True)]
        return [t for t in infos if include_inactive or t.active(now)]

    def token_revoke(self, token_id: str) -> TokenInfo:
        prefix = normalize_prefix(token_id.removeprefix("emb_").split("_")[0])
        matches = [t for t in self.tokens(include_inactive=True) if t.id.startswith(prefix)]
        if not matches:
            raise NotFound(
                f"no token {token_id}", hint="List tokens with `embornal token ls --all`."
            )
        if len(matches) > 1:
            raise InvalidInput(f"token id {token_id} is ambiguous; give more characters")
        info = matches[0]
        if info.revoked_at is not None:
            raise Conflict(f"token {info.id} is already revoked")
        with self._store.transaction("revoking a token") as conn:
            self._store.append(
                conn,
                [self._admin_event(f"token:{info.id}", TokenRevoked(token_id=info.id))],
            )
        (after,) = [t for t in self.tokens(include_inactive=True) if t.id == info.id]
        return after

    def authenticate(self, token: str) -> str:
        """The subject a bearer token stands for (raises ``Unauthenticated``)."""
        return self._access.authenticate(token, self._clock)


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
