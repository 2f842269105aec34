"""``embornal token add|ls|revoke`` and ``embornal policy add|rm|ls|check``.

These run on the machine that holds the memory: a server needs a token before it
answers, so tokens and rules are made here.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.render import cell, fmt_time, markdown_table, to_jsonable

if TYPE_CHECKING:
    from embornal.domain.access import Rule
    from embornal.service.access import TokenInfo

__all__ = [
    "policy_add",
    "policy_check",
    "policy_ls",
    "policy_rm",
    "token_add",
    "token_ls",
    "token_revoke",
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


def token_add(ctx: Context) -> int:
    """Issue a token; print it this once, with its id and the rules it brought."""
    days: float | None = ctx.opt("expires_in")
    with ctx.open_memory() as mem:
        issued = mem.token_add(
            ctx.opt("subject"),
            name=ctx.opt("name"),
            expires_in_days=days,
            rules=not ctx.opt("no_rules"),
        )
    info = issued.info
    if ctx.json:
        data = _token_json(info, datetime.now(UTC))
        data["token"] = issued.token
        data["rules_added"] = [_rule_json(r) for r in issued.rules]
        ctx.emit(data)
    else:
        rules = [str(r) for r in issued.rules] or ["(none added)"]
        fields = [
            ("token", issued.token),
            ("id", info.id),
            ("subject", info.subject),
            ("name", info.name or "-"),
            ("expires", fmt_time(info.expires_at) if info.expires_at else "never"),
            ("rules", rules[0]),
            *(("", r) for r in rules[1:]),
        ]
        for key, value in fields:
            ctx.say(f"{key:<9}{value}")
    ctx.note(
        "the token is shown this once (only its hash is stored); keep it safe, "
        f"and revoke it with `embornal token revoke {info.id}`"
    )
    return 0


def token_ls(ctx: Context) -> int:
    """The tokens (never their secrets): active ones, or every one with ``--all``."""
    every = bool(ctx.opt("all"))
    with ctx.open_memory() as mem:
        infos = mem.tokens(include_inactive=every)
    now = datetime.now(UTC)
    if ctx.json:
        ctx.emit([_token_json(t, now) for t in infos])
        return 0
    if not infos:
        ctx.say("(no tokens)" if every else "(no active tokens; --all shows the others)")
        return 0
    rows = [
        [
            t.id,
            cell(t.subject),
            cell(t.name or "-"),
            fmt_time(t.created_at),
            fmt_time(t.expires_at) if t.expires_at else "never",
            _state(t, now),
        ]
        for t in infos
    ]
    ctx.say(markdown_table(["ID", "Subject", "Name", "Created", "Expires", "State"], rows))
    return 0


def token_revoke(ctx: Context) -> int:
    """Revoke by id, id prefix, or the whole token (which names its id)."""
    with ctx.open_memory() as mem:
        info = mem.token_revoke(ctx.opt("id"))
    if ctx.json:
        ctx.emit(_token_json(info, datetime.now(UTC)))
    else:
        ctx.say(f"{info.id} revoked (subject {info.subject})")
    return 0


# --------------------------------------------------------------------------- policies


def _policy_change(ctx: Context, verb: str) -> int:
    ptype: str = ctx.opt("ptype")
    values: list[str] = ctx.opt("values")
    with ctx.open_memory() as mem:
        if verb == "added":
            rule = mem.policy_add(ptype, values)
        else:
            rule = mem.policy_remove(ptype, values)
    if ctx.json:
        ctx.emit(_rule_json(rule))
    else:
        ctx.say(f"{verb} {rule}")
    return 0


def policy_add(ctx: Context) -> int:
    return _policy_change(ctx, "added")


def policy_rm(ctx: Context) -> int:
    return _policy_change(ctx, "removed")


def policy_ls(ctx: Context) -> int:
    """Every rule, as Casbin lines: ``p`` rules first, then ``g``."""
    with ctx.open_memory() as mem:
        rules = mem.policies()
    ordered = sorted(rules, key=lambda r: (r.ptype != "p", r.values))
    if ctx.json:
        ctx.emit([_rule_json(r) for r in ordered])
    elif not ordered:
        ctx.say("(no rules: nobody may read, write or delete)")
    else:
        for rule in ordered:
            ctx.say(str(rule))
    return 0


def policy_check(ctx: Context) -> int:
    """Would SUBJECT be allowed ACTION on TARGET? Exit 0 either way."""
    with ctx.open_memory() as mem:
        check = mem.policy_check(ctx.opt("subject"), ctx.opt("action"), ctx.opt("target"))
    decision = check.decision
    verdict = "allow" if decision.allowed else "deny"
    if ctx.json:
        ctx.emit(
            {
                "subject": check.subject,
                "action": check.action,
                "target": check.target,
                "path": check.path,
                "tags": [f"{k}={v}" for k, v in check.tags],
                "allowed": decision.allowed,
                "rule": str(decision.rule) if decision.rule is not None else None,
            }
        )
        return 0
    why = str(decision.rule) if decision.rule is not None else "no rule matched"
    tags = ", ".join(f"{k}={v}" for k, v in check.tags) or "no tags"
    ctx.say(f"{verdict}: {why}")
    ctx.say(f"checked {check.subject} {check.action} on {check.path} ({tags})")
    return 0
