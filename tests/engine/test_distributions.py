"""torch.distributions' Categorical, Multinomial and Normal against PyTorch: samples (the same draws), log_prob,
entropy, moments, shapes, reprs, gradients through rsample and log_prob, and the import spellings courses use."""

from __future__ import annotations

import contextlib
import io

import pytest

import engine

PROGRAMS = [
    """from torch.distributions.multinomial import Multinomial
fair_probs = torch.tensor([0.5, 0.5])
print(Multinomial(100, fair_probs).sample())
print(Multinomial(10000, fair_probs).sample() / 10000)
counts = Multinomial(1, fair_probs).sample((1000,))
print(counts.cumsum(dim=0)[-3:], counts.shape)
mm = Multinomial(5, torch.tensor([[0.2, 0.8], [0.5, 0.5]]))
print(mm.sample((2,)), mm.mean, mm.variance, mm.batch_shape, mm.event_shape, mm)""",
    """from torch.distributions import Normal
n = Normal(0., 1.)
print(n, n.sample(), n.sample((3,)), n.log_prob(torch.tensor([0.5, -1.])), n.entropy(), n.mean, n.stddev)
m = Normal(torch.zeros(3, requires_grad=True), torch.ones(3) * 2)
x = m.rsample()
lp = m.log_prob(x).sum()
lp.backward()
print(m, x, lp, m.loc.grad, m.variance, m.batch_shape)""",
    """import torch.distributions as D
c = D.Categorical(torch.tensor([0.2, 0.3, 0.5]))
print(c, c.sample(), c.sample((2, 3)), c.log_prob(torch.tensor([0, 2])), c.entropy(), c.logits, c.probs)
c2 = D.Categorical(logits=torch.tensor([[1., 2.], [0., 0.]]))
print(c2, c2.probs, c2.sample(), c2.batch_shape, c2.event_shape, c2.sample((4,)).shape)
w = torch.tensor([1., 3.], requires_grad=True)
c3 = torch.distributions.categorical.Categorical(logits=w)
loss = -c3.log_prob(torch.tensor(1))
loss.backward()
print(loss, w.grad)""",
    """from torch.distributions import Normal
Normal(0., -1.)""",
    """from torch.distributions import Categorical
Categorical(torch.tensor([0.2, 0.8]), logits=torch.tensor([0., 1.]))""",
]


def _torch(code: str) -> tuple[str, str | None]:
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out):
        try:
            exec(code, {})  # trusted test code only
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
    return out.getvalue(), error


@pytest.mark.parametrize("program", PROGRAMS)
def test_distributions_match_torch(program: str) -> None:
    code = "import torch\ntorch.manual_seed(0)\n" + program + "\n"
    result = engine.run(code)
    error = None if result.error is None else f"{result.error['type']}: {result.error['message']}"
    assert (result.stdout, error) == _torch(code)
