"""Who may see a fact and who put it there, on the command line.

``memory visibility ID V`` sets a fact's visibility (``shared``, ``private``,
``restricted:alice,bob``); ``memory store`` takes ``--visibility``, ``--source``,
``--confidence`` and ``--evidence`` (repeatable). Each value is checked before the memory
opens (or stdin is read), so bad input is one line naming the allowed values, exit 2, and
nothing is written.
"""

from __future__ import annotations

import argparse
from typing import Any

from embornal.interfaces.cli.app import Context

__all__ = ["spine_of_store", "store_options", "visibility", "visibility_args"]

_VISIBILITY_HELP = (
    "shared (default), private (you only, never an assistant) or restricted:a,b "
    "(you and the subjects or roles listed)"
)


def store_options(p: argparse.ArgumentParser) -> None:
    """The spine flags of ``memory store``."""
    p.add_argument("--visibility", metavar="V", help=_VISIBILITY_HELP)
    p.add_argument(
        "--source", metavar="LABEL", help="who put it here: a client or session id (one line)"
    )
    p.add_argument("--confidence", metavar="C", help="how sure, 0..1 (default: your prior)")
    p.add_argument(
        "--evidence",
        dest="evidence_list",
        action="append",
        metavar="TYPE:VALUE",
        help="what supports it (repeatable); TYPE one of quote, uri, conversation, "
        "document, observation",
    )


def visibility_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="fact id or a unique prefix of one")
    p.add_argument("visibility", metavar="V", help=_VISIBILITY_HELP)
    p.add_argument("--reason", help="why: kept in the history with the event")


def _confidence(text: str | None) -> float | None:
    if text is None:
        return None
    from embornal.domain.confidence import check_confidence
    from embornal.errors import InvalidInput

    try:
        value = float(text)
    except ValueError:
        raise InvalidInput(
            f"--confidence must be a number from 0 to 1, not {text[:40]!r}",
            hint="e.g. --confidence 0.8",
        ) from None
    return check_confidence(value)


def spine_of_store(ctx: Context) -> dict[str, Any]:
    """The spine keywords of ``Memory.store`` from the flags, each checked now."""
    from embornal.domain.spine import check_source_label, parse_evidence, parse_visibility

    out: dict[str, Any] = {}
    if ctx.opt("visibility") is not None:
        out["visibility"] = str(parse_visibility(ctx.opt("visibility")))
    if ctx.opt("source") is not None:
        out["source"] = check_source_label(ctx.opt("source"))
    if ctx.opt("confidence") is not None:
        out["confidence"] = _confidence(ctx.opt("confidence"))
    if ctx.opt("evidence_list"):
        out["evidence"] = [parse_evidence(e) for e in ctx.opt("evidence_list")]
    return out


def visibility(ctx: Context) -> int:
    from embornal.domain.facts import check_reason
    from embornal.domain.spine import parse_visibility

    wanted = parse_visibility(ctx.opt("visibility"))
    check_reason(ctx.opt("reason"), required=False)
    with ctx.open_memory_api() as mem:
        fact = mem.set_visibility(ctx.opt("id"), wanted, reason=ctx.opt("reason"))
    if ctx.json:
        ctx.emit(fact)
    else:
        ctx.say(f"{fact.id} {fact.path} {fact.visibility}")
    return 0
