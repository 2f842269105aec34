"""Local embeddings with ONNX Runtime and a Hugging Face ``tokenizers`` tokenizer.

A model directory holds:

- ``model.onnx`` or ``onnx/model.onnx``: a transformer encoder exported to ONNX
  (``model_int8.onnx`` beside it, its int8 quantization, is loaded instead when
  present, and ``identity`` then ends in ``+int8``; decision 0118),
  whose inputs are some of ``input_ids``, ``attention_mask``, ``token_type_ids``
  and whose output is either ``last_hidden_state`` (pooled here) or an already
  pooled ``sentence_embedding``;
- ``tokenizer.json`` beside the model file or at the top of the directory;
- optionally ``1_Pooling/config.json`` (sentence-transformers layout) choosing CLS
  pooling, ``sentence_bert_config.json`` with ``max_seq_length`` and
  ``config.json`` with ``hidden_size`` / ``pad_token_id``.

Pooling is the attention-masked mean unless the directory or the caller asks
for the CLS token. Inputs are truncated to 512 tokens (or the model's own, lower
``max_seq_length``). ``onnxruntime``, ``tokenizers`` and ``numpy`` are imported
when a provider is built, never when this module is imported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from embornal.adapters import onnx_session
from embornal.adapters.embeddings.base import LocalModelEmbedder
from embornal.adapters.embeddings.quantize import INT8_FILE, INT8_SUFFIX
from embornal.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "BATCH_TOKENS",
    "MAX_TOKENS",
    "OnnxEmbedder",
    "Pooling",
    "default_thread_count",
    "find_model_files",
]

MAX_TOKENS = 512
"""No input is longer than this many tokens (the limit of BERT-like encoders)."""

BATCH_TOKENS = 1024
"""A batch holds at most this many tokens once padded (and at most ``batch_size`` texts):
long texts, such as the pieces of a long fact, go to the model about five at a time, which
costs 6-13 % less CPU than 32 at once (their activations stay in the caches; decision
0170), while short texts still go ``batch_size`` at once."""

Pooling = Literal["mean", "cls"]

_MODEL_FILES = (INT8_FILE, "model.onnx")


def default_thread_count() -> int:
    """Threads for one inference: every core up to 4 (2 on a 2-core machine)."""
    return onnx_session.threads()


def find_model_files(model_dir: Path) -> tuple[Path, Path]:
    """``(model.onnx, tokenizer.json)`` inside ``model_dir``, or an EmbeddingError.

    In each place (the directory, then its ``onnx/`` folder) the int8 file
    ``model_int8.onnx`` that ``embornal model pull`` writes is preferred to ``model.onnx``.
    """
    model_file: Path | None = None
    candidates = [
        folder / name for folder in (model_dir, model_dir / "onnx") for name in _MODEL_FILES
    ]
    for candidate in candidates:
        if candidate.is_file():
            model_file = candidate
            break
    if model_file is None:
        raise EmbeddingError(
            f"no model.onnx in {model_dir} (nor in its onnx/ folder)",
            hint="Point embedding.model_path at a directory holding an ONNX export, "
            "or run `embornal model pull`.",
        )
    for candidate in (model_file.parent / "tokenizer.json", model_dir / "tokenizer.json"):
        if candidate.is_file():
            return model_file, candidate
    raise EmbeddingError(
        f"no tokenizer.json beside {model_file} or in {model_dir}",
        hint="Copy the model's tokenizer.json (Hugging Face fast tokenizer) into that directory.",
    )


def _read_json(path: Path) -> dict[str, Any]:
    try:
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _first_json(paths: Sequence[Path]) -> dict[str, Any]:
    for path in paths:
        if path.is_file():
            return _read_json(path)
    return {}


class OnnxEmbedder(LocalModelEmbedder):
    """An :class:`~embornal.adapters.embeddings.base.EmbeddingProvider` over ONNX Runtime.

    ``name`` is the model's name in ``identity`` (default: the directory name,
    with ``--`` read as ``/``). A prefix left ``None`` takes the model family's
    known prefix (``"query: "`` / ``"passage: "`` for e5), otherwise none. Texts go
    to the model sorted by length, at most ``batch_size`` texts and ``batch_tokens``
    padded tokens at a time.
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        name: str | None = None,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        pooling: Pooling | None = None,
        batch_size: int = 32,
        max_tokens: int = MAX_TOKENS,
        threads: int | None = None,
        batch_tokens: int = BATCH_TOKENS,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        if batch_tokens < 1:
            raise ValueError("batch_tokens must be positive")
        numpy, onnxruntime, tokenizers = onnx_session.libraries(
            EmbeddingError, "the ONNX embedding provider"
        )
        self._np = numpy
        directory = Path(model_dir).expanduser()
        if not directory.is_dir():
            raise EmbeddingError(
                f"the embedding model directory {directory} does not exist",
                hint="Check embedding.model_path, or run `embornal model pull`.",
            )
        model_file, tokenizer_file = find_model_files(directory)
        self.model_dir = directory
        self.model_file = model_file
        self._name = name or directory.name.replace("--", "/")
        self._set_prefixes(query_prefix, document_prefix)
        self.int8 = model_file.name == INT8_FILE
        if self.int8 and not self._name.endswith(INT8_SUFFIX):
            self._name += INT8_SUFFIX
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens

        places = [model_file.parent, directory] if model_file.parent != directory else [directory]
        config = _first_json([p / "config.json" for p in places])
        st_config = _first_json([p / "sentence_bert_config.json" for p in places])
        pooling_config = _first_json([p / "1_Pooling" / "config.json" for p in places])
        if pooling is None:
            pooling = "cls" if pooling_config.get("pooling_mode_cls_token") is True else "mean"
        self.pooling: Pooling = pooling

        limit = max(1, min(max_tokens, MAX_TOKENS))
        declared = st_config.get("max_seq_length")
        if isinstance(declared, int) and 0 < declared < limit:
            limit = declared
        self.max_tokens = limit

        try:
            tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
        except Exception as e:  # broad: tokenizers raises a bare Exception
            raise EmbeddingError(
                f"cannot read the tokenizer {tokenizer_file}: {e}",
                hint="The file must be a Hugging Face tokenizer.json (fast tokenizer).",
            ) from e
        self._pad_id = self._find_pad_id(tokenizer, config)
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_tokens)
        self._tokenizer = tokenizer

        self._session = onnx_session.cpu_session(
            onnxruntime,
            model_file,
            threads,
            EmbeddingError,
            "Re-download the model (`embornal model rm` then `embornal model pull`).",
        )
        self._inputs = onnx_session.input_types(self._session, numpy, model_file, EmbeddingError)

        outputs = self._session.get_outputs()
        names = [o.name for o in outputs]
        chosen = next(
            (n for n in ("sentence_embedding", "last_hidden_state") if n in names), names[0]
        )
        self._output = chosen
        shape = outputs[names.index(chosen)].shape
        width = shape[-1] if shape else None
        if not isinstance(width, int) or width < 1:
            hidden = config.get("hidden_size")
            width = hidden if isinstance(hidden, int) and chosen != "sentence_embedding" else None
        if width is None:
            width = len(self._embed(["dimension probe"])[0])
        self._dims = int(width)

    @staticmethod
    def _find_pad_id(tokenizer: Any, config: dict[str, Any]) -> int:
        padding = tokenizer.padding
        if isinstance(padding, dict) and isinstance(padding.get("pad_id"), int):
            return int(padding["pad_id"])
        if isinstance(config.get("pad_token_id"), int):
            return int(config["pad_token_id"])
        for token in ("[PAD]", "<pad>"):
            token_id = tokenizer.token_to_id(token)
            if token_id is not None:
                return int(token_id)
        return 0

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        encodings = onnx_session.encode(self._tokenizer, list(texts), EmbeddingError)
        result: list[list[float]] = [[] for _ in texts]
        for chunk in onnx_session.length_batches(encodings, self.batch_size, self.batch_tokens):
            vectors = self._run([encodings[i] for i in chunk])
            for i, vector in zip(chunk, vectors.tolist(), strict=True):
                result[i] = vector
        return result

    def _run(self, encodings: Sequence[Any]) -> NDArray[np.float32]:
        xp = self._np
        feed, mask = onnx_session.bert_feed(xp, encodings, self._pad_id, self._inputs)
        hidden = onnx_session.run(xp, self._session, self._output, feed, EmbeddingError)
        if hidden.ndim == 3:
            if self.pooling == "cls":
                pooled = hidden[:, 0, :]
            else:
                weights = mask[:, :, None].astype(xp.float32)
                pooled = (hidden * weights).sum(axis=1) / xp.clip(weights.sum(axis=1), 1e-9, None)
        elif hidden.ndim == 2:
            pooled = hidden
        else:
            raise EmbeddingError(f"unexpected ONNX output shape {hidden.shape}")
        norms = xp.linalg.norm(pooled, axis=1, keepdims=True)
        normalized: NDArray[np.float32] = (pooled / xp.clip(norms, 1e-12, None)).astype(xp.float32)
        return normalized
