"""The capability folders of the interfaces, found by looking, not listed by hand.

Each capability beyond the core has a folder ``embornal/interfaces/<capability>/``
holding, by one naming scheme, what is its own on every transport; the generic
machinery finds them here and reads the exports of each module kind, the same names in
every folder (decision 0177):

* ``catalog``: ``OPERATIONS`` (its operation records) and ``PLACE`` (an int: where they
  go in the catalogue, after the core's; the REST document and the MCP tool list follow
  that order) — read by :func:`embornal.interfaces.catalog.whole`;
* ``wire``: ``shapes(core)`` answering its shapes and readers, given the wire's own
  helpers — read by :mod:`embornal.interfaces.wire`;
* ``mcp_out``: ``BY_OUTPUT`` and ``RESULTS`` — read by :mod:`embornal.interfaces.mcp.tools`;
* ``rest``: ``BY_OUTPUT``, ``HTTP`` and ``REQUESTS`` — read by
  :mod:`embornal.interfaces.http.api`.

What the tables of ``mcp_out`` and ``rest`` hold (decision 0184):

* ``BY_OUTPUT`` (output type: answer): what a tool gives the model (MCP output model and
  projection), or the answer model of a route (REST; a list is sent under the route's
  ``items``), for every operation whose output is of that type, whatever its folder,
  unless ``RESULTS`` or ``HTTP`` answers it otherwise;
* ``RESULTS`` (operation name: MCP output model and projection) and ``HTTP`` (operation
  name: answer model, the name of the request model made from its record or None,
  envelope): an operation that answers otherwise than its output's;
* ``REQUESTS`` (operation name: the name of the request model made from its record, or
  None for none): a route answered by its output whose model keeps a name other than the
  one after its operation id (``<OperationId>In``, ``<OperationId>Query``).

An output type's answer is declared once, in the folder of the capability it belongs to,
and serves every operation of that type in any folder. A module writes only the tables it
fills: a table it lacks has no entries (:func:`table`).

A new capability adds its folder and nothing else. Listing the folders reads the file
system only: no capability module (nor its package) is imported to be listed, so a
short command stays as cheap as before (decision 0092). Stdlib-only.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping
from types import ModuleType

from embornal.hints import Any, TypeVar

__all__ = ["TRANSPORTS", "having", "merged", "modules", "table"]

_V = TypeVar("_V")

TRANSPORTS = frozenset({"cli", "http", "mcp"})
"""The folders of the generic transports: not capabilities."""


def having(kind: str) -> tuple[str, ...]:
    """The capability folders of this package that hold a module ``kind`` (``catalog``,
    ``wire``, ``mcp_out``, ``rest``), sorted by name.

    A folder is a package (it has ``__init__.py``) in a directory of the package's
    ``__path__``, not among :data:`TRANSPORTS`; it holds ``kind`` as ``kind.py`` or as a
    package ``kind/``. Read from the directory listing (``os.scandir``, not ``pkgutil``,
    whose import costs a short command).
    """
    found: set[str] = set()
    for root in sys.modules[__package__].__path__:
        with os.scandir(root) as entries:
            found.update(
                entry.name
                for entry in entries
                if entry.is_dir()
                and entry.name not in TRANSPORTS
                and _is_file(entry.path, "__init__.py")
                and (
                    _is_file(entry.path, f"{kind}.py")
                    or _is_file(os.path.join(entry.path, kind), "__init__.py")
                )
            )
    return tuple(sorted(found))


def _is_file(folder: str, name: str) -> bool:
    return os.path.isfile(os.path.join(folder, name))


def modules(kind: str) -> tuple[ModuleType, ...]:
    """The module ``kind`` of every capability folder that has one, imported, in the
    order of :func:`having`."""
    return tuple(importlib.import_module(f"{__package__}.{name}.{kind}") for name in having(kind))


def table(module: ModuleType, name: str) -> Mapping[str, Any]:
    """The table ``name`` of a capability's module: empty if the module writes none."""
    found: Mapping[str, Any] = getattr(module, name, {})
    return found


def merged(kind: str, name: str, core: Mapping[str, _V]) -> dict[str, _V]:
    """``core`` and the table ``name`` (operation name or output type: entry) of each
    capability's module ``kind``, in one dict: e.g. ``merged("mcp_out", "RESULTS", core)``.
    A module without the table adds nothing. A key given an entry twice is a mistake,
    refused (``ValueError``)."""
    out = dict(core)
    for module in modules(kind):
        entries = table(module, name)
        twice = out.keys() & entries.keys()
        if twice:
            raise ValueError(f"{module.__name__}.{name} gives {sorted(twice)} again")
        out.update(entries)
    return out
