"""Fetch model files from a Hugging Face-style hub into embornal's cache.

Files are fetched from ``{endpoint}/{repo}/resolve/{revision}/{filename}`` (the
endpoint is a parameter, else ``$HF_ENDPOINT``, else ``https://huggingface.co``)
into ``{cache_dir}/models/{repo with '/' as '--'}/{filename}``. Each file is
written to ``{filename}.part`` first; a later call resumes a part with an HTTP
``Range`` request (and starts over when the server ignores it) and renames the
part into place once it is whole and, when its sha256 is known, checked. The
sha256 is known when the caller gives it or when the hub sends it (the
``X-Linked-Etag`` of a Git LFS file).

A finished model directory holds ``.embornal-model.json``, which records the
repository, revision and each file's size and sha256; ``list_models`` and
``remove_model`` back ``embornal model ls`` and ``embornal model rm``.

Only the standard library is used for HTTP.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from pathlib import Path, PurePosixPath
from typing import IO, Any

from embornal.adapters.embeddings.quantize import INT8_FILE, quantize_int8
from embornal.domain.values import value
from embornal.errors import ConfigError, EmbeddingError, InvalidInput, NotFound

__all__ = [
    "DEFAULT_ENDPOINT",
    "MANIFEST_NAME",
    "CachedModel",
    "ModelSpec",
    "ProgressCallback",
    "configured_model_dir",
    "download_file",
    "download_model",
    "hub_endpoint",
    "is_model_cached",
    "list_models",
    "model_dir",
    "models_root",
    "remove_model",
    "resolve_onnx_spec",
    "select_onnx_files",
]

DEFAULT_ENDPOINT = "https://huggingface.co"
MANIFEST_NAME = ".embornal-model.json"
PART_SUFFIX = ".part"

ProgressCallback = Callable[[str, int, int], None]
"""``progress(filename, done_bytes, total_bytes)``; ``total_bytes`` is 0 when unknown."""

_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_CONTENT_RANGE = re.compile(r"^bytes\s+(\d+)-(\d+)/(\d+|\*)$")
_CHUNK = 1 << 20


@value
class ModelSpec:
    """A model on the hub: its repository, the files embornal needs, their checksums."""

    repo: str
    files: tuple[str, ...]
    revision: str = "main"
    dims: int | None = None
    sha256: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    int8: bool = False
    """Quantize the ONNX file to int8 once fetched (``model_int8.onnx`` beside it, which
    is the file that loads; decision 0118)."""

    @property
    def int8_file(self) -> str | None:
        """The quantized file's name in the model directory, or None."""
        if not self.int8:
            return None
        source = next((f for f in self.files if f.endswith(".onnx")), None)
        return None if source is None else str(PurePosixPath(source).with_name(INT8_FILE))

    @property
    def dir_name(self) -> str:
        return _dir_name(self.repo)


@value
class CachedModel:
    """A model directory in the cache, as ``embornal model ls`` shows it."""

    name: str
    path: Path
    size_bytes: int
    complete: bool
    revision: str | None = None


def hub_endpoint(endpoint: str | None = None) -> str:
    """The hub base URL: ``endpoint``, else ``$HF_ENDPOINT``, else the public hub."""
    chosen = endpoint or os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT
    return chosen.rstrip("/")


def _check_repo(repo: str) -> str:
    if not _REPO.match(repo) or ".." in repo:
        raise InvalidInput(
            f"not a model repository name: {repo!r}",
            hint="Name a model as owner/name, for example intfloat/multilingual-e5-base.",
        )
    return repo


def _dir_name(repo: str) -> str:
    return _check_repo(repo).replace("/", "--")


def _check_filename(filename: str) -> PurePosixPath:
    path = PurePosixPath(filename)
    if (
        not filename
        or path.is_absolute()
        or any(part in ("", ".", "..") for part in path.parts)
        or "\\" in filename
        or filename.endswith(PART_SUFFIX)
    ):
        raise InvalidInput(f"not a file name inside a model repository: {filename!r}")
    return path


def models_root(cache_dir: Path) -> Path:
    """``{cache_dir}/models``, where every model directory lives."""
    return Path(cache_dir) / "models"


def model_dir(cache_dir: Path, repo: str) -> Path:
    """The directory that holds (or will hold) ``repo``'s files."""
    return models_root(cache_dir) / _dir_name(repo)


def configured_model_dir(cache_dir: Path, name: str, section: str) -> Path:
    """:func:`model_dir` of the model ``section.model`` names (:class:`ConfigError` when it
    names none)."""
    try:
        return model_dir(cache_dir, name)
    except InvalidInput as e:
        raise ConfigError(
            f"{section}.model is not a model name: {name!r}",
            hint=f"Name a hub model as owner/name, or set {section}.model_path to a directory.",
        ) from e


def is_model_cached(cache_dir: Path, spec: ModelSpec) -> bool:
    """Whether every file of ``spec`` is in the cache, whole (no download pending)."""
    directory = model_dir(cache_dir, spec.repo)
    names = (*spec.files, spec.int8_file) if spec.int8_file else spec.files
    return all((directory / name).is_file() for name in names)


def _file_url(endpoint: str, repo: str, revision: str, filename: str) -> str:
    return "{}/{}/resolve/{}/{}".format(
        endpoint,
        urllib.parse.quote(repo, safe="/"),
        urllib.parse.quote(revision, safe=""),
        urllib.parse.quote(filename, safe="/"),
    )


class _RedirectRecorder(urllib.request.HTTPRedirectHandler):
    """Follows redirects as usual, keeping the hub's ``X-Linked-Etag`` on the way."""

    def __init__(self) -> None:
        super().__init__()
        self.linked_etag: str | None = None

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        etag = headers.get("X-Linked-Etag")
        if etag:
            self.linked_etag = etag
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _sha_from_etag(etag: str | None) -> str | None:
    if not etag:
        return None
    value = etag.strip()
    if value.startswith("W/"):
        value = value[2:]
    value = value.strip('"').lower()
    return value if _SHA256.match(value) else None


def _hash_file(path: Path, hasher: Any) -> None:
    with path.open("rb") as f:
        for block in iter(lambda: f.read(_CHUNK), b""):
            hasher.update(block)


def download_file(
    url: str,
    dest: Path,
    *,
    name: str | None = None,
    expected_sha256: str | None = None,
    progress: ProgressCallback | None = None,
    headers: Mapping[str, str] | None = None,
    private_headers: Mapping[str, str] | None = None,
    timeout: float = 60.0,
) -> str:
    """Fetch ``url`` into ``dest`` by way of ``dest.part``; return the file's sha256.

    A ``.part`` left by an interrupted call is resumed with ``Range``; a server
    that answers 200 instead of 206 sends the whole file again and the part is
    rewritten from its start. ``private_headers`` (credentials) are not sent on
    to a redirect's target. On a failure the part stays for the next call,
    except after a checksum mismatch, where it is deleted.
    """
    label = name or dest.name
    part = dest.with_name(dest.name + PART_SUFFIX)
    dest.parent.mkdir(parents=True, exist_ok=True)
    expected = expected_sha256.lower() if expected_sha256 else None

    for attempt in range(2):
        offset = part.stat().st_size if part.exists() else 0
        request = urllib.request.Request(url, headers=dict(headers or {}))
        for key, header in (private_headers or {}).items():
            request.add_unredirected_header(key, header)
        if offset:
            request.add_header("Range", f"bytes={offset}-")
        recorder = _RedirectRecorder()
        opener = urllib.request.build_opener(recorder)
        try:
            response = opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as e:
            e.close()
            if e.code == 416 and offset and attempt == 0:
                # The part does not fit the file the server has now: start over.
                part.unlink(missing_ok=True)
                continue
            raise EmbeddingError(
                f"downloading {label} failed: HTTP {e.code} {e.reason}",
                hint=_http_hint(e.code),
            ) from e
        except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
            reason = getattr(e, "reason", e)
            raise EmbeddingError(
                f"cannot download {label} from {url}: {reason}",
                hint="Check the network or HF_ENDPOINT, then run the same command "
                "again: it resumes where it stopped.",
            ) from e
        with response:
            status = response.status
            known_sha = expected or _sha_from_etag(
                recorder.linked_etag or response.headers.get("X-Linked-Etag")
            )
            hasher = hashlib.sha256()
            if status == 206 and offset:
                start, total = _parse_content_range(response.headers.get("Content-Range"))
                if start != offset:
                    part.unlink(missing_ok=True)
                    if attempt == 0:
                        continue
                    raise EmbeddingError(f"the server resumed {label} at the wrong offset")
                _hash_file(part, hasher)
                mode = "ab"
                done = offset
            elif status == 200:
                length = response.headers.get("Content-Length")
                total = int(length) if length and length.isdigit() else 0
                mode = "wb"
                done = 0
            else:
                raise EmbeddingError(f"downloading {label} failed: unexpected HTTP {status}")

            if progress is not None:
                progress(label, done, total)
            try:
                with part.open(mode) as out:
                    while True:
                        block = response.read(_CHUNK)
                        if not block:
                            break
                        out.write(block)
                        hasher.update(block)
                        done += len(block)
                        if progress is not None:
                            progress(label, done, total)
                    out.flush()
                    os.fsync(out.fileno())
            except (OSError, http.client.HTTPException) as e:
                raise EmbeddingError(
                    f"downloading {label} was interrupted after {done} bytes: {e}",
                    hint="Run the same command again: it resumes where it stopped.",
                ) from e
        if total and done != total:
            raise EmbeddingError(
                f"downloading {label} was interrupted after {done} of {total} bytes",
                hint="Run the same command again: it resumes where it stopped.",
            )
        digest = hasher.hexdigest()
        if known_sha is not None and digest != known_sha:
            part.unlink(missing_ok=True)
            raise EmbeddingError(
                f"{label} is corrupt: its sha256 is {digest}, expected {known_sha}",
                hint="The partial file was deleted; run the same command again.",
            )
        os.replace(part, dest)
        return digest
    raise EmbeddingError(f"downloading {label} failed: the server refused to resume")


def _parse_content_range(value: str | None) -> tuple[int, int]:
    match = _CONTENT_RANGE.match(value.strip()) if value else None
    if match is None:
        return (-1, 0)
    total = match.group(3)
    return int(match.group(1)), (int(total) if total != "*" else 0)


def _http_hint(code: int) -> str:
    if code in (401, 403):
        return "The model may be gated or private: set HF_TOKEN to a token that may read it."
    if code == 404:
        return "Check the model name, its revision and the file names."
    if code == 429 or code >= 500:
        return "The hub is busy or failing; try again later."
    return ""


def _read_manifest(directory: Path) -> dict[str, Any]:
    try:
        with (directory / MANIFEST_NAME).open(encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_manifest(directory: Path, data: Mapping[str, Any]) -> None:
    target = directory / MANIFEST_NAME
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temporary, target)


def download_model(
    spec: ModelSpec,
    cache_dir: Path,
    *,
    endpoint: str | None = None,
    progress: ProgressCallback | None = None,
    token: str | None = None,
    timeout: float = 60.0,
) -> Path:
    """Fetch every file of ``spec`` that the cache lacks; return the model directory.

    Files already in place are not fetched again (each was checked before it was
    renamed into place). ``token`` (default ``$HF_TOKEN``) is sent to the hub
    only, never to the storage a download is redirected to.
    """
    directory = model_dir(cache_dir, spec.repo)
    base = hub_endpoint(endpoint)
    secret = token if token is not None else os.environ.get("HF_TOKEN")
    private = {"Authorization": f"Bearer {secret}"} if secret else {}
    manifest = _read_manifest(directory)
    recorded: dict[str, Any] = dict(manifest.get("files") or {})
    for filename in spec.files:
        relative = _check_filename(filename)
        dest = directory.joinpath(*relative.parts)
        if dest.is_file():
            size = dest.stat().st_size
            if progress is not None:
                progress(filename, size, size)
            if filename not in recorded:
                recorded[filename] = {"size": size, "sha256": spec.sha256.get(filename)}
            continue
        digest = download_file(
            _file_url(base, spec.repo, spec.revision, filename),
            dest,
            name=filename,
            expected_sha256=spec.sha256.get(filename),
            progress=progress,
            headers={"User-Agent": "embornal"},
            private_headers=private,
            timeout=timeout,
        )
        recorded[filename] = {"size": dest.stat().st_size, "sha256": digest}
    header = {"repo": spec.repo, "revision": spec.revision, "endpoint": base}
    _write_manifest(directory, {**header, "files": recorded})
    if spec.int8_file:  # after the manifest: a failed quantization keeps the checksums
        _quantize(spec, directory, recorded, progress)
        _write_manifest(directory, {**header, "files": recorded})
    return directory


def _quantize(
    spec: ModelSpec,
    directory: Path,
    recorded: dict[str, Any],
    progress: ProgressCallback | None,
) -> None:
    """Write ``spec.int8_file`` from the fetched fp32 file unless it is there; record its
    size and sha256 (computed here: the hub's checksum covers the fp32 file it came from)."""
    name = spec.int8_file
    if name is None:
        return
    source = next(f for f in spec.files if f.endswith(".onnx"))
    target = directory.joinpath(*PurePosixPath(name).parts)
    if not target.is_file() or name not in recorded:
        if not target.is_file():
            quantize_int8(directory.joinpath(*PurePosixPath(source).parts), target)
        hasher = hashlib.sha256()
        _hash_file(target, hasher)
        recorded[name] = {
            "size": target.stat().st_size,
            "sha256": hasher.hexdigest(),
            "quantized_from": source,
            "quantization": "onnxruntime dynamic, QInt8 weights",
        }
    if progress is not None:
        size = target.stat().st_size
        progress(name, size, size)


def _tree_size(directory: Path) -> int:
    total = 0
    for path in directory.rglob("*"):
        if path.is_file() and not path.is_symlink():
            total += path.stat().st_size
    return total


def list_models(cache_dir: Path) -> list[CachedModel]:
    """Every model directory in the cache, by name; ``complete`` is False while a
    download is unfinished."""
    root = models_root(cache_dir)
    if not root.is_dir():
        return []
    models: list[CachedModel] = []
    for directory in sorted(p for p in root.iterdir() if p.is_dir()):
        manifest = _read_manifest(directory)
        name = manifest.get("repo")
        if not isinstance(name, str):
            name = directory.name.replace("--", "/")
        files = manifest.get("files")
        has_parts = any(p.name.endswith(PART_SUFFIX) for p in directory.rglob("*"))
        complete = (
            isinstance(files, dict)
            and bool(files)
            and all((directory / f).is_file() for f in files)
            and not has_parts
        )
        revision = manifest.get("revision")
        models.append(
            CachedModel(
                name=name,
                path=directory,
                size_bytes=_tree_size(directory),
                complete=complete,
                revision=revision if isinstance(revision, str) else None,
            )
        )
    return models


def remove_model(cache_dir: Path, name: str) -> int:
    """Delete a model's directory (named ``owner/name`` or by its directory
    name); return the bytes freed. NotFound when the cache has no such model."""
    root = models_root(cache_dir)
    candidates: list[Path] = []
    for model in list_models(cache_dir):
        if name in (model.name, model.path.name):
            candidates.append(model.path)
    if not candidates:
        raise NotFound(
            f"no model named {name!r} in {root}",
            hint="`embornal model ls` lists the models in the cache.",
        )
    freed = 0
    for directory in candidates:
        resolved = directory.resolve()
        if resolved.parent != root.resolve():
            raise InvalidInput(f"refusing to delete {resolved}: it is outside {root}")
        freed += _tree_size(resolved)
        shutil.rmtree(resolved)
    return freed


def select_onnx_files(filenames: Sequence[str]) -> tuple[str, ...]:
    """The files an ONNX provider needs, picked from a repository's file list.

    The model is ``onnx/model.onnx`` or ``model.onnx`` (with its external data
    file when it has one); the tokenizer is the ``tokenizer.json`` beside it or
    at the top; the config files that choose pooling and limits come along.
    """
    available = set(filenames)
    model = next((f for f in ("onnx/model.onnx", "model.onnx") if f in available), None)
    if model is None:
        raise EmbeddingError(
            "the repository has no ONNX export (onnx/model.onnx or model.onnx)",
            hint="Choose a model with an ONNX export, or use the sentence-transformers provider.",
        )
    folder = model.rpartition("/")[0]
    prefix = f"{folder}/" if folder else ""
    tokenizer = next(
        (f for f in (f"{prefix}tokenizer.json", "tokenizer.json") if f in available), None
    )
    if tokenizer is None:
        raise EmbeddingError(
            "the repository has no tokenizer.json",
            hint="Choose a model that ships a Hugging Face fast tokenizer.",
        )
    wanted = [model, tokenizer]
    for extra in (
        f"{model}_data",
        f"{model}.data",
        f"{prefix}config.json",
        "config.json",
        "1_Pooling/config.json",
        "sentence_bert_config.json",
    ):
        if extra in available and extra not in wanted:
            wanted.append(extra)
    return tuple(wanted)


def resolve_onnx_spec(
    repo: str,
    *,
    revision: str = "main",
    endpoint: str | None = None,
    token: str | None = None,
    timeout: float = 30.0,
) -> ModelSpec:
    """Ask the hub which files ``repo`` has and pick those an ONNX provider needs."""
    _check_repo(repo)
    url = "{}/api/models/{}/revision/{}".format(
        hub_endpoint(endpoint),
        urllib.parse.quote(repo, safe="/"),
        urllib.parse.quote(revision, safe=""),
    )
    request = urllib.request.Request(url, headers={"User-Agent": "embornal"})
    secret = token if token is not None else os.environ.get("HF_TOKEN")
    if secret:
        request.add_unredirected_header("Authorization", f"Bearer {secret}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            payload: Any = json.loads(response.read())
        filenames = [s["rfilename"] for s in payload["siblings"]]
    except urllib.error.HTTPError as e:
        e.close()
        raise EmbeddingError(
            f"the hub cannot list {repo}@{revision}: HTTP {e.code} {e.reason}",
            hint=_http_hint(e.code),
        ) from e
    except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
        raise EmbeddingError(
            f"cannot reach the hub at {hub_endpoint(endpoint)}: {getattr(e, 'reason', e)}",
            hint="Check the network or HF_ENDPOINT.",
        ) from e
    except (ValueError, KeyError, TypeError) as e:
        raise EmbeddingError(f"the hub sent an unreadable file list for {repo}: {e}") from e
    return ModelSpec(repo=repo, files=select_onnx_files(filenames), revision=revision)
