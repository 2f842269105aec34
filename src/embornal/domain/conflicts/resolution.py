"""Entity resolution and the attribute checks that find conflicts (decision 0058). Pure.

An entity fact (``person``, ``organization``, ``location``, ``asset``) becomes an
:class:`EntityProfile`: its names (the main name and every alias) folded — case, accents
and punctuation dropped, an organization's legal suffix too (``ACME Inc.`` → ``acme``) —
and its contact keys (an e-mail address, a phone number of seven digits or more, or an
``@handle`` found among its aliases, notes or identifier). :func:`blocking_keys` gives the
short keys a store indexes so that the candidates of a new entity are one indexed lookup:
each folded name, its words sorted (``john smith`` for ``Smith John``), its first and
last word, its initial-and-surname (``j smith``), the Soundex of its surname with the
first initial, its first name with each one-letter deletion of its surname and the other
way round (a typo in either: symmetric-delete keys), and each contact. :func:`compare`
scores a pair that shares a key:

* a shared contact: 1.0; the same folded name: 0.95; an alias of one is a name of the
  other: 0.9; the same words in another order: 0.9;
* initials: the same surname and given names that agree initial by initial (``J. R.
  Smith`` ~ ``John Ronald Smith``): 0.85;
* a typo: the same words but one, one letter changed, dropped, added or swapped (words of
  four letters or more, the first letter kept): 0.8;
* the words of one all in the other (``Smith Ada`` ~ ``Ada Mary Smith``): 0.8.

A pair at :data:`MATCH_THRESHOLD` or above is a *duplicate*; when only a contact matched
it (no name or alias rule holds) it is a *contradiction*: one entity, two full names.

Two ``preference`` facts contradict when their contexts fold to the same non-empty text
and one polarity is for (likes, wants, prefers) and the other against (dislikes, avoids);
:func:`preference_clash`. Text near-duplicates: :func:`text_similarity` (Jaccard of the
index terms) at :data:`TEXT_THRESHOLD`, with :func:`text_signature` as the bucket keys of
a scan (min-hash bands); by meaning, when a model is loaded, a cosine similarity of
:data:`VECTOR_THRESHOLD` or more.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from embornal.domain.records import record
from embornal.hints import Any

__all__ = [
    "DETECTED_KINDS",
    "ENTITY_KINDS",
    "MATCH_THRESHOLD",
    "MENTION_KINDS",
    "TEXT_THRESHOLD",
    "VECTOR_THRESHOLD",
    "EntityProfile",
    "Match",
    "blocking_keys",
    "compare",
    "fold",
    "keys_of",
    "mention_profiles",
    "preference_clash",
    "profile_of",
    "resolve_mention",
    "soundex",
    "text_signature",
    "text_similarity",
]

ENTITY_KINDS = frozenset({"person", "organization", "location", "asset"})
#: The kinds whose store looks for conflicts at once (decision 0060).
DETECTED_KINDS = ENTITY_KINDS | {"preference"}
MATCH_THRESHOLD = 0.8
TEXT_THRESHOLD = 0.8
#: Cosine similarity from which two facts of one kind are near-duplicates by meaning.
VECTOR_THRESHOLD = 0.95

_NAME_FIELD = {"person": "full_name", "organization": "name", "location": "name"}
_NON_WORD = re.compile(r"[^\w@+.]+|_")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_HANDLE = re.compile(r"(?<![\w.])@[A-Za-z0-9_]{2,}")
_PHONE = re.compile(r"\+?\d[\d ()./-]{5,}\d")
_LEGAL = frozenset(
    {
        "inc",
        "incorporated",
        "ltd",
        "limited",
        "llc",
        "llp",
        "gmbh",
        "ag",
        "sa",
        "sas",
        "sarl",
        "bv",
        "nv",
        "plc",
        "corp",
        "corporation",
        "co",
        "company",
        "the",
    }
)
_FOR = frozenset({"likes", "wants", "prefers"})
_AGAINST = frozenset({"dislikes", "avoids"})


def fold(text: str) -> str:
    """``text`` lower-cased, accents dropped, punctuation as spaces, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(re.sub(r"[^\w]+|_", " ", plain).split())


def _name(text: str, kind: str) -> str:
    words = fold(text).split()
    if kind == "organization":
        kept = [w for w in words if w not in _LEGAL]
        words = kept or words
    return " ".join(words)


def soundex(word: str) -> str:
    """American Soundex of a folded word (``smith`` and ``smyth``: ``S530``)."""
    codes = {
        c: d
        for d, letters in enumerate(("aeiouy", "bfpv", "cgjkqsxz", "dt", "l", "mn", "r"))
        for c in letters
    }
    letters = [c for c in word if c.isalpha() and c.isascii()]
    if not letters:
        return word
    out, last = letters[0].upper(), codes.get(letters[0], 0)
    for c in letters[1:]:
        if c in "hw":
            continue
        code = codes.get(c, 0)
        if code and code != last:
            out += str(code)
        last = code
    return (out + "000")[:4]


@record
class EntityProfile:
    """What resolution knows of one entity fact: its folded names (the main one first)
    and its contact keys."""

    fact_id: str
    kind: str
    names: tuple[str, ...]
    contacts: frozenset[str] = frozenset()

    @property
    def main(self) -> str:
        return self.names[0] if self.names else ""


@record
class Match:
    """Why two entities look like one: a score and the rules that found it."""

    score: float
    findings: tuple[str, ...]
    names_agree: bool


def _contacts(texts: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for text in texts:
        for email in _EMAIL.findall(text):
            out.add("mail:" + email.casefold())
        rest = _EMAIL.sub(" ", text)
        for handle in _HANDLE.findall(rest):
            out.add("handle:" + handle[1:].casefold())
        for phone in _PHONE.findall(rest):
            digits = re.sub(r"\D", "", phone)
            if len(digits) >= 7:
                out.add("tel:" + digits[-10:])
    return frozenset(out)


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence):
        return [v for v in value if isinstance(v, str)]
    return []


def profile_of(fact_id: str, kind: str, attributes: Mapping[str, Any]) -> EntityProfile | None:
    """The profile of an entity fact (None: not an entity kind, or nothing to match on)."""
    if kind not in ENTITY_KINDS:
        return None
    names: list[str] = []
    main = attributes.get(_NAME_FIELD.get(kind, ""))
    if isinstance(main, str) and _name(main, kind):
        names.append(_name(main, kind))
    aliases = _texts(attributes.get("aliases"))
    for alias in aliases:
        folded = _name(alias, kind)
        if folded and folded not in names and not _EMAIL.fullmatch(alias.strip()):
            names.append(folded)
    if kind == "asset":
        for key in ("identifier", "uri"):
            value = attributes.get(key)
            if isinstance(value, str) and value.strip():
                names.append(value.strip().casefold())
    contacts = _contacts([*aliases, *_texts(attributes.get("notes"))])
    if not names and not contacts:
        return None
    return EntityProfile(fact_id, kind, tuple(names), contacts)


def blocking_keys(profile: EntityProfile) -> frozenset[str]:
    """The index keys of ``profile``: two entities that may be one share at least one."""
    keys = {f"c:{c}" for c in profile.contacts}
    for name in profile.names:
        words = name.split()
        keys.add(f"n:{name}")
        if len(words) > 1:
            first, last = words[0], words[-1]
            keys.add("s:" + " ".join(sorted(words)))
            keys.add("w:" + " ".join(sorted((first, last))))
            keys.add(f"i:{first[0]} {last}")
            keys.add(f"x:{first[0]} {soundex(last)}")
            keys.update(f"d:{first}|{d}" for d in _deletions(last))
            keys.update(f"e:{d}|{last}" for d in _deletions(first))
    return frozenset(f"{profile.kind}|{k}" for k in keys)


def keys_of(fact_id: str, kind: str, attributes: Mapping[str, Any]) -> frozenset[str]:
    """The keys a store indexes for a fact of a detected kind: an entity's blocking keys,
    a preference's folded context (empty: nothing to look up)."""
    if kind == "preference":
        context = attributes.get("context")
        folded = fold(context) if isinstance(context, str) else ""
        return frozenset({f"preference|ctx:{folded}"}) if folded else frozenset()
    profile = profile_of(fact_id, kind, attributes)
    return blocking_keys(profile) if profile is not None else frozenset()


def _one_edit(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one letter changed, dropped, added or swapped apart."""
    if x == y or abs(len(x) - len(y)) > 1:
        return False
    if len(x) == len(y):
        diff = [i for i, (a, b) in enumerate(zip(x, y, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and x[i] == y[i + 1] and x[i + 1] == y[i]
    long, short = (x, y) if len(x) > len(y) else (y, x)
    i = next((i for i, (a, b) in enumerate(zip(long, short, strict=False)) if a != b), len(short))
    return long[i + 1 :] == short[i:]


def _deletions(word: str) -> set[str]:
    """``word`` and each way of dropping one letter from it (symmetric-delete keys)."""
    return {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}


def _initials_agree(a: list[str], b: list[str]) -> bool:
    """Same surname; the given names agree initial by initial, one at least an initial."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1]:
        return False
    ga, gb = a[:-1], b[:-1]
    if len(ga) != len(gb) and not (len(ga) == 1 or len(gb) == 1):
        return False
    shortened = False
    for x, y in zip(ga, gb, strict=False):
        if x == y:
            continue
        if x[0] != y[0] or (len(x) > 1 and len(y) > 1):
            return False
        shortened = True
    return shortened or len(ga) != len(gb)


def _names_rule(a: str, b: str) -> tuple[float, str] | None:
    """The strongest name rule between two folded names (None: none holds)."""
    if a == b:
        return 0.95, "same name"
    wa, wb = a.split(), b.split()
    if sorted(wa) == sorted(wb):
        return 0.9, "same words in another order"
    if _initials_agree(wa, wb):
        return 0.85, "initials agree"
    if len(wa) == len(wb):
        diff = [(x, y) for x, y in zip(wa, wb, strict=True) if x != y]
        if (
            len(diff) == 1
            and min(map(len, diff[0])) >= 4
            and diff[0][0][0] == diff[0][1][0]  # typos rarely hit the first letter
            and _one_edit(*diff[0])
        ):
            return 0.8, "a typo apart"
    short, long = (wa, wb) if len(wa) < len(wb) else (wb, wa)
    if len(short) >= 2 and len(short) < len(long) and set(short) <= set(long):
        return 0.8, "the words of one within the other"
    return None


def compare(a: EntityProfile, b: EntityProfile) -> Match | None:
    """Whether ``a`` and ``b`` look like one entity, and why (None: they do not)."""
    if a.kind != b.kind or a.fact_id == b.fact_id:
        return None
    findings: list[str] = []
    score = 0.0
    if a.contacts & b.contacts:
        score = 1.0
        findings.append("a contact in common")
    main = _names_rule(a.main, b.main) if a.main and b.main else None
    named = 0.0  # the best name or alias rule
    if main is not None:
        named = main[0]
        findings.append(f"names: {main[1]}")
    if main is None or main[0] < 0.95:
        a_all, b_all = set(a.names), set(b.names)
        if (a_all & b_all) - {a.main, b.main} or a.main in b_all or b.main in a_all:
            named = max(named, 0.9)
            findings.append("an alias is the other's name")
        elif main is None:
            for x in a.names:
                rule = next((r for y in b.names if (r := _names_rule(x, y))), None)
                if rule is not None:
                    named = max(named, rule[0] - 0.05)
                    findings.append(f"aliases: {rule[1]}")
                    break
    score = max(score, named)
    if score < MATCH_THRESHOLD:
        return None
    agree = named >= MATCH_THRESHOLD or not (a.main and b.main)
    if not agree:
        findings.append("the main names differ")
    return Match(round(score, 3), tuple(findings), agree)


def preference_clash(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two preferences' attributes with the same (non-empty) context and opposed polarity."""
    ca, cb = a.get("context"), b.get("context")
    if not isinstance(ca, str) or not isinstance(cb, str) or not fold(ca) or fold(ca) != fold(cb):
        return False
    pa, pb = a.get("polarity"), b.get("polarity")
    return (pa in _FOR and pb in _AGAINST) or (pa in _AGAINST and pb in _FOR)


def text_similarity(a: Iterable[str], b: Iterable[str]) -> float:
    """The Jaccard similarity of two term sets (0 when either is empty)."""
    sa, sb = set(a), set(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def text_signature(terms: Iterable[str], bands: int = 6, rows: int = 2) -> tuple[int, ...]:
    """Min-hash band keys of a term set: two sets of Jaccard ≥ 0.8 share a band with a
    probability of about 0.99 (6 bands of 2); empty for fewer than three terms."""
    distinct = set(terms)
    if len(distinct) < 3:
        return ()
    from zlib import crc32

    hashed = [crc32(t.encode("utf-8")) for t in distinct]
    mins = [
        min((h * (2 * i + 1) + i * 0x9E3779B1) & 0xFFFFFFFF for h in hashed)
        for i in range(bands * rows)
    ]
    return tuple(hash((band, *mins[band * rows : (band + 1) * rows])) for band in range(bands))


#: The kinds a mentioned name may be (a name, not an identifier: assets are left out).
MENTION_KINDS = ("person", "organization", "location")


def mention_profiles(name: str) -> list[EntityProfile]:
    """What a name mentioned in a text would be as each kind of named entity."""
    out = []
    for kind in MENTION_KINDS:
        profile = profile_of("", kind, {_NAME_FIELD[kind]: name})
        if profile is not None and profile.names:
            out.append(profile)
    return out


def resolve_mention(name: str, known: Iterable[EntityProfile]) -> str | None:
    """The one entity among ``known`` that ``name`` names (its fact id), by the rules of
    :func:`compare` on the names (a contact cannot be mentioned); None when none does, or
    when more than one does (ambiguous: no link is better than a wrong one)."""
    wanted = {p.kind: p for p in mention_profiles(name)}
    found: set[str] = set()
    for entity in known:
        mine = wanted.get(entity.kind)
        if mine is None or entity.fact_id == "":
            continue
        match = compare(mine, entity)  # the mention has no contact: names decide
        if match is not None and match.names_agree:
            found.add(entity.fact_id)
    return found.pop() if len(found) == 1 else None
