"""``torch.utils.data``: ``TensorDataset``, ``DataLoader`` (batching, ``shuffle`` with PyTorch's exact order for
the same seed, ``drop_last``), ``Subset`` and ``random_split``.

Shuffling follows PyTorch's CPU code: each pass over a loader draws a 64-bit base seed from the global generator,
then (when shuffling) a second one that seeds a fresh generator for ``randperm``.

Example::

    >>> loader = DataLoader(TensorDataset(X, y), batch_size=4, shuffle=True)
    >>> for xb, yb in loader: ...
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from engine import dtypes, random
from engine.ops.factories import tensor
from engine.ops.pieces import stack
from engine.ops.random_factories import randperm
from engine.run_state import address_of, serial_hash
from engine.tensor import Tensor


class Dataset:
    """Base of map-style datasets: ``len(ds)`` and ``ds[i]``."""

    __hash__ = serial_hash

    def __repr__(self) -> str:
        kind = type(self)
        where = "torch.utils.data.dataset" if kind.__module__ == __name__ else kind.__module__
        return f"<{where}.{kind.__qualname__} object at {address_of(self)}>"

    def __len__(self) -> int:  # pragma: no cover - subclasses define it
        raise NotImplementedError

    def __getitem__(self, index: int) -> Any:  # pragma: no cover - subclasses define it
        raise NotImplementedError


class TensorDataset(Dataset):
    """Rows of equally long tensors: ``ds[i] == (X[i], y[i])``."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.size(0) != tensors[0].size(0) for t in tensors):  # PyTorch's order: a list fails on .size
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return int(self.tensors[0].shape[0])


class Subset(Dataset):
    """The rows of ``dataset`` at ``indices``."""

    def __init__(self, dataset: Any, indices: list[int]) -> None:
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, index: int) -> Any:
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


def _seed64(generator: Any = None) -> int:
    """``torch.empty((), dtype=torch.int64).random_().item()``: a 64-bit draw, modulo 2**63."""
    gen = generator if generator is not None else random.generator()
    return int(gen._u64(1)[0]) % (1 << 63)


def random_split(dataset: Any, lengths: list[Any], generator: Any = None) -> list[Subset]:
    """Split ``dataset`` into random, non-overlapping subsets of the given lengths (or fractions)."""
    n = len(dataset)
    if all(isinstance(x, float) for x in lengths) and math.isclose(sum(lengths), 1):
        sizes = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    perm = randperm(n, generator=generator).tolist()
    out, start = [], 0
    for size in lengths:
        out.append(Subset(dataset, perm[start : start + size]))
        start += size
    return out


def default_collate(batch: list[Any]) -> Any:
    """Stack a list of samples into a batch: tensors with ``torch.stack``, numbers with ``torch.tensor``,
    tuples/lists element by element (a list of batches, as PyTorch returns)."""
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch)
    if isinstance(first, (bool, int, float)):
        return tensor(batch, dtype=dtypes.float64 if isinstance(first, float) else None)
    if isinstance(first, (tuple, list)):
        return [default_collate(list(items)) for items in zip(*batch)]
    if isinstance(first, dict):
        return {k: default_collate([b[k] for b in batch]) for k in first}
    return batch


def _tensor_rows(dataset: Any, indices: list[int]) -> list[Tensor] | None:
    """A batch of a ``TensorDataset`` (or of a ``Subset`` of one, as ``random_split`` makes) gathered by one index op
    per tensor: the values, dtype and shape that stacking its rows one by one gives (``default_collate``), made as
    one tensor each instead of one per row. None where that would not be the same: another dataset, a tensor that
    requires grad (stacking makes a ``StackBackward0``), an index out of range (the row-by-row path raises)."""
    while type(dataset) is Subset:
        inner = dataset.indices
        if any(not -len(inner) <= i < len(inner) for i in indices):
            return None
        indices = [inner[i] for i in indices]
        dataset = dataset.dataset
    if type(dataset) is not TensorDataset or any(t.requires_grad for t in dataset.tensors):
        return None
    n = len(dataset)
    if any(type(i) is not int or not -n <= i < n for i in indices):
        return None
    rows = tensor(indices)
    return [t[rows] for t in dataset.tensors]


class DataLoader:
    """Batches of a dataset: ``for xb, yb in DataLoader(ds, batch_size=32, shuffle=True)``."""

    __hash__ = serial_hash

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader.DataLoader object at {address_of(self)}>"

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool = False,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Any = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        generator: Any = None,
        **_: Any,
    ) -> None:
        if batch_size is not None and (type(batch_size) is not int or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if shuffle and sampler is None and batch_sampler is None:  # PyTorch's RandomSampler checks its dataset
            n = len(dataset)
            if n <= 0:
                raise ValueError(f"num_samples should be a positive integer value, but got num_samples={n}")
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle
        self.drop_last, self.generator = drop_last, generator
        self.collate_fn = collate_fn or default_collate

    def _order(self) -> Iterator[int]:
        n = len(self.dataset)
        if not self.shuffle:
            yield from range(n)
            return
        if self.generator is None:
            gen = random.Generator(_seed64())
        else:
            gen = self.generator
        yield from randperm(n, generator=gen).tolist()

    def __iter__(self) -> _SingleProcessDataLoaderIter:
        return _SingleProcessDataLoaderIter(self)

    def _batches(self) -> Iterator[Any]:
        order = self._order()
        if self.batch_size is None:
            for i in order:
                yield self.dataset[i]
            return
        batch: list[int] = []
        for i in order:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield self._batch(batch)
                batch = []
        if batch and not self.drop_last:
            yield self._batch(batch)

    def _batch(self, indices: list[int]) -> Any:
        if self.collate_fn is default_collate:
            rows = _tensor_rows(self.dataset, indices)
            if rows is not None:
                return rows
        return self.collate_fn([self.dataset[j] for j in indices])

    def __len__(self) -> int:
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


class _SingleProcessDataLoaderIter:
    """What ``iter(loader)`` gives, as PyTorch names it: making it draws the loader's base seed (as PyTorch's does),
    the shuffle's seed is drawn at the first ``next``. It has ``len`` and no ``.next()`` (Python 2's name, which old
    course notebooks call: PyTorch raises ``AttributeError`` there)."""

    __module__ = "torch.utils.data.dataloader"
    __hash__ = serial_hash

    def __init__(self, loader: DataLoader) -> None:
        _seed64(loader.generator)  # PyTorch's loader iterator draws its base seed first
        self._loader, self._it = loader, loader._batches()

    def __iter__(self) -> _SingleProcessDataLoaderIter:
        return self

    def __next__(self) -> Any:
        return next(self._it)

    def __len__(self) -> int:
        return len(self._loader)

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader._SingleProcessDataLoaderIter object at {address_of(self)}>"


__all__ = ["Dataset", "TensorDataset", "Subset", "DataLoader", "random_split", "default_collate"]
