"""Hybrid recall's two parts side by side (decision 0125).

The keyword part runs on the calling thread and the vector part (the query's embedding,
then the nearest facts) on a worker, when the store says a read from another thread sees
what the caller would (``reads_aside``: no write transaction open, no one connection
shared by every thread). Both parts spend most of their time outside the interpreter (in
the database, in ONNX Runtime, in numpy), so the recall takes about the longer of the two
instead of their sum. The result is the same as one after the other: the parts read
nothing of each other, and an error is raised as it would have been in turn, the keyword
part's first. The worker never outlives its part: on any error the caller waits for it.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (start-up: decision 0047)
from collections.abc import Callable

from embornal.hints import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # concurrent.futures imports logging: off the CLI's start-up
    from concurrent.futures import ThreadPoolExecutor

__all__ = ["LEG_THREADS", "side_by_side"]

A = TypeVar("A")
B = TypeVar("B")

#: Workers for the vector parts of recalls running at once (a server's threads share them;
#: past this many, a part waits for a worker: slower, never wrong).
LEG_THREADS = 8

_executor: ThreadPoolExecutor | None = None
_executor_lock = _thread.allocate_lock()


def _workers() -> ThreadPoolExecutor:
    global _executor
    from concurrent.futures import ThreadPoolExecutor

    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(LEG_THREADS, thread_name_prefix="embornal-recall")
        return _executor


def side_by_side(here: Callable[[], A], aside: Callable[[], B], *, parallel: bool) -> tuple[A, B]:
    """``(here(), aside())``: ``aside`` on a worker while ``here`` runs, when ``parallel``;
    else one after the other."""
    if not parallel:
        return here(), aside()
    from concurrent.futures import wait

    future = _workers().submit(aside)
    try:
        first = here()
    except BaseException:
        wait([future])  # its reads end before the caller goes on (or closes the store)
        raise
    return first, future.result()
