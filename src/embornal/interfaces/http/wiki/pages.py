"""The bodies of the tree, path, search, login and logout pages (HTML text)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from embornal.domain import paths as P
from embornal.interfaces.http.wiki.common import e, fact_item, link, plural, wiki_href
from embornal.service.results import FactView, RecallHit, TreeNode

__all__ = [
    "crumbs",
    "login_body",
    "logout_body",
    "path_body",
    "search_body",
    "subtree_facts",
    "tree_body",
]


def subtree_facts(node: TreeNode) -> int:
    return node.fact_count + sum(subtree_facts(c) for c in node.children)


def subtree_paths(node: TreeNode) -> int:
    return len(node.children) + sum(subtree_paths(c) for c in node.children)


def _tree_items(nodes: Iterable[TreeNode]) -> str:
    out: list[str] = []
    for node in nodes:
        star = '<span class="star" title="holds facts">*</span>' if node.fact_count else ""
        count = (
            f' <span class="count">{plural(node.fact_count, "fact")}</span>'
            if node.fact_count
            else ""
        )
        below = subtree_facts(node) - node.fact_count
        if node.children and below:
            count += f' <span class="count">· {below} below</span>'
        kids = f"<ul>{_tree_items(node.children)}</ul>" if node.children else ""
        out.append(
            f'<li><a href="{e(wiki_href(node.path))}" title="{e(node.path)}">'
            f"{e(node.name)}</a>{star}{count}{kids}</li>"
        )
    return "".join(out)


def tree_body(root: TreeNode) -> str:
    total = subtree_facts(root)
    paths = subtree_paths(root)
    if not root.children:
        listing = '<p class="empty">The memory holds no facts this subject may read.</p>'
    else:
        listing = f'<ul class="tree">{_tree_items(root.children)}</ul>'
    return (
        '<main class="single"><h1>Memory</h1>'
        f'<p class="note">{plural(paths, "path")}, {plural(total, "fact")}. '
        '<span class="star">*</span> marks a path that holds facts of its own.</p>'
        f"{listing}</main>"
    )


def crumbs(path: str, *, here: bool = True) -> str:
    """The breadcrumb trail to ``path``; ``here``: ``path`` is this page (not a link)."""
    items: list[str] = []
    for p in P.ancestors(path):
        label = "/" if p == P.ROOT else P.name_of(p)
        if p == path and here:
            items.append(f'<li aria-current="page">{e(label)}</li>')
        else:
            items.append(f"<li>{link(p, label)}</li>")
    return f'<nav class="crumbs" aria-label="Breadcrumb"><ol>{"".join(items)}</ol></nav>'


def path_body(node: TreeNode, views: Sequence[FactView]) -> str:
    newest = sorted(views, key=lambda v: (v.fact.created_at, v.fact.id), reverse=True)
    mean = f"{sum(v.strength for v in views) / len(views):.3f}" if views else "—"
    meta = (
        '<dl class="meta">'
        f"<div><dt>Facts here</dt><dd>{len(views)}</dd></div>"
        f"<div><dt>Facts in subtree</dt><dd>{subtree_facts(node)}</dd></div>"
        f"<div><dt>Children</dt><dd>{len(node.children)}</dd></div>"
        f"<div><dt>Mean signal</dt><dd>{mean}</dd></div>"
        "</dl>"
    )
    if newest:
        facts = (
            '<ol class="facts">'
            + "".join(fact_item(v.fact, v.strength, with_path=False) for v in newest)
            + "</ol>"
        )
    else:
        facts = '<p class="empty">This path holds no facts of its own; see its children.</p>'
    if node.children:
        kids = "".join(
            f"<li>{link(c.path, c.name)}"
            f'<span class="count">{c.fact_count}'
            + (f" / {subtree_facts(c)}" if c.children else "")
            + "</span></li>"
            for c in node.children
        )
        side = (
            '<aside aria-label="Children"><h2>Children</h2>'
            f'<ul>{kids}</ul><p class="note">facts here / in subtree</p></aside>'
        )
    else:
        side = '<aside aria-label="Children"><h2>Children</h2><p class="empty">None.</p></aside>'
    return (
        '<div class="layout"><main>'
        f"{crumbs(node.path)}<h1>{e(node.path)}</h1>{meta}"
        f"<h2>Facts, newest first</h2>{facts}</main>{side}</div>"
    )


def search_body(query: str, hits: Sequence[RecallHit] | None) -> str:
    head = '<main class="single"><h1>Search</h1>'
    if hits is None:
        return (
            head + '<p class="note">Type words to find facts by keyword. Each result counts '
            "as a recall and lifts the strength of its fact.</p></main>"
        )
    if not hits:
        return head + f'<p class="empty">No fact matches <b>{e(query)}</b>.</p></main>'
    items = "".join(
        fact_item(
            h.fact,
            h.strength,
            with_path=True,
            extra=f'<span title="rank score">score {h.score:.3f}</span>',
        )
        for h in hits
    )
    return (
        head + f'<p class="note">{plural(len(hits), "result")} for <b>{e(query)}</b>. '
        "The signal shown is the strength when found; this search counted as a recall.</p>"
        f'<ol class="facts">{items}</ol></main>'
    )


def login_body(next_url: str, *, rejected: bool, error: str | None) -> str:
    notes = ""
    if rejected:
        notes += '<p class="error">The token was not accepted. Give a valid one.</p>'
    if error:
        notes += f'<p class="error">{e(error)}</p>'
    return (
        '<main class="single"><h1>Log in</h1>'
        '<p class="note">Give a token from <code>embornal token add</code>. '
        "It stays in an HttpOnly cookie of this browser until you log out.</p>"
        f'{notes}<form class="login" method="post" action="/login">'
        f'<input type="hidden" name="next" value="{e(next_url)}">'
        '<input type="password" name="token" aria-label="Token" placeholder="emb_…" '
        'autocomplete="off" required maxlength="1024">'
        '<button type="submit">Log in</button></form></main>'
    )


def logout_body(logged_in: bool) -> str:
    if not logged_in:
        return (
            '<main class="single"><h1>Log out</h1><p class="note">This browser holds no token.'
            ' <a href="/login">Log in</a></p></main>'
        )
    return (
        '<main class="single"><h1>Log out</h1>'
        '<p class="note">Drop the token cookie of this browser?</p>'
        '<form method="post" action="/logout"><button type="submit">Log out</button></form>'
        "</main>"
    )
