"""The wiki: HTML pages over the memory, rendered on the server; the review pages decide.

``wiki_routes(get_memory)`` returns Starlette routes; the HTTP app mounts them.
``get_memory(request)`` gives the :class:`~embornal.service.memory.Memory` of the
request's subject, so every page shows only what that subject may read. It may
raise :class:`~embornal.errors.Unauthenticated`; the wiki then sends the browser
to ``/login``, which keeps the token in an HttpOnly, SameSite=Strict cookie.

Pages (see ``docs/wiki.md``):

* ``/``                the tree: every path, ``*`` where facts are, the counts
* ``/wiki/<path>``     one path: breadcrumb, metadata, its facts newest first
* ``/fact/<id>``       one fact: kind, attributes, spine, evidence, history, and its
                       confidence and strength over time as an inline SVG
* ``/search?q=``       a recall: each hit counts as a recall and lifts its strength
* ``/login``; ``/logout`` (POST; a GET shows the button and changes nothing)
* ``/review``, ``/proposals``, ``/proposal/<id>``, ``/conflicts``, ``/conflict/<id>``,
  ``/due``: the review queues, decided by forms (POST with a form token, decision 0070)
  as the page's subject (decisions 0069, 0148)
* ``/claims``          the claims ledger, read-only: by status, ``as_of`` an earlier time
* ``/list``            the memory list: filters, sort and page as query parameters
* ``/graph``           the typed links of the whole memory, the most linked facts drawn
* ``POST /fact/<id>/<verb>``, ``/new``: a person corrects a fact from its page, or stores
  one (the same form tokens and checks, then the ``Memory`` call; decision 0158)

A page view is not a recall (``cat(..., recall=False)``, ``show``); a search is. No page
runs a script: the Content-Security-Policy allows none, and the one stylesheet is inline,
allowed by its hash. Every value from the memory is escaped.

The modules: :mod:`.common` (escaping, layout, headers, errors), :mod:`.pages` (tree,
path, search, login), :mod:`.fact_page`, :mod:`.chart` (the SVG), :mod:`.graph_svg` (the
links graph), :mod:`.review_pages`, :mod:`.review_routes`, :mod:`.claims_page`, :mod:`.forms`,
:mod:`.list_page` (``/list``), :mod:`.map_page` (``/graph``), :mod:`.corrections_page`,
:mod:`.correction_routes` and :mod:`.routes`.
"""

from __future__ import annotations

from embornal.interfaces.http.wiki.common import (
    CONTENT_SECURITY_POLICY,
    TOKEN_COOKIE,
    render_content,
    wiki_href,
)
from embornal.interfaces.http.wiki.common import day as _day
from embornal.interfaces.http.wiki.routes import wiki_routes

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "TOKEN_COOKIE",
    "render_content",
    "wiki_href",
    "wiki_routes",
]

_ = _day  # the one date form, read by tests/test_time_format.py
