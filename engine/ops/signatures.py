"""The signatures ``engine.ops.argcheck`` checks calls against, as PyTorch declares them (``native_functions.yaml``'s
syntax, as PyTorch's own error messages list them). Each op declares its own (``Api(signature=…)``, see
``engine.ops.api``), which lands here when the op is defined; this file lists only what is no op: the methods the
``Tensor`` class defines itself (``x.float()``, ``x.to(…)``), ``torch.nn.functional``'s ATen builtins and a few
``torch`` functions of the facade.

Kinds: ``Tensor``, ``Tensor#`` (a tensor, or a Python number PyTorch wraps: add, sub, mul, div), ``Number``, ``int``,
``float``, ``bool``, ``str``, ``dtype``, ``any`` (not checked), int lists ``int[]`` (a sequence of ints), ``int[1]``
(also one int: a reduction's ``dim``), ``int[]*`` (also separate ints, for a method: ``x.view(2, 3)``), ``Tensor[]``;
``?`` lets None through. Parameters after ``*`` are keyword-only. The method form drops the leading ``input``.
"""

from __future__ import annotations

# name -> signatures, in PyTorch's declaration syntax: "Tensor input, int dim, *, bool keepdim=False".
# A "Tensor#" parameter also takes a Python number (PyTorch wraps it for add, sub, mul, div, the comparisons …).
# The ops' own signatures are added by their declarations (engine.ops.api.declare).
SIGNATURES: dict[str, tuple[str, ...]] = {
    # torch.nn.functional's ops that are ATen builtins, or call one with the same arguments
    "F.gelu": ("Tensor input, *, str approximate='none'",),
    "F.softplus": ("Tensor input, Number beta=1, Number threshold=20",),
    "F.leaky_relu": ("Tensor input, Number negative_slope=0.01, bool inplace=False",),
    "F.hardtanh": ("Tensor input, Number min_val=-1., Number max_val=1., bool inplace=False",),
    "F.relu6": ("Tensor input, bool inplace=False",),
    "F.logsigmoid": ("Tensor input",),
    "F.elu": ("Tensor input, Number alpha=1, bool inplace=False",),
    "F.prelu": ("Tensor input, Tensor weight",),
    "F.linear": ("Tensor input, Tensor weight, Tensor? bias=None",),
    "F.one_hot": ("Tensor input, int num_classes=-1",),
    "Tensor.to": (
        "Tensor input, dtype dtype, bool non_blocking=False, bool copy=False, *, any memory_format=None",
        "Tensor input, Device? device=None, dtype? dtype=None, bool non_blocking=False, bool copy=False, *, "
        "any memory_format=None",
        "Tensor input, Tensor# other, bool non_blocking=False, bool copy=False, *, any memory_format=None",
    ),
    "float": ("Tensor input, *, any memory_format=None",),
    "double": ("Tensor input, *, any memory_format=None",),
    "long": ("Tensor input, *, any memory_format=None",),
    "int": ("Tensor input, *, any memory_format=None",),
    "bool": ("Tensor input, *, any memory_format=None",),
    "cpu": ("Tensor input, *, any memory_format=None",),
    "is_contiguous": ("Tensor input, *, any memory_format=None",),
    "size": ("Tensor input, int? dim=None",),
    "requires_grad_": ("Tensor input, bool requires_grad=True",),
    "numel": ("Tensor input",),
    "is_tensor": ("any obj",),
    "dropout": ("Tensor input, float p, bool train",),
}

# ops with more signatures in PyTorch than the ones listed (hidden, or outside gradtrace's subset), so that a refusal
# is the "invalid combination" message: name -> (forms, what PyTorch lists after "but expected"). The ops declare
# theirs (``Api(more_overloads=…)``).
MORE_OVERLOADS: dict[str, tuple[str, str | None]] = {}

__all__ = ["MORE_OVERLOADS", "SIGNATURES"]
