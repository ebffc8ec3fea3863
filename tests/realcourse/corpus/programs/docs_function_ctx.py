# Source: https://github.com/pytorch/pytorch, torch/autograd/function.py
#   at commit 593e2fee9dbe6b0572027151bc704466225e9bdd (PyTorch docstrings: the examples of
#   FunctionCtx.save_for_backward and FunctionCtx.mark_dirty), in the file's order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:` directives removed; the
#   prose left out; the example of save_for_forward between them left out (marked +SKIP: forward-mode AD, and its
#   last lines sit inside the class body)
# - imports added at the top (the docstrings use them without importing): `import torch`,
#   `from torch.autograd import Function`, `from torch.autograd.function import once_differentiable`
# - the example's bare expression wrapped in print(...) (case: printed)
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable
class Func(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz

a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4
d = Func.apply(a, b, c)
class Inplace(Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy() # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output

a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
print(Inplace.apply(a))  # This would lead to wrong gradients!  # case: printed
                  # but the engine would not know unless we mark_dirty
b.backward() # RuntimeError: one of the variables needed for gradient
             # computation has been modified by an inplace operation
