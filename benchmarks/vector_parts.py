"""Vector recall at scale, part by part: the bit index scan, the exact re-score of its
candidates, and how much of the exact top ``k`` each size of candidate set keeps.

    python benchmarks/vector_parts.py --size 1000000 --store DIR [--sizes 100,200,400,800]
                                      [--profile] [--out benchmarks/results/vector_parts.json]

On the database ``vector_scale.py --store DIR`` loaded (queried on a copy), with its
queries (the same seed, the same draws). For each query the bit index search (its
``k`` the default wide set, 400 at limit 10), the store's whole vector search, and the
hybrid recall are timed, wall and process CPU time. The exact top 50 (the candidates of
a recall of limit 10) by cosine over every fact is computed in numpy, chunk by chunk,
and compared with the bit index's candidate sets of ``--sizes``: the share of the exact
top 50 and top 10 each set holds (every fact is live and readable here, so the set is
all the re-score sees). ``--profile`` prints the cProfile of the hybrid recalls.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import resource
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, latency_summary, machine_info
from benchmarks.scale import build_corpus, make_queries
from benchmarks.vector_scale import _loaded

from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.storage.contract.store import pack_vector


def _timed(calls: list[Any]) -> dict[str, Any]:
    wall, cpu = [], []
    for call in calls:
        c, t = time.process_time_ns(), time.perf_counter_ns()
        call()
        wall.append(time.perf_counter_ns() - t)
        cpu.append(time.process_time_ns() - c)
    return {"wall": latency_summary(wall), "cpu": latency_summary(cpu)}


def _exact_top(conn: Any, queries: Any, k: int) -> list[list[int]]:
    """The seqs of the ``k`` facts nearest each query by cosine (the vectors are unit
    length: the dot product), over every embedded fact, read 50,000 at a time."""
    import numpy as np

    best_seq = np.zeros((len(queries), 0), np.int64)
    best_sim = np.zeros((len(queries), 0), np.float32)
    last = 0
    while True:
        rows = conn.execute(
            "SELECT seq, embedding FROM facts WHERE seq > ? AND embedding IS NOT NULL "
            "ORDER BY seq LIMIT 50000",
            (last,),
        ).fetchall()
        if not rows:
            break
        last = int(rows[-1][0])
        dims = queries.shape[1]
        mat = np.frombuffer(b"".join(r[1] for r in rows), np.float32).reshape(len(rows), dims)
        norms = np.linalg.norm(mat, axis=1)
        norms[norms == 0] = 1.0
        sims = (queries @ mat.T) / norms
        seqs = np.fromiter((r[0] for r in rows), np.int64, len(rows))
        all_sim = np.concatenate([best_sim, sims.astype(np.float32)], axis=1)
        all_seq = np.concatenate([best_seq, np.broadcast_to(seqs, sims.shape)], axis=1)
        keep = np.argsort(-all_sim, axis=1, kind="stable")[:, :k]
        best_sim = np.take_along_axis(all_sim, keep, 1)
        best_seq = np.take_along_axis(all_seq, keep, 1)
    return [list(map(int, row)) for row in best_seq]


def _scan_before_0123(self: Any, query: bytes, k: int) -> list[int]:
    """``BitIndex.search`` as it was before decision 0123 (a whole-length XOR and count a
    word, ``np.bincount`` over every distance), for the A/B of ``--ab``."""
    import numpy as np

    from embornal.storage.sqlite import bitindex

    if k <= 0 or not len(self):
        return []
    if k >= len(self):
        return [int(s) for s in self.seqs.tolist()]
    qcode = bitindex.quantize(np.frombuffer(query, dtype=np.float32).reshape(1, -1))[0]
    words = self.codes.T
    distances = np.bitwise_count(words[0] ^ qcode[0]).astype(np.uint16)
    for w in range(1, len(qcode)):
        distances += np.bitwise_count(words[w] ^ qcode[w])
    kth = int(np.searchsorted(np.cumsum(np.bincount(distances)), k))
    below = np.flatnonzero(distances < kth)
    tied = np.flatnonzero(distances == kth)[: k - len(below)]
    return [int(s) for s in self.seqs[np.concatenate([below, tied])].tolist()]


def _ab(mem: Any, queries: list[str], bits: Any, blobs: list[bytes]) -> dict[str, Any]:
    """The scan before and after decision 0123 in one process, alternating query by query
    (which goes first alternates too), so both see the same load and caches: the bit
    search alone and the hybrid and vector recalls, CPU time; their results compared."""
    from embornal.storage.sqlite import bitindex

    new = bitindex.BitIndex.search
    cpu: dict[str, list[int]] = {}
    same = 0
    for i, (q, blob) in enumerate(zip(queries, blobs, strict=True)):
        got = {}
        for side in ("after", "before") if i % 2 else ("before", "after"):
            bitindex.BitIndex.search = new if side == "after" else _scan_before_0123  # type: ignore[method-assign]
            try:
                for what, call in (
                    ("bit_search", partial(bits.search, blob, 400)),
                    ("hybrid", partial(mem.recall, q, mode="hybrid", reinforce=False)),
                    ("vector", partial(mem.recall, q, mode="vector", reinforce=False)),
                ):
                    c = time.process_time_ns()
                    result = call()
                    cpu.setdefault(f"{what}_{side}", []).append(time.process_time_ns() - c)
                    if what == "hybrid":
                        got[side] = [(h.fact.id, h.score) for h in result]
            finally:
                bitindex.BitIndex.search = new  # type: ignore[method-assign]
        same += got["before"] == got["after"]
    out: dict[str, Any] = {key: latency_summary(ns) for key, ns in cpu.items()}
    out["hybrid_top10_identical"] = same
    return out


def _hybrid_parts(mem: Any, queries: list[str]) -> dict[str, Any]:
    """The process CPU time of the hybrid recall's steps (``Recaller``'s keyword and
    vector candidates, the neighbours' reads, the final order) and of the whole call,
    ms per query; ``rest``: the whole less the two candidate lists (the fusion, its
    reads and the hits)."""
    from embornal.service.recall import Recaller

    spent: dict[str, list[int]] = {}
    steps = {
        "keyword": "_keyword_candidates",
        "vector": "_vector_candidates",
        "context": "_context",
        "order": "_finish",
        "times": "_times",
    }
    saved = {name: getattr(Recaller, attr) for name, attr in steps.items()}

    def timed(name: str, call: Any) -> Any:
        def step(*a: Any, **k: Any) -> Any:
            c = time.process_time_ns()
            try:
                return call(*a, **k)
            finally:
                spent.setdefault(name, []).append(time.process_time_ns() - c)

        return step

    for name, attr in steps.items():
        setattr(Recaller, attr, timed(name, saved[name]))
    try:
        whole = []
        for q in queries:
            c = time.process_time_ns()
            mem.recall(q, mode="hybrid", reinforce=False)
            whole.append(time.process_time_ns() - c)
    finally:
        for name, attr in steps.items():
            setattr(Recaller, attr, saved[name])
    rest = [w - k - v for w, k, v in zip(whole, spent["keyword"], spent["vector"], strict=True)]
    out = {name: latency_summary(ns) for name, ns in spent.items()}
    out["whole"], out["rest"] = latency_summary(whole), latency_summary(rest)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--dims", type=int, default=384)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--store", required=True)
    ap.add_argument("--sizes", default="100,200,400,800,1600")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--ab", action="store_true", help="the scan before/after 0123, A/B")
    ap.add_argument("--out", type=Path, default=REPO_ROOT / "benchmarks/results/vector_parts.json")
    args = ap.parse_args()
    import numpy as np

    rng = random.Random(7)
    corpus = build_corpus(7, args.size)
    out: dict[str, Any] = {"machine": machine_info(), "size": args.size, "dims": args.dims}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        args.no_minilm = True
        mem, _, _, _ = _loaded(args, db, rng, corpus)
        # vector_scale's draws: its rules take none, then the queries
        queries = [q.text for q in make_queries(rng, corpus, args.queries)]
        store = mem._ctx.store
        embedder = FakeEmbedder(args.dims)
        blobs = [pack_vector(embedder.embed_query(q)) for q in queries]
        for q in queries[:5]:
            mem.recall(q, mode="hybrid", reinforce=False)
        bits = store._bit_index(args.dims)
        assert bits is not None
        out["bit_search_400_ms"] = _timed([lambda b=b: bits.search(b, 400) for b in blobs])
        out["vector_search_50_ms"] = _timed([lambda b=b: store.vector_search(b, 50) for b in blobs])
        out["hybrid_ms"] = _timed(
            [lambda q=q: mem.recall(q, mode="hybrid", reinforce=False) for q in queries]
        )
        out["keyword_ms"] = _timed(
            [lambda q=q: mem.recall(q, mode="keyword", reinforce=False) for q in queries]
        )
        out["vector_ms"] = _timed(
            [lambda q=q: mem.recall(q, mode="vector", reinforce=False) for q in queries]
        )
        out["hybrid_cpu_parts_ms"] = _hybrid_parts(mem, queries)
        if args.ab:
            out["ab_cpu_ms"] = _ab(mem, queries, bits, blobs)
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            for q in queries:
                mem.recall(q, mode="hybrid", reinforce=False)
            prof.disable()
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(35)
            pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(60)
            print(s.getvalue())
        qmat = np.frombuffer(b"".join(blobs), np.float32).reshape(len(blobs), args.dims)
        sizes = [int(s) for s in args.sizes.split(",") if s]
        exact = _exact_top(store._reader(), qmat, 50) if sizes else []
        kept: dict[str, Any] = {}
        for size in sizes:
            top50, top10, full50 = [], [], 0
            for blob, ex in zip(blobs, exact, strict=True):
                got = set(bits.search(blob, size))
                top50.append(len(got.intersection(ex)) / len(ex))
                top10.append(len(got.intersection(ex[:10])) / min(10, len(ex)))
                full50 += set(ex) <= got
            kept[str(size)] = {
                "top50_share_mean": sum(top50) / len(top50),
                "top50_share_min": min(top50),
                "top10_share_mean": sum(top10) / len(top10),
                "top10_share_min": min(top10),
                "queries_with_all_top50": full50,
            }
        out["exact_kept_by_candidate_set"] = kept
        mem.close()
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["machine"]["loadavg_end"] = machine_info().get("loadavg")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, default=str))
    for key in ("bit_search_400_ms", "vector_search_50_ms", "hybrid_ms", "keyword_ms", "vector_ms"):
        t = out[key]
        print(
            f"{key}: wall p50 {t['wall']['p50']:.2f} CPU p50 {t['cpu']['p50']:.2f} "
            f"p95 {t['cpu']['p95']:.2f}"
        )
    for name, t in out["hybrid_cpu_parts_ms"].items():
        print(f"hybrid part {name}: CPU p50 {t['p50']:.2f} mean {t['mean']:.2f}")
    for name, t in out.get("ab_cpu_ms", {}).items():
        print(f"A/B {name}: {t if isinstance(t, int) else (t['p50'], t['mean'])}")
    for size, k in kept.items():
        print(size, {a: round(b, 3) for a, b in k.items()})
    print(
        "peak RSS MB",
        round(out["peak_rss_mb"]),
        "load",
        out["machine"]["loadavg"],
        out["machine"]["loadavg_end"],
    )


if __name__ == "__main__":
    main()
