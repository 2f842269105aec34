"""Client mode: the memory commands over the REST API of a running ``embornal serve``.

When ``server.url`` is set in config.yaml (or ``EMBORNAL_SERVER_URL`` in the
environment) and no ``--db`` is given, the memory commands talk to that server
instead of opening ``memory.db``. :class:`RemoteMemory` offers the part of the
``Memory`` API the command line uses, over HTTP with the standard library, and
returns the same dataclasses, so the renderers print the same text and JSON.

The server acts as the subject of the token (``--as-subject`` has no say), and
errors come back as problem+json, mapped to the :class:`EmbornalError` of the same
``code``: the exit codes are the local ones. This module is imported only in
client mode.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlencode, urlsplit

from embornal import errors
from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import Event
from embornal.domain.facts import Fact, check_content, check_reason
from embornal.domain.ids import normalize_prefix
from embornal.domain.paths import normalize_path
from embornal.domain.tags import parse_tags
from embornal.errors import ConfigError, EmbornalError, InvalidInput, StorageError, Unauthenticated
from embornal.interfaces.cli.app import SERVER_URL_ENV, TOKEN_ENV
from embornal.interfaces.wire import from_wire
from embornal.service.results import FactDetail, FactView, PathEntry, RecallHit, TreeNode

if TYPE_CHECKING:
    from embornal.adapters.config import ServerConfig

__all__ = [
    "API_PREFIX",
    "LOCAL_ONLY",
    "TIMEOUT_SECONDS",
    "LocalOnly",
    "RemoteMemory",
    "base_url",
    "local_only",
    "read_token",
]

API_PREFIX = "/api/v1"
TIMEOUT_SECONDS = 10.0
CLIENT_MODE = "client mode: server.url is set"
URL_HINT = f"server.url in config.yaml, or {SERVER_URL_ENV}"

#: The handlers that work on the memory's own files, and so refuse in client mode.
LOCAL_ONLY = frozenset(
    f"{module}:{name}"
    for module, names in (
        ("admin_cmds", "migrate rebuild verify mcp"),
        ("memory_cmds", "purge reindex tag untag"),
        ("model_cmds", "pull ls rm"),
        ("serve_cmds", "serve wiki"),
        ("sharing_cmds", "token_add token_ls token_revoke"),
        ("sharing_cmds", "policy_add policy_rm policy_ls policy_check"),
    )
    for name in names.split()
)

_T = TypeVar("_T")


class LocalOnly(InvalidInput):
    """A command (or an option) that client mode cannot carry out; exit 2."""

    code = "local_only"
    default_hint = "Run it on the machine that holds the memory, or pass --db PATH."


def local_only(what: str, hint: str | None = None) -> LocalOnly:
    return LocalOnly(f"{what} runs on the machine that holds the memory ({CLIENT_MODE})", hint=hint)


# --------------------------------------------------------------------------- configuration


def base_url(raw: str) -> str:
    """``server.url`` as the base of every route: no trailing ``/`` nor ``/api/v1``."""
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ConfigError(
            f"server.url must be an http:// or https:// address, not {raw!r}",
            hint="Give the address `embornal serve` printed, e.g. http://127.0.0.1:1338.",
        )
    path = parts.path.rstrip("/").removesuffix(API_PREFIX).rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{path}"


def _checked(token: str, where: str) -> str:
    token = token.strip()
    if not token:
        raise ConfigError(f"{where} is empty", hint="Put the token of `embornal token add` there.")
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        raise ConfigError(
            f"{where} holds a space, a line break or a control character inside the token",
            hint="Keep the token alone on one line.",
        )
    return token


def read_token(server: ServerConfig, config_dir: Path, env: Mapping[str, str]) -> str:
    """The bearer token: ``EMBORNAL_TOKEN``, else ``server.token``, else ``server.token_file``.

    A relative ``token_file`` is read from the config dir.
    """
    if env.get(TOKEN_ENV, "").strip():
        return _checked(env[TOKEN_ENV], TOKEN_ENV)
    if server.token is not None and server.token_file is not None:
        raise ConfigError(
            "server.token and server.token_file are both set",
            hint="Keep one of them (token_file keeps the token out of config.yaml).",
        )
    if server.token is not None:
        return _checked(server.token, "server.token")
    if server.token_file is not None:
        path = Path(server.token_file).expanduser()
        path = path if path.is_absolute() else config_dir / path
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise ConfigError(
                f"cannot read server.token_file {path}: {reason}",
                hint="Make it a readable UTF-8 file that holds the token.",
            ) from e
        return _checked(text, f"server.token_file {path}")
    raise ConfigError(
        f"client mode needs a token: server.url is set but no server.token_file, "
        f"server.token or {TOKEN_ENV}",
        hint="Run `embornal token add SUBJECT` where the memory is, save the token in a "
        "file and set server.token_file to it.",
    )


# --------------------------------------------------------------------------- errors

_BY_CODE: dict[str, type[EmbornalError]] = {
    cls.code: cls
    for cls in (getattr(errors, name) for name in errors.__all__)
    if isinstance(cls, type) and issubclass(cls, EmbornalError)
}
_BY_CODE.update(
    validation_error=errors.InvalidInput,
    invalid_json=errors.InvalidInput,
    body_too_large=errors.InvalidContent,
    cross_origin=errors.AccessDenied,
    host_not_allowed=errors.ConfigError,
)
_BY_STATUS: dict[int, type[EmbornalError]] = {
    400: errors.InvalidInput,
    401: errors.Unauthenticated,
    403: errors.AccessDenied,
    404: errors.NotFound,
    409: errors.Conflict,
    413: errors.InvalidContent,
    422: errors.InvalidInput,
}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Follow no redirect: the token goes to ``server.url`` and nowhere else."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _problem(raw: bytes) -> dict[str, Any] | None:
    """The problem+json body of an error answer, or None when it is not one."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if isinstance(data, dict) and isinstance(data.get("code"), str):
        return data
    return None


# --------------------------------------------------------------------------- parsing


def _fact(d: Any) -> Fact:
    return from_wire(Fact, d)


def _hit(d: Any) -> RecallHit:
    return from_wire(RecallHit, d)


def _entries(d: Mapping[str, Any]) -> list[PathEntry]:
    return [from_wire(PathEntry, e) for e in d["entries"]]


def _node(d: Any) -> TreeNode:
    return from_wire(TreeNode, d)


def _event(d: Any) -> Event:
    return from_wire(Event, d)


def _detail(d: Any) -> FactDetail:
    return from_wire(FactDetail, d)


def _view(d: Any) -> FactView:
    return from_wire(FactView, d)


# --------------------------------------------------------------------------- the client


class RemoteMemory:
    """The memory behind ``embornal serve`` at ``url``, as the subject of ``token`` sees it."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        default_limit: int = 10,
        timeout: float = TIMEOUT_SECONDS,
    ) -> None:
        self.url = base_url(url)
        self.default_limit = default_limit
        self.timeout = timeout
        self._token = token
        self._opener = urllib.request.build_opener(_NoRedirect)
        self._document: dict[str, Any] | None = None

    # -- life cycle -----------------------------------------------------------------------

    def close(self) -> None:
        """Nothing to release: each request opens and closes its own connection."""

    def __enter__(self) -> RemoteMemory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- transport ----------------------------------------------------------------------

    def _send(
        self,
        method: str,
        where: str,
        *,
        query: Mapping[str, str | None] | None = None,
        body: Mapping[str, Any] | None = None,
        auth: bool = True,
    ) -> Any:
        """One request to ``url + where``; the decoded JSON answer, or the mapped error."""
        target = self.url + where
        params = [(k, v) for k, v in (query or {}).items() if v is not None]
        if params:
            target += "?" + urlencode(params)
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(target, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth:
            request.add_unredirected_header("Authorization", f"Bearer {self._token}")
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                raw: bytes = response.read()
        except urllib.error.HTTPError as e:
            raise self._error(e, method, where) from e
        except (OSError, http.client.HTTPException) as e:  # URLError is an OSError
            raise self._unreachable(e) from e
        try:
            return json.loads(raw)
        except ValueError as e:
            raise self._odd_answer() from e

    def _unreachable(self, e: BaseException) -> StorageError:
        reason = getattr(e, "reason", e)
        if isinstance(reason, TimeoutError):
            why = f"no answer within {self.timeout:g} s"
        elif isinstance(reason, OSError) and reason.strerror:
            why = reason.strerror
        else:
            why = str(reason) or type(reason).__name__
        return StorageError(
            f"cannot reach the server at {self.url}: {why}",
            hint=f"Check {URL_HINT}, and that `embornal serve` runs there; "
            "or pass --db PATH to use a local memory.",
        )

    def _odd_answer(self) -> StorageError:
        return StorageError(
            f"the server at {self.url} answered with something this client cannot read",
            hint=f"Check {URL_HINT}: it must be an `embornal serve` of the same version.",
        )

    def _error(self, e: urllib.error.HTTPError, method: str, where: str) -> EmbornalError:
        """The error an HTTP error answer stands for, by ``code``, else by status."""
        status = e.code
        if 300 <= status < 400:
            return ConfigError(
                f"the server at {self.url} redirects to {e.headers.get('Location', '?')}",
                hint="Set server.url to the address it redirects to.",
            )
        try:
            problem = _problem(e.read())
        except (OSError, http.client.HTTPException):
            problem = None
        if problem is None:
            cls = _BY_STATUS.get(status, StorageError if status >= 500 else InvalidInput)
            return cls(
                f"the server at {self.url} answered {status} {e.reason}",
                hint=f"Check {URL_HINT}: it must be the address of `embornal serve`.",
            )
        code = str(problem["code"])
        detail = str(problem.get("detail") or problem.get("title") or code)
        hint = str(problem.get("hint") or "") or None
        issues = problem.get("errors")
        if isinstance(issues, list) and issues:
            detail += " (" + "; ".join(f"{i.get('location')}: {i.get('message')}" for i in issues)
            detail += ")"
        if status == 405 or (code == "not_found" and detail.startswith("no route")):
            return ConfigError(
                f"the server at {self.url} has no route {method} {where}",
                hint=f"Check {URL_HINT}; the server may run an older embornal.",
            )
        found = _BY_CODE.get(code) or _BY_STATUS.get(status)
        cls = found or (StorageError if status >= 500 else InvalidInput)
        if issubclass(cls, Unauthenticated):
            hint = (
                f"Check the token: {TOKEN_ENV}, server.token or server.token_file "
                "(`embornal token add SUBJECT` where the memory is issues one)."
            )
        err = cls(detail, hint=hint)
        err.code = code  # the server's name for it, as `--json` shows it
        return err

    def _call(
        self,
        parse: Callable[[Any], _T],
        method: str,
        route: str,
        *,
        query: Mapping[str, str | None] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> _T:
        """Send to ``/api/v1 + route`` and parse the answer back into service results."""
        data = self._send(method, API_PREFIX + route, query=query, body=body)
        try:
            return parse(data)
        except (KeyError, TypeError, ValueError, AttributeError, EmbornalError) as e:
            raise self._odd_answer() from e

    def _offers(self, method: str, route: str, field: str | None = None) -> bool:
        """Does the server's OpenAPI document list this route (and this parameter or field)?"""
        if self._document is None:
            found = self._send("GET", "/openapi.json", auth=False)
            self._document = found if isinstance(found, dict) else {}
        doc = self._document
        try:
            op = doc.get("paths", {}).get(API_PREFIX + route, {}).get(method.lower())
            if not isinstance(op, dict):
                return False
            if field is None:
                return True
            params = op.get("parameters", ())
            if any(isinstance(p, dict) and p.get("name") == field for p in params):
                return True
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            model = str(content.get("schema", {}).get("$ref", "")).rpartition("/")[2]
            schema = doc.get("components", {}).get("schemas", {}).get(model, {})
            return field in schema.get("properties", {})
        except (AttributeError, TypeError):  # a document of another shape: offers nothing
            return False

    def _require(self, method: str, route: str, field: str | None, what: str) -> None:
        if not self._offers(method, route, field):
            raise local_only(
                what,
                hint=f"The server at {self.url} does not offer it over HTTP; run it there, "
                "or pass --db PATH to use a local memory.",
            )

    @staticmethod
    def _id(fact_id: str) -> str:
        return quote(normalize_prefix(fact_id), safe="")

    # -- the API ------------------------------------------------------------------------

    def store(
        self,
        path: str,
        content: str,
        *,
        tags: Sequence[str] | None = None,
        at: str | None = None,
        reason: str | None = None,
    ) -> Fact:
        body: dict[str, Any] = {"path": normalize_path(path), "content": check_content(content)}
        if tags is not None:
            body["tags"] = [str(t) for t in parse_tags(tags)]
        if at is not None:
            body["at"] = format_time(parse_time(at))
        why = check_reason(reason, required=False)
        if why is not None:
            self._require("POST", "/facts", "reason", "memory store --reason")
            body["reason"] = why
        return self._call(_fact, "POST", "/facts", body=body)

    def supersede(
        self,
        fact_id: str,
        content: str,
        *,
        tags: Sequence[str] | None = None,
        reason: str | None = None,
    ) -> Fact:
        route = "/facts/{id}/supersede"
        self._require("POST", route, None, "memory supersede")
        body: dict[str, Any] = {"content": check_content(content)}
        if tags is not None:
            self._require("POST", route, "tags", "memory supersede --tag")
            body["tags"] = [str(t) for t in parse_tags(tags)]
        why = check_reason(reason, required=False)
        if why is not None:
            self._require("POST", route, "reason", "memory supersede --reason")
            body["reason"] = why
        return self._call(_fact, "POST", f"/facts/{self._id(fact_id)}/supersede", body=body)

    def forget(self, fact_id: str, *, reason: str) -> Fact:
        body = {"reason": check_reason(reason)}
        return self._call(_fact, "POST", f"/facts/{self._id(fact_id)}/forget", body=body)

    def restore(self, fact_id: str, *, reason: str) -> Fact:
        body = {"reason": check_reason(reason)}
        return self._call(_fact, "POST", f"/facts/{self._id(fact_id)}/restore", body=body)

    def recall(
        self,
        query: str | None = None,
        *,
        limit: int | None = None,
        under: str | None = None,
        reinforce: bool = True,
        mode: str = "auto",
    ) -> list[RecallHit]:
        params: dict[str, str | None] = {
            "q": query,
            "limit": str(limit if limit is not None else self.default_limit),
            "under": normalize_path(under) if under is not None else None,
        }
        if mode != "auto":
            self._require("GET", "/recall", "mode", f"memory recall --mode {mode}")
            params["mode"] = mode
        if not reinforce:
            self._require("GET", "/recall", "reinforce", "memory recall --no-reinforce")
            params["reinforce"] = "false"
        return self._call(lambda d: [_hit(h) for h in d["hits"]], "GET", "/recall", query=params)

    def ls(self, path: str = "/") -> list[PathEntry]:
        return self._call(_entries, "GET", "/ls", query={"path": normalize_path(path)})

    def tree(self, path: str = "/", *, dirs_only: bool = False) -> TreeNode:
        query = {"path": normalize_path(path), "dirs_only": "true" if dirs_only else None}
        return self._call(_node, "GET", "/tree", query=query)

    def cat(
        self, path: str, *, limit: int | None = None, order_by: str = "date", recall: bool = False
    ) -> list[FactView]:
        query = {
            "path": normalize_path(path),
            "limit": None if limit is None else str(limit),
            "order_by": order_by,
            "recall": "true" if recall else None,
        }
        return self._call(
            lambda d: [_view(v) for v in d["facts"]],
            "GET",
            "/cat",
            query=query,
        )

    def show(self, fact_id: str) -> FactDetail:
        return self._call(_detail, "GET", f"/facts/{self._id(fact_id)}")

    def history(self, target: str) -> list[Event]:
        if target.startswith("/"):
            raise local_only(
                "memory history of a path",
                hint=f"The server at {self.url} gives the history of a fact: pass its id, "
                "or pass --db PATH to use a local memory.",
            )
        return self._call(
            lambda d: [_event(e) for e in d["events"]],
            "GET",
            f"/facts/{self._id(target)}/history",
        )
