"""Helpers of the embedding tests: local HTTP servers on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from embornal.adapters.embeddings import FakeEmbedder


class LocalServer:
    """A threading HTTP server on 127.0.0.1 with a free port, stopped on exit."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], **state: Any) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        for key, value in state.items():
            setattr(self.httpd, key, value)
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> LocalServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


class QuietHandler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class HubHandler(QuietHandler):
    """``/{repo}/resolve/{rev}/{file}``, ``/api/models/{repo}/revision/{rev}``.

    Server state: ``files`` (path -> bytes), ``lfs`` (path -> announced sha256:
    answered with a redirect to ``/cdn/...`` carrying ``X-Linked-Etag``),
    ``drop_once`` (paths whose next answer stops halfway), ``ignore_range``,
    ``listing`` (repo -> file names) and ``requests`` (what came in).
    """

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        server: Any = self.server
        server.requests.append(
            {
                "path": self.path,
                "range": self.headers.get("Range"),
                "auth": self.headers.get("Authorization"),
            }
        )
        path = self.path
        if path.startswith("/api/models/"):
            repo = path[len("/api/models/") :].split("/revision/")[0]
            if repo not in server.listing:
                self._plain(404, b"not found")
                return
            body = json.dumps({"siblings": [{"rfilename": f} for f in server.listing[repo]]})
            self._plain(200, body.encode(), "application/json")
            return
        if path.startswith("/cdn/"):
            self._serve(path[len("/cdn") :])
            return
        if path in server.lfs:
            self.send_response(302)
            self.send_header("Location", "/cdn" + path)
            self.send_header("X-Linked-Etag", f'"{server.lfs[path]}"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self._serve(path)

    def _plain(self, status: int, body: bytes, kind: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _serve(self, path: str) -> None:
        server: Any = self.server
        data = server.files.get(path)
        if data is None:
            self._plain(404, b"Entry not found")
            return
        wanted = self.headers.get("Range")
        start = 0
        if wanted and not server.ignore_range:
            start = int(wanted.removeprefix("bytes=").split("-")[0])
            if start >= len(data):
                self._plain(416, b"")
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        if path in server.drop_once:
            server.drop_once.discard(path)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(body)


class EmbeddingsHandler(QuietHandler):
    """Answers like an OpenAI embeddings endpoint, from a FakeEmbedder, in reverse
    order (clients must sort by ``index``). ``server.mode`` switches to errors."""

    def do_POST(self) -> None:
        server: Any = self.server
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        server.requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        mode = server.mode
        if mode == "unauthorized":
            self._send(401, {"error": {"message": "Incorrect API key provided"}})
            return
        if mode == "broken":
            self._send(500, {"error": "internal failure"})
            return
        if mode == "garbage":
            self._send(200, {"object": "list"})
            return
        if self.path != "/v1/embeddings":
            self._send(404, {"error": {"message": "no route"}})
            return
        fake = FakeEmbedder(server.dims)
        inputs = body["input"]
        data = [
            {"object": "embedding", "index": i, "embedding": [2.0 * x for x in fake.embed_query(t)]}
            for i, t in enumerate(inputs)
        ]
        self._send(200, {"object": "list", "data": list(reversed(data)), "model": body["model"]})

    def _send(self, status: int, payload: Any) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)
