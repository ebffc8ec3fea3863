"""``x.type(torch.FloatTensor)``: the old typed-tensor classes as conversion targets (the "Learning PyTorch with
Examples" scripts and MorvanZhou's tutorials write it), compared with real PyTorch."""

from __future__ import annotations

import pytest

import engine
from tests.oracle import torch_stdout

PROGRAMS = [
    "import torch\nx = torch.ones(2, dtype=torch.int64)\nprint(x.type(torch.FloatTensor))",
    "import torch\nx = torch.tensor([1.7, -2.2])\ny = x.type(torch.LongTensor)\nprint(y, y.dtype)",
    "import torch\nx = torch.tensor([0, 1])\nprint(x.type(torch.DoubleTensor).dtype, x.type(torch.BoolTensor))",
    "import torch\nx = torch.randn(3, 2).type(torch.FloatTensor)\nprint(x.shape, x.dtype)",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_type_with_a_legacy_tensor_class_converts_as_pytorch_does(code: str) -> None:
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=0)


def test_type_still_refuses_what_pytorch_refuses() -> None:
    result = engine.run("import torch\nx = torch.ones(2)\nx.type(3)")
    assert result.error is not None and result.error["type"] == "TypeError"
    assert result.error["message"] == "dtype must be a type, str, or dtype object"
