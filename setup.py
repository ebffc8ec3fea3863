"""The one compiled piece: engine/numerics/fma_chain.c, MKL's FMA chains for large matrix products (loaded with
ctypes by engine/numerics/native.py). Optional: without a C compiler the install goes on and the engine computes the
same bits in numpy, only slower. Everything else about the package is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.numerics._fma_chain",
            ["engine/numerics/fma_chain.c"],
            # No -ffast-math: fused or reordered float operations would change the bits. -fno-math-errno lets fmaf
            # be vectorised (it sets no errno anyway).
            extra_compile_args=["-O3", "-ffp-contract=off", "-fno-math-errno"],
            optional=True,
        )
    ]
)
