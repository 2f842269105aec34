"""The review pages' forms: a form token against cross-site posts, and the form's fields.

Every form that changes the memory carries a hidden ``form_token``: an HMAC, under a
secret the wiki draws when its routes are made, of the subject, its actor kind and the
form's action. A page of another site cannot read it (the same-origin rule), so it
cannot forge a post even from a browser that sends neither ``Origin`` nor
``Sec-Fetch-Site``; those headers are checked first, as for the login form
(:func:`~embornal.interfaces.http.wiki.common.same_origin`). A restart draws a new
secret: a form left open across it is refused with "reload the page".
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from urllib.parse import parse_qs, quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from embornal.errors import (
    AccessDenied,
    AmbiguousId,
    Conflict,
    EmbornalError,
    InvalidInput,
    NotFound,
    ProposalChanged,
    Unauthenticated,
)
from embornal.interfaces.http.wiki.common import (
    e,
    error_page,
    message,
    not_found,
    read_body,
    redirect,
)
from embornal.interfaces.http.wiki.common import same_origin as _same_origin
from embornal.service.memory import Memory

__all__ = [
    "FORM_TOKEN",
    "MAX_REVIEW_FORM_BYTES",
    "NOT_A_PERSON",
    "FormTokens",
    "first",
    "posted",
    "read_fields",
    "refused",
]

FORM_TOKEN = "form_token"
# A proposal's form holds one checkbox per item (at most 10,000 items).
MAX_REVIEW_FORM_BYTES = 262_144
#: Why a subject that may not decide (an assistant's token) sees no form (decision 0148).
NOT_A_PERSON = (
    "On these pages a person decides, and the token is an assistant's. Log in "
    "with a person's token (<code>embornal token add SUBJECT --person</code>)."
)


class FormTokens:
    """Issues and checks the form tokens of one wiki (one secret per set of routes)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    def token(self, subject: str, actor_kind: str, action: str) -> str:
        message = "\0".join((subject, actor_kind, action)).encode("utf-8")
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def field(self, subject: str, actor_kind: str, action: str) -> str:
        """The hidden input that a form posting to ``action`` carries."""
        value = self.token(subject, actor_kind, action)
        return f'<input type="hidden" name="{FORM_TOKEN}" value="{e(value)}">'

    def check(self, subject: str, actor_kind: str, action: str, given: str | None) -> bool:
        if not given:
            return False
        return hmac.compare_digest(self.token(subject, actor_kind, action), given)


async def read_fields(request: Request) -> dict[str, list[str]] | None:
    """An urlencoded form body, every value of each field; ``None`` when too big."""
    text = await read_body(request, MAX_REVIEW_FORM_BYTES)
    return None if text is None else parse_qs(text, keep_blank_values=True)


def first(fields: dict[str, list[str]], name: str) -> str:
    """The first value of a field, stripped (``""`` when absent)."""
    return (fields.get(name) or [""])[0].strip()


async def posted(
    request: Request, back: str, get_memory: Callable[[Request], Memory], tokens: FormTokens
) -> tuple[Memory, dict[str, list[str]]] | Response:
    """The subject and the fields of a form that changes the memory, or the answer that
    refuses it: from another site (403), too big (413), no subject (``/login``), a form
    token not this wiki's for this subject and action (403), or a subject who may not
    decide on these pages, an assistant's token (403, decision 0148)."""
    if not _same_origin(request):
        return message(request, 403, "Forbidden", "The form must come from this site.")
    fields = await read_fields(request)
    if fields is None:
        return message(request, 413, "Too large", "The form is too large.")
    try:
        memory = await run_in_threadpool(get_memory, request)
    except Unauthenticated:
        return redirect("/login?next=" + quote(back, safe="/"))
    except EmbornalError as err:
        return error_page(request, err, back)
    given = first(fields, FORM_TOKEN)
    if not tokens.check(memory.subject, memory.actor_kind.value, request.url.path, given):
        return message(
            request,
            403,
            "Form expired",
            "This form did not come from this page, or the server restarted since. "
            f'<a href="{e(back)}">Reload the page</a> and send it again.',
        )
    if not await run_in_threadpool(memory.may_decide_proposals):
        return message(request, 403, "Not allowed", NOT_A_PERSON)
    return memory, fields


def refused(
    request: Request, err: EmbornalError, shown: str, shown_href: str | None = None
) -> Response:
    """A change the memory refused: said in one line with its hint (a proposal edited
    since its page was read: a link to read it again)."""
    hint = f" {e(err.hint)}" if err.hint else ""
    if isinstance(err, NotFound | AmbiguousId):
        return not_found(request, shown)
    if isinstance(err, AccessDenied):
        return message(request, 403, "Not allowed", e(err.message) + hint)
    if isinstance(err, ProposalChanged):
        again = f' <a href="{e(shown_href)}">Read it again</a>.' if shown_href else ""
        return message(request, 409, "Changed since you read it", e(err.message) + again)
    if isinstance(err, Conflict):
        return message(request, 409, "Already decided", e(err.message) + hint)
    if isinstance(err, InvalidInput):
        return message(request, 400, "Bad request", e(err.message) + hint)
    return error_page(request, err, shown)
