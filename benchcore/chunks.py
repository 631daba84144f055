"""Splitting a stage's items into chunks, one task each.

Why: one task per (stage, model, pipeline) runs a whole batch on one worker, so a large set
against a fast endpoint never uses a second machine. With a chunk size, each chunk is a task
of its own (its stages in order), and the cluster spreads the chunks over its workers; the
cluster-wide connection limit still caps each model's calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Chunk:
    """Items [start, stop) of a stage's batch, the `index`-th of `count` chunks."""

    index: int = 0
    count: int = 1
    start: int = 0
    stop: int | None = None

    def __str__(self) -> str:   # in task run names: nothing for a batch in one piece
        return "" if self.count == 1 else f" {self.index + 1}/{self.count}"

    def of(self, items: Sequence[T]) -> list[T]:
        return list(items[self.start:self.stop])


WHOLE = Chunk()


def chunks(total: int, size: int | None) -> list[Chunk]:
    """Chunks of at most `size` items covering `total` items in order; one chunk when `size`
    is None or not smaller than `total`."""
    if not size or size >= total:
        return [WHOLE]
    starts = range(0, total, size)
    return [Chunk(i, len(starts), start, min(start + size, total))
            for i, start in enumerate(starts)]
