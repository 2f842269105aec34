"""The review pages' routes: read a queue, decide by a form, come back to the page.

Every ``POST`` is checked in this order: the browser's headers say it came from this
site (:func:`~embornal.interfaces.http.wiki.common.same_origin`), the body is small, the
request has a subject (else ``/login``), the form token is this wiki's for this subject
and this action (:mod:`.forms`); then the memory decides, with the subject's rights and
its actor kind (decision 0069), and the answer is ``303`` back to the page
(post/redirect/get). On these pages a person decides: a subject who may not decide
proposals (an assistant's token, unless ``proposals.assistants_decide``) sees no form
and its forms are refused, conflicts and confirmations too (decision 0148). A resolve
form refused for its input (no choice, no reason) comes back as the conflict's page
with the error above the form. An approval names the version of the proposal its page showed (a
hidden field): one edited since is refused, not applied. A proposal, conflict or fact
that the subject may not read is the same 404 as an id never used, for a read and for a
decision.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from embornal.errors import (
    EmbornalError,
    InvalidInput,
    NotFound,
    ProposalChanged,
)
from embornal.interfaces.http.wiki.common import (
    ID,
    e,
    error_page,
    fact_href,
    load_by_id,
    message,
    not_found,
    page,
    redirect,
)
from embornal.interfaces.http.wiki.forms import NOT_A_PERSON, FormTokens, first, refused
from embornal.interfaces.http.wiki.forms import posted as posted_form
from embornal.interfaces.http.wiki.proposal_edit import (
    EDITABLE,
    ItemForm,
    edited_item,
    item_edit_body,
    item_edit_href,
)
from embornal.interfaces.http.wiki.review_pages import (
    conflict_body,
    conflict_href,
    conflicts_body,
    due_body,
    proposal_body,
    proposal_href,
    proposals_body,
    review_body,
)
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.memory import Memory
from embornal.service.proposals.results import Proposal, ProposalItem
from embornal.service.results import FactDetail

__all__ = ["MAX_SHOWN_TARGETS", "review_routes"]

_FULL_FACT_ID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
#: The facts a proposal acts on whose content its page shows (the rest by id).
MAX_SHOWN_TARGETS = 200
_COUNTED = 100
_DUE_SHOWN = 100
_NOTICES = {
    "approved": "Approved: the checked items are in the memory; the others were declined.",
    "rejected": "Rejected: nothing was applied.",
    "resolved": "Resolved: the decision and its reason are in the log.",
    "edited": "Edited: the proposal is at a new version; read its items, then decide.",
}
_NUMBER = re.compile(r"[0-9]{1,6}")
_Decided = TypeVar("_Decided", Proposal, ConflictRecord)
_Shown = TypeVar("_Shown")


def _notice(request: Request) -> str | None:
    return _NOTICES.get(request.query_params.get("done", ""))


def _version(raw: str) -> int:
    """The version of the proposal its page showed (the approve form always sends it: an
    approval applies what was read, never what an edit put in since)."""
    if not (raw.isascii() and raw.isdigit()) or not 0 < len(raw) < 10:
        raise InvalidInput(
            "the form does not say which version of the proposal it approves",
            hint="Reload the proposal's page and approve again.",
        )
    return int(raw)


def _status(request: Request, allowed: tuple[str, ...]) -> str | None:
    value = request.query_params.get("status", allowed[0])
    return value if value in allowed else None


def review_routes(
    get_memory: Callable[[Request], Memory], tokens: FormTokens | None = None
) -> list[BaseRoute]:
    """The review pages over ``get_memory`` (the same as the wiki's other pages);
    ``tokens``: the wiki's form tokens (its other forms' too), else a set of their own."""
    tokens = tokens if tokens is not None else FormTokens()

    def token_of(memory: Memory) -> Callable[[str], str]:
        return lambda action: tokens.field(memory.subject, memory.actor_kind.value, action)

    async def posted(request: Request, back: str) -> tuple[Memory, dict[str, list[str]]] | Response:
        """The subject and the fields of a review form, or the answer that refuses it."""
        return await posted_form(request, back, get_memory, tokens)

    async def decision_page(
        request: Request,
        raw: str,
        load: Callable[[Memory], tuple[_Decided, _Shown, bool]],
        href: Callable[[str], str],
        body_of: Callable[..., str],
        title: str,
    ) -> Response:
        """The page of the proposal or conflict ``raw``: what ``load`` reads (it, the facts
        it shows, whether the subject may decide) in ``body_of``, with the forms' tokens and
        the notice of a decision just made."""
        got = await load_by_id(request, raw, get_memory, load, found=lambda g: g[0].id, href=href)
        if isinstance(got, Response):
            return got
        memory, (decided, shown, may) = got
        body = body_of(decided, shown, token_of(memory), may_decide=may, notice=_notice(request))
        return page(request, f"{title} {decided.id}", body, subject=memory.subject)

    async def review_page(request: Request) -> Response:
        try:
            memory = await run_in_threadpool(get_memory, request)

            def load() -> tuple[int, int, int]:
                return (
                    len(memory.proposals(status="open", limit=_COUNTED)),
                    len(memory.conflicts(limit=_COUNTED)),
                    len(memory.due(limit=_COUNTED)),
                )

            counts = await run_in_threadpool(load)
        except EmbornalError as err:
            return error_page(request, err, "/review")
        body = review_body(*counts, more=_COUNTED)
        return page(request, "Review", body, subject=memory.subject)

    async def proposals_page(request: Request) -> Response:
        status = _status(request, ("open", "approved", "rejected", "all"))
        if status is None:
            return message(request, 400, "Bad request", "Unknown status.")
        try:
            memory = await run_in_threadpool(get_memory, request)
            rows = await run_in_threadpool(
                lambda: memory.proposals(status=None if status == "all" else status, limit=200)
            )
        except EmbornalError as err:
            return error_page(request, err, "/proposals")
        return page(request, "Proposals", proposals_body(rows, status), subject=memory.subject)

    async def proposal_page(request: Request) -> Response:
        raw = str(request.path_params["proposal_id"])

        def load(memory: Memory) -> tuple[Proposal, dict[str, FactDetail], bool]:
            proposal = memory.proposal(raw)
            targets: dict[str, FactDetail] = {}
            wanted = [  # what each item acts on, and the facts applied items made
                i.fact_id
                for i in proposal.items
                if i.fact_id and (i.type != "create" or i.applied is True)
            ]
            for fid in list(dict.fromkeys(wanted))[:MAX_SHOWN_TARGETS]:
                try:
                    targets[fid] = memory.show(fid)
                except EmbornalError:
                    continue
            return proposal, targets, memory.may_decide_proposals()

        return await decision_page(request, raw, load, proposal_href, proposal_body, "Proposal")

    async def decide_proposal(request: Request) -> Response:
        raw = str(request.path_params["proposal_id"])
        verb = str(request.path_params["verb"])
        back = proposal_href(raw)
        if not ID.fullmatch(raw) or verb not in ("approve", "reject"):
            return not_found(request, raw)
        got = await posted(request, back)
        if isinstance(got, Response):
            return got
        memory, fields = got
        reason = first(fields, "reason") or None
        items = [v.strip() for v in fields.get("item", []) if v.strip()]
        try:
            if verb == "reject":
                if reason is None:
                    raise InvalidInput("a rejection needs a reason")
                done = await run_in_threadpool(lambda: memory.reject(raw, reason=reason))
            else:
                if first(fields, "scope") != "all" and not items:
                    raise InvalidInput(
                        "no item is checked",
                        hint="Check the items to approve, approve all, or reject the proposal.",
                    )
                chosen = None if first(fields, "scope") == "all" else items
                seen = _version(first(fields, "version"))
                done = await run_in_threadpool(
                    lambda: memory.approve(raw, items=chosen, reason=reason, version=seen)
                )
        except EmbornalError as err:
            return refused(request, err, raw, back)
        return redirect(f"{proposal_href(done.id)}?done={done.status}")

    def item_of(proposal: Proposal, number: str) -> ProposalItem | None:
        return next((i for i in proposal.items if i.number == number), None)

    async def item_page(request: Request) -> Response:
        raw, number = str(request.path_params["proposal_id"]), str(request.path_params["n"])
        if not _NUMBER.fullmatch(number):
            return not_found(request, raw)
        got = await load_by_id(
            request,
            raw,
            get_memory,
            lambda memory: (memory.proposal(raw), memory.may_decide_proposals()),
            found=lambda g: g[0].id,
            href=lambda full: item_edit_href(full, number),
        )
        if isinstance(got, Response):
            return got
        memory, (proposal, may) = got
        item = item_of(proposal, number)
        if item is None:
            return not_found(request, f"{raw} item {number}")
        back = f'<a href="{e(proposal_href(proposal.id))}">Back to the proposal</a>.'
        if not may:
            return message(request, 403, "Not allowed", f"{NOT_A_PERSON} {back}")
        if proposal.status != "open":
            return message(
                request, 409, "Already decided", f"This proposal is {e(proposal.status)}. {back}"
            )
        body = item_edit_body(proposal, item, token_of(memory))
        return page(request, f"Item {number} of {proposal.id}", body, subject=memory.subject)

    async def edit_proposal(request: Request) -> Response:
        raw = str(request.path_params["proposal_id"])
        back = proposal_href(raw)
        if not ID.fullmatch(raw):
            return not_found(request, raw)
        got = await posted(request, back)
        if isinstance(got, Response):
            return got
        memory, fields = got
        number, do = first(fields, "item"), first(fields, "do")
        content = (fields.get("content") or [""])[0].replace("\r\n", "\n")
        form = ItemForm(
            content,
            first(fields, "path"),
            first(fields, "kind"),
            first(fields, "tags"),
            first(fields, "reason"),
        )
        reason = form.reason or None
        try:
            seen = _version(first(fields, "version"))
            if do == "drop":
                done = await run_in_threadpool(
                    lambda: memory.edit_proposal(raw, drop=[number], reason=reason, version=seen)
                )
            elif do == "save":

                def save() -> Proposal:
                    item = item_of(memory.proposal(raw), number)
                    if item is None:
                        raise NotFound(f"proposal {raw} has no item {number[:20]!r}")
                    if item.type not in EDITABLE:
                        raise InvalidInput(f"a {item.type} item is not changed here; drop it")
                    if not form.content.strip():
                        raise InvalidInput(
                            "the item needs its content", hint="Write what the fact says."
                        )
                    changed = {number: edited_item(item, form)}
                    return memory.edit_proposal(raw, replace=changed, reason=reason, version=seen)

                done = await run_in_threadpool(save)
            else:
                raise InvalidInput("the form says neither save nor drop")
        except (InvalidInput, ProposalChanged) as err:
            if do != "save":
                return refused(request, err, raw, back)
            return await edit_refused(request, memory, raw, number, form, err)
        except EmbornalError as err:
            return refused(request, err, raw, back)
        return redirect(f"{proposal_href(done.id)}?done=edited")

    async def edit_refused(
        request: Request,
        memory: Memory,
        raw: str,
        number: str,
        form: ItemForm,
        err: InvalidInput | ProposalChanged,
    ) -> Response:
        """The item's page again with the error above its form and what was typed kept (the
        proposal as it is now: a form sent again edits its current version)."""
        try:
            proposal = await run_in_threadpool(memory.proposal, raw)
        except EmbornalError as again:
            return refused(request, again, raw)
        item = item_of(proposal, number)
        if item is None or proposal.status != "open":
            return refused(request, err, raw, proposal_href(raw))
        text = err.message.rstrip(".") + "." + (f" {err.hint}" if err.hint else "")
        if isinstance(err, ProposalChanged):
            text = (
                "The proposal changed since you read it; the item as it is now is shown "
                "above, your text below: send it again to replace it."
            )
        body = item_edit_body(proposal, item, token_of(memory), form=form, error=text)
        status = 409 if isinstance(err, ProposalChanged) else 400
        title = f"Item {number} of {proposal.id}"
        return page(request, title, body, status=status, subject=memory.subject)

    async def conflicts_page(request: Request) -> Response:
        status = _status(request, ("open", "resolved", "all"))
        if status is None:
            return message(request, 400, "Bad request", "Unknown status.")
        try:
            memory = await run_in_threadpool(get_memory, request)
            rows = await run_in_threadpool(lambda: memory.conflicts(status=status, limit=200))
        except EmbornalError as err:
            return error_page(request, err, "/conflicts")
        return page(request, "Conflicts", conflicts_body(rows, status), subject=memory.subject)

    def load_conflict(
        memory: Memory, conflict_id: str
    ) -> tuple[ConflictRecord, list[FactDetail], bool]:
        record = memory.conflict(conflict_id)
        details = [memory.show(m.id) for m in record.members]
        return record, details, memory.may_decide_proposals()

    async def conflict_page(request: Request) -> Response:
        raw = str(request.path_params["conflict_id"])
        return await decision_page(
            request,
            raw,
            lambda memory: load_conflict(memory, raw),
            conflict_href,
            conflict_body,
            "Conflict",
        )

    async def resolve(request: Request) -> Response:
        raw = str(request.path_params["conflict_id"])
        if not ID.fullmatch(raw):
            return not_found(request, raw)
        got = await posted(request, conflict_href(raw))
        if isinstance(got, Response):
            return got
        memory, fields = got
        choice = first(fields, "choice")
        reason = first(fields, "reason")
        verb, _, named = choice.partition(":")
        keep = named if verb == "keep" and named else None
        merge = named if verb == "merge" and named else None
        try:
            if choice != "both" and not (keep or merge):
                raise InvalidInput("choose the fact to keep, the one to merge into, or both")
            if not reason:
                raise InvalidInput(
                    "a resolution needs a reason", hint="Say why: it is kept in the log."
                )
            done = await run_in_threadpool(
                lambda: memory.resolve_conflict(
                    raw, keep=keep, merge=merge, both=choice == "both", reason=reason
                )
            )
        except InvalidInput as err:
            return await resolve_refused(request, memory, raw, err, choice, reason)
        except EmbornalError as err:
            return refused(request, err, raw)
        return redirect(f"{conflict_href(done.id)}?done=resolved")

    async def resolve_refused(
        request: Request, memory: Memory, raw: str, err: InvalidInput, choice: str, reason: str
    ) -> Response:
        """The conflict's page again, 400, with the error above its form."""
        try:
            record, details, may = await run_in_threadpool(load_conflict, memory, raw)
        except EmbornalError as again:
            return refused(request, again, raw)
        text = err.message.rstrip(".") + "." + (f" {err.hint}" if err.hint else "")
        body = conflict_body(
            record,
            details,
            token_of(memory),
            may_decide=may,
            error=text,
            chosen=choice or None,
            reason=reason,
        )
        return page(request, f"Conflict {record.id}", body, status=400, subject=memory.subject)

    async def due_page(request: Request) -> Response:
        try:
            memory = await run_in_threadpool(get_memory, request)
            rows, may = await run_in_threadpool(
                lambda: (memory.due(limit=_DUE_SHOWN), memory.may_decide_proposals())
            )
        except EmbornalError as err:
            return error_page(request, err, "/due")
        confirmed = request.query_params.get("confirmed", "")
        notice = (
            f"Confirmed {confirmed}: it is fresh again."
            if _FULL_FACT_ID.fullmatch(confirmed)
            else None
        )
        body = due_body(rows, token_of(memory), may_decide=may, notice=notice)
        return page(request, "Due for review", body, subject=memory.subject)

    async def confirm(request: Request) -> Response:
        raw = str(request.path_params["fact_id"])
        if not ID.fullmatch(raw):
            return not_found(request, raw)
        got = await posted(request, "/due")
        if isinstance(got, Response):
            return got
        memory, fields = got
        reason = first(fields, "reason") or None
        try:
            fact = await run_in_threadpool(lambda: memory.confirm(raw, reason=reason))
        except EmbornalError as err:
            return refused(request, err, raw)
        if first(fields, "back") == "fact":  # the fact page's own form (decision 0158)
            return redirect(fact_href(fact.id) + "?done=confirmed")
        return redirect("/due?confirmed=" + fact.id)

    return [
        Route("/review", review_page, methods=["GET"], name="wiki_review"),
        Route("/proposals", proposals_page, methods=["GET"], name="wiki_proposals"),
        Route("/proposal/{proposal_id}", proposal_page, methods=["GET"], name="wiki_proposal"),
        Route(
            "/proposal/{proposal_id}/item/{n}",
            item_page,
            methods=["GET"],
            name="wiki_proposal_item",
        ),
        Route(
            "/proposal/{proposal_id}/edit",
            edit_proposal,
            methods=["POST"],
            name="wiki_proposal_edit",
        ),
        Route(
            "/proposal/{proposal_id}/{verb}",
            decide_proposal,
            methods=["POST"],
            name="wiki_proposal_decide",
        ),
        Route("/conflicts", conflicts_page, methods=["GET"], name="wiki_conflicts"),
        Route("/conflict/{conflict_id}", conflict_page, methods=["GET"], name="wiki_conflict"),
        Route(
            "/conflict/{conflict_id}/resolve",
            resolve,
            methods=["POST"],
            name="wiki_conflict_resolve",
        ),
        Route("/due", due_page, methods=["GET"], name="wiki_due"),
        Route("/fact/{fact_id}/confirm", confirm, methods=["POST"], name="wiki_confirm"),
    ]
