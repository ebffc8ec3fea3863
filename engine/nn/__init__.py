"""``torch.nn``: modules, parameters, layers, losses, ``functional`` and ``init``.

Example::

    >>> model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
"""

from __future__ import annotations

from engine.nn import functional, init, utils
from engine.nn.containers import ModuleDict, ParameterDict, ParameterList
from engine.nn.conv import AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, Conv1d, Conv2d, MaxPool1d, MaxPool2d
from engine.nn.layers import (
    ELU,
    GELU,
    Dropout,
    Dropout1d,
    Dropout2d,
    Flatten,
    Hardtanh,
    Identity,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    ModuleList,
    PReLU,
    ReLU,
    ReLU6,
    Sequential,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from engine.nn.lazy import LazyLinear, UninitializedParameter
from engine.nn.losses import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from engine.nn.module import Module, Parameter
from engine.nn.normalization import BatchNorm1d, BatchNorm2d, Embedding, LayerNorm
from engine.nn.recurrent import GRU, LSTM, RNN

__all__ = [
    "Module",
    "Parameter",
    "Linear",
    "ReLU",
    "LeakyReLU",
    "PReLU",
    "Hardtanh",
    "ReLU6",
    "LogSigmoid",
    "Tanh",
    "Sigmoid",
    "Softmax",
    "LogSoftmax",
    "Identity",
    "Flatten",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "ParameterList",
    "ParameterDict",
    "LazyLinear",
    "UninitializedParameter",
    "MSELoss",
    "L1Loss",
    "BCELoss",
    "NLLLoss",
    "GELU",
    "Dropout",
    "BCEWithLogitsLoss",
    "Softplus",
    "ELU",
    "SiLU",
    "CrossEntropyLoss",
    "Conv1d",
    "Conv2d",
    "MaxPool1d",
    "MaxPool2d",
    "AvgPool1d",
    "AvgPool2d",
    "AdaptiveAvgPool2d",
    "BatchNorm1d",
    "BatchNorm2d",
    "LayerNorm",
    "Embedding",
    "LSTM",
    "GRU",
    "RNN",
    "SmoothL1Loss",
    "HuberLoss",
    "Dropout1d",
    "Dropout2d",
    "functional",
    "init",
    "utils",
]
