"""A fact's confidence and strength over time: the series the wiki draws.

Both are derived from what the log holds, with the maths the rest of the memory uses:

* **confidence** ``c``: the fact's own stream folded event by event with
  :func:`embornal.domain.facts.aggregate.evolve` (the prior or the confidence given at
  creation, then each confirm, contradiction and piece of evidence with the weight of its
  actor kind). It changes only at those events, so each one gives two points at its time:
  the value before and the value after (a step).
* **effective confidence** ``c_eff`` = c · 2^(−Δt / halflife(kind)), Δt since
  last_confirmed_at ?? created_at (:func:`embornal.domain.spine.confidence.effective`), sampled
  at every event, on an even grid between creation and now, and at now.
* **strength** (:mod:`embornal.domain.spine.strength`): from a stability of one day at creation,
  each recall reinforces it (two points at a recall: the strength the recall found, then
  the strength after it), sampled on the same grid and at now.

Times run forward only: an event recorded before the fact's ``created_at`` (a fact
stored with an earlier date, then vouched for) is placed at ``created_at``, and each time
is at least the one before it. Pure: ``now`` is passed in, nothing is read or written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from embornal.domain.events import Event, FactStored
from embornal.domain.facts.aggregate import FactState, evolve
from embornal.domain.spine import confidence as C
from embornal.domain.spine.strength import INITIAL_STABILITY_DAYS, Signals, reinforce, strength

__all__ = [
    "GRID_SAMPLES",
    "RECALL",
    "SeriesMark",
    "SeriesPoint",
    "SpineSeries",
    "spine_series",
]

#: Samples of the decaying curves between creation and now (besides the events).
GRID_SAMPLES = 48
#: The type of a recall's mark.
RECALL = "recall"


@dataclass(frozen=True)
class SeriesPoint:
    """One value (0..1) at one moment."""

    at: datetime
    value: float


@dataclass(frozen=True)
class SeriesMark:
    """An event on the time axis: its time, its type (``FactConfirmed``, …, or
    ``recall``), who made it and why (None: no reason, or a recall), and the confidence,
    effective confidence and strength right after it."""

    at: datetime
    type: str
    actor: str | None
    actor_kind: str | None
    reason: str | None
    confidence: float
    effective: float
    strength: float

    @property
    def value(self) -> float:
        """What the event moved: the strength for a recall, else the confidence."""
        return self.strength if self.type == RECALL else self.confidence


@dataclass(frozen=True)
class SpineSeries:
    """The series of one fact from ``start`` (its creation) to ``end`` (now). Every
    series is in time order (never going back) and every value is within 0..1.
    ``stale_below`` is the kind's staleness threshold on ``c_eff``."""

    fact_id: str
    kind: str
    start: datetime
    end: datetime
    confidence: tuple[SeriesPoint, ...]
    effective: tuple[SeriesPoint, ...]
    strength: tuple[SeriesPoint, ...]
    marks: tuple[SeriesMark, ...]
    stale_below: float
    recalls: int


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def _grid(start: datetime, end: datetime, samples: int) -> list[datetime]:
    if end <= start or samples < 1:
        return []
    step = (end - start) / (samples + 1)
    return [start + step * i for i in range(1, samples + 1)]


@dataclass(frozen=True)
class _Step:
    """The fact's state from ``at`` on (until the next step)."""

    at: datetime
    state: FactState


def _steps(
    events: Sequence[Event], start: datetime
) -> tuple[list[_Step], list[tuple[Event, datetime]]]:
    """The state after each event of the fact's stream, with each event's (forward) time."""
    state: FactState | None = None
    steps: list[_Step] = []
    timed: list[tuple[Event, datetime]] = []
    last = start
    for event in events:
        state = evolve(state, event.body, event.actor_kind, event.recorded_at)
        at = start if isinstance(event.body, FactStored) else max(last, event.recorded_at)
        last = at
        steps.append(_Step(at, state))
        timed.append((event, at))
    return steps, timed


def _c_eff(state: FactState, created_at: datetime, at: datetime, table: C.ConfidenceTable) -> float:
    since = C.anchor(state.last_confirmed_at, created_at)
    return _clamp(C.effective(state.confidence, state.kind, since, at, table))


def spine_series(
    events: Sequence[Event],
    recalls: Sequence[datetime],
    now: datetime,
    *,
    samples: int = GRID_SAMPLES,
    table: C.ConfidenceTable = C.DEFAULT_CONFIDENCE,
) -> SpineSeries:
    """The series of the fact whose stream is ``events`` (its ``FactStored`` first) and
    whose recalls happened at ``recalls`` (in log order), up to ``now``."""
    if not events or not isinstance(events[0].body, FactStored):
        raise ValueError("a fact's series starts from its FactStored event")
    stored = events[0].body
    start = stored.created_at
    steps, timed = _steps(events, start)
    end = max(now, steps[-1].at)
    # One timeline: each event (0), each recall (1), each sample (2), in time order.
    items: list[tuple[datetime, int, int]] = [(steps[i].at, 0, i) for i in range(1, len(steps))]
    last = start
    for n, r in enumerate(recalls):
        last = max(last, r)
        items.append((last, 1, n))
    items.extend((t, 2, 0) for t in _grid(start, end, samples))
    items.append((end, 2, 0))
    items.sort()

    state = steps[0].state
    signals = Signals(start, None, 0, INITIAL_STABILITY_DAYS)
    confidence = [SeriesPoint(start, _clamp(state.confidence))]
    effective = [SeriesPoint(start, _c_eff(state, start, start, table))]
    lifted = [SeriesPoint(start, 1.0)]
    marks: list[SeriesMark] = []
    for at, what, i in items:
        c_eff = _c_eff(state, start, at, table)
        effective.append(SeriesPoint(at, c_eff))
        lifted.append(SeriesPoint(at, _clamp(strength(signals, at))))
        if what == 0:  # the value before the event, then after it
            confidence.append(SeriesPoint(at, _clamp(state.confidence)))
            state = steps[i].state
            confidence.append(SeriesPoint(at, _clamp(state.confidence)))
            c_eff = _c_eff(state, start, at, table)
            effective.append(SeriesPoint(at, c_eff))
            event = timed[i][0]
            kind, actor, reason = event.type, event.actor, event.reason
            actor_kind: str | None = event.actor_kind
        elif what == 1:  # the strength the recall found, then after it
            signals = reinforce(signals, at)
            lifted.append(SeriesPoint(at, _clamp(strength(signals, at))))
            kind, actor, actor_kind, reason = RECALL, None, None, None
        else:
            continue
        marks.append(
            SeriesMark(
                at,
                kind,
                actor,
                actor_kind,
                reason,
                _clamp(state.confidence),
                c_eff,
                _clamp(strength(signals, at)),
            )
        )
    confidence.append(SeriesPoint(end, _clamp(state.confidence)))

    return SpineSeries(
        fact_id=stored.fact_id,
        kind=stored.kind,
        start=start,
        end=end,
        confidence=tuple(confidence),
        effective=tuple(effective),
        strength=tuple(lifted),
        marks=tuple(marks),
        stale_below=C.decay_for(stored.kind, table).stale_below,
        recalls=len(recalls),
    )
