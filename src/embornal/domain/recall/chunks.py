"""Long facts for an embedding model that reads only so much: pieces and pooling.

A model reads a few hundred tokens and ignores the rest, so a long fact (a whole
conversation, a document) would be known by its opening alone. Such a fact is cut
into pieces of at most ``size`` characters — at line ends where it can, else at a
space — and each piece is embedded. The fact's one vector (for the vector index) pools
the pieces with :func:`mean_vector`; each piece's vector is kept too, and the fact's
similarity to a query is :func:`piece_similarity` of its pieces' (see
docs/decisions/0011-long-facts.md and 0012-long-facts-scored-by-pieces.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["CHUNK_CHARS", "chunk_text", "mean_vector", "piece_similarity"]

# About 250 word-piece tokens of English: what all-MiniLM-L6-v2 (256) reads in full.
CHUNK_CHARS = 1000


def chunk_text(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """``text`` itself when it fits, else pieces of at most ``size`` characters.

    Lines are packed whole into a piece while they fit; a line longer than ``size``
    is cut at the last space of its first ``size`` characters (or hard at ``size``
    when that space would leave less than half). Blank pieces are dropped.
    """
    if size < 2:
        raise ValueError("size must be at least 2")
    if len(text) <= size:
        return [text]
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > size:
            cut = line.rfind(" ", 0, size)
            if cut < size // 2:
                cut = size
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:cut])
            line = line[cut:].lstrip()
        if current and len(current) + 1 + len(line) > size:
            pieces.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current.strip():
        pieces.append(current)
    return [piece for piece in pieces if piece.strip()]


def mean_vector(vectors: Sequence[Sequence[float]]) -> list[float]:
    """The mean of unit-normalized ``vectors``, normalized again (zero stays zero)."""
    if not vectors:
        raise ValueError("no vectors to pool")
    width = len(vectors[0])
    total = [0.0] * width
    for vector in vectors:
        if len(vector) != width:
            raise ValueError("vectors of different widths cannot be pooled")
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        for i, x in enumerate(vector):
            total[i] += x / norm
    norm = math.sqrt(sum(x * x for x in total))
    return total if norm == 0.0 else [x / norm for x in total]


def piece_similarity(similarities: Sequence[float]) -> float:
    """A long fact's similarity from its pieces' (in order): the mean of the opening
    piece's (what the fact is about) and the best piece's (the part that answers).

    The vector store computes the same in SQL (``storage.vectors.SIMILARITY_SQL``).
    """
    if not similarities:
        raise ValueError("no similarities to score")
    return 0.5 * (similarities[0] + max(similarities))
