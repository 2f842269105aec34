"""The names a query mentions, and how much of them a fact mentions (no I/O;
docs/decisions/0113-names-in-the-query.md).

A question about someone ("What are Joanna's hobbies?", "Which city have both Jean and
John visited?") is answered by the facts about them, but a name that many facts hold
weighs almost nothing in bm25 (its idf is small) and the document-frequency ceiling may
drop it from the query altogether. A name is read as a *name* here: a word written with a
capital letter (or all in capitals, "LGBTQ") that does not open a sentence; the word "I"
and the names of weekdays and months (a time, not a name) are none. Each name is compared
as an index term (folded and stemmed like the keyword index), so "Joanna's" matches
"Joanna". A fact's share is how many of the query's names it holds over how many the
query names; recall adds ``FusionSettings.entity_weight`` × that share to its score.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from embornal.domain.recall.text import index_terms

__all__ = ["entity_share", "query_entities"]

# A word as the keyword index splits them: letters and digits; ``'``, ``_`` and punctuation
# split ("Joanna's" is "Joanna" and "s").
_WORD = re.compile(r"[^\W_]+")
# What ends a sentence: the next word opens one (its capital says nothing).
_SENTENCE_END = r"[.!?。！？:;\n]\s*$"
# A short capitalised word and a point: a title or an initial, not a sentence's end.
_TITLE = r"(?:^|[^\w])[A-Z][a-z]{0,2}\.\s*$"
# (Both are compiled by ``re`` when first searched, and kept in its cache: only a query with
# a capitalised word after its first searches them, and compiling costs every start-up.)
# Capitalised words that name nothing when they do not open a sentence: "I", and the
# calendar's names (English writes them with a capital; they name a time, which the time a
# query names reads, domain/recall/relative_time.py).
_NOT_NAMES = frozenset(
    {"i"}
    | {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
    | {"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"}
    | {"january", "february", "march", "april", "may", "june", "july", "august"}
    | {"september", "october", "november", "december"}
    | {"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
)


def query_entities(query: str) -> tuple[str, ...]:
    """The index terms of the names ``query`` mentions, in order, each once.

    >>> query_entities("What did Caroline research?")
    ('carolin',)
    >>> query_entities("Which city have both Jean and John visited?")
    ('jean', 'john')
    """
    found: dict[str, None] = {}
    for match in _WORD.finditer(query):
        word = match.group(0)
        if not word[0].isupper() or word.lower() in _NOT_NAMES:
            continue
        if _opens_sentence(query[: match.start()]):
            continue  # the first word of a sentence: capitalised anyway
        for term in index_terms(word):
            found.setdefault(term, None)
    return tuple(found)


def _opens_sentence(before: str) -> bool:
    """Whether the word after ``before`` opens a sentence: nothing before it, or an end of
    sentence that is not the point of a short title ("Dr.", "Mrs.", "St.")."""
    if not before.strip():
        return True
    if not re.search(_SENTENCE_END, before):
        return False
    title = re.search(_TITLE, before)
    return title is None


def entity_share(entities: Sequence[str], terms: Iterable[str]) -> float:
    """How many of ``entities`` the fact's index ``terms`` hold, over how many there are
    (0.0 when the query names none)."""
    if not entities:
        return 0.0
    held = set(terms)
    return sum(1 for e in entities if e in held) / len(entities)
