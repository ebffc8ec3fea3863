"""Issue 12, point 4 on a real program: every backward step of a program using some thirty ops shows the chain
rule as a formula in the learner's names (the engine's template, with values or shapes), never the bare fallback
that says only shapes (`to x: grad_output [3] through PowBackward0 (∂ [3] / ∂ [3]) = …`)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import code_url, shot_panel

MANY_OPS = """import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(3, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
h = torch.tanh(x @ w + b)
s = torch.sigmoid(h) * h.exp() - h.relu() / 2
z = s.log_softmax(dim=1)
loss = F.cross_entropy(h, torch.tensor([0, 1, 1, 0])) + (z ** 2).mean() + s.sum()
loss = loss + x.abs().max() + x.view(12)[3] + (h * h + 1).sqrt().sum() + x.t().sum(dim=0).prod()
loss = loss + torch.cat([h, s]).pow(3).mean() + F.mse_loss(s, h) + x.clamp(-1, 1).reshape(2, 6).sum()
loss = loss + torch.stack([h[:, 0], s[:, 1]]).softmax(dim=0).log().sum() + (x / (x * x + 1)).unsqueeze(0).sum()
loss = loss + F.gelu(x).sum() + torch.where(x > 0, x, x * 0.1).sum() + x.mean(dim=1).var() + w.norm()
loss.backward()
print(round(loss.item(), 3))
"""

FALLBACK = re.compile(r"through \w+ \(∂")


def test_every_backward_step_of_thirty_ops_writes_a_formula(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, MANY_OPS))
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events?"), timeout=30_000)
    expect(page.get_by_test_id("error")).to_be_hidden()
    counter = page.get_by_test_id("timeline").locator(".counter")
    step = page.get_by_test_id("step")
    n = int(page.locator("input.slider").get_attribute("max") or "0")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    expect(counter).to_have_text(re.compile(r"^step 0 / "))
    page.keyboard.press("PageDown")  # the backward() call
    expect(step).to_contain_text("starts the backward pass")
    start = int(re.match(r"step (\d+) /", counter.inner_text()).group(1))  # type: ignore[union-attr]
    ops: set[str] = set()
    for k in range(start + 1, n + 1):
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_text(re.compile(rf"^step {k} / "))
        chain = step.locator(".chain-rule")
        if chain.count() == 0:
            continue
        text = chain.inner_text()
        op = text.split(":", 1)[0]
        ops.add(op)
        assert not FALLBACK.search(text), f"step {k}: {op} shows only shapes:\n{text}"
        assert "grad_" in text, text
    assert len(ops) >= 25, (start, n, sorted(ops))  # the steps really covered the ops
    shot_panel(page, "graph", "chain-rule-ops-end")
