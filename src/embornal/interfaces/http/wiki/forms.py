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
from urllib.parse import parse_qs

from starlette.requests import Request

from embornal.interfaces.http.wiki.common import e

__all__ = ["FORM_TOKEN", "MAX_REVIEW_FORM_BYTES", "FormTokens", "read_fields"]

FORM_TOKEN = "form_token"
# A proposal's form holds one checkbox per item (at most 10,000 items).
MAX_REVIEW_FORM_BYTES = 262_144


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
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_REVIEW_FORM_BYTES:
            return None
        chunks.append(chunk)
    text = b"".join(chunks).decode("utf-8", errors="replace")
    return parse_qs(text, keep_blank_values=True)
