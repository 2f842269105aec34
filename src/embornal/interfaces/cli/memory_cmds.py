"""The ``embornal memory ...`` commands: parse nothing, decide nothing, render results."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from embornal.domain.events import Event
from embornal.domain.facts import Fact
from embornal.domain.paths import normalize_path
from embornal.domain.ranking import STRENGTH_WEIGHT, ScoreParts
from embornal.errors import InvalidContent, InvalidInput
from embornal.interfaces.cli.app import Context
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
from embornal.service.results import FactDetail, RecallHit

__all__ = [
    "cat",
    "forget",
    "history",
    "ls",
    "purge",
    "recall",
    "reindex",
    "restore",
    "show",
    "store",
    "supersede",
    "tag",
    "untag",
]

# --------------------------------------------------------------------------- input


def read_stdin(ctx: Context) -> str:
    """The fact on standard input: strict UTF-8, trailing line breaks dropped."""
    stream = sys.stdin
    if stream is None:
        raise InvalidContent("there is no standard input to read the fact from")
    if stream.isatty():
        ctx.note("reading the fact from standard input; end it with Ctrl-D")
    data = stream.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidContent(
            f"standard input is not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})",
            hint="Convert the text to UTF-8 first, for example with `iconv -t UTF-8`.",
        ) from None
    return text.removeprefix("\ufeff").rstrip("\r\n")


def _content(ctx: Context, given: str | None) -> str:
    return read_stdin(ctx) if given is None or given == "-" else given


def _own_tags(fact: Fact) -> str:
    """The fact's own tags but the owner (it has a column), or ``-``."""
    tags = [str(t) for t in fact.tags if t.key != "owner"]
    return ", ".join(tags) if tags else "-"


def _written(ctx: Context, fact: Fact, suffix: str = "") -> int:
    if ctx.json:
        ctx.emit(fact)
    else:
        ctx.say(f"{fact.id} {fact.path}{suffix}")
    return 0


# --------------------------------------------------------------------------- writing


def store(ctx: Context) -> int:
    kind, attributes = "fact", None
    if ctx.opt("kind") is not None or ctx.opt("attrs"):
        from embornal.interfaces.cli.kinds_cmds import store_kind

        kind, attributes = store_kind(ctx)  # bad input fails before stdin is read
    from embornal.interfaces.cli.visibility_cmds import spine_of_store

    spine = spine_of_store(ctx)
    lifetime = ctx.opt("lifetime")
    if lifetime is not None:
        from embornal.interfaces.cli.importance_cmds import checked_lifetime

        lifetime = checked_lifetime(lifetime)  # as the kind: before stdin is read
    content = _content(ctx, ctx.opt("content"))
    with ctx.open_memory_api(semantic=True) as mem:
        fact = mem.store(
            ctx.opt("path"),
            content,
            tags=ctx.opt("tags"),
            at=ctx.opt("at"),
            kind=kind,
            attributes=attributes,
            reason=ctx.opt("reason"),
            **spine,
            lifetime=lifetime,
        )
    return _written(ctx, fact)


def supersede(ctx: Context) -> int:
    content = _content(ctx, ctx.opt("content"))
    with ctx.open_memory_api(semantic=True) as mem:
        kind, attributes = None, None
        if ctx.opt("kind") is not None or ctx.opt("attrs"):
            from embornal.interfaces.cli.kinds_cmds import supersede_kind

            kind, attributes = supersede_kind(ctx, mem)
        fact = mem.supersede(
            ctx.opt("id"),
            content,
            tags=ctx.opt("tags"),
            reason=ctx.opt("reason"),
            kind=kind,
            attributes=attributes,
        )
    return _written(ctx, fact)


def forget(ctx: Context) -> int:
    with ctx.open_memory_api() as mem:
        fact = mem.forget(ctx.opt("id"), reason=ctx.opt("reason"))
    return _written(ctx, fact, " forgotten")


def restore(ctx: Context) -> int:
    with ctx.open_memory_api() as mem:
        fact = mem.restore(ctx.opt("id"), reason=ctx.opt("reason"))
    return _written(ctx, fact, " restored")


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


def purge(ctx: Context) -> int:
    given: str = ctx.opt("id")
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


def tag(ctx: Context) -> int:
    with ctx.open_memory() as mem:
        tags = mem.tag_path(ctx.opt("path"), ctx.opt("tags"))
    path = normalize_path(ctx.opt("path"))
    if ctx.json:
        ctx.emit({"path": path, "tags": tags})
    else:
        ctx.say(f"{path} tagged {', '.join(str(t) for t in tags)}")
    return 0


def untag(ctx: Context) -> int:
    keys: list[str] = ctx.opt("keys")
    with ctx.open_memory() as mem:
        mem.untag_path(ctx.opt("path"), keys)
    path = normalize_path(ctx.opt("path"))
    removed = sorted({k.strip().lower() for k in keys})
    if ctx.json:
        ctx.emit({"path": path, "keys": removed})
    else:
        ctx.say(f"{path} untagged {', '.join(removed)}")
    return 0


# --------------------------------------------------------------------------- browsing


def ls(ctx: Context) -> int:
    with ctx.open_memory_api() as mem:
        entries = mem.ls(ctx.opt("path"), as_of=ctx.opt("at"))
    if ctx.json:
        ctx.emit(entries)
    elif ctx.opt("plain"):
        for e in entries:
            ctx.say(
                e.path + ("/" if e.child_count else "") + ("*" if e.fact_count else ""),
                exact=True,
            )
    elif not entries:
        ctx.say(f"(no paths below {normalize_path(ctx.opt('path'))})")
    else:
        rows = [[cell(e.path), str(e.fact_count), str(e.child_count)] for e in entries]
        ctx.say(markdown_table(["Path", "Facts", "Children"], rows, right=(1, 2)))
    return 0


def tree(ctx: Context) -> int:
    with ctx.open_memory_api() as mem:
        root = mem.tree(ctx.opt("path"), dirs_only=bool(ctx.opt("dirs_only")), as_of=ctx.opt("at"))
    if ctx.json:
        ctx.emit(root)
    else:
        ctx.say(render_tree(root))
    return 0


def cat(ctx: Context) -> int:
    with ctx.open_memory_api() as mem:
        views = mem.cat(
            ctx.opt("path"),
            limit=ctx.opt("limit"),
            order_by=ctx.opt("order_by", "date"),
            recall=bool(ctx.opt("recall")),
            as_of=ctx.opt("at"),
        )
    if ctx.json:
        ctx.emit(views)
        return 0
    if not views:
        ctx.say(f"(no live facts on {normalize_path(ctx.opt('path'))})")
        return 0
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
    return 0


# --------------------------------------------------------------------------- recall


def _formula(p: ScoreParts) -> str:
    """`` = keyword 1.000 + 0.5 × strength 1.000`` and the like; hybrid: how it fused."""
    weighted = f"{STRENGTH_WEIGHT:g} × strength {p.strength:.3f}"
    near = f" + neighbours {p.neighbour:.3f}" if p.neighbour else ""
    if p.spine:
        weighted += f" {'+' if p.spine > 0 else '-'} spine {abs(p.spine):.3f}"
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
        if p.neighbour is not None:
            lines.append(f"   neighbour {p.neighbour:.3f}")
        lines.append(f"   strength  {p.strength:.3f}")
        lines.append(f"   spine     {p.spine:+.3f}{_spine(p)}")
        lines.append(f"   matched   {', '.join(p.matched_terms) or '-'}")
    return "\n".join(lines)


def recall(ctx: Context) -> int:
    words: list[str] = ctx.opt("query") or []
    query = " ".join(words) or None
    meta, scores, explain = (bool(ctx.opt(k)) for k in ("meta", "scores", "explain"))
    plain = bool(ctx.opt("plain"))
    if plain and not ctx.json and (meta or scores or explain):
        raise InvalidInput(
            "--plain prints the path and the fact only",
            hint="Drop --plain to see --meta, --scores or --explain, or use --json.",
        )
    mode: str = ctx.opt("mode") or "auto"
    semantic = mode != "keyword" and query is not None and bool(query.strip())
    # Asked for by name, no model is an error, not a warning (in client mode the server embeds).
    if semantic and mode != "auto" and ctx.server_url is None:
        loaded = ctx.embedder(quiet=True)
        if loaded.provider is None:
            from embornal.interfaces.cli.embedder import missing_model_error

            raise missing_model_error(loaded, f"--mode {mode}", fallback=", or use --mode keyword")
    with ctx.open_memory_api(semantic=semantic) as mem:
        hits = mem.recall(
            query,
            limit=ctx.opt("limit"),
            under=ctx.opt("under"),
            reinforce=not ctx.opt("no_reinforce"),
            mode=mode,
            as_of=ctx.opt("at"),
        )
    if ctx.json:
        ctx.emit(hits)
        return 0
    if plain:
        for hit in hits:
            ctx.say(f"{hit.fact.path}\t{one_line(hit.fact.content)}", exact=True)
        return 0
    if not hits:
        ctx.say("(no facts found)")
        return 0
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
    return 0


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


def show(ctx: Context) -> int:
    with ctx.open_memory_api() as mem:
        detail = mem.show(ctx.opt("id"), as_of=ctx.opt("at"))
    if ctx.json:
        ctx.emit(detail)
    else:
        ctx.say(_show_text(detail))
    return 0


def history(ctx: Context) -> int:
    target: str = ctx.opt("target")
    if target.startswith("/"):
        target = normalize_path(target)  # the service reads path events by the exact text
    with ctx.open_memory_api() as mem:
        events = mem.history(target)
    if ctx.json:
        ctx.emit(events)
    else:
        ctx.say(_events_table(events))
    return 0


# --------------------------------------------------------------------------- vectors


def reindex(ctx: Context) -> int:
    """Give a vector to each fact that waits for one (``--all``: to every fact)."""
    from embornal.interfaces.cli.embedder import missing_model_error
    from embornal.interfaces.cli.progress import ProgressLine

    loaded = ctx.embedder(strict=True)
    if loaded.provider is None:
        raise missing_model_error(loaded, "memory reindex", fallback="")
    line = ProgressLine(ctx.err)

    def progress(done: int, total: int) -> None:
        line.update("embedding facts", done, total)

    with ctx.open_memory(semantic=True, strict=True) as mem:
        try:
            result = mem.reindex(
                limit=ctx.opt("limit"), everything=bool(ctx.opt("all")), progress=progress
            )
        finally:
            line.finish()
    if ctx.json:
        ctx.emit(result)
    else:
        facts = "fact" if result.embedded == 1 else "facts"
        ctx.say(
            f"embedded {result.embedded} {facts} with {result.model}; "
            f"{result.remaining} still wait for a vector"
        )
    return 0
