"""The text of the graph's commands: ``memory link``, ``unlink``, ``links`` and
``dangling`` (their parsers come from the catalogue, :mod:`.derived`; ``--json`` is the
result's wire shape)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embornal.interfaces.cli.render import one_line

if TYPE_CHECKING:
    from embornal.domain.facts.fact import Fact
    from embornal.interfaces.cli.app import Context
    from embornal.service.graph.results import DanglingLink, Link, LinkGraph

__all__ = ["show_dangling", "show_link", "show_links", "show_unlink"]


def show_link(ctx: Context, link: Link) -> None:
    ctx.say(f"linked {link.source_id} {link.relation} {link.target_id}")


def show_unlink(ctx: Context, link: Link) -> None:
    ctx.say(f"unlinked {link.source_id} {link.relation} {link.target_id}")


def _short(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _fact_line(fact: Fact) -> str:
    state = "" if fact.state == "active" else f" ({fact.state})"
    return f"{fact.id} {fact.kind} {fact.path}{state}  {_short(one_line(fact.content))}"


def show_links(ctx: Context, graph: LinkGraph) -> None:
    """The start, then each link followed (indented by depth, named as read from the fact it
    leaves), the content links and the relationships naming it."""
    ctx.say(_fact_line(graph.root))
    reached = {n.fact.id: n.fact for n in graph.nodes}
    reached[graph.root.id] = graph.root
    for step in graph.steps:
        to = reached.get(step.to_id)
        shown = _fact_line(to) if to is not None else step.to_id
        indent = "  " * step.depth
        via = "" if step.from_id == graph.root.id else f" (from {step.from_id})"
        ctx.say(f"{indent}{step.name} {shown}{via}")
    if not graph.steps:
        ctx.say("  no typed links")
    for path in graph.content_links:
        ctx.say(f"  [[{path}]]")
    for rel in graph.relationships:
        a = rel.attributes
        ctx.say(
            f"  relationship {rel.id}: {a.get('subject_id')} {a.get('predicate')} "
            f"{a.get('object_id')}"
        )
    if graph.truncated:
        ctx.say("  ... more facts than --limit; raise it or narrow with --relation")


def show_dangling(ctx: Context, found: list[DanglingLink]) -> None:
    ctx.say_each(
        found,
        "no dangling links: every link points at a live fact",
        lambda d: f"{d.source_id} {d.relation} {d.target_id} ({d.target_state})",
    )
