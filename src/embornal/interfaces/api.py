"""``MemoryAPI`` and ``ChronicleAPI``: the public surface both :class:`embornal.Memory`
(with its ``chronicle``) and the remote client
(:class:`embornal.interfaces.cli.remote.RemoteMemory`) offer (decision 0176).

The surface is written once, in ``Memory`` and
:class:`~embornal.service.history.chronicle.Chronicle`: each of their ``use_case(...)``
methods takes its signature from its use case (decision 0175), and type checkers read it
there. These names are those classes; the remote client is declared as providing them and
derives each method, on first use, from the catalogue operation that calls it with the
signature read from ``Memory``'s (or ``Chronicle``'s) attribute (:mod:`.cli.remote_derive`).
A method with no routed operation raises :class:`~embornal.errors.InvalidInput`
(``local_only``) on the remote client.

Code written against them (the CLI's memory commands, the behaviour suite in
``tests/behaviour/``) runs the same on a local memory and over the REST API.
"""

from __future__ import annotations

from embornal.service.history.chronicle import Chronicle as ChronicleAPI
from embornal.service.memory import Memory as MemoryAPI

__all__ = ["ChronicleAPI", "MemoryAPI"]
