"""The ``embornal memory ...`` commands: the renderers of the catalogue's results and the
runners of the commands that do more than one call.

The catalogue's commands are parsed and called by :mod:`.derived`; the functions named
``show_*`` here print a result as text (``--json`` prints its wire shape), the others
run a command. Nothing decides here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from embornal.domain.paths import normalize_path
from embornal.errors import InvalidInput
from embornal.hints import TYPE_CHECKING
from embornal.interfaces.cli.render import (
    cell,
    escape_controls,
    fact_cell,
    fmt_float,
    fmt_time,
    markdown_table,
    one_line,
    render_tree,
)

if TYPE_CHECKING:
    from embornal.domain.events import Event
    from embornal.domain.facts.fact import Fact
    from embornal.domain.facts.tags import Tag
    from embornal.domain.recall.ranking import ScoreParts
    from embornal.interfaces.catalog import Operation
    from embornal.interfaces.cli.app import Context
    from embornal.service.reindex_result import ReindexResult
    from embornal.service.results import FactDetail, FactView, PathEntry, RecallHit, TreeNode

__all__ = [
    "purge",
    "recall",
    "reindex",
    "show_cat",
    "show_detail",
    "show_events",
    "show_fact",
    "show_facts",
    "show_forgotten",
    "show_ls",
    "show_recall",
    "show_reindexed",
    "show_restored",
    "show_tagged",
    "show_tree",
    "show_untagged",
    "tagged_json",
    "untagged_json",
]


def _own_tags(fact: Fact) -> str:
    """The fact's own tags but the owner (it has a column), or ``-``."""
    tags = [str(t) for t in fact.tags if t.key != "owner"]
    return ", ".join(tags) if tags else "-"


# --------------------------------------------------------------------------- writing


def show_fact(ctx: Context, fact: Fact, suffix: str = "") -> None:
    """A written fact: ``ID PATH`` (store, supersede, and any call that answers a fact)."""
    ctx.say(f"{fact.id} {fact.path}{suffix}")


def show_forgotten(ctx: Context, fact: Fact) -> None:
    show_fact(ctx, fact, " forgotten")


def show_restored(ctx: Context, fact: Fact) -> None:
    show_fact(ctx, fact, " restored")


def show_facts(ctx: Context, facts: Sequence[Fact]) -> None:
    """A list of facts (a call that answers ``list[Fact]`` and names no renderer)."""
    if not facts:
        ctx.say("(no facts)")
        return
    rows = [
        [f.id, cell(f.path), cell(f.kind), fmt_time(f.created_at), fact_cell(f.content, f.id)]
        for f in facts
    ]
    ctx.say(markdown_table(["ID", "Path", "Kind", "Created", "Fact"], rows))


def _confirm_purge(ctx: Context, detail: FactDetail, given: str) -> None:
    """Ask on the terminal; refuse without one (a script must say --yes)."""
    fact = detail.fact
    if not sys.stdin or not sys.stdin.isatty():
        raise InvalidInput(
            f"purging {fact.id} needs a confirmation and there is no terminal to ask on",
            hint="Pass --yes to purge without a prompt.",
        )
    preview = one_line(fact.content)
    preview = preview if len(preview) <= 60 else preview[:57] + "..."
    ctx.err.write(
        escape_controls(
            f"Purge erases fact {fact.id} on {fact.path} for good: {preview!r}\n"
            f"Type the id ({given}) or 'yes' to confirm: "
        )
    )
    ctx.err.flush()
    answer = sys.stdin.readline().strip()
    ok = answer.lower() == "yes" or (
        len(answer) >= len(given.strip()) and fact.id.startswith(answer.upper())
    )
    if not answer or not ok:
        raise InvalidInput(
            "purge cancelled: the confirmation did not match", hint="Nothing changed."
        )


def purge(ctx: Context, op: Operation) -> int:
    """Erase a fact's content for good, after a confirmation on the terminal (or --yes)."""
    given: str = ctx.opt("fact_id")
    with ctx.open_memory() as mem:
        if not ctx.opt("yes"):
            detail = mem.show(given)
            if detail.fact.purged_at is None:  # a purged fact: let the service say so
                _confirm_purge(ctx, detail, given)
        result = mem.purge(given, reason=ctx.opt("reason"))
    if ctx.json:
        ctx.emit(result)
    else:
        ctx.say(f"{result.fact_id} purged ({result.redacted_events} earlier events redacted)")
    return 0


def _tagged_path(ctx: Context) -> str:
    return normalize_path(ctx.opt("path"))


def _untagged_keys(ctx: Context) -> list[str]:
    keys: list[str] = ctx.opt("keys")
    return sorted({k.strip().lower() for k in keys})


def show_tagged(ctx: Context, tags: Sequence[Tag]) -> None:
    ctx.say(f"{_tagged_path(ctx)} tagged {', '.join(str(t) for t in tags)}")


def tagged_json(ctx: Context, tags: Sequence[Tag]) -> dict[str, object]:
    return {"path": _tagged_path(ctx), "tags": tags}


def show_untagged(ctx: Context, result: None) -> None:
    ctx.say(f"{_tagged_path(ctx)} untagged {', '.join(_untagged_keys(ctx))}")


def untagged_json(ctx: Context, result: None) -> dict[str, object]:
    return {"path": _tagged_path(ctx), "keys": _untagged_keys(ctx)}


# --------------------------------------------------------------------------- browsing


def show_ls(ctx: Context, entries: Sequence[PathEntry]) -> None:
    if ctx.opt("plain"):
        for e in entries:
            ctx.say(
                e.path + ("/" if e.child_count else "") + ("*" if e.fact_count else ""),
                exact=True,
            )
    elif not entries:
        ctx.say(f"(no paths below {normalize_path(ctx.opt('path') or '/')})")
    else:
        rows = [[cell(e.path), str(e.fact_count), str(e.child_count)] for e in entries]
        ctx.say(markdown_table(["Path", "Facts", "Children"], rows, right=(1, 2)))


def show_tree(ctx: Context, root: TreeNode) -> None:
    ctx.say(render_tree(root))


def show_cat(ctx: Context, views: Sequence[FactView]) -> None:
    if not views:
        ctx.say(f"(no live facts on {normalize_path(ctx.opt('path'))})")
        return
    meta = bool(ctx.opt("meta"))
    headers = ["ID", "Created", "Signal"] + (["Owner", "Tags"] if meta else []) + ["Fact"]
    rows = []
    for v in views:
        f = v.fact
        extra = [cell(f.owner), cell(_own_tags(f))] if meta else []
        rows.append(
            [
                f.id,
                fmt_time(f.created_at),
                fmt_float(v.strength),
                *extra,
                fact_cell(f.content, f.id),
            ]
        )
    ctx.say(markdown_table(headers, rows, right=(2,)))


# --------------------------------------------------------------------------- recall


def _formula(p: ScoreParts) -> str:
    """`` = keyword 1.000 + 0.5 × strength 1.000`` and the like; hybrid: how it fused."""
    from embornal.domain.recall.ranking import STRENGTH_WEIGHT

    weighted = f"{STRENGTH_WEIGHT:g} × strength {p.strength:.3f}"
    near = f" + neighbours {p.neighbour:.3f}" if p.neighbour else ""
    if p.path:
        near += f" + path {p.path:.3f}"
    if p.temporal:
        near += f" + time {p.temporal:.3f}"
    if p.entity:
        near += f" + names {p.entity:.3f}"
    if p.diversity:
        near += f" - diversity {p.diversity:.3f}"
    if p.spine:
        weighted += f" {'+' if p.spine > 0 else '-'} spine {abs(p.spine):.3f}"
    if p.rerank is not None:
        return " (reranked by the cross-encoder: the fused total of the place it took)"
    if p.method.startswith("hybrid"):
        fused = p.method.split("+")[0]
        return f" (keyword and vector lists fused, {fused}{near}, + strength)"
    if p.keyword is not None:
        return f" = keyword {p.keyword:.3f}{near} + {weighted}"
    if p.vector is not None:
        return f" = vector {p.vector:.3f}{near} + {weighted}"
    return f" = strength {p.strength:.3f}" + (f" {p.spine:+.3f} spine" if p.spine else "")


def _spine(p: ScoreParts) -> str:
    """`` (c 0.950, c_eff 0.912, stale, pinned, weight 0.800)``: what the spine read."""
    said = [f"c {fmt_float(p.c)}", f"c_eff {fmt_float(p.c_eff)}"]
    said += [w for w, on in (("stale", p.stale), ("pinned", p.pinned)) if on]
    if p.user_weight is not None:
        said.append(f"weight {p.user_weight:.3f}")
    return f" ({', '.join(said)})"


def _signals(p: ScoreParts) -> list[str]:
    """The lines of the signals the recall used (one it did not use is left out): each its
    name, its value to three places (diversity subtracts) and what goes with it."""
    signals = (
        ("neighbour", "", p.neighbour, ""),
        ("path", "", p.path, ""),
        ("time", "", p.temporal, f" ({p.time_window})"),
        ("names", "", p.entity, f" ({', '.join(p.entities)})"),
        ("diversity", "-", p.diversity, ""),
        ("rerank", "", p.rerank, f" (cross-encoder; place {p.rerank_before} after fusion)"),
    )
    return [
        f"   {name:<9} {sign}{value:.3f}{more}"
        for name, sign, value, more in signals
        if value is not None
    ]


def _explain(hits: Sequence[RecallHit]) -> str:
    lines = ["", "explain:"]
    for n, hit in enumerate(hits, 1):
        p = hit.parts
        lines.append(f"{n}. {hit.fact.id} {hit.fact.path}")
        lines.append(f"   total     {p.total:.3f}{_formula(p)}")
        lines.append(f"   method    {p.method}")
        lines.append(f"   keyword   {fmt_float(p.keyword)}")
        lines.append(f"   bm25      {fmt_float(p.bm25, 6)}")
        if p.vector is not None:
            scaled = "" if p.vector_scaled is None else f" (rescaled {p.vector_scaled:.3f})"
            lines.append(f"   vector    {p.vector:.3f}{scaled}")
        if p.keyword_rank is not None or p.vector_rank is not None:
            ranks = f"keyword {p.keyword_rank or '-'}, vector {p.vector_rank or '-'}"
            lines.append(f"   ranks     {ranks}")
        lines += _signals(p)
        lines.append(f"   strength  {p.strength:.3f}")
        lines.append(f"   spine     {p.spine:+.3f}{_spine(p)}")
        lines.append(f"   matched   {', '.join(p.matched_terms) or '-'}")
    return "\n".join(lines)


def recall(ctx: Context, op: Operation) -> int:
    """``memory recall``: the renderer's flags checked, and a model asked for by name
    required, before the memory opens."""
    from embornal.interfaces.cli.derived import call, inputs, show

    given = inputs(ctx, op)
    query: str | None = given.get("query")
    meta, scores, explain = (bool(ctx.opt(k)) for k in ("meta", "scores", "explain"))
    if ctx.opt("plain") and not ctx.json and (meta or scores or explain):
        raise InvalidInput(
            "--plain prints the path and the fact only",
            hint="Drop --plain to see --meta, --scores or --explain, or use --json.",
        )
    mode: str = given.get("mode") or "auto"
    semantic = mode != "keyword" and query is not None and bool(query.strip())
    # Asked for by name, no model is an error, not a warning (in client mode the server embeds).
    if semantic and mode != "auto" and ctx.server_url is None:
        loaded = ctx.embedder(quiet=True)
        if loaded.provider is None:
            from embornal.interfaces.cli.embedder import missing_model_error

            raise missing_model_error(loaded, f"--mode {mode}", fallback=", or use --mode keyword")
    return show(ctx, op, call(ctx, op, given, semantic=semantic))


def show_recall(ctx: Context, hits: Sequence[RecallHit]) -> None:
    meta, scores, explain = (bool(ctx.opt(k)) for k in ("meta", "scores", "explain"))
    if ctx.opt("plain"):
        for hit in hits:
            ctx.say(f"{hit.fact.path}\t{one_line(hit.fact.content)}", exact=True)
        return
    if not hits:
        ctx.say("(no facts found)")
        return
    headers = (
        (["ID"] if meta else [])
        + ["Path", "Signal"]
        + (["Score"] if scores else [])
        + (["Owner", "Tags"] if meta else [])
        + ["Fact"]
    )
    right = {headers.index("Signal")} | ({headers.index("Score")} if scores else set())
    rows = []
    for hit in hits:
        f = hit.fact
        rows.append(
            ([f.id] if meta else [])
            + [cell(f.path), fmt_float(hit.strength)]
            + ([fmt_float(hit.score)] if scores else [])
            + ([cell(f.owner), cell(_own_tags(f))] if meta else [])
            + [fact_cell(f.content, f.id)]
        )
    ctx.say(markdown_table(headers, rows, right=sorted(right)))
    if explain:
        ctx.say(_explain(hits))


# --------------------------------------------------------------------------- one fact


def _events_table(events: Sequence[Event]) -> str:
    from embornal.interfaces.cli.undo_cmds import undo_notes

    rows = [
        [
            f"#{e.position}",
            fmt_time(e.recorded_at),
            cell(e.stream_id),
            e.type + (" (redacted)" if e.redacted else ""),
            cell(e.actor),
            cell(e.actor_kind),
            cell(e.reason or "-"),
            note,
        ]
        for e, note in zip(events, undo_notes(events), strict=True)
    ]
    header = ["#", "Time", "Stream", "Event", "Actor", "Kind", "Reason", "Undo"]
    return markdown_table(header, rows)


def _show_text(d: FactDetail) -> str:
    f = d.fact
    recalls = str(f.recall_count)
    if f.last_recall_at is not None:
        recalls += f" (last {fmt_time(f.last_recall_at)})"
    fields: list[tuple[str, str]] = [("as of", fmt_time(d.as_of))] if d.as_of else []
    fields += [
        ("id", f.id),
        ("path", f.path),
        ("state", "expired" if d.expired and f.state == "active" else f.state),
        ("owner", f.owner),
        ("created", fmt_time(f.created_at)),
        ("strength", fmt_float(d.strength)),
        ("recalls", recalls),
        ("stability", f"{f.stability_days:.3f} days"),
        ("supersedes", f.supersedes_id or "-"),
        ("superseded by", f.superseded_by or "-"),
        ("confidence", fmt_float(d.confidence)),
        ("c_eff", fmt_float(d.c_eff)),
        ("stale", "yes" if d.stale else "no"),
        ("confirmed", fmt_time(d.last_confirmed_at)),
        ("visibility", f.visibility),
        ("pinned", "yes" if d.pinned else "no"),
        ("weight", fmt_float(d.user_weight)),
        ("lifetime", d.lifetime),
    ]
    if d.source is not None:
        src = d.source
        label = "" if src.label is None else f" via {one_line(src.label)}"
        fields.append(("source", f"{src.subject} ({src.actor_kind.value}){label}"))
    if d.expired_because is not None:
        fields.append(("expired", d.expired_because))
    if f.deleted_at is not None:
        fields.append(("forgotten", fmt_time(f.deleted_at)))
    if f.purged_at is not None:
        fields.append(("purged", fmt_time(f.purged_at)))
    tags = [f"{t} ({'own' if src is None else 'from ' + src})" for t, src in d.effective_tags]
    fields.append(("tags", tags[0] if tags else "-"))
    fields.extend(("", t) for t in tags[1:])
    evidence = [
        f"{ev.type.value}:{one_line(ev.value)}"
        + ("" if ev.note is None else f" ({one_line(ev.note)})")
        for ev in d.evidence
    ]
    fields.append(("evidence", evidence[0] if evidence else "-"))
    fields.extend(("", e) for e in evidence[1:])
    links = [f"[[{link}]]" for link in d.links]
    fields.append(("links", " ".join(links) if links else "-"))
    lines = [f"{k + ':' if k else '':<15}{v}" for k, v in fields]
    body = f.content if f.purged_at is None else "(purged: the content is gone)"
    lines += ["", "content:"] + ["  " + line for line in body.splitlines() or [""]]
    lines += ["", "events:", _events_table(d.events)]
    return "\n".join(lines)


def show_detail(ctx: Context, detail: FactDetail) -> None:
    ctx.say(_show_text(detail))


def show_events(ctx: Context, events: Sequence[Event]) -> None:
    ctx.say(_events_table(events))


# --------------------------------------------------------------------------- vectors


def reindex(ctx: Context, op: Operation) -> int:
    """Give a vector to each fact that waits for one (``--all``: to every fact): the model
    required before the memory opens, and a progress line on a terminal."""
    from embornal.interfaces.cli.derived import inputs, show
    from embornal.interfaces.cli.embedder import missing_model_error
    from embornal.interfaces.cli.progress import ProgressLine

    given = inputs(ctx, op)
    loaded = ctx.embedder(strict=True)
    if loaded.provider is None:
        raise missing_model_error(loaded, "memory reindex", fallback="")
    with ctx.open_memory(semantic=True, strict=True) as mem, ProgressLine(ctx.err) as line:
        result = mem.reindex(
            **given, progress=lambda done, total: line.update("embedding facts", done, total)
        )
    return show(ctx, op, result)


def show_reindexed(ctx: Context, result: ReindexResult) -> None:
    facts = "fact" if result.embedded == 1 else "facts"
    ctx.say(
        f"embedded {result.embedded} {facts} with {result.model}; "
        f"{result.remaining} still wait for a vector"
    )
