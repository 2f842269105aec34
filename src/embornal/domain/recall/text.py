"""Text as the keyword index sees it.

One pure function turns text into index terms, so documents and queries are
tokenized the same way and the FTS5 table only ever sees terms we made:

* NFKD, combining marks dropped (``café`` → ``cafe``), lowercase;
* words are runs of letters and digits (``_`` and punctuation split);
* ASCII words are stemmed with the Snowball English stemmer (PyStemmer) (``running`` → ``run``);
* CJK runs become overlapping two-character words (``记忆系统`` → ``记忆 忆系 系统``),
  because FTS5's unicode61 would index a whole CJK run as one token.

User text never reaches FTS5 syntax: a query is rebuilt from its terms, each
one double-quoted, so quotes, parentheses, ``NEAR``, ``*``, ``-`` and ``:`` are
just characters.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

import Stemmer

__all__ = [
    "TOKENIZER_VERSION",
    "fts_document",
    "fts_query",
    "index_terms",
    "query_terms",
    "topic_terms",
    "without_order_asked",
]

TOKENIZER_VERSION = "v1-snowball-en-cjk2"
MAX_TERM_LENGTH = 64

_WORD = re.compile(r"[^\W_]+")
_CJK_RUN = (
    "([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ffff]+)"
)
_STEMMER = Stemmer.Stemmer("english")

# Words that carry no topic in a question; documents keep them.
_QUERY_STOPWORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    )
)


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    if word.isascii() and word.isalpha():
        return str(_STEMMER.stemWord(word))
    return word


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


@cache
def _cjk() -> re.Pattern[str]:
    """The CJK-run pattern, compiled on first use: it costs a millisecond at start-up."""
    return re.compile(_CJK_RUN)


def _cjk_bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _terms(text: str) -> list[str]:
    folded = _fold(text)
    if folded.isascii():  # no CJK run anywhere: each word as the loop below takes it
        return [_stem(word[:MAX_TERM_LENGTH]) for word in _WORD.findall(folded)]
    out: list[str] = []
    for word in _WORD.findall(folded):
        if word.isascii():  # no CJK run in it: what the split below would give
            out.append(_stem(word[:MAX_TERM_LENGTH]))
            continue
        for i, part in enumerate(_cjk().split(word)):
            if not part:
                continue
            if i % 2:  # a CJK run
                out.extend(_cjk_bigrams(part))
            else:
                out.append(_stem(part[:MAX_TERM_LENGTH]))
    return out


def index_terms(text: str) -> list[str]:
    """Every term of a document, in order, repeats kept (BM25 counts them)."""
    return _terms(text)


def fts_document(text: str) -> str:
    """The derived text stored in ``facts_fts``."""
    return " ".join(_terms(text))


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order; stopwords go unless nothing else is left."""
    seen: dict[str, None] = {}
    raw_words = {_fold(w) for w in _WORD.findall(text)}
    for term in _terms(text):
        seen.setdefault(term, None)
    terms = list(seen)
    stop = {_stem(w) for w in raw_words if w in _QUERY_STOPWORDS}
    kept = [t for t in terms if t not in stop]
    return kept or terms


def fts_query(terms: list[str]) -> str:
    """An FTS5 MATCH expression: the terms, each quoted, joined by OR."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


# Words that ask for the answer's order in time ("from earliest to latest", "in what order",
# "the order of"): the form of the answer, not its topic (decision 0161).
_EARLY = r"(?:from )?(?:the )?(?:earliest|oldest|first)"
_LATE = r"(?:the )?(?:latest|newest|most recent|last)"
# Compiled by ``re`` when first searched: a query that holds neither " to " nor "order" (each
# phrase holds one) is not searched, and compiling costs every start-up.
_ORDER_ASKED = (
    rf"\b{_EARLY} to {_LATE}\b|\b(?:from )?{_LATE} to {_EARLY.replace('(?:from )?', '')}\b"
    r"|\bin (?:reverse )?chronological order\b|\bin what order\b|\bthe order (?:of|in which)\b"
)


def without_order_asked(query: str) -> str:
    """``query`` without the words that ask for the answer's order in time ("from earliest
    to latest", "in chronological order", "in what order", "the order of"): they give the
    answer's form, not its topic, and a fact that holds "order" or "latest" is no nearer to
    it (decision 0161). A query with none is returned as it is; one with some, lower-cased."""
    text = " ".join(query.lower().split())
    if (" to " not in text and "order" not in text) or re.search(_ORDER_ASKED, text) is None:
        return query
    return " ".join(re.sub(_ORDER_ASKED, " ", text).split())


def topic_terms(query: str) -> list[str]:
    """The keyword terms of ``query`` (:func:`query_terms`) less those that only the words
    asking for an order in time hold (:func:`without_order_asked`); all of them if nothing
    else is left."""
    terms = query_terms(query)
    words = without_order_asked(query)
    if words == query:
        return terms
    kept = set(query_terms(words))
    return [t for t in terms if t in kept] or terms
