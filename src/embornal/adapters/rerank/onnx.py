"""A cross-encoder reranker on ONNX Runtime with a Hugging Face ``tokenizers`` tokenizer.

A model directory holds ``model.onnx`` or ``onnx/model.onnx`` (a BERT-style sequence
classifier exported to ONNX: inputs some of ``input_ids``, ``attention_mask``,
``token_type_ids``; one output, ``logits``, of shape ``(batch, 1)`` or ``(batch, 2)``)
and ``tokenizer.json`` beside it or at the top of the directory. Each (query, text) pair
is tokenized as a pair (``[CLS] query [SEP] text [SEP]``, token types 0 then 1) and cut
to 512 tokens (the longer side first); the score is the logit (of two: the second less
the first, the log-odds of "relevant"). ``onnxruntime``, ``tokenizers`` and ``numpy``
are imported when a reranker is built, never when this module is imported.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from embornal.adapters import onnx_session
from embornal.errors import RerankerError

__all__ = ["MAX_TOKENS", "OnnxReranker", "find_reranker_files"]

MAX_TOKENS = 512
"""No pair is longer than this many tokens (the limit of BERT-like encoders)."""

_PULL_HINT = "Run `embornal model pull --reranker`, or set rerank.model_path to a directory."


def find_reranker_files(model_dir: Path) -> tuple[Path, Path]:
    """``(model.onnx, tokenizer.json)`` inside ``model_dir``, or a RerankerError."""
    model_file = next(
        (p for p in (model_dir / "model.onnx", model_dir / "onnx" / "model.onnx") if p.is_file()),
        None,
    )
    if model_file is None:
        raise RerankerError(
            f"no model.onnx in {model_dir} (nor in its onnx/ folder)", hint=_PULL_HINT
        )
    for candidate in (model_file.parent / "tokenizer.json", model_dir / "tokenizer.json"):
        if candidate.is_file():
            return model_file, candidate
    raise RerankerError(f"no tokenizer.json beside {model_file} or in {model_dir}", hint=_PULL_HINT)


class OnnxReranker:
    """A :class:`~embornal.adapters.rerank.base.Reranker` over ONNX Runtime.

    ``name`` is the model's name in ``identity`` (default: the directory name, with
    ``--`` read as ``/``). Pairs go to the model ``batch_size`` at a time, those of
    similar length together (less padding).
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        name: str | None = None,
        batch_size: int = 16,
        max_tokens: int = MAX_TOKENS,
        threads: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        numpy, onnxruntime, tokenizers = onnx_session.libraries(RerankerError, "the ONNX reranker")
        self._np = numpy
        directory = Path(model_dir).expanduser()
        if not directory.is_dir():
            raise RerankerError(
                f"the reranker directory {directory} does not exist", hint=_PULL_HINT
            )
        model_file, tokenizer_file = find_reranker_files(directory)
        self.model_dir = directory
        self.model_file = model_file
        self._name = name or directory.name.replace("--", "/")
        self.batch_size = batch_size
        self.max_tokens = max(8, min(max_tokens, MAX_TOKENS))
        try:
            tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
        except Exception as e:  # broad: tokenizers raises a bare Exception
            raise RerankerError(
                f"cannot read the reranker's tokenizer {tokenizer_file}: {e}",
                hint="Pull the reranker again (`embornal model rm` then "
                "`embornal model pull --reranker`).",
            ) from e
        padding = tokenizer.padding
        pad = padding.get("pad_id") if isinstance(padding, dict) else None
        self._pad_id = (
            int(pad) if isinstance(pad, int) else int(tokenizer.token_to_id("[PAD]") or 0)
        )
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_tokens, strategy="longest_first")
        self._tokenizer = tokenizer

        self._session = onnx_session.cpu_session(
            onnxruntime,
            model_file,
            threads,
            RerankerError,
            "Pull the reranker again (`embornal model rm` then `embornal model pull --reranker`).",
        )
        self._inputs = onnx_session.input_types(self._session, numpy, model_file, RerankerError)
        names = [o.name for o in self._session.get_outputs()]
        self._output = "logits" if "logits" in names else names[0]

    @property
    def identity(self) -> str:
        return self._name

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        pairs = [(query, text) for text in texts]
        encodings = onnx_session.encode(self._tokenizer, pairs, RerankerError)
        out = [0.0] * len(texts)
        for chunk in onnx_session.length_batches(encodings, self.batch_size):
            for i, value in zip(chunk, self._run([encodings[i] for i in chunk]), strict=True):
                out[i] = value
        return out

    def _run(self, encodings: Sequence[Any]) -> list[float]:
        xp = self._np
        feed, _ = onnx_session.bert_feed(xp, encodings, self._pad_id, self._inputs)
        logits = onnx_session.run(xp, self._session, self._output, feed, RerankerError)
        if logits.ndim == 1:
            values = logits
        elif logits.ndim == 2 and logits.shape[1] == 1:
            values = logits[:, 0]
        elif logits.ndim == 2 and logits.shape[1] == 2:
            values = logits[:, 1] - logits[:, 0]
        else:
            raise RerankerError(f"unexpected reranker output shape {logits.shape}")
        return [float(v) for v in values.tolist()]
