"""Which CPU kernels PyTorch runs on this machine, so that engine.numerics can repeat them.

PyTorch's float32 results depend on the CPU: ATen compiles its vectorised kernels for several capabilities and
picks one at start-up from the CPU's flags (``torch.backends.cpu.get_cpu_capability()``), which sets the vector
width (16 float lanes on AVX512, 8 on AVX2) and so the order of row sums and the length of vectorised loops; and MKL
chooses its own code path by CPU (on the AMD EPYC measured, a 4-lane path with separate multiply and add instead of
AVX512's FMA chains). docs/NUMERICS.md has a section per profile.

Profiles (the measured machines):

* ``"avx512"``: an Intel CPU with AVX512 (ATen's rule: avx512f, avx512bw, avx512vl and avx512dq), measured on
  Sapphire Rapids;
* ``"avx2"``: AVX2 and FMA without AVX512, measured on an AMD EPYC (MKL's orders there are its non-Intel path;
  ``mkl_measured()`` says whether they are known for this CPU);
* ``"default"``: anything else (no model beyond the plain numpy results).

``GRADTRACE_CPU_CAPABILITY`` (one of the profiles) overrides the probe, for tests and replays; it is read on every
call, so a test can set it for one block of code.

Example::

    >>> capability() in PROFILES
    True
"""

from __future__ import annotations

import functools
import os

PROFILES = ("avx512", "avx2", "default")
ENV = "GRADTRACE_CPU_CAPABILITY"
_AVX512 = {"avx512f", "avx512bw", "avx512vl", "avx512dq"}  # ATen's cpuinfo test for its AVX512 kernels
_AVX2 = {"avx2", "fma"}


def _read_cpuinfo(path: str = "/proc/cpuinfo") -> tuple[frozenset[str], str]:
    """The first processor's flags and vendor id ('' when the file is missing: not Linux)."""
    flags: frozenset[str] = frozenset()
    vendor = ""
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "flags" and not flags:
                    flags = frozenset(value.split())
                elif key == "vendor_id" and not vendor:
                    vendor = value.strip()
                if flags and vendor:
                    break
    except OSError:
        pass
    return flags, vendor


def profile_of(flags: frozenset[str] | set[str]) -> str:
    """The profile a CPU with these /proc/cpuinfo flags gets."""
    if set(flags) >= _AVX512:
        return "avx512"
    if set(flags) >= _AVX2:
        return "avx2"
    return "default"


@functools.cache
def probed() -> tuple[str, str]:
    """(profile, vendor id) of this machine, read once."""
    flags, vendor = _read_cpuinfo()
    return profile_of(flags), vendor


def capability() -> str:
    """The profile whose kernels engine.numerics repeats: the override if set, else the probe."""
    forced = os.environ.get(ENV)
    if forced:
        if forced not in PROFILES:
            raise ValueError(f"{ENV}={forced!r}: expected one of {PROFILES}")
        return forced
    return probed()[0]


def vec_lanes() -> int:
    """float32 lanes of ATen's ``Vectorized<float>`` on this profile (8 also for 'default')."""
    return 16 if capability() == "avx512" else 8


def mkl_path() -> str | None:
    """The profile whose MKL orders apply here, None where MKL's code path was not measured.

    ATen picks its vector width from the CPU's flags (``capability()``), but MKL picks its code path by vendor as
    well: on an AMD CPU it takes its non-Intel path whether or not the CPU has AVX512, so an AMD EPYC with AVX512
    (measured: Zen 4) runs ATen's 16-lane kernels and MKL's "avx2" orders. With the override set, the override's
    machine is assumed for both."""
    if os.environ.get(ENV):
        forced = capability()
        return None if forced == "default" else forced
    profile, vendor = probed()
    if profile == "avx512" and vendor == "GenuineIntel":
        return "avx512"
    if profile in ("avx512", "avx2") and vendor == "AuthenticAMD":
        return "avx2"
    return None


def mkl_measured() -> bool:
    """Whether MKL's orders are known here: AVX512 was measured on Intel, the non-Intel path on AMD (MKL takes other
    code paths on an Intel CPU without AVX512: not measured). With the override set, the override's machine is
    assumed."""
    return mkl_path() is not None


__all__ = ["PROFILES", "ENV", "capability", "profile_of", "probed", "vec_lanes", "mkl_measured", "mkl_path"]
