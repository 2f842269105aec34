"""Access in the service: the read filter, write/delete checks, policies and tokens.

Reads take the subject's read scope, built from its rules (cached until the policies
change) and read by its viewer (the subject, its roles, and whether it acts as an
assistant: visibility, decision 0038), compiled by the store into its own filter; writes
and deletes ask the Casbin enforcer per path.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (start-up: decision 0047)
from collections.abc import Mapping
from datetime import timedelta

from embornal.domain import paths as P
from embornal.domain.access.rules import ACTIONS, Decision, Rule, permissions_for, roles_of
from embornal.domain.access.scope import NOTHING, ReadScope, Viewer, read_scope
from embornal.domain.clock import Clock, format_time
from embornal.domain.events import ActorKind
from embornal.domain.facts.fact import Fact
from embornal.errors import AccessDenied, Unauthenticated
from embornal.hints import TYPE_CHECKING, Any

if TYPE_CHECKING:  # writes and checks import it: reads never need Casbin
    from embornal.adapters.casbin_access import FactObject
    from embornal.service.sharing.tokens import TokenInfo
    from embornal.storage.contract.store import Store

__all__ = ["Access", "hash_token", "new_token_secret"]

TOKEN_PREFIX = "emb_"


def new_token_secret(token_id: str) -> str:
    """A bearer token that names its id, so a token in a log says which one to revoke."""
    import secrets  # here, not at the top: the CLI's start-up never needs hmac/OpenSSL

    return f"{TOKEN_PREFIX}{token_id.lower()}_{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    import hashlib  # here, not at the top: loading OpenSSL costs every CLI start-up

    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Access:
    """The access rules as one subject meets them."""

    def __init__(
        self, store: Store, subject: str, actor_kind: ActorKind | str = ActorKind.PERSON
    ) -> None:
        self._store = store
        self.subject = subject
        self.assistant = ActorKind(actor_kind) is ActorKind.ASSISTANT
        self._version = -1
        self._rules: list[Rule] = []
        self._scope = NOTHING
        self._enforcer: Any = None
        self._open: frozenset[str] = frozenset()
        # One Memory may serve many threads; Casbin's enforcer is not thread-safe.
        self._lock = _thread.allocate_lock()

    def _refresh(self) -> None:
        with self._lock:
            self._refresh_locked()

    def _refresh_locked(self) -> None:
        version = self._store.policy_version()
        if version != self._version:
            self._rules = self._store.rules()
            roles = frozenset(roles_of(self.subject, self._rules))
            viewer = Viewer(self.subject, roles, assistant=self.assistant)
            scope = read_scope(permissions_for(self.subject, "read", self._rules))
            self._scope = scope.seen_by(viewer)
            self._enforcer = None
            self._open = _unconditional_actions(self.subject, self._rules)
            self._version = version

    def rules(self) -> list[Rule]:
        self._refresh()
        return list(self._rules)

    def read_filter(self) -> ReadScope:
        """What the subject may read, for the store to compile (and cache) as it needs."""
        self._refresh()
        return self._scope

    def decide(self, subject: str, action: str, obj: FactObject) -> Decision:
        """Casbin's answer for one request, with the rule that decided."""
        with self._lock:
            self._refresh_locked()
            if self._enforcer is None:
                from embornal.adapters.casbin_access import build_enforcer

                self._enforcer = build_enforcer(self._rules)
            from embornal.adapters.casbin_access import enforce

            return enforce(self._enforcer, subject, obj, action)

    def unconditional(self, action: str) -> bool:
        """True when the subject may ``action`` anywhere: an allow on path:/*, no deny at all."""
        with self._lock:
            self._refresh_locked()
            return action in self._open

    def may(self, action: str, obj: FactObject) -> bool:
        """Whether the subject may ``action`` on ``obj`` (``create`` is also granted by
        ``write``: a subject that may change facts there may store them)."""
        if self.unconditional(action):
            return True
        decision = self.decide(self.subject, action, obj)
        if action != "create":
            return decision.allowed
        # create: allowed by a create or a write rule, refused by a deny of either
        write = self.decide(self.subject, "write", obj)
        denied = any(d.rule is not None and not d.allowed for d in (decision, write))
        return not denied and (decision.allowed or write.allowed)

    def holds(self, action: str) -> bool:
        """Whether any rule (of the subject or its roles) allows ``action`` somewhere."""
        self._refresh()
        rules = permissions_for(self.subject, action, self._rules)
        return any(r.values[3] == "allow" for r in rules)

    def require(self, action: str, obj: FactObject, *, why: str = "") -> None:
        """Raise :class:`AccessDenied` unless the subject may ``action`` on ``obj``;
        ``why``, a phrase (``"a merge archives it"``), says in the message's parentheses
        what needs that right."""
        if not self.may(action, obj):
            because = f" ({why.strip()})" if why.strip() else ""
            raise AccessDenied(
                f"subject {self.subject} may not {action} at {obj.path}{because}",
                hint="Ask the owner of the memory for a policy (`embornal policy add`).",
            )

    def fact_object(self, fact: Fact) -> FactObject:
        tags = {t.key: t.value for t, _ in self._store.effective_tags(fact.id)}
        from embornal.adapters.casbin_access import FactObject

        return FactObject(fact.path, tags)

    def new_fact_object(
        self, path: str, own_tags: Mapping[str, str], owner: str | None = None
    ) -> FactObject:
        """A fact ``owner`` (default: the subject) would store at ``path``."""
        inherited = self._store.inherited_path_tags(P.ancestors(path), owner or self.subject)
        inherited.pop("owner", None)
        from embornal.adapters.casbin_access import FactObject

        return FactObject(path, {**inherited, **own_tags})

    # -- tokens ----------------------------------------------------------------------

    def authenticate(self, token: str, clock: Clock) -> str:
        """The subject a bearer token stands for; :class:`Unauthenticated` otherwise."""
        return self.token_of(token, clock).subject

    def token_of(self, token: str, clock: Clock) -> TokenInfo:
        """The active token ``token`` is (its subject, its holder's actor kind);
        :class:`Unauthenticated` otherwise."""
        row = self._store.token_by_hash(hash_token(token.strip())) if token else None
        if row is None:
            raise Unauthenticated("the token is not known")
        from embornal.service.sharing.tokens import token_info  # tokens only: off the read path

        info = token_info(row)
        if info.revoked_at is not None:
            raise Unauthenticated(f"token {info.id} was revoked")
        if info.expires_at is not None and info.expires_at <= clock.now():
            raise Unauthenticated(f"token {info.id} expired at {format_time(info.expires_at)}")
        return info


def _unconditional_actions(subject: str, rules: list[Rule]) -> frozenset[str]:
    """Actions whose every request is allowed, so the per-fact check can be skipped."""
    out = set()
    denied = set()
    for action in ACTIONS:
        perms = permissions_for(subject, action, rules)
        if any(r.values[3] == "deny" for r in perms):
            denied.add(action)
            continue
        if any(r.values[1] == "path:/*" for r in perms):
            out.add(action)
    if "write" in denied:  # a deny of write refuses creating too
        out.discard("create")
    elif "write" in out and "create" not in denied:
        out.add("create")  # write allows creating
    return frozenset(out)


def expiry(clock: Clock, days: float | None) -> str | None:
    if days is None:
        return None
    return format_time(clock.now() + timedelta(days=days))
