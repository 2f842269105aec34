"""Synthetic texts for ``benchmarks/embed_throughput.py``: agent facts, long notes, queries.

Seeded, so every worker process and every run with the same arguments embeds the same
texts; ``token_stats`` describes them (characters, and tokens given a ``tokenizer.json``).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.scale import build_corpus, make_content

TEXT_SETS = ("agent", "synthetic", "long")
LONG_MIN_CHARS = 900
LONG_MAX_CHARS = 1_000  # embornal's CHUNK_CHARS: one piece

_PEOPLE = (
    "Ana",
    "Marc",
    "Priya",
    "Jordi",
    "Lena",
    "Tomás",
    "Yuki",
    "Omar",
    "Sara",
    "Kwame",
    "Elif",
    "Noah",
    "Mei",
    "Carlos",
    "Ingrid",
    "Ravi",
)
_ROLES = (
    "tech lead",
    "product owner",
    "on-call engineer",
    "designer",
    "data scientist",
    "security reviewer",
    "release manager",
    "team manager",
)
_PROJECTS = (
    "billing",
    "search",
    "onboarding",
    "mobile app",
    "data pipeline",
    "analytics dashboard",
    "payments API",
    "internal wiki",
    "recommendation",
    "checkout",
)
_TOOLS = (
    "PostgreSQL",
    "SQLite",
    "Redis",
    "Kafka",
    "Terraform",
    "Docker",
    "GitHub Actions",
    "pytest",
    "ruff",
    "VS Code",
    "Neovim",
    "Grafana",
    "Kubernetes",
    "uv",
    "Poetry",
)
_TASKS = (
    "code review",
    "deployments",
    "database migrations",
    "load testing",
    "release notes",
    "incident reports",
    "unit tests",
    "nightly backups",
    "feature flags",
    "log search",
)
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_CITIES = ("Barcelona", "Lisbon", "Nairobi", "Osaka", "Toronto", "Berlin", "Pune", "Lima")
_REASONS = (
    "it is already used by the platform team",
    "the licence is simpler",
    "it was twice as fast in our benchmark",
    "the old setup kept timing out under load",
    "nobody on the team knows the alternative",
    "it works offline on laptops",
)
_SYMPTOMS = (
    "requests time out after 30 seconds",
    "the totals are off by one cent",
    "the page renders twice",
    "duplicate emails are sent",
    "the cache is never invalidated",
)
_WORKAROUNDS = (
    "restart the worker",
    "clear the cache by hand",
    "retry with a smaller batch",
    "pin the client to the previous version",
)
_FOODS = ("peanuts", "shellfish", "gluten", "dairy", "sesame")
_RELATIONS = ("sister", "brother", "manager", "mentor", "neighbour", "cousin")


def _fact_templates() -> tuple[Callable[[random.Random], str], ...]:
    def c(rng: random.Random, items: Sequence[str]) -> str:
        return rng.choice(items)

    def hour(rng: random.Random) -> str:
        return f"{rng.randint(7, 18):02d}:{rng.choice(('00', '15', '30', '45'))}"

    def date(rng: random.Random) -> str:
        return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"

    return (
        lambda r: (
            f"{c(r, _PEOPLE)} is the {c(r, _ROLES)} for the {c(r, _PROJECTS)} project "
            f"and prefers chat over email for quick questions."
        ),
        lambda r: (
            f"The user prefers {c(r, _TOOLS)} for {c(r, _TASKS)}; do not suggest "
            f"{c(r, _TOOLS)} unless asked."
        ),
        lambda r: (
            f"The {c(r, _PROJECTS)} service is deployed every {c(r, _WEEKDAYS)} at "
            f"{hour(r)} UTC with {c(r, _TOOLS)}."
        ),
        lambda r: (
            f"Decision on {date(r)}: use {c(r, _TOOLS)} instead of {c(r, _TOOLS)} for "
            f"{c(r, _TASKS)}, because {c(r, _REASONS)}."
        ),
        lambda r: (
            f"{c(r, _PEOPLE)} is allergic to {c(r, _FOODS)} and cannot attend meetings "
            f"before {hour(r)} on {c(r, _WEEKDAYS)}s."
        ),
        lambda r: (
            f"Known bug in {c(r, _PROJECTS)}: {c(r, _SYMPTOMS)} when the queue is full; "
            f"the workaround is to {c(r, _WORKAROUNDS)}."
        ),
        lambda r: (
            f"Remember that {c(r, _PEOPLE)} asked for a summary of the "
            f"{c(r, _PROJECTS)} {c(r, _TASKS)} by {c(r, _WEEKDAYS)}."
        ),
        lambda r: (
            f"The user's {c(r, _RELATIONS)} {c(r, _PEOPLE)} lives in {c(r, _CITIES)} "
            f"and has a birthday on {date(r)[5:]}."
        ),
        lambda r: (
            f"The {c(r, _PROJECTS)} team agreed to move {c(r, _TASKS)} to "
            f"{c(r, _TOOLS)} before the Q{r.randint(1, 4)} release."
        ),
        lambda r: (
            f"{c(r, _PEOPLE)} from {c(r, _CITIES)} reviews {c(r, _TASKS)} for "
            f"{c(r, _PROJECTS)}; send changes before {hour(r)}."
        ),
    )


_TEMPLATES = _fact_templates()

_QUERY_TEMPLATES: tuple[Callable[[random.Random], str], ...] = (
    lambda r: f"who is the {r.choice(_ROLES)} for {r.choice(_PROJECTS)}",
    lambda r: f"when is {r.choice(_PROJECTS)} deployed",
    lambda r: f"what does the user prefer for {r.choice(_TASKS)}",
    lambda r: f"why did we choose {r.choice(_TOOLS)}",
    lambda r: f"{r.choice(_PEOPLE)} allergies",
    lambda r: f"{r.choice(_PROJECTS)} known bugs workaround",
    lambda r: f"birthday of the user's {r.choice(_RELATIONS)}",
    lambda r: f"{r.choice(_TOOLS)} {r.choice(_TASKS)}",
)


_SUFFIXES: tuple[Callable[[random.Random], str], ...] = (
    lambda r: f" Confirmed by {r.choice(_PEOPLE)} in the {r.choice(_WEEKDAYS)} stand-up.",
    lambda r: f" Check again after the {r.choice(_PROJECTS)} migration.",
    lambda r: f" Source: a chat with {r.choice(_PEOPLE)} in {r.choice(_CITIES)}.",
    lambda r: " The user said this twice, so treat it as important.",
)


def make_agent_fact(rng: random.Random) -> str:
    """One short English fact of the kind an agent stores (about 60-200 characters)."""
    text = rng.choice(_TEMPLATES)(rng)
    if rng.random() < 0.5:
        text += rng.choice(_SUFFIXES)(rng)
    return text


def make_long_fact(rng: random.Random) -> str:
    """Agent facts run together into one note of LONG_MIN_CHARS..LONG_MAX_CHARS characters."""
    text = make_agent_fact(rng)
    misses = 0
    while len(text) < LONG_MIN_CHARS or (misses < 20 and len(text) < LONG_MAX_CHARS - 60):
        fact = make_agent_fact(rng)
        if len(text) + 1 + len(fact) <= LONG_MAX_CHARS:
            text += " " + fact
        else:
            misses += 1
            if misses >= 200:  # nothing fits: pad with a short clause
                text = (text + " See the notes." * 80)[:LONG_MAX_CHARS].rstrip()
    return text


def make_query(rng: random.Random) -> str:
    return rng.choice(_QUERY_TEMPLATES)(rng)


@dataclass(frozen=True)
class Texts:
    """Everything a worker embeds: the document sets, the queries, the warm-up."""

    sets: dict[str, list[str]]
    queries: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"sets": self.sets, "queries": self.queries}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Texts:
        return cls(sets={k: list(v) for k, v in data["sets"].items()}, queries=data["queries"])


def make_texts(seed: int, count: int, long_count: int, queries: int) -> Texts:
    """The seeded texts: the same in every worker and every run with the same arguments."""
    rng = random.Random(f"{seed}:agent")
    agent = [make_agent_fact(rng) for _ in range(count)]
    corpus = build_corpus(seed, max(count, 1))
    rng = random.Random(f"{seed}:synthetic")
    synthetic = [make_content(rng, corpus) for _ in range(count)]
    rng = random.Random(f"{seed}:long")
    long = [make_long_fact(rng) for _ in range(long_count)]
    rng = random.Random(f"{seed}:queries")
    return Texts(
        sets={"agent": agent, "synthetic": synthetic, "long": long},
        queries=[make_query(rng) for _ in range(queries)],
    )


def token_stats(tokenizer_file: Path | None, texts: Texts, limit: int | None) -> dict[str, Any]:
    """Mean characters (and tokens, given a tokenizer.json) of each set and of the queries,
    and the share of texts over the model's token limit."""
    out: dict[str, Any] = {}
    tokenizer: Any = None
    if tokenizer_file is not None and tokenizer_file.is_file():
        try:
            import tokenizers
        except ImportError:
            pass
        else:
            tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
            tokenizer.no_truncation()
            tokenizer.no_padding()
    for name, items in [*texts.sets.items(), ("queries", texts.queries)]:
        entry: dict[str, Any] = {
            "count": len(items),
            "mean_chars": round(statistics.fmean(len(t) for t in items), 1) if items else None,
        }
        if tokenizer is not None and items:
            lengths = [len(e.ids) for e in tokenizer.encode_batch(items)]
            entry["mean_tokens"] = round(statistics.fmean(lengths), 1)
            entry["max_tokens"] = max(lengths)
            if limit:
                entry["over_limit_share"] = round(sum(n > limit for n in lengths) / len(items), 3)
        out[name] = entry
    return out
