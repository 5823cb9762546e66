"""numba's start-up without the parts dimcalc's compiled kernels do not use (imported by every kernel loader).

A module of its own, importing nothing from dimcalc, so that :mod:`dimcalc.vc.kernel` and
:mod:`dimcalc.vc.sparse_jit` (which imports the kernel's marker helper) both use it without an import circle.
"""

from __future__ import annotations

__all__ = ["import_numba"]


def import_numba() -> None:
    """Import numba with its numpy registries, skipping its BLAS probe and its cffi set-up (~0.4 s of a ~1 s start-up).

    Loading numba's numpy implementations (``numba.np.arraymath``) probes for
    BLAS by importing ``scipy.linalg``, and its typing registries
    (``numba.core.typing.cffi_utils``, loaded with the first kernel) import
    ``cffi`` and build a ``cffi.FFI()`` (its C parser: ~0.03 s); dimcalc's
    compiled kernels (dense and sparse VC, closures, Littlestone counts) use
    neither.  While those two modules are imported, ``scipy.linalg`` and
    ``cffi`` are hidden (a ``None`` entry in ``sys.modules``: the imports
    fail at once), then restored.  What that changes in this process: numba
    records "no BLAS" for ``np.cov`` / ``np.corrcoef``'s inner product alone (a
    plain loop instead; ``np.dot`` or ``np.linalg`` in any jitted function still
    import ``scipy.linalg`` when compiled), and jitted functions cannot call
    cffi functions (``cffi`` itself still imports).  A module already loaded is
    left as it is: nothing is hidden once ``scipy.linalg`` or ``cffi`` is
    imported, or numba's module importing it is.
    """
    import importlib
    import sys

    for module, hidden in (("numba.np.arraymath", "scipy.linalg"), ("numba.core.typing.cffi_utils", "cffi")):
        if module in sys.modules or hidden in sys.modules:
            continue
        sys.modules[hidden] = None  # type: ignore[assignment]
        try:
            importlib.import_module(module)
        finally:
            if hidden in sys.modules and sys.modules[hidden] is None:
                del sys.modules[hidden]
