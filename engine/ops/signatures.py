"""The signatures of the ops gradtrace checks arguments for, as PyTorch declares them (``native_functions.yaml``'s
syntax, as PyTorch's own error messages list them), read by ``engine.ops.argcheck``.

Kinds: ``Tensor``, ``Tensor#`` (a tensor, or a Python number PyTorch wraps: add, sub, mul, div), ``Number``, ``int``,
``float``, ``bool``, ``str``, ``dtype``, ``any`` (not checked), int lists ``int[]`` (a sequence of ints), ``int[1]``
(also one int: a reduction's ``dim``), ``int[]*`` (also separate ints, for a method: ``x.view(2, 3)``), ``Tensor[]``;
``?`` lets None through. Parameters after ``*`` are keyword-only. The method form drops the leading ``input``.
"""

from __future__ import annotations

# name -> signatures, in PyTorch's declaration syntax: "Tensor input, int dim, *, bool keepdim=False".
# A "Tensor#" parameter also takes a Python number (PyTorch wraps it for add, sub, mul, div, the comparisons …).
SIGNATURES: dict[str, tuple[str, ...]] = {
    "tensor": ("any data, *, dtype? dtype=None, any device=None, bool pin_memory=False, bool requires_grad=False",),
    "as_tensor": ("any data, *, dtype? dtype=None, any device=None",),
    "fill_": ("Tensor input, Tensor value", "Tensor input, Number value"),
    "uniform_": ("Tensor input, float from=0, float to=1, *, Generator? generator=None",),
    "normal_": ("Tensor input, float mean=0, float std=1, *, Generator? generator=None",),
    "eye": ("int n, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
            "int n, int m, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False"),
    "randperm": ("int n, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
                 "int n, *, Generator? generator, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False"),
    "arange": ("Number end, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
               "Number start, Number end, *, dtype? dtype=None, any layout=None, any device=None, "
               "bool? requires_grad=False",
               "Number start, Number end, Number step=1, *, dtype? dtype=None, any layout=None, any device=None, "
               "bool? requires_grad=False"),
    "linspace": ("Number start, Number end, int steps, *, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False",
                 "Tensor start, Tensor end, int steps, *, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False"),
    # torch.nn.functional's ops that are ATen builtins, or call one with the same arguments
    "F.gelu": ("Tensor input, *, str approximate='none'",),
    "F.softplus": ("Tensor input, Number beta=1, Number threshold=20",),
    "F.leaky_relu": ("Tensor input, Number negative_slope=0.01, bool inplace=False",),
    "F.elu": ("Tensor input, Number alpha=1, bool inplace=False",),
    "F.linear": ("Tensor input, Tensor weight, Tensor? bias=None",),
    "F.one_hot": ("Tensor input, int num_classes=-1",),
    "randint": ("int high, int[] size, *, Generator? generator=None, dtype? dtype=None, any layout=None, "
                "any device=None, "
                "bool? requires_grad=False",
                "int low, int high, int[] size, *, Generator? generator=None, dtype? dtype=None, any layout=None, "
                "any device=None, bool? requires_grad=False"),
    "normal": ("Tensor mean, Tensor std, *, Generator? generator=None",
               "Tensor mean, float std=1, *, Generator? generator=None",
               "float mean, Tensor std, *, Generator? generator=None",
               "float mean, float std, int[] size, *, Generator? generator=None, dtype? dtype=None, any layout=None, "
               "any device=None, bool? requires_grad=False",
               "float mean, float std, int[] size, *, Generator? generator=None, Tensor? out=None"),
    "clone": ("Tensor input, *, any memory_format=None",),
    "Tensor.to": ("Tensor input, dtype dtype, bool non_blocking=False, bool copy=False, *, any memory_format=None",
                  "Tensor input, Device? device=None, dtype? dtype=None, bool non_blocking=False, bool copy=False, *, "
                  "any memory_format=None",
                  "Tensor input, Tensor# other, bool non_blocking=False, bool copy=False, *, any memory_format=None"),
    "float": ("Tensor input, *, any memory_format=None",),
    "double": ("Tensor input, *, any memory_format=None",),
    "long": ("Tensor input, *, any memory_format=None",),
    "int": ("Tensor input, *, any memory_format=None",),
    "bool": ("Tensor input, *, any memory_format=None",),
    "cpu": ("Tensor input, *, any memory_format=None",),
    "is_contiguous": ("Tensor input, *, any memory_format=None",),
    "size": ("Tensor input, int? dim=None",),
    "requires_grad_": ("Tensor input, bool requires_grad=True",),
    "contiguous": ("Tensor input, *, any memory_format=None",),
    "dot": ("Tensor input, Tensor tensor",),
    "mm": ("Tensor input, Tensor mat2",),
    "bmm": ("Tensor input, Tensor mat2",),
    "mv": ("Tensor input, Tensor vec",),
    "matmul": ("Tensor input, Tensor other",),
    "outer": ("Tensor input, Tensor vec2",),
    "maximum": ("Tensor input, Tensor other",),
    "minimum": ("Tensor input, Tensor other",),
    "add": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "sub": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "mul": ("Tensor# input, Tensor# other",),
    "div": ("Tensor# input, Tensor# other, *, str? rounding_mode=None",),
    "add_": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "sub_": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "mul_": ("Tensor# input, Tensor# other",),
    "div_": ("Tensor# input, Tensor# other, *, str? rounding_mode=None",),
    "pow": ("Tensor input, Tensor exponent", "Number self, Tensor exponent", "Tensor input, Number exponent"),
    "where": ("Tensor condition", "Tensor condition, Tensor input, Tensor other",
              "Tensor condition, Number self, Tensor other", "Tensor condition, Tensor input, Number other",
              "Tensor condition, Number self, Number other"),
    "masked_fill": ("Tensor input, Tensor mask, Tensor value", "Tensor input, Tensor mask, Number value"),
    "masked_fill_": ("Tensor input, Tensor mask, Tensor value", "Tensor input, Tensor mask, Number value"),
    "clamp": ("Tensor input, Tensor? min=None, Tensor? max=None", "Tensor input, Number? min=None, Number? max=None"),
    "allclose": ("Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False",),
    "isclose": ("Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False",),
    "equal": ("Tensor input, Tensor other",),
    "logical_and": ("Tensor input, Tensor other",),
    "logical_or": ("Tensor input, Tensor other",),
    "gather": ("Tensor input, int dim, Tensor index, *, bool sparse_grad=False",),
    "view_as": ("Tensor input, Tensor other",),
    "reshape_as": ("Tensor input, Tensor other",),
    "expand_as": ("Tensor input, Tensor other",),
    "unsqueeze": ("Tensor input, int dim",),
    "transpose": ("Tensor input, int dim0, int dim1",),
    "flatten": ("Tensor input, int start_dim=0, int end_dim=-1",),
    "softmax": ("Tensor input, int dim, dtype? dtype=None",),
    "log_softmax": ("Tensor input, int dim, dtype? dtype=None",),
    "argmax": ("Tensor input, int? dim=None, bool keepdim=False",),
    "argmin": ("Tensor input, int? dim=None, bool keepdim=False",),
    "cumsum": ("Tensor input, int dim, *, dtype? dtype=None",),
    "unbind": ("Tensor input, int dim=0",),
    "triu": ("Tensor input, int diagonal=0",),
    "tril": ("Tensor input, int diagonal=0",),
    "diag": ("Tensor input, int diagonal=0",),
    "flip": ("Tensor input, int[]* dims",),
    "view": ("Tensor input, dtype dtype", "Tensor input, int[]* size"),
    "reshape": ("Tensor input, int[]* shape",),
    "permute": ("Tensor input, int[]* dims",),
    "expand": ("Tensor input, int[]* size, *, bool implicit=False",),
    "repeat": ("Tensor input, int[]* repeats",),
    "squeeze": ("Tensor input", "Tensor input, int dim", "Tensor input, int[] dim"),
    "sum": ("Tensor input, *, dtype? dtype=None",
            "Tensor input, int[1]? dim, bool keepdim=False, *, dtype? dtype=None"),
    "mean": ("Tensor input, *, dtype? dtype=None",
             "Tensor input, int[1]? dim, bool keepdim=False, *, dtype? dtype=None"),
    "max": ("Tensor input", "Tensor input, Tensor other", "Tensor input, int dim, bool keepdim=False"),
    "min": ("Tensor input", "Tensor input, Tensor other", "Tensor input, int dim, bool keepdim=False"),
    "prod": ("Tensor input, *, dtype? dtype=None", "Tensor input, int dim, bool keepdim=False, *, dtype? dtype=None"),
    "std": ("Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False",
            "Tensor input, int[1]? dim=None, *, Number? correction=None, bool keepdim=False",
            "Tensor input, bool unbiased=True"),
    "var": ("Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False",
            "Tensor input, int[1]? dim=None, *, Number? correction=None, bool keepdim=False",
            "Tensor input, bool unbiased=True"),
    "all": ("Tensor input", "Tensor input, int[1]? dim=None, bool keepdim=False",
            "Tensor input, int dim, bool keepdim=False"),
    "any": ("Tensor input", "Tensor input, int[1]? dim=None, bool keepdim=False",
            "Tensor input, int dim, bool keepdim=False"),
    "count_nonzero": ("Tensor input, int? dim=None", "Tensor input, int[] dim"),
    "amax": ("Tensor input, int[1]? dim=[], bool keepdim=False",),
    "amin": ("Tensor input, int[1]? dim=[], bool keepdim=False",),
    "square": ("Tensor input",),
    "logical_not": ("Tensor input",),
    "numel": ("Tensor input",),
    "is_tensor": ("any obj",),
    "round": ("Tensor input, *, Tensor? out=None", "Tensor input, *, int decimals, Tensor? out=None"),
    "dropout": ("Tensor input, float p, bool train",),
    "nonzero": ("Tensor input, *, bool as_tuple=False",),
    "Tensor.nonzero": ("Tensor input", "Tensor input, *, bool as_tuple"),
    "numpy": ("Tensor input, *, bool force=False",),
    "pow_": ("Tensor input, Tensor exponent", "Tensor input, Number exponent"),
    "clamp_": ("Tensor input, Tensor? min=None, Tensor? max=None", "Tensor input, Number? min=None, Number? max=None"),
    "copy_": ("Tensor input, Tensor# other, bool non_blocking=False",),
    "bernoulli_": ("Tensor input, Tensor p, *, Generator? generator=None",
                   "Tensor input, float p=0.5, *, Generator? generator=None"),
    "exponential_": ("Tensor input, float lambd=1, *, Generator? generator=None",),
    "random_": ("Tensor input, *, Generator? generator=None", "Tensor input, int to, *, Generator? generator=None",
                "Tensor input, int from, int? to, *, Generator? generator=None"),
    "full": ("int[] size, Number fill_value, *, dtype? dtype=None, any layout=None, any device=None, "
             "bool? requires_grad=False",),
    "logsumexp": ("Tensor input, int[1] dim, bool keepdim=False",),
    "chunk": ("Tensor input, int chunks, int dim=0",),
    "topk": ("Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True",),
    "sort": ("Tensor input, *, bool? stable, int dim=-1, bool descending=False",
             "Tensor input, int dim=-1, bool descending=False"),
    "argsort": ("Tensor input, *, bool? stable, int dim=-1, bool descending=False",
                "Tensor input, int dim=-1, bool descending=False"),
    "clamp_min": ("Tensor input, Tensor min", "Tensor input, Number min"),
    "clamp_max": ("Tensor input, Tensor max", "Tensor input, Number max"),
    "clip": ("Tensor input, Tensor? min=None, Tensor? max=None", "Tensor input, Number? min=None, Number? max=None"),
    "eq": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "ne": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "lt": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "le": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "gt": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "ge": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "cat": ("Tensor[] tensors, int dim=0",),
    "concat": ("Tensor[] tensors, int dim=0",),
    "stack": ("Tensor[] tensors, int dim=0",),
    "zeros_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "ones_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "empty_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "rand_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
                 "Tensor input, *, Generator? generator, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False"),
    "randn_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
                  "Tensor input, *, Generator? generator, dtype? dtype=None, any layout=None, any device=None, "
                  "bool? requires_grad=False"),
    "full_like": ("Tensor input, Number fill_value, *, dtype? dtype=None, any layout=None, any device=None, "
                  "bool? requires_grad=False",),
    "bernoulli": ("Tensor input, *, Generator? generator=None", "Tensor input, float p, *, Generator? generator=None"),
    "multinomial": ("Tensor input, int num_samples, bool replacement=False, *, Generator? generator=None",),
}

# ops with more signatures in PyTorch than the ones listed (hidden, or outside gradtrace's subset), so that a refusal
# is the "invalid combination" message: name -> (forms, what PyTorch lists after "but expected")
MORE_OVERLOADS: dict[str, tuple[str, str | None]] = {
    "mm": ("function", None), "bmm": ("function", None), "div": ("both", None), "div_": ("method", None),
    "add": ("both", "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None"),
    "sub": ("both", "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None"),
    "add_": ("method", "Tensor other, *, Number alpha = 1"), "sub_": ("method", "Tensor other, *, Number alpha = 1"),
}

__all__ = ["MORE_OVERLOADS", "SIGNATURES"]
