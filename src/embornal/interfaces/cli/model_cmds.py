"""``embornal model pull|ls|rm``: the embedding models (and the reranker) in the cache dir."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from embornal.interfaces.cli.app import Context
from embornal.interfaces.cli.progress import DownloadProgress, fmt_bytes
from embornal.interfaces.cli.render import cell, markdown_table

if TYPE_CHECKING:
    from embornal.adapters.embeddings.download import ModelSpec

__all__ = ["ls", "pull", "rm"]


def _configured_model(ctx: Context) -> str | None:
    """The cached model ``auto``/``onnx`` would load, or None (off, a path, a server)."""
    from embornal.adapters.embeddings.factory import DEFAULT_MODEL_NAME

    cfg = ctx.config.embedding
    if cfg.provider not in ("auto", "onnx") or cfg.model_path:
        return None
    return cfg.model or DEFAULT_MODEL_NAME


def _cache(ctx: Context) -> Path:
    ctx.prepare()
    return ctx.dirs.cache_dir


def _download(ctx: Context, spec: ModelSpec, cache: Path) -> tuple[Path, int]:
    """Download ``spec`` into ``cache``, its progress shown: its directory and size."""
    from embornal.adapters.embeddings.download import download_model, list_models

    shown = DownloadProgress(ctx.err)
    try:
        directory = download_model(spec, cache, progress=shown)
    finally:
        shown.finish()
    size = next((m.size_bytes for m in list_models(cache) if m.path == directory), 0)
    return directory, size


def _pull_reranker(ctx: Context) -> int:
    """``model pull --reranker``: the cross-encoder of ``recall --rerank`` (decision 0115)."""
    from embornal.adapters.embeddings.download import resolve_onnx_spec
    from embornal.adapters.rerank.factory import DEFAULT_RERANKER, DEFAULT_RERANKER_NAME

    cache = _cache(ctx)
    configured = ctx.config.rerank.model or DEFAULT_RERANKER_NAME
    name: str = ctx.opt("name") or configured
    spec = DEFAULT_RERANKER if name == DEFAULT_RERANKER_NAME else resolve_onnx_spec(name)
    directory, size = _download(ctx, spec, cache)
    if ctx.json:
        ctx.emit(
            {
                "name": spec.repo,
                "path": directory,
                "size_bytes": size,
                "files": spec.files,
                "role": "reranker",
            }
        )
    else:
        ctx.say(f"{spec.repo} ({fmt_bytes(size)}) is in {directory}")
    if ctx.config.rerank.model_path:
        ctx.note("rerank.model_path is set: recall --rerank uses that directory, not this one")
    elif spec.repo != configured:
        ctx.note(f"to use it, set rerank.model: {spec.repo} in {ctx.dirs.config_file}")
    else:
        ctx.note("next: `embornal memory recall QUERY --rerank`")
    return 0


def pull(ctx: Context) -> int:
    """Download NAME (default: the model the config asks for) into the cache."""
    if ctx.opt("reranker"):
        return _pull_reranker(ctx)
    from embornal.adapters.embeddings.download import resolve_onnx_spec
    from embornal.adapters.embeddings.factory import DEFAULT_MODEL, DEFAULT_MODEL_NAME

    cache = _cache(ctx)
    configured = _configured_model(ctx)
    name: str = ctx.opt("name") or configured or DEFAULT_MODEL_NAME
    spec = DEFAULT_MODEL if name == DEFAULT_MODEL_NAME else resolve_onnx_spec(name)
    directory, size = _download(ctx, spec, cache)
    if ctx.json:
        ctx.emit({"name": spec.repo, "path": directory, "size_bytes": size, "files": spec.files})
    else:
        ctx.say(f"{spec.repo} ({fmt_bytes(size)}) is in {directory}")
    cfg = ctx.config.embedding
    if cfg.provider == "off":
        ctx.note("embeddings are off (embedding.provider or EMBORNAL_EMBEDDING): keyword only")
    elif configured is not None and spec.repo != configured:
        ctx.note(
            f"to use it, set embedding.model: {spec.repo} in {ctx.dirs.config_file} "
            "(and embedding.dims to its vector width)"
        )
    elif configured is not None:
        ctx.note("next: `embornal memory reindex` gives a vector to each fact stored before")
    return 0


def ls(ctx: Context) -> int:
    """The models in the cache, with their size on disk."""
    from embornal.adapters.embeddings.download import list_models, models_root
    from embornal.adapters.rerank.factory import DEFAULT_RERANKER_NAME

    cache = _cache(ctx)
    models = list_models(cache)
    configured = _configured_model(ctx)
    rerank = ctx.config.rerank
    in_use = {configured, None if rerank.model_path else rerank.model or DEFAULT_RERANKER_NAME}
    if ctx.json:
        ctx.emit(
            [
                {
                    "name": m.name,
                    "path": m.path,
                    "size_bytes": m.size_bytes,
                    "complete": m.complete,
                    "revision": m.revision,
                    "in_use": m.name in in_use,
                }
                for m in models
            ]
        )
        return 0
    if not models:
        ctx.say(f"(no models in {models_root(cache)}; `embornal model pull` fetches the default)")
        return 0
    rows = [
        [
            cell(m.name),
            fmt_bytes(m.size_bytes),
            "complete" if m.complete else "partial: pull again",
            "yes" if m.name in in_use else "-",
        ]
        for m in models
    ]
    ctx.say(markdown_table(["Model", "Size", "State", "In use"], rows, right=(1,)))
    return 0


def rm(ctx: Context) -> int:
    """Delete one model from the cache (``owner/name`` or its directory name)."""
    from embornal.adapters.embeddings.download import remove_model

    name: str = ctx.opt("name")
    freed = remove_model(_cache(ctx), name)
    if ctx.json:
        ctx.emit({"name": name, "freed_bytes": freed})
    else:
        ctx.say(f"removed {name} ({fmt_bytes(freed)} freed)")
    return 0
