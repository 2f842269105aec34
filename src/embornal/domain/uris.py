"""URIs, checked by shape only (RFC 3986 scheme, then something; no network, no I/O).

Used by evidence of type ``uri`` and by the ``url``/``uri`` attributes of kinds. A scheme
is a letter then letters, digits, ``+``, ``.`` or ``-``; a one-letter scheme is refused so
that a Windows path such as ``C:\\notes.txt`` is not taken for a URI. Schemes that name a
host (``http``, ``https``, ``ftp``, ``ws``, ``wss``) need ``//`` and a host.
"""

from __future__ import annotations

import re

__all__ = ["MAX_URI_LENGTH", "uri_problem"]

MAX_URI_LENGTH = 2_048
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]+):(.*)$", re.DOTALL)
_HOST_SCHEMES = frozenset({"http", "https", "ftp", "ws", "wss"})
_HOST = re.compile(r"^//[^/?#\s@]*@?[^/?#\s]+")


def uri_problem(text: str) -> str | None:
    """Why ``text`` is not a URI, or ``None`` when it is one."""
    if not text:
        return "is empty"
    if len(text) > MAX_URI_LENGTH:
        return f"is over {MAX_URI_LENGTH} characters"
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        return "holds a space or a control character"
    match = _SCHEME.match(text)
    if match is None:
        return "has no scheme (give one such as https://, mailto: or file://)"
    scheme, rest = match.group(1).lower(), match.group(2)
    if not rest:
        return f"has nothing after {scheme}:"
    if scheme in _HOST_SCHEMES and not _HOST.match(rest):
        return f"is a {scheme} URI without a host"
    return None
