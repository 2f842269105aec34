"""``embornal token add|ls|revoke`` and ``embornal policy add|rm|ls|check``: their renderers.

These run on the machine that holds the memory: a server needs a token before it
answers, so tokens and rules are made here. The commands are derived from the catalogue
(:mod:`embornal.interfaces.catalog_local`); the functions here print a result as text
(``show_*``) or give its ``--json`` data (``*_json``: the shapes these commands always had).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from embornal.interfaces.cli.render import cell, fmt_time, markdown_table, to_jsonable

if TYPE_CHECKING:
    from embornal.domain.access.rules import Rule
    from embornal.interfaces.catalog import Operation
    from embornal.interfaces.cli.app import Context
    from embornal.service.sharing.policies import IssuedToken, PolicyCheck
    from embornal.service.sharing.tokens import TokenInfo

__all__ = [
    "check_json",
    "new_token_json",
    "rule_json",
    "rules_json",
    "show_added",
    "show_check",
    "show_removed",
    "show_revoked",
    "show_rules",
    "show_token",
    "show_tokens",
    "token_add",
    "token_json",
    "tokens_json",
]


def _rule_json(rule: Rule) -> dict[str, Any]:
    return {"ptype": rule.ptype, "values": list(rule.values), "rule": str(rule)}


def _state(info: TokenInfo, now: datetime) -> str:
    if info.revoked_at is not None:
        return "revoked"
    if info.expires_at is not None and info.expires_at <= now:
        return "expired"
    return "active"


def _token_json(info: TokenInfo, now: datetime) -> dict[str, Any]:
    data: dict[str, Any] = to_jsonable(info)
    data["state"] = _state(info, now)
    return data


# --------------------------------------------------------------------------- tokens


def token_add(ctx: Context, op: Operation) -> int:
    """Issue a token; print it this once, with its id and the rules it brought, and say on
    stderr (in either mode) that it is shown this once."""
    from embornal.interfaces.cli.derived import call, inputs, show

    issued: IssuedToken = call(ctx, op, inputs(ctx, op))
    show(ctx, op, issued)
    ctx.note(
        "the token is shown this once (only its hash is stored); keep it safe, "
        f"and revoke it with `embornal token revoke {issued.info.id}`"
    )
    return 0


def new_token_json(ctx: Context, issued: IssuedToken) -> dict[str, Any]:
    data = _token_json(issued.info, datetime.now(UTC))
    data["token"] = issued.token
    data["rules_added"] = [_rule_json(r) for r in issued.rules]
    return data


def show_token(ctx: Context, issued: IssuedToken) -> None:
    info = issued.info
    rules = [str(r) for r in issued.rules] or ["(none added)"]
    fields = [
        ("token", issued.token),
        ("id", info.id),
        ("subject", info.subject),
        ("kind", info.actor_kind.value),
        ("name", info.name or "-"),
        ("expires", fmt_time(info.expires_at) if info.expires_at else "never"),
        ("rules", rules[0]),
        *(("", r) for r in rules[1:]),
    ]
    for key, value in fields:
        ctx.say(f"{key:<9}{value}")


def tokens_json(ctx: Context, infos: Sequence[TokenInfo]) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    return [_token_json(t, now) for t in infos]


def show_tokens(ctx: Context, infos: Sequence[TokenInfo]) -> None:
    """The tokens (never their secrets): active ones, or every one with ``--all``."""
    if not infos:
        every = bool(ctx.opt("include_inactive"))
        ctx.say("(no tokens)" if every else "(no active tokens; --all shows the others)")
        return
    now = datetime.now(UTC)
    rows = [
        [
            t.id,
            cell(t.subject),
            t.actor_kind.value,
            cell(t.name or "-"),
            fmt_time(t.created_at),
            fmt_time(t.expires_at) if t.expires_at else "never",
            _state(t, now),
        ]
        for t in infos
    ]
    ctx.say(markdown_table(["ID", "Subject", "Kind", "Name", "Created", "Expires", "State"], rows))


def token_json(ctx: Context, info: TokenInfo) -> dict[str, Any]:
    return _token_json(info, datetime.now(UTC))


def show_revoked(ctx: Context, info: TokenInfo) -> None:
    ctx.say(f"{info.id} revoked (subject {info.subject})")


# --------------------------------------------------------------------------- policies


def rule_json(ctx: Context, rule: Rule) -> dict[str, Any]:
    return _rule_json(rule)


def show_added(ctx: Context, rule: Rule) -> None:
    ctx.say(f"added {rule}")


def show_removed(ctx: Context, rule: Rule) -> None:
    ctx.say(f"removed {rule}")


def _ordered(rules: Sequence[Rule]) -> list[Rule]:
    """As Casbin lines are read: ``p`` rules first, then ``g``."""
    return sorted(rules, key=lambda r: (r.ptype != "p", r.values))


def rules_json(ctx: Context, rules: Sequence[Rule]) -> list[dict[str, Any]]:
    return [_rule_json(r) for r in _ordered(rules)]


def show_rules(ctx: Context, rules: Sequence[Rule]) -> None:
    """Every rule, as Casbin lines: ``p`` rules first, then ``g``."""
    ordered = _ordered(rules)
    if not ordered:
        ctx.say("(no rules: nobody may read, write or delete)")
    for rule in ordered:
        ctx.say(str(rule))


def check_json(ctx: Context, check: PolicyCheck) -> dict[str, Any]:
    decision = check.decision
    return {
        "subject": check.subject,
        "action": check.action,
        "target": check.target,
        "path": check.path,
        "tags": [f"{k}={v}" for k, v in check.tags],
        "allowed": decision.allowed,
        "rule": str(decision.rule) if decision.rule is not None else None,
    }


def show_check(ctx: Context, check: PolicyCheck) -> None:
    """Would SUBJECT be allowed ACTION on TARGET, and which rule decides (exit 0 either way)."""
    decision = check.decision
    verdict = "allow" if decision.allowed else "deny"
    why = str(decision.rule) if decision.rule is not None else "no rule matched"
    tags = ", ".join(f"{k}={v}" for k, v in check.tags) or "no tags"
    ctx.say(f"{verdict}: {why}")
    ctx.say(f"checked {check.subject} {check.action} on {check.path} ({tags})")
