"""The embedding model of one CLI run, built from ``embedding:`` of config.yaml.

Cheap when there is nothing to load: with ``provider: off`` (or
``EMBORNAL_EMBEDDING=off``) nothing is imported, and with ``provider: auto`` the
provider factory (and with it urllib, numpy, onnxruntime) is imported only when
the cache holds a model directory or ``embedding.model_path`` is set.

A model that fails to load never stops keyword use: :func:`load_embedder` returns
no provider and a warning line, unless the caller is ``strict`` (``reindex``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from embornal.errors import EmbeddingError, EmbornalError, InvalidInput
from embornal.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from embornal.adapters.config import EmbeddingConfig
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.adapters.embeddings.download import ProgressCallback

__all__ = ["Loaded", "load_embedder", "missing_model_error", "model_maybe_cached"]

#: Why a run has no provider.
OFF, ABSENT, FAILED = "off", "absent", "failed"


class Loaded:
    """The provider (None: keyword recall only) and, when None, why.

    A plain class, not a dataclass: it is made on every start-up that may embed.
    """

    __slots__ = ("detail", "hint", "provider", "warnings", "why_none")

    def __init__(
        self,
        provider: EmbeddingProvider | None,
        why_none: str | None = None,  # OFF, ABSENT or FAILED
        detail: str = "",  # FAILED: what went wrong
        hint: str = "",  # FAILED: what to do about it
        warnings: tuple[str, ...] = (),
    ) -> None:
        self.provider = provider
        self.why_none = why_none
        self.detail = detail
        self.hint = hint
        self.warnings = warnings

    def __repr__(self) -> str:
        return f"Loaded({self.provider!r}, {self.why_none!r})"


def model_maybe_cached(cfg: EmbeddingConfig, cache_dir: Path | str) -> bool:
    """True when ``auto`` could find a model: a ``model_path``, or any model directory.

    A false True only costs an import; a False means there is surely no model.
    """
    if cfg.model_path:
        return True
    models = os.path.join(cache_dir, "models")
    if not os.path.isdir(models):  # no model ever fetched: no path made
        return False
    from pathlib import Path

    try:
        return any(p.is_dir() for p in Path(models).iterdir())
    except OSError:
        return False


@contextmanager
def _captured_warnings() -> Iterator[list[str]]:
    """Collect what the embedding adapters log at WARNING and above (no stray stderr)."""
    import logging

    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(" ".join(record.getMessage().split()))

    logger = logging.getLogger("embornal.adapters.embeddings")
    handler = Collect(logging.WARNING)
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def load_embedder(
    cfg: EmbeddingConfig,
    cache_dir: Path | str,
    *,
    strict: bool = False,
    progress: ProgressCallback | None = None,
) -> Loaded:
    """Build the provider ``cfg`` asks for; never raise unless ``strict``."""
    kind = cfg.provider.strip().lower()
    if kind == "off":
        return Loaded(None, OFF)
    if kind == "auto" and not model_maybe_cached(cfg, cache_dir):
        return Loaded(None, ABSENT)
    try:
        with _captured_warnings() as warned:
            from pathlib import Path

            from embornal.adapters.embeddings.factory import build_provider

            provider = build_provider(cfg, Path(cache_dir), progress=progress)
    except EmbornalError as e:
        if strict:
            raise
        return _failed(e.message, e.hint)
    except Exception as e:  # broad: a model library's load raises its own errors
        message = " ".join(f"the embedding model failed to load: {type(e).__name__}: {e}".split())
        if strict:
            raise EmbeddingError(message) from e
        return _failed(message, "")
    if provider is None:
        if warned:
            return Loaded(None, FAILED, warned[0], warnings=tuple(warned))
        return Loaded(None, ABSENT)
    return Loaded(provider, warnings=tuple(warned))


def _failed(message: str, hint: str) -> Loaded:
    warning = f"{message}; recall is by keyword only" + (f" (hint: {hint})" if hint else "")
    return Loaded(None, FAILED, message, hint, (warning,))


def missing_model_error(loaded: Loaded, what: str, *, fallback: str) -> EmbornalError:
    """The error for ``what`` (e.g. ``--mode vector``) when ``loaded`` has no provider.

    No model (turned off, or none on disk) is invalid input (exit 2) with a hint;
    a model that failed to load is an embedding error (exit 6). ``fallback`` ends
    the hint, e.g. ``", or use --mode keyword"``.
    """
    if loaded.why_none == OFF:
        env = os.environ.get("EMBORNAL_EMBEDDING", "").strip()
        source = "EMBORNAL_EMBEDDING=off" if env else "embedding.provider: off in config.yaml"
        return InvalidInput(
            f"{what} needs an embedding model, and {source} turns embeddings off",
            hint=f"{'Unset EMBORNAL_EMBEDDING' if env else 'Change embedding.provider'}{fallback}.",
        )
    if loaded.why_none == FAILED:
        first = loaded.hint.rstrip(".") if loaded.hint else "Fix the model (`embornal model ls`)"
        return EmbeddingError(
            f"{what} needs an embedding model, and it failed to load: {loaded.detail}",
            hint=f"{first}{fallback}.",
        )
    return InvalidInput(
        f"{what} needs an embedding model, and none is on disk",
        hint="Download one with `embornal model pull` after "
        f"`pip install 'embornal[semantic]'`{fallback}.",
    )
