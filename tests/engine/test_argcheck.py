"""The argument checks (``engine/ops/argcheck.py``): every declared signature parses, and wrongly typed arguments are
refused with PyTorch's own exception type and first message line, compared with real PyTorch."""

from __future__ import annotations

import pytest

from engine.ops import argcheck
from engine.ops.signatures import SIGNATURES
from tests.engine.helpers import run_ours, run_torch

SETUP = """import torch
import torch.nn.functional as F
x = torch.tensor([1.0, -2.0])
m = torch.ones(2, 2)
i = torch.tensor([0, 1])
mask = torch.tensor([True, False])
"""

CALLS = [
    "x.dot([1.0])",
    "torch.dot(x, [1.0])",
    "torch.mm(m, [[1.0]])",
    "torch.mm([1.0])",
    "torch.where(mask, [1], 0)",
    "torch.where(mask, x, other='a')",
    "torch.add(x, None)",
    "torch.add([1.0])",
    "x.add(x, alpha='a')",
    "x.sum('a')",
    "x.sum(0, 0)",
    "x.max(None)",
    "x.view(1.5, 2)",
    "x.reshape(2, 'a')",
    "torch.reshape(x, 2)",
    "torch.flip(x, 0)",
    "x.flip([1.5])",
    "x.unsqueeze(True)",
    "torch.cat((x, 'a'))",
    "torch.cat(x, 1)",
    "torch.zeros(2, 1.5)",
    "torch.ones([1.0])",
    "torch.full(3, 1.0)",
    "torch.eye(2, 1.5)",
    "torch.arange('a')",
    "torch.randint(5, 3)",
    "torch.randperm(3, generator=1)",
    "torch.tensor([1, 'a'])",
    "torch.tensor([[1, 2], 3])",
    "torch.tensor([x, x])",
    "torch.tensor([1.0], requires_grad=None)",
    "torch.nn.init.zeros_(3)",
    "torch.nn.init.constant_(x, 'a')",
    "x.exp(1)",
    "x.dim(foo=1)",
    "x.clone(1)",
    "x.dot(foo=1)",
    "x.round(1)",
    "x[1.5]",
    "x['a']",
    "F.gelu(x, 1)",
    "F.softmax(x, 'a')",
    "F.sigmoid([1.0])",
    "F.cross_entropy(m, i, weight='a')",
    "i.softmax(0)",
    "F.gelu(i)",
    "torch.where(i, x, x)",
    "i.std()",
    "i.clamp_(0.5)",
    "torch.rand(2, dtype=torch.long)",
    "x.requires_grad_('a')",
    "torch.set_grad_enabled('a')",
    "torch.Tensor(1.5)",
    "torch.autograd.grad(x.sum(), 'a')",
]


def _outcome(run: object, call: str) -> str:
    code = SETUP + f"try:\n    {call}\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0])\n"
    return run(code)  # type: ignore[operator]


@pytest.mark.parametrize("call", CALLS)
def test_refusal_matches_pytorch(call: str) -> None:
    want = _outcome(run_torch, call)
    assert want, f"PyTorch accepts {call}: not a refusal to test"
    assert _outcome(run_ours, call) == want


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_every_signature_parses(name: str) -> None:
    for method in (False, True):
        for sig in argcheck._signatures(name, method):
            for p in sig.params:
                assert p.kind in argcheck._KINDS or p.kind in ("int[]", "Tensor[]"), (name, p.kind)


def test_accepted_calls_pass_through_unchanged() -> None:
    code = SETUP + "print(x.dot(x), torch.dot(input=x, tensor=x), x.sum(), x.sum(dim=0), m.view(4).shape)\n"
    assert run_ours(code) == run_torch(code)
