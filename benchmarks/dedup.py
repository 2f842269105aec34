"""Entity resolution: quality of the duplicate candidates and their cost at scale.

    python benchmarks/dedup.py [--entities 2000] [--dup-rate 0.4] [--size 100000]
                               [--calls 200] [--scan] [--out benchmarks/results/dedup.json]

Quality: ``--entities`` generated people (70 %) and organizations (30 %) with distinct names
(first names from a list, surnames and company words made of syllables), and for a
``--dup-rate`` share of them one duplicate, made by one of: an alias (the original lists a
nickname; the duplicate is stored under it), a typo (one letter changed, dropped or
swapped), initials (``J. Smith``, ``J. R. Smith``), accents (``José`` / ``Jose``), case and
punctuation, word order (``Smith John``), a shared e-mail address (the duplicate stored
under a user name, ``jsmith``: a contradiction, one entity with two names), a legal
suffix (``Acme`` / ``ACME Inc.``). Everything is stored through ``Memory.store_many``;
the candidates are the conflicts the stores opened. Precision = true pairs among the
candidates; recall = found pairs among the true ones. Targets ≥ 0.95 / ≥ 0.90.

Cost: a memory of ``--size`` facts (a fifth of them people and organizations, the rest
``scale.py`` sentences), then ``--calls`` new people: the candidates of one (its keys, one
indexed lookup, the comparisons; ``conflict_detect.candidates``) timed alone, and a whole
``store`` of one person (with its detection) beside a store of a plain fact. Target
≤ 20 ms for the candidates. ``--scan`` also times one ``conflict scan`` of that memory.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    latency_summary,
    machine_info,
    parse_sizes,
    results_parser,
    save_results,
)
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact

SECTION = "Entity resolution: duplicate candidates (decision 0058)"
TARGET_PRECISION, TARGET_RECALL, TARGET_MS = 0.95, 0.90, 20.0

_FIRST = (
    "James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel "
    "Matthew Anthony Mark Donald Steven Paul Andrew Joshua Kenneth Kevin Brian George Timothy "
    "Ronald Edward Jason Jeffrey Ryan Jacob Gary Nicholas Eric Jonathan Stephen Larry Justin "
    "Scott Brandon Benjamin Samuel Gregory Alexander Patrick Frank Raymond Jack Dennis Jerry "
    "Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy Betty "
    "Margaret Sandra Ashley Kimberly Emily Donna Michelle Carol Amanda Dorothy Melissa Deborah "
    "Stephanie Rebecca Sharon Laura Cynthia Kathleen Amy Angela Shirley Anna Brenda Pamela "
    "Emma Nicole Helen Samantha Katherine Christine Debra Rachel Carolyn Janet Catherine Maria "
    "Heather Diane Ruth Julie Olivia Joyce Virginia Victoria Kelly Lauren Christina Joan "
    "Evelyn Judith Megan Andrea Cheryl Hannah Jacqueline Martha Gloria Teresa Ann Sara Madison "
    "Frances Kathryn Janice Jean Abigail Alice Judy Sophia Grace Denise Amber Doris Marilyn "
    "Danielle Beverly Isabella Theresa Diana Natalie Brittany Charlotte Marie Kayla Alexis Lori"
)
FIRST = _FIRST.split()
ACCENTED = {
    "Jose": "José",
    "Rene": "René",
    "Zoe": "Zoë",
    "Andre": "André",
    "Ines": "Inès",
    "Noel": "Noël",
    "Chloe": "Chloé",
    "Jurgen": "Jürgen",
    "Bjorn": "Björn",
}
NICK = {
    "Robert": "Bob",
    "William": "Bill",
    "Richard": "Dick",
    "Elizabeth": "Liz",
    "Margaret": "Peggy",
    "Katherine": "Kate",
    "Michael": "Mike",
    "Christopher": "Chris",
    "Jennifer": "Jen",
    "Samuel": "Sam",
    "Alexander": "Alex",
    "Patricia": "Pat",
    "Jonathan": "Jon",
    "Benjamin": "Ben",
    "Nicholas": "Nick",
    "Timothy": "Tim",
}
_SYLLABLES = (
    "ab ar ber bel cal cor dan del en er fal fen gar gol han hel in ir jor kal ker "
    "lan lor mar mel nor nal or os par pel quin ran rol sal sen tor tal ul var vel "
    "wen wil yor zan"
)
SYLLABLES = _SYLLABLES.split()
_ORG_WORDS = (
    "Systems Labs Partners Group Works Logistics Foods Energy Health Capital Media "
    "Robotics Textiles Analytics Studio Holdings"
)
ORG_WORDS = _ORG_WORDS.split()
SUFFIXES = ("Inc.", "Ltd", "LLC", "GmbH", "Corp.")


def _word(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def _typo(rng: random.Random, word: str) -> str:
    i = rng.randrange(1, len(word) - 1)
    op = rng.choice(("swap", "drop", "change"))
    if op == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if op == "drop":
        return word[:i] + word[i + 1 :]
    letter = rng.choice([c for c in "aeioulnrst" if c != word[i]])
    return word[:i] + letter + word[i + 1 :]


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _person(rng: random.Random, used: set[str]) -> dict[str, Any]:
    while True:
        first = rng.choice([*FIRST, *ACCENTED.values()])
        middle = rng.choice(FIRST) if rng.random() < 0.3 else None
        last = _word(rng, rng.choice((2, 3)))
        name = " ".join(p for p in (first, middle, last) if p)
        if _plain(name).lower() not in used:
            used.add(_plain(name).lower())
            return {"first": first, "middle": middle, "last": last, "full_name": name}


def _org(rng: random.Random, used: set[str]) -> dict[str, Any]:
    while True:
        name = f"{_word(rng, rng.choice((2, 3)))} {rng.choice(ORG_WORDS)}"
        if name.lower() not in used:
            used.add(name.lower())
            return {"name": name}


Attrs = dict[str, Any]


def _duplicate(rng: random.Random, kind: str, base: Attrs, n: int) -> tuple[str, Attrs, Attrs]:
    """(how, the original's attributes, the duplicate's attributes)."""
    if kind == "organization":
        name = base["name"]
        how = rng.choice(("suffix", "case", "typo", "alias"))
        if how == "suffix":
            return how, {"name": name}, {"name": f"{name.upper()} {rng.choice(SUFFIXES)}"}
        if how == "case":
            return how, {"name": name}, {"name": name.lower().replace(" ", "-")}
        if how == "typo":
            word, rest = name.split(" ", 1)
            return how, {"name": name}, {"name": f"{_typo(rng, word)} {rest}"}
        short = "".join(w[0] for w in name.split()).upper() + f"{n}"
        return how, {"name": name, "aliases": [short]}, {"name": short}
    first, middle, last, full = base["first"], base["middle"], base["last"], base["full_name"]
    orig: dict[str, Any] = {"full_name": full}
    how = rng.choice(("alias", "typo", "initials", "accents", "case", "order", "contact"))
    if how == "alias":
        nick = NICK.get(first) or first[:3]
        orig["aliases"] = [f"{nick} {last}"]
        return how, orig, {"full_name": f"{nick} {last}"}
    if how == "typo":
        return how, orig, {"full_name": full.replace(last, _typo(rng, last))}
    if how == "initials":
        mid = f" {middle[0]}." if middle else ""
        return how, orig, {"full_name": f"{first[0]}.{mid} {last}"}
    if how == "accents":
        plain = _plain(full)
        if plain == full:  # an ASCII name: the duplicate gets accents where it can
            plain = full.replace("e", "é", 1)
        return how, orig, {"full_name": plain}
    if how == "case":
        return how, orig, {"full_name": full.upper().replace(" ", "  ")}
    if how == "order":
        return how, orig, {"full_name": f"{last} {first}"}
    mail = f"{_plain(first).lower()}.{last.lower()}{n}@example.org"
    orig["aliases"] = [mail]
    handle = _plain(f"{first[0]}{last}").lower()  # stored under a user name: names differ
    return how, orig, {"full_name": handle, "aliases": [mail.upper()]}


def quality(entities: int, dup_rate: float, seed: int = 11) -> dict[str, Any]:
    rng = random.Random(f"{seed}:quality")
    used: set[str] = set()
    items: list[NewFact] = []
    truth: set[frozenset[int]] = set()
    by_how: dict[str, list[frozenset[int]]] = {}
    for n in range(entities):
        kind = "person" if rng.random() < 0.7 else "organization"
        base = _person(rng, used) if kind == "person" else _org(rng, used)
        attrs = {"full_name": base["full_name"]} if kind == "person" else dict(base)
        if rng.random() < dup_rate:
            how, attrs, dup = _duplicate(rng, kind, base, n)
            items.append(
                NewFact(f"/e/{n}", str(next(iter(attrs.values()))), kind=kind, attributes=attrs)
            )
            items.append(
                NewFact(f"/e/{n}d", str(next(iter(dup.values()))), kind=kind, attributes=dup)
            )
            pair = frozenset({len(items) - 2, len(items) - 1})
            truth.add(pair)
            by_how.setdefault(how, []).append(pair)
        else:
            items.append(
                NewFact(f"/e/{n}", str(next(iter(attrs.values()))), kind=kind, attributes=attrs)
            )
    order = list(range(len(items)))
    rng.shuffle(order)  # duplicates arrive in any order, far apart
    with tempfile.TemporaryDirectory() as tmp, Memory.open(Path(tmp) / "q.db") as mem:
        index: dict[str, int] = {}
        for start in range(0, len(order), 500):
            chunk = order[start : start + 500]
            for i, fact in zip(chunk, mem.store_many([items[i] for i in chunk]), strict=True):
                index[fact.id] = i
        found = {
            frozenset(index[m] for m in s.members)
            for s in mem._store.conflicts.conflict_states(status="open", limit=10**9)
            if s.conflict_class in ("duplicate", "contradiction")
        }
    hits = found & truth
    if "--show-misses" in sys.argv:
        for pair in list(found - truth)[:25]:
            print("FP", [items[i].attributes for i in pair], file=sys.stderr)
        for pair in list(truth - found)[:15]:
            print("FN", [items[i].attributes for i in pair], file=sys.stderr)
    precision = len(hits) / len(found) if found else 1.0
    recall = len(hits) / len(truth) if truth else 1.0
    recall_by = {how: round(len(set(p) & found) / len(p), 3) for how, p in sorted(by_how.items())}
    return {
        "entities": entities,
        "facts": len(items),
        "true_pairs": len(truth),
        "candidates": len(found),
        "true_positives": len(hits),
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "recall_by_variant": recall_by,
    }


def cost(size: int, calls: int, scan: bool, seed: int = 13) -> dict[str, Any]:
    from embornal.service.conflicts.detect import candidates

    rng = random.Random(f"{seed}:cost")
    corpus = build_corpus(seed, min(size, 100_000))
    used: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:  # noqa: SIM117 (the file outlives the memory)
        with Memory.open(Path(tmp) / "c.db", clock=FixedClock()) as mem:
            t = time.perf_counter()
            for start in range(0, size, 1000):
                batch = []
                for i in range(start, min(size, start + 1000)):
                    if i % 5 == 0:
                        p = _person(rng, used)
                        batch.append(
                            NewFact(
                                f"/people/p{i % 300}",
                                p["full_name"],
                                kind="person",
                                attributes={"full_name": p["full_name"]},
                            )
                        )
                    else:
                        batch.append(NewFact(f"/area{i % 200}/t{i % 7}", make_content(rng, corpus)))
                mem.store_many(batch)
            load_s = time.perf_counter() - t
            ctx = mem._ctx  # type: ignore[attr-defined]
            cand_ns, store_ns, plain_ns, found = [], [], [], 0
            for n in range(calls):
                p = _person(rng, used) if n % 2 else {"full_name": next(iter(used)).title()}
                attrs = {"full_name": p["full_name"]}
                t0 = time.perf_counter_ns()
                fact = mem.store(f"/people/new{n}", p["full_name"], kind="person", attributes=attrs)
                store_ns.append(time.perf_counter_ns() - t0)
                t0 = time.perf_counter_ns()
                found += len(candidates(ctx, fact))
                cand_ns.append(time.perf_counter_ns() - t0)
                t0 = time.perf_counter_ns()
                mem.store(f"/notes/n{n % 50}", make_content(rng, corpus))
                plain_ns.append(time.perf_counter_ns() - t0)
            scan_s = None
            if scan:
                t0 = time.perf_counter()
                opened = len(mem.scan_conflicts(stale=False))
                scan_s = {"seconds": round(time.perf_counter() - t0, 2), "opened": opened}
    return {
        "size": size,
        "load_s": round(load_s, 1),
        "candidates_ms": latency_summary(cand_ns),
        "store_person_ms": latency_summary(store_ns),
        "store_plain_ms": latency_summary(plain_ns),
        "candidates_found": found,
        "scan": scan_s,
    }


def markdown(qs: list[dict[str, Any]], c: dict[str, Any], info: dict[str, Any]) -> str:
    ok = lambda v, t: "met" if v >= t else "**missed**"  # noqa: E731
    cand = c["candidates_ms"]
    lines = [
        "Quality: generated people (70 %) and organizations, 40 % of them with one duplicate "
        "(alias, typo, initials, accents, case and punctuation, word order, a shared e-mail "
        "under another name, a legal suffix); the candidates are the conflicts the stores "
        "opened (duplicates and contradictions).",
        "",
        "| entities (facts) | candidates | true pairs | precision (target ≥ 0.95) "
        "| recall (target ≥ 0.90) |",
        "|---|---:|---:|---:|---:|",
    ]
    for q in qs:
        lines.append(
            f"| {q['entities']:,} ({q['facts']:,}) | {q['candidates']:,} | {q['true_pairs']:,} "
            f"| {q['precision']} ({ok(q['precision'], TARGET_PRECISION)}) | {q['recall']} "
            f"({ok(q['recall'], TARGET_RECALL)}) |"
        )
    lines += [
        "",
        "Recall by variant (largest set): "
        + ", ".join(f"{k} {v}" for k, v in qs[-1]["recall_by_variant"].items())
        + ".",
        "",
        f"Cost at {c['size']:,} facts (a fifth of them people; loaded in {c['load_s']} s), "
        f"{cand['n']} new people, p50 / p95 ms:",
        "",
        "| candidates of one new person | store of a person (with detection) "
        "| store of a plain fact |",
        "|---:|---:|---:|",
        f"| {cand['p50']} / {cand['p95']} | {c['store_person_ms']['p50']} / "
        f"{c['store_person_ms']['p95']} | {c['store_plain_ms']['p50']} / "
        f"{c['store_plain_ms']['p95']} |",
        "",
        f"Target candidates p50 ≤ {TARGET_MS:g} ms: {cand['p50']} ms, "
        f"{'met' if cand['p50'] <= TARGET_MS else '**missed**'}.",
    ]
    if c.get("scan"):
        lines += [
            "",
            f"One `conflict scan --no-stale` of that memory: {c['scan']['seconds']} s "
            f"({c['scan']['opened']} conflicts opened).",
        ]
    when = time.strftime("%Y-%m-%d at %H:%M UTC", time.gmtime())
    lines += [
        "",
        f"Measured {when} on the {info.get('cpu_count')}-CPU machine, commit "
        f"`{info.get('git_commit')}`.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "dedup.json")
    ap.add_argument("--entities", default="2000,5000", help="one quality run per size")
    ap.add_argument("--dup-rate", type=float, default=0.4)
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--scan", action="store_true")
    ap.add_argument("--show-misses", action="store_true", help="print some misses (stderr)")
    args = ap.parse_args(argv)
    info = machine_info()
    qs = []
    for n in parse_sizes(ap, args.entities):
        print(f"[dedup] quality on {n:,} entities ...", file=sys.stderr, flush=True)
        qs.append(quality(n, args.dup_rate))
        print(f"[dedup] {qs[-1]}", file=sys.stderr, flush=True)
    print(f"[dedup] cost at {args.size:,} facts ...", file=sys.stderr, flush=True)
    c = cost(args.size, args.calls, args.scan)
    report = {"machine": info, "quality": qs, "cost": c}
    save_results(args, report, SECTION, markdown(qs, c, info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
