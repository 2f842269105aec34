"""int8 weights for a local ONNX encoder (decision 0118).

:func:`quantize_int8` is ONNX Runtime's dynamic quantization: the weights of the
matrix multiplications become signed 8-bit integers (``QuantType.QInt8``), the
activations are quantized at run time, and the result is another ONNX file that the
same ``OnnxEmbedder`` loads. On a 2-core CPU it embeds 2.5-3 times as many facts per
second as the fp32 file, in about a third of the memory; its vectors are close to the
fp32 ones, not equal (``benchmarks/RESULTS.md``, "Embedding throughput").

``embornal model pull`` writes ``model_int8.onnx`` beside the fp32 ``model.onnx`` of
a model whose :class:`~embornal.adapters.embeddings.download.ModelSpec` asks for it
(the default model does), and ``OnnxEmbedder`` prefers that file. ``onnxruntime``
(and ``onnx``, which its quantizer reads and writes through) is imported when a file
is quantized, never when this module is imported.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from embornal.errors import EmbeddingError

__all__ = ["INT8_FILE", "INT8_SUFFIX", "int8_path", "quantize_int8"]

INT8_FILE = "model_int8.onnx"
"""The name of the quantized file, beside the fp32 ``model.onnx``."""

INT8_SUFFIX = "+int8"
"""Added to a model's name in ``identity`` when its int8 file is the one loaded: its
vectors are not the fp32 ones, so they are never mixed in one index."""

_PART = ".part"


def int8_path(model_file: Path) -> Path:
    """Where the int8 file of the fp32 ``model_file`` goes."""
    return Path(model_file).with_name(INT8_FILE)


def quantize_int8(source: Path, target: Path | None = None) -> Path:
    """Quantize the fp32 ONNX file ``source`` into ``target`` (default: ``int8_path``);
    return ``target``. Written to ``target.part`` first, renamed when whole."""
    source = Path(source)
    destination = Path(target) if target is not None else int8_path(source)
    if not source.is_file():
        raise EmbeddingError(
            f"no ONNX model at {source} to quantize",
            hint="Run `embornal model pull` again to fetch the model's files.",
        )
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as e:
        raise EmbeddingError(
            f"int8 quantization needs {e.name or 'onnx'}",
            hint="Install the semantic extra: pip install 'embornal[semantic]'.",
        ) from e
    partial = destination.with_name(destination.name + _PART)
    destination.parent.mkdir(parents=True, exist_ok=True)
    quiet = _Quiet()
    root = logging.getLogger()
    root.addFilter(quiet)  # the quantizer logs advice on the root logger
    try:
        quantize_dynamic(source, partial, weight_type=QuantType.QInt8)
    except Exception as e:  # broad: onnx and protobuf raise their own (ValidationError, ...)
        partial.unlink(missing_ok=True)
        raise EmbeddingError(
            f"could not quantize {source} to int8: {type(e).__name__}: {str(e).strip()}",
            hint="The file is not a whole ONNX model: delete it (`embornal model rm NAME`) "
            "and run `embornal model pull` again.",
        ) from e
    finally:
        root.removeFilter(quiet)
    os.replace(partial, destination)
    return destination


class _Quiet(logging.Filter):
    """Drops the quantizer's advice to pre-process the model (its shapes are dynamic)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "pre-processing before quantization" not in record.getMessage()
