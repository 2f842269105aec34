"""MCP over stdio that answers every request it read, even when stdin closes first.

The SDK's serving loop ends at the end of its read stream and cancels the handlers
still running: a client that pipes its requests and closes stdin (``printf … |
embornal mcp``) got back only the replies that were already written, although the
tools had run (the facts were stored, their answers lost).

``serve_stdio`` puts a relay between the SDK's stdin reader and the serving loop.
It notes the id of every request it passes on and strikes it off when the answer
(a result or an error) goes out, or when the client cancels it. At the end of stdin
it waits until nothing is outstanding, at most ``drain_seconds``, and only then
ends the loop's read stream; the SDK then closes stdout after the last answer.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

__all__ = ["DRAIN_SECONDS", "serve_stdio"]

DRAIN_SECONDS = 120.0
"""How long, after stdin closed, the server waits for the answers still due."""

log = logging.getLogger("embornal.mcp")

RequestId = str | int


class _Outstanding:
    """The ids of the requests read and not yet answered."""

    def __init__(self) -> None:
        self.ids: set[RequestId] = set()
        self._empty = anyio.Event()
        self._empty.set()

    def add(self, request_id: RequestId) -> None:
        self.ids.add(request_id)
        if self._empty.is_set():
            self._empty = anyio.Event()

    def done(self, request_id: RequestId) -> None:
        self.ids.discard(request_id)
        if not self.ids:
            self._empty.set()

    async def wait_empty(self) -> None:
        await self._empty.wait()


class _AnsweringWriter:
    """The write stream the serving loop gets: strikes off each answer it writes."""

    def __init__(self, inner: WriteStream[SessionMessage], outstanding: _Outstanding) -> None:
        self._inner = inner
        self._outstanding = outstanding

    async def send(self, item: SessionMessage, /) -> None:
        await self._inner.send(item)
        message = item.message
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self._outstanding.done(message.id)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _AnsweringWriter:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def _cancelled_id(message: JSONRPCNotification) -> RequestId | None:
    """The request a ``notifications/cancelled`` gives up (it gets no answer)."""
    if message.method != "notifications/cancelled" or not isinstance(message.params, dict):
        return None
    request_id: Any = message.params.get("requestId")
    return request_id if isinstance(request_id, str | int) else None


async def _relay(
    source: ReadStream[SessionMessage | Exception],
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    outstanding: _Outstanding,
    drain_seconds: float,
) -> None:
    async with sink:
        async for item in source:
            if isinstance(item, SessionMessage):
                message = item.message
                if isinstance(message, JSONRPCRequest):
                    outstanding.add(message.id)
                elif isinstance(message, JSONRPCNotification):
                    cancelled = _cancelled_id(message)
                    if cancelled is not None:
                        outstanding.done(cancelled)
            await sink.send(item)
        with anyio.move_on_after(drain_seconds) as waited:
            await outstanding.wait_empty()
        if waited.cancelled_caught:
            log.warning(
                "stdin closed; %d request(s) still unanswered after %.0f s: giving up",
                len(outstanding.ids),
                drain_seconds,
            )


async def serve_stdio(server: Server[Any], *, drain_seconds: float = DRAIN_SECONDS) -> None:
    """Serve ``server`` (the SDK's low-level server) over stdin/stdout until stdin ends
    and every request read has been answered."""
    async with stdio_server() as (stdin, stdout):
        outstanding = _Outstanding()
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(_relay, stdin, send, outstanding, drain_seconds)
            await server.run(
                receive,
                _AnsweringWriter(stdout, outstanding),
                server.create_initialization_options(),
            )
            tg.cancel_scope.cancel()  # the loop ended on its own (an error): stop the relay
