"""The REST models of the spine's writes: confirm, contradict and evidence
(the store's own fields are in :mod:`embornal.interfaces.http.schemas`), and
the spine's route tables :data:`HTTP` and :data:`REQUESTS` (importance's models are in
:mod:`.importance_rest`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from embornal.interfaces.http.derived import RequestModel
from embornal.interfaces.http.schemas import (
    UndoOut,
)
from embornal.interfaces.spine.importance_rest import DueOut, PinOut
from embornal.interfaces.wire import to_wire

__all__ = [
    "BY_OUTPUT",
    "HTTP",
    "REQUESTS",
]


HTTP: dict[str, tuple[type[BaseModel], RequestModel, Callable[[Any, Any], Any]]] = {
    # name: (answer model, query or body model, or the name of the one made, envelope)
    "undo": (
        UndoOut,
        "ReasonIn",
        lambda c, r: {"undone": r[0].payload["undoes"], "events": to_wire(r)},
    ),
    "pin": (PinOut, "PinIn", lambda c, r: to_wire(r)),
}
"""The spine's routes: what HTTP adds to each catalogue record (decision 0177)."""

BY_OUTPUT: dict[str, type[BaseModel]] = {
    "list[DueFact]": DueOut,
}

REQUESTS: dict[str, RequestModel] = {
    "confirm": "ConfirmIn",
    "contradict": "ContradictIn",
    "add_evidence": "EvidenceAddIn",
    "visibility": "VisibilityChangeIn",
    "unpin": "PinIn",
    "set_weight": "WeightIn",
    "set_lifetime": "LifetimeIn",
    "due": "DueQuery",
}
