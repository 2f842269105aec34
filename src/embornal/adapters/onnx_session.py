"""What the ONNX Runtime adapters share: the session, its inputs, and BERT-style batches.

The local embedder (:mod:`embornal.adapters.embeddings.onnx`) and the cross-encoder
reranker (:mod:`embornal.adapters.rerank.onnx`) run the same kind of model: a transformer
encoder whose inputs are some of ``input_ids``, ``attention_mask`` and
``token_type_ids``. The caller passes the modules it imported (``onnxruntime``,
``numpy``) and the error class it raises, so this module imports neither library.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from embornal.errors import EmbornalError

__all__ = [
    "BERT_INPUTS",
    "bert_feed",
    "cpu_session",
    "encode",
    "input_types",
    "length_batches",
    "libraries",
    "run",
    "threads",
]

BERT_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def libraries(error: type[EmbornalError], what: str) -> tuple[Any, Any, Any]:
    """``(numpy, onnxruntime, tokenizers)``, imported now; ``error`` naming the missing one
    (``what`` is the adapter, e.g. "the ONNX reranker")."""
    try:
        import numpy
        import onnxruntime
        import tokenizers
    except ImportError as e:
        raise error(
            f"{what} needs {e.name or 'onnxruntime'}",
            hint="Install the semantic extra: pip install 'embornal[semantic]'.",
        ) from e
    return numpy, onnxruntime, tokenizers


def threads() -> int:
    """Threads for one inference: every core up to 4 (2 on a 2-core machine)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


def cpu_session(
    onnxruntime: Any,
    model_file: Path,
    count: int | None,
    error: type[EmbornalError],
    hint: str,
) -> Any:
    """An ``InferenceSession`` on the CPU with ``count`` threads (default: :func:`threads`)
    whose idle threads sleep instead of spinning (the memory shares the machine with the
    agent that uses it); ``error`` with ``hint`` when ONNX Runtime cannot load the file."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = count if count and count > 0 else threads()
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    try:
        return onnxruntime.InferenceSession(
            str(model_file), sess_options=options, providers=["CPUExecutionProvider"]
        )
    except Exception as e:  # broad: ONNX Runtime's errors (Fail, ...) derive from Exception
        raise error(f"ONNX Runtime cannot load {model_file}: {e}", hint=hint) from e


def input_types(
    session: Any, numpy: Any, model_file: Path, error: type[EmbornalError]
) -> dict[str, Any]:
    """Each input the model takes and its integer type; ``error`` for an input that is
    not a BERT input, or when ``input_ids`` is missing."""
    inputs: dict[str, Any] = {}
    for node in session.get_inputs():
        if node.name not in BERT_INPUTS:
            raise error(
                f"{model_file} wants an input named {node.name!r}",
                hint="Export the encoder with inputs input_ids, attention_mask "
                "and optionally token_type_ids.",
            )
        inputs[node.name] = numpy.int32 if node.type == "tensor(int32)" else numpy.int64
    if "input_ids" not in inputs:
        raise error(
            f"{model_file} has no input_ids input",
            hint="Export the text encoder itself, taking token ids.",
        )
    return inputs


def encode(tokenizer: Any, items: list[Any], error: type[EmbornalError]) -> list[Any]:
    """The tokenizer's encodings of ``items`` (texts, or pairs of texts); ``error`` when
    it fails."""
    try:
        found: list[Any] = tokenizer.encode_batch(items)
    except Exception as e:  # broad: tokenizers raises a bare Exception
        raise error(f"tokenizing failed: {e}") from e
    return found


def run(
    xp: Any, session: Any, output: str, feed: dict[str, Any], error: type[EmbornalError]
) -> Any:
    """The model's ``output`` for ``feed`` (:func:`bert_feed`), as a float32 array; ``error``
    when ONNX Runtime fails."""
    try:
        (found,) = session.run([output], feed)
    except Exception as e:  # broad: ONNX Runtime's errors derive from Exception
        raise error(f"ONNX inference failed: {e}") from e
    return xp.asarray(found, dtype=xp.float32)


def length_batches(
    encodings: Sequence[Any], size: int, tokens: int | None = None
) -> Iterator[list[int]]:
    """The indexes of ``encodings`` in batches of at most ``size``, similar lengths together
    (less work wasted on padding). With ``tokens``, a batch also holds at most that many
    tokens once padded to its longest (but always one encoding): long texts go a few at a
    time, whose activations stay in the CPU's caches, and short ones still ``size`` at once.
    """
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    batch: list[int] = []
    for i in order:
        # Sorted by length: the one joining is the longest, so it sets the padded width.
        longest = max(1, len(encodings[i].ids))
        if batch and (
            len(batch) >= size or (tokens is not None and (len(batch) + 1) * longest > tokens)
        ):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def bert_feed(
    xp: Any, encodings: Sequence[Any], pad_id: int, inputs: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """The model's input arrays for one batch (padded to its longest), and the mask."""
    length = max(1, max(len(e.ids) for e in encodings))
    ids = xp.full((len(encodings), length), pad_id, dtype=xp.int64)
    mask = xp.zeros((len(encodings), length), dtype=xp.int64)
    types = xp.zeros((len(encodings), length), dtype=xp.int64)
    for row, encoding in enumerate(encodings):
        n = len(encoding.ids)
        ids[row, :n] = encoding.ids
        mask[row, :n] = encoding.attention_mask
        types[row, :n] = encoding.type_ids
    arrays = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
    return {name: arrays[name].astype(dtype) for name, dtype in inputs.items()}, mask
