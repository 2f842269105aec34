"""Small HTTP servers on 127.0.0.1 for the CLI tests: a model hub and an embeddings API."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WIDTH = 16


def toy_vector(text: str) -> list[float]:
    """A bag of words hashed into WIDTH buckets: texts sharing words point the same way."""
    vector = [0.0] * WIDTH
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in ("query", "passage"):
            continue
        bucket = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % WIDTH
        vector[bucket] += 1.0
    if not any(vector):
        vector[0] = 1.0
    return vector


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class HubHandler(_Quiet):
    """``/api/models/{repo}/revision/{rev}`` lists, ``/{repo}/resolve/{rev}/{file}`` serves.

    ``server.files`` maps ``"owner/name/path/in/repo"`` to bytes.
    """

    def do_GET(self) -> None:
        files: dict[str, bytes] = self.server.files  # type: ignore[attr-defined]
        listing = re.fullmatch(r"/api/models/([^/]+/[^/]+)/revision/[^/]+", self.path)
        if listing:
            repo = listing.group(1)
            names = [k[len(repo) + 1 :] for k in files if k.startswith(repo + "/")]
            if not names:
                self._send(404, b'{"error": "no such repo"}')
                return
            body = {"siblings": [{"rfilename": n} for n in names]}
            self._send(200, json.dumps(body).encode())
            return
        resolve = re.fullmatch(r"/([^/]+/[^/]+)/resolve/[^/]+/(.+)", self.path)
        key = f"{resolve.group(1)}/{resolve.group(2)}" if resolve else ""
        if key in files:
            self._send(200, files[key], "application/octet-stream")
        else:
            self._send(404, b"not found", "text/plain")


class EmbeddingsHandler(_Quiet):
    """An OpenAI-style ``POST /v1/embeddings`` answering with :func:`toy_vector`."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length))
        data = [
            {"object": "embedding", "index": i, "embedding": toy_vector(text)}
            for i, text in enumerate(request["input"])
        ]
        self._send(200, json.dumps({"object": "list", "data": data}).encode())


class LocalServer:
    """A threading HTTP server on 127.0.0.1 (free port), stopped when the block ends."""

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
