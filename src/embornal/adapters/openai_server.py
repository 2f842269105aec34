"""What the two clients of an OpenAI-compatible server share: the embedder
(:mod:`embornal.adapters.embeddings.openai_compat`, the settings ``embedding.*``) and the
extractor of ``ingest --extractor llm`` (:mod:`embornal.adapters.llm_extract`,
``ingest.*``).

Each describes its server once (:class:`Server`: its name in messages, its settings'
section, the error class it raises); the endpoint of a base URL, the API key read from the
environment variable the settings name, and one JSON request, whose failures say which
server and setting to check, are written here once. HTTP is the standard library's.
"""

from __future__ import annotations

import http.client
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping

from embornal.domain.records import record
from embornal.errors import EmbornalError

__all__ = ["Server"]


@record
class Server:
    """An OpenAI-compatible server as one client names it: ``name`` in its messages ("the
    embedding server"), ``setting`` the section of its settings ("embedding"), ``error``
    the class of the errors it raises."""

    name: str
    setting: str
    error: type[EmbornalError]

    def endpoint(self, base_url: str, path: str, hint: str) -> str:
        """The endpoint ``path`` (``/embeddings``) of the server at ``base_url``
        (``SETTING.base_url``): ``http://h:11434`` and ``http://h:11434/v1`` both give
        ``http://h:11434/v1`` and ``path``; a URL that ends in ``path`` is kept. An error
        (with ``hint``) when it is no http(s) URL."""
        url = base_url.strip().rstrip("/")
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise self.error(
                f"{self.setting}.base_url is not an http(s) URL: {base_url!r}", hint=hint
            )
        if parsed.path.endswith(path):
            return url
        last = parsed.path.rsplit("/", 1)[-1]
        if len(last) >= 2 and last[0] == "v" and last[1:].isdigit():
            return url + path
        return url + "/v1" + path

    def api_key(self, env: str, hint: str) -> str:
        """The API key in the environment variable ``env`` (``SETTING.api_key_env`` names
        it); an error (with ``hint``) when it is not set."""
        key = os.environ.get(env)
        if not key:
            raise self.error(
                f"the environment variable {env} ({self.setting}.api_key_env) is not set",
                hint=hint,
            )
        return key

    def post_json(
        self,
        url: str,
        body: object,
        headers: Mapping[str, str],
        timeout: float,
        refused: Callable[[urllib.error.HTTPError], tuple[str, str]],
        limit: int | None = None,
    ) -> bytes:
        """The server's answer at ``url`` to ``body`` POSTed as JSON (at most ``limit``
        bytes of it). An error when it answers an HTTP error (``refused(e)``: what
        follows the status in the message, and the hint) or cannot be reached."""
        request = urllib.request.Request(
            url, data=json.dumps(body).encode("utf-8"), headers=dict(headers), method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw: bytes = response.read() if limit is None else response.read(limit)
        except urllib.error.HTTPError as e:
            detail, hint = refused(e)
            e.close()
            raise self.error(f"{self.name} {url} answered HTTP {e.code}{detail}", hint=hint) from e
        except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
            reason = getattr(e, "reason", None) or e
            raise self.error(
                f"cannot reach {self.name} {url}: {reason}",
                hint=f"Check that the server runs and {self.setting}.base_url points at it.",
            ) from e
        return raw
