"""How the ONNX adapters cut encodings into batches (``onnx_session.length_batches``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from embornal.adapters.onnx_session import length_batches


@dataclass(frozen=True)
class Encoding:
    """What ``length_batches`` reads of a tokenizer's encoding: its token ids."""

    ids: tuple[int, ...]


def encodings(*lengths: int) -> list[Encoding]:
    return [Encoding(tuple(range(n))) for n in lengths]


def test_batches_hold_similar_lengths_and_every_index_once() -> None:
    batches = list(length_batches(encodings(9, 1, 5, 2, 8), 2))
    assert batches == [[1, 3], [2, 4], [0]]


def test_a_token_budget_sends_long_texts_a_few_at_a_time() -> None:
    # Ten pieces of a long fact (200 tokens each) and ten short texts (10 tokens each).
    texts = encodings(*([200] * 10), *([10] * 10))
    batches = list(length_batches(texts, 32, tokens=1024))
    sizes = [len(b) for b in batches]
    assert sizes == [10, 5, 5]  # the short ones together, the long ones five at a time
    assert sorted(i for b in batches for i in b) == list(range(20))
    for batch in batches:  # padded to its longest, a batch stays within the budget
        assert len(batch) * max(len(texts[i].ids) for i in batch) <= 1024


def test_a_text_longer_than_the_budget_goes_alone() -> None:
    batches = list(length_batches(encodings(300, 2000, 300), 32, tokens=512))
    assert batches == [[0], [2], [1]]


def test_without_a_budget_only_the_count_bounds_a_batch() -> None:
    assert [len(b) for b in length_batches(encodings(*([500] * 40)), 32)] == [32, 8]


@pytest.mark.parametrize("lengths", [(), (0,), (0, 0, 3)])
def test_empty_inputs(lengths: tuple[int, ...]) -> None:
    batches = list(length_batches(encodings(*lengths), 4, tokens=1))
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
