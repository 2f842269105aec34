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
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict, Unpack, cast
from urllib.parse import quote, urlencode

from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import Event
from embornal.domain.facts.fact import check_content, check_reason
from embornal.domain.facts.tags import parse_tags
from embornal.domain.ids import normalize_prefix
from embornal.domain.paths import normalize_path
from embornal.errors import ConfigError, EmbornalError, InvalidInput, StorageError, Unauthenticated
from embornal.interfaces.catalog import Input, Operation, by_name
from embornal.interfaces.catalog_types import check_inputs, replace
from embornal.interfaces.cli import remote_derive
from embornal.interfaces.cli.envvars import SERVER_URL_ENV, TOKEN_ENV
from embornal.interfaces.cli.remote_config import (
    API_PREFIX,
    LocalOnly,
    base_url,
    local_only,
    read_token,
)
from embornal.interfaces.cli.remote_transport import (
    BY_CODE,
    BY_STATUS,
    Transport,
    problem_of,
    urllib_transport,
)
from embornal.interfaces.wire import WIRE_TYPES, from_wire, to_wire

if TYPE_CHECKING:
    from typing import Self

    from embornal.interfaces.cli.remote_chronicle import RemoteChronicle
    from embornal.service.memory import Memory

__all__ = [
    "API_PREFIX",
    "LOCAL_ONLY",
    "TIMEOUT_SECONDS",
    "ClientOptions",
    "LocalOnly",
    "RemoteMemory",
    "Transport",
    "base_url",
    "local_only",
    "read_token",
    "urllib_transport",
]

TIMEOUT_SECONDS = 10.0
URL_HINT = f"server.url in config.yaml, or {SERVER_URL_ENV}"

#: The hand-written handlers that work on the memory's own files, and so refuse in client
#: mode (a catalogue command refuses when its operation is ``local_only``).
LOCAL_ONLY = frozenset(
    f"{module}:{name}"
    for module, names in (
        ("admin_cmds", "migrate rebuild verify mcp"),
        ("model_cmds", "pull ls rm"),
        ("portability.commands", "restore"),
        ("serve_cmds", "serve wiki"),
    )
    for name in names.split()
)


# --------------------------------------------------------------------------- the client

_RESULTS: dict[str, type] = {t.__name__: t for t in WIRE_TYPES}


def _flag(item: Input, value: Any) -> str:
    """The command-line words that asked for ``value`` (for a refusal)."""
    if item.type == "bool" and item.default is True:
        return f"--no-{item.name.replace('_', '-')}"
    if item.type == "choice":
        return f"--{item.name.replace('_', '-')} {value}"
    if item.flag is not None:
        return item.flag
    return "--tag" if item.type == "tags" else f"--{item.name.replace('_', '-')}"


class ClientOptions(TypedDict, total=False):
    """How the client talks to the server: the recall limit it asks for when none is given,
    the seconds it waits for an answer, and the transport (tests pass a fake one)."""

    default_limit: int
    timeout: float
    transport: Transport | None


class _Client:
    """The client's one call path (``_op``) and what the catalogue cannot say by itself."""

    def __init__(self, url: str, token: str, **options: Unpack[ClientOptions]) -> None:
        self.url = base_url(url)
        self.default_limit = options.get("default_limit", 10)
        self.timeout = options.get("timeout", TIMEOUT_SECONDS)
        self._token = token
        self._transport = options.get("transport") or urllib_transport()
        self._document: dict[str, Any] | None = None

    @classmethod
    def connect(cls, url: str, token: str, **options: Unpack[ClientOptions]) -> Self:
        """The client of the server at ``url`` with ``token`` (type checkers see the derived
        methods through it: the class itself names them only as ``Memory``'s)."""
        return cls(url, token, **options)

    # -- life cycle -----------------------------------------------------------------------

    def close(self) -> None:
        """Nothing to release: each request opens and closes its own connection."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transport ----------------------------------------------------------------------

    def _send(
        self,
        method: str,
        where: str,
        *,
        query: Sequence[tuple[str, str]] = (),
        body: Mapping[str, Any] | None = None,
        auth: bool = True,
    ) -> Any:
        """One request to ``url + where``; the decoded JSON answer, or the mapped error."""
        target = self.url + where
        if query:
            target += "?" + urlencode(list(query))
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if auth:
            headers["Authorization"] = f"Bearer {self._token}"
        try:
            status, reason, answer_headers, raw = self._transport(
                method, target, headers, data, self.timeout
            )
        except (OSError, http.client.HTTPException) as e:  # URLError is an OSError
            raise self._unreachable(e) from e
        if status >= 300:
            raise self._error(status, reason, answer_headers, raw, method, where)
        try:
            return json.loads(raw)
        except ValueError as e:
            raise self._odd_answer() from e

    def health(self) -> dict[str, Any]:
        """What ``GET /api/v1/health`` answers (no token needed): status and version."""
        data = self._send("GET", API_PREFIX + "/health", auth=False)
        return data if isinstance(data, dict) else {}

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

    def _error(
        self,
        status: int,
        reason: str,
        headers: Mapping[str, str],
        raw: bytes,
        method: str,
        where: str,
    ) -> EmbornalError:
        """The error an HTTP error answer stands for, by ``code``, else by status."""
        if 300 <= status < 400:
            location = next((v for k, v in headers.items() if k.lower() == "location"), "?")
            return ConfigError(
                f"the server at {self.url} redirects to {location}",
                hint="Set server.url to the address it redirects to.",
            )
        problem = problem_of(raw)
        if problem is None:
            cls = BY_STATUS.get(status, StorageError if status >= 500 else InvalidInput)
            return cls(
                f"the server at {self.url} answered {status} {reason}",
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
        found = BY_CODE.get(code) or BY_STATUS.get(status)
        cls = found or (StorageError if status >= 500 else InvalidInput)
        if issubclass(cls, Unauthenticated):
            hint = (
                f"Check the token: {TOKEN_ENV}, server.token or server.token_file "
                "(`embornal token add SUBJECT` where the memory is issues one)."
            )
        err = cls(detail, hint=hint)
        err.code = code  # the server's name for it, as `--json` shows it
        return err

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

    # -- the one call path --------------------------------------------------------------

    def _value(self, op: Operation, item: Input, value: Any) -> Any:
        """One input checked as the service would, in its wire form (None: not sent)."""
        kind = item.type
        if kind == "reason":
            return check_reason(value, required=item.required)
        if value is None:
            return None
        if kind == "path":
            return normalize_path(value)
        if kind == "text":
            return check_content(value) if item.required else value
        if kind == "tags":
            return [str(t) for t in parse_tags(value)]
        if kind == "time":
            return format_time(parse_time(value))
        if kind == "as_of":  # checked here; the server reads it against its own clock
            from embornal.domain.as_of import parse_as_of
            from embornal.domain.clock import SystemClock

            parse_as_of(value, SystemClock().now())
            return format_time(value) if isinstance(value, datetime) else str(value).strip()
        if kind == "target" and str(value).startswith("/"):
            raise local_only(
                f"{op.cli} of a path",
                hint=f"The server at {self.url} gives the history of a fact: pass its id, "
                "or pass --db PATH to use a local memory.",
            )
        if kind in ("id", "target"):
            return normalize_prefix(value)
        if kind == "kind":
            return str(value).strip().lower()
        if kind == "attributes":
            return to_wire(dict(value))
        if kind == "evidence":
            from embornal.domain.spine.justification import parse_evidence

            ref = parse_evidence(value)  # checked here, as the service would
            if ref.note is None:
                return f"{ref.type.value}:{ref.value}"
            return ref.to_payload()
        if kind == "evidence_list":
            if isinstance(value, str | bytes):
                raise InvalidInput("evidence is a list of TYPE:VALUE texts")
            return [self._value(op, replace(item, type="evidence"), v) for v in value] or None
        if kind == "confidence":
            from embornal.domain.spine.confidence import check_confidence

            return check_confidence(value)
        if kind == "visibility":
            from embornal.domain.spine.justification import as_visibility

            return str(as_visibility(value))
        if kind == "source":
            from embornal.domain.spine.justification import check_source_label

            return check_source_label(value)
        if kind == "weight":
            from embornal.domain.spine.justification import check_weight

            return check_weight(value)  # 0..1, checked here as the service would
        if kind == "lifetime":
            return str(value).strip()  # the server checks it against its clock
        if kind == "where":
            pairs = value.items() if isinstance(value, Mapping) else None
            items = [f"{k}={v}" for k, v in pairs] if pairs is not None else list(value)
            return [str(w) for w in items] or None
        return value

    def _op(self, name: str, /, **given: Any) -> Any:
        """Call the catalogue operation ``name`` on the server with the ``Memory`` arguments
        ``given``, and read its answer back into service results."""
        op = by_name(name)
        http = op.http
        what = op.cli or name
        if op.local_only or http is None:
            raise local_only(what)
        route = http.path
        if http.probe:
            self._require(http.method, route, None, what)
        if "limit" in given and given["limit"] is None and name == "recall":
            given["limit"] = self.default_limit  # the client's config, not the server's
        check_inputs(op.inputs, given)  # as given: a value read below may come out shorter
        where, query, body = route, list[tuple[str, str]](), dict[str, Any]()
        for item in op.inputs:
            if not item.rest or item.name not in given:
                continue
            value = self._value(op, item, given[item.name])
            if value is None and item.type == "weight":
                pass  # sent as null: it takes the weight off
            elif value is None or (not item.required and value == item.default):
                continue
            if item.probe:
                self._require(http.method, route, item.wire_name, f"{what} {_flag(item, value)}")
            place = http.where(item)
            if place == "path":
                where = where.replace("{" + item.wire_name + "}", quote(str(value), safe=""))
            elif place == "query" and isinstance(value, list):
                query.extend((item.wire_name, str(v)) for v in value)  # repeatable
            elif place == "query":
                text = ("true" if value else "false") if isinstance(value, bool) else str(value)
                query.append((item.wire_name, text))
            else:
                body[item.wire_name] = value
        data = self._send(
            http.method,
            API_PREFIX + where,
            query=query,
            body=body if http.method == "POST" else None,
        )
        try:
            return self._read(op.output, http.items, data)
        except (KeyError, TypeError, ValueError, AttributeError, EmbornalError) as e:
            raise self._odd_answer() from e

    @staticmethod
    def _read(output: str, items: str | None, data: Any) -> Any:
        if output == "list[dict]" and items is not None:  # plain JSON data (kinds)
            return [dict(d) for d in data[items]]
        if output.startswith("list[") and items is not None:
            kind = _RESULTS[output[5:-1]]
            return [from_wire(kind, d) for d in data[items]]
        return from_wire(_RESULTS[output], data)

    # -- the API: Memory's, each method one catalogue operation, derived below; here only
    # what the catalogue cannot say by itself ------------------------------------------

    @property
    def chronicle(self) -> RemoteChronicle:
        """The history protocol's further operations, over the same client."""
        from embornal.interfaces.cli.remote_chronicle import RemoteChronicle

        return RemoteChronicle.over(self._op)

    def undo(self, event_id: int | str, *, reason: str) -> list[Event]:
        from embornal.domain.undo import check_event_id  # checked here, as the service would

        return cast(list[Event], self._op("undo", event_id=check_event_id(event_id), reason=reason))


_DOC = """The memory behind ``embornal serve`` at ``url``, as the subject of ``token`` sees it.

Each public method of :class:`embornal.Memory` (``MemoryAPI``) is one call of the catalogue
operation that ``call``s it (:mod:`embornal.interfaces.catalog`), derived on first use with
the signature ``Memory`` gives it (:mod:`.remote_derive`, decisions 0174 and 0176): its HTTP
method and path, its inputs checked and placed in the path, the query or the body, the
answer read back with :func:`~embornal.interfaces.wire.from_wire`. A method with no routed
operation raises :class:`LocalOnly`.
"""

if TYPE_CHECKING:  # the methods are Memory's, as derived below

    class RemoteMemory(_Client, Memory):
        __doc__ = _DOC

else:

    class RemoteMemory(_Client, remote_derive.Lazy):
        __doc__ = _DOC
        API = "embornal.service.memory:Memory"
