"""A fact's confidence and strength over time: the series the wiki draws.

Both are derived from what the log holds, with the maths the rest of the memory uses:

* **confidence** ``c``: the fact's own stream folded event by event with
  :func:`embornal.domain.fact_aggregate.evolve` (the prior or the confidence given at
  creation, then each confirm, contradiction and piece of evidence with the weight of its
  actor kind). It changes only at those events, so each one gives two points at its time:
  the value before and the value after (a step).
* **effective confidence** ``c_eff`` = c · 2^(−Δt / halflife(kind)), Δt since
  last_confirmed_at ?? created_at (:func:`embornal.domain.confidence.effective`), sampled
  at every event, on an even grid between creation and now, and at now.
* **strength** (:mod:`embornal.domain.strength`): from a stability of one day at creation,
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

from embornal.domain import confidence as C
from embornal.domain.events import Event, FactStored
from embornal.domain.fact_aggregate import FactState, evolve
from embornal.domain.strength import INITIAL_STABILITY_DAYS, Signals, reinforce, strength

__all__ = [
    "GRID_SAMPLES",
    "SeriesMark",
    "SeriesPoint",
    "SpineSeries",
    "spine_series",
]

#: Samples of the decaying curves between creation and now (besides the events).
GRID_SAMPLES = 48


@dataclass(frozen=True)
class SeriesPoint:
    """One value (0..1) at one moment."""

    at: datetime
    value: float


@dataclass(frozen=True)
class SeriesMark:
    """An event on the time axis: its time, its type (``fact_confirmed``, …, or
    ``recall``), who made it and why (None: no reason, or a recall), and the confidence
    right after it (the strength after it, for a recall)."""

    at: datetime
    type: str
    actor: str | None
    actor_kind: str | None
    reason: str | None
    value: float


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
    grid = _grid(start, end, samples)

    confidence: list[SeriesPoint] = [SeriesPoint(start, _clamp(steps[0].state.confidence))]
    marks: list[SeriesMark] = []
    for (event, at), before, after in zip(timed[1:], steps[:-1], steps[1:], strict=True):
        confidence.append(SeriesPoint(at, _clamp(before.state.confidence)))
        confidence.append(SeriesPoint(at, _clamp(after.state.confidence)))
        marks.append(
            SeriesMark(
                at,
                event.type,
                event.actor,
                event.actor_kind,
                event.reason,
                _clamp(after.state.confidence),
            )
        )
    confidence.append(SeriesPoint(end, _clamp(steps[-1].state.confidence)))

    state = steps[0].state
    effective: list[SeriesPoint] = [SeriesPoint(start, _c_eff(state, start, start, table))]
    moments = sorted([(s.at, 0, i) for i, s in enumerate(steps) if i] + [(t, 1, 0) for t in grid])
    for at, is_sample, i in [*moments, (end, 1, 0)]:
        effective.append(SeriesPoint(at, _c_eff(state, start, at, table)))
        if not is_sample:  # at an event: the value before it, then after it
            state = steps[i].state
            effective.append(SeriesPoint(at, _c_eff(state, start, at, table)))

    signals = Signals(start, None, 0, INITIAL_STABILITY_DAYS)
    lifted: list[SeriesPoint] = [SeriesPoint(start, 1.0)]
    times = sorted([(max(start, r), 0) for r in recalls] + [(t, 1) for t in grid] + [(end, 1)])
    last = start
    for at, is_sample in times:
        at = max(at, last)
        last = at
        lifted.append(SeriesPoint(at, _clamp(strength(signals, at))))
        if not is_sample:
            signals = reinforce(signals, at)
            lifted_to = _clamp(strength(signals, at))
            lifted.append(SeriesPoint(at, lifted_to))
            marks.append(SeriesMark(at, "recall", None, None, None, lifted_to))

    return SpineSeries(
        fact_id=stored.fact_id,
        kind=stored.kind,
        start=start,
        end=end,
        confidence=tuple(confidence),
        effective=tuple(effective),
        strength=tuple(lifted),
        marks=tuple(sorted(marks, key=lambda m: m.at)),
        stale_below=C.decay_for(stored.kind, table).stale_below,
        recalls=len(recalls),
    )
