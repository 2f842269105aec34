"""The REST models of the graph: link, unlink, links and merge (decisions 0052–0054)."""

from __future__ import annotations

from pydantic import BaseModel

from embornal.interfaces.http.derived import RequestModel, answer_model
from embornal.service.graph.results import Link, LinkedFact, LinkGraph, LinkRecord, LinkStep

__all__ = [
    "BY_OUTPUT",
    "REQUESTS",
    "LinkGraphOut",
    "LinkOut",
]

LinkOut = answer_model(
    Link, doc="A link as stored (canonical direction; a symmetric one from the smaller id)."
)


LinkStepOut = answer_model(
    LinkStep,
    from_id="The fact the walk read the link from.",
    to_id="The fact it reached (a merged source: its survivor).",
    name="The relation as read from from_id (an inverse name backwards).",
)


LinkedFactOut = answer_model(LinkedFact)


LinkRecordOut = answer_model(
    LinkRecord,
    doc="One time a link was made and, when retracted since, its retirement (null: live).",
)


LinkGraphOut = answer_model(
    LinkGraph,
    doc="""The facts reached breadth first, the links followed, the content's [[/path]] links
    and the relationship facts naming the fact; for ``memory_links``, its links as made
    (``links``, the retracted ones too with ``include_retired``).""",
)


BY_OUTPUT: dict[str, type[BaseModel]] = {
    "Link": LinkOut,
    "LinkGraph": LinkGraphOut,
}

REQUESTS: dict[str, RequestModel] = {
    "link": "LinkIn",
    "unlink": "LinkIn",
    "links": "LinksQuery",
    "merge": "MergeIn",
}
