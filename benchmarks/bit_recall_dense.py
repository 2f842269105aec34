"""How much of the exact cosine top 50 / top 10 the bit index's candidate set keeps, on
dense synthetic vectors (decision 0123): no database, numpy only.

    python benchmarks/bit_recall_dense.py [--size 300000] [--out FILE]

Each "text" is the normalized sum of 8-30 word directions drawn from a Zipf law over
20,000 random 384-d directions; each query the sum of 1-4 words (half Zipf-drawn, half
uniform). A proxy of a real model's dense vectors, whose sign bits separate texts far
better than ``FakeEmbedder``'s sparse ones; not a real model.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, machine_info

from embornal.storage.sqlite import bitindex


def main() -> None:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=300_000)
    ap.add_argument("--sizes", default="100,200,400,800,1600")
    ap.add_argument(
        "--out", type=Path, default=REPO_ROOT / "benchmarks/results/bit_recall_dense.json"
    )
    args = ap.parse_args()
    n, dims, vocab, batch = args.size, 384, 20_000, 10_000
    rng = np.random.default_rng(11)
    words = rng.standard_normal((vocab, dims)).astype(np.float32)
    zipf = 1.0 / np.arange(1, vocab + 1)
    zipf /= zipf.sum()
    mat = np.empty((n, dims), np.float32)
    for s in range(0, n, batch):
        m = min(n, s + batch) - s
        lens = rng.integers(8, 30, m)
        ids = rng.choice(vocab, size=(m, 30), p=zipf)
        mask = (np.arange(30)[None, :] < lens[:, None]).astype(np.float32)
        v = np.einsum("mk,mkd->md", mask, words[ids])
        mat[s : s + m] = v / np.linalg.norm(v, axis=1, keepdims=True)
    index = bitindex.BitIndex(
        dims, np.arange(n, dtype=np.int64), np.asfortranarray(bitindex.quantize(mat))
    )
    queries = []
    for i in range(100):
        k = int(rng.integers(1, 5))
        ids = rng.choice(vocab, size=k, p=zipf) if i % 2 else rng.integers(0, vocab, k)
        v = words[ids].sum(0)
        queries.append((v / np.linalg.norm(v)).astype(np.float32))
    exact = np.argsort(-(np.stack(queries) @ mat.T), axis=1)[:, :50]
    out: dict[str, object] = {"machine": machine_info(), "size": n, "dims": dims}
    for size in (int(s) for s in args.sizes.split(",")):
        s50, s10 = [], []
        for q, ex in zip(queries, exact, strict=True):
            got = set(index.search(q.tobytes(), size))
            s50.append(len(got & set(ex.tolist())) / 50)
            s10.append(len(got & set(ex[:10].tolist())) / 10)
        out[str(size)] = {
            "top50_share_mean": round(float(np.mean(s50)), 3),
            "top10_share_mean": round(float(np.mean(s10)), 3),
            "top10_share_min": float(np.min(s10)),
        }
        print(size, out[str(size)], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, default=str))


if __name__ == "__main__":
    main()
