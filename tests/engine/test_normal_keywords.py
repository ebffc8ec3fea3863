"""torch.normal's size form takes the factory keywords (d2l: ``w = torch.normal(0, 0.01, size=(2, 1),
requires_grad=True)``): a leaf that requires grad, the dtype, the device; the tensor forms refuse them as PyTorch
does (the first line of its message)."""

from __future__ import annotations

import contextlib
import io

import engine

CODE = """import torch
torch.manual_seed(0)
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
print(w, w.is_leaf, w.grad_fn)
print(torch.normal(0., 1., (2,), dtype=torch.float64, requires_grad=True))
print(torch.normal(2., 3., size=(2,), device="cpu"))
(w * 2).sum().backward()
print(w.grad)
"""


def test_normal_size_form_takes_factory_keywords_as_torch() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(CODE, {})  # trusted test code only
    assert engine.run(CODE).stdout == out.getvalue()


def test_normal_tensor_form_refuses_requires_grad_as_torch() -> None:
    result = engine.run("import torch\ntorch.normal(torch.zeros(2), 1., requires_grad=True)\n")
    assert result.error is not None and result.error["type"] == "TypeError"
    assert result.error["message"].splitlines()[0] == (
        "normal() received an invalid combination of arguments - got (Tensor, float, requires_grad=bool), "
        "but expected one of:"
    )
