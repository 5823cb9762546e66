"""Loading the kernels of the sparse VC search (:mod:`dimcalc.vc.sparse_kernel`, :mod:`dimcalc.vc.sparse_clique`).

The kernels are plain Python over numpy arrays; :func:`kernels` returns them
compiled with numba (``cache=True``: loaded from numba's disk cache after the
first compile) or as they are (``DIMCALC_JIT=0``, or no time to load them).
Loading costs about 0.7 s of CPU once per process, almost all of it numba's
own start-up (importing numba and its typing registries; :func:`._kernel_numba.import_numba`
skips their BLAS probe, which imported ``scipy.linalg``, and their cffi set-up); each kernel adds
~20 ms.  So a kernel is
loaded only when a search first asks for it (:func:`kernels` is lazy), and
``make install`` runs :func:`warm_up` so that the first search after an
install loads instead of compiling.

numba's cache knows the file of each function, not the files of the helpers
it calls: :func:`cached` stamps the three source files, and a kernel whose
stamp is not recorded is dropped from the disk cache and compiled afresh.

Examples
--------
>>> K = kernels(False)
>>> sorted(K)
['clique', 'levels', 'pairs', 'search']
>>> K["search"] is sparse_kernel._search
True
"""

from __future__ import annotations

import os
from typing import Any

from . import sparse_clique, sparse_kernel
from ._kernel_numba import import_numba
from .kernel import touch_marker

__all__ = ["kernels", "available", "warm", "warm_up", "cached", "mark_warm", "KERNEL_NAMES"]

#: The kernels by name -> (module, function name).
KERNEL_NAMES = {
    "search": (sparse_kernel, "_search"),
    "pairs": (sparse_kernel, "_pairs"),
    "levels": (sparse_kernel, "_row_levels"),
    "clique": (sparse_clique, "_clique"),
}
_PLAIN = {name: getattr(module, fn) for name, (module, fn) in KERNEL_NAMES.items()}
_compiled: dict[str, Any] = {}
_helpers_done = False


def available() -> bool:
    """Whether the compiled kernels may be used (numba installed, ``DIMCALC_JIT`` not ``0``)."""
    if os.environ.get("DIMCALC_JIT", "1") == "0":
        return False
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def _jit(fn: Any, cache: bool = True) -> Any:
    """``fn`` compiled by numba: a kernel with ``cache`` (numba's disk cache), a helper without (a helper is compiled
    into each kernel that calls it and cached with it; a dispatcher with a cache of its own costs ~3 ms to make)."""
    import_numba()
    import numba

    dispatcher = numba.njit(cache=cache, nogil=True)(fn)
    if cache and not cached():  # a helper may have changed in another file: drop what the disk cache holds
        dispatcher._cache.flush()  # type: ignore[attr-defined]
    return dispatcher


def _ctpop() -> Any:
    """:func:`~dimcalc.vc.sparse_kernel._popcount` compiled: LLVM's ``ctpop`` on a ``uint64``, as an ``int64``."""
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def popcount(typingctx: Any, word: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.uint64), codegen

    return popcount


def _compile_helpers() -> None:
    """The helpers the kernels call, compiled and bound where the kernels look them up (module globals)."""
    global _helpers_done
    if _helpers_done:
        return
    for name in ("_apply", "_undo", "_ok", "_test"):
        setattr(sparse_kernel, name, _jit(getattr(sparse_kernel, name), cache=False))
    sparse_kernel._popcount = _ctpop()
    sparse_clique._triple_ok = _jit(sparse_clique._triple_ok, cache=False)
    sparse_clique._tri = _jit(sparse_clique._tri, cache=False)
    _helpers_done = True


def _kernel(name: str) -> Any:
    if name not in _compiled:
        _compile_helpers()
        _compiled[name] = _jit(_PLAIN[name])
    return _compiled[name]


class _Lazy(dict):
    """The compiled kernels, each made (numba dispatcher) on first look-up."""

    def __missing__(self, name: str) -> Any:
        if name not in KERNEL_NAMES:
            raise KeyError(name)
        value = _kernel(name)
        self[name] = value
        return value

    def __iter__(self) -> Any:
        return iter(KERNEL_NAMES)

    def __len__(self) -> int:
        return len(KERNEL_NAMES)


def kernels(jit: bool) -> dict[str, Any]:
    """The kernels ``search``, ``pairs``, ``clique``, ``levels``: compiled (``jit`` and :func:`available`; each made
    on first use, loaded from numba's disk cache on its first call) or plain Python."""
    if jit and available():
        return _Lazy()
    return dict(_PLAIN)


_warmed: set[str] = set()


def warm() -> bool:
    """Whether compiled kernels have run in this process (numba's start-up is paid; each further kernel loads from
    the disk cache in milliseconds)."""
    return bool(_warmed)


def mark_warm(names: tuple[str, ...] = tuple(KERNEL_NAMES)) -> None:
    _warmed.update(names)


_marker_path: list[str] = []


def _marker() -> str:
    """The file saying that the kernels of these sources and numba version are in numba's disk cache (its name
    computed once a process)."""
    if not _marker_path:
        _marker_path.append(_marker_name())
    return _marker_path[0]


def _marker_name() -> str:
    import importlib.metadata

    stamp = "-".join(
        f"{int(st.st_mtime_ns)}-{st.st_size}"
        for st in (os.stat(path) for path in (sparse_kernel.__file__, sparse_clique.__file__, __file__))
    )
    stamp += f"-{importlib.metadata.version('numba')}"
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"dimcalc-sparse-kernel-{stamp}.ok")


def cached() -> bool:
    """Whether the compiled kernels of these sources are in the disk cache (loading them takes about a second)."""
    try:
        return os.path.exists(_marker())
    except Exception:  # noqa: BLE001 - a missing numba or odd install: not cached
        return False


def warm_up(names: tuple[str, ...] = tuple(KERNEL_NAMES)) -> None:
    """Compile (or load from the disk cache) the kernels ``names`` by running each once on a tiny set system, with
    the argument types of a real search; ``make install`` runs it for all four."""
    import numpy as np

    if not available():
        return
    K = kernels(True)
    i64 = np.int64
    indptr = np.array([0, 1, 2], dtype=i64)
    indices = np.array([0, 0], dtype=np.int32)
    t_indptr = np.array([0, 2], dtype=i64)
    t_indices = np.array([0, 1], dtype=np.int32)
    for arr in (indptr, indices, t_indptr, t_indices):  # read-only, as the class's arrays: the same signatures
        arr.setflags(write=False)
    code = np.zeros(2, dtype=np.int32)
    cnt = np.array([2, 0], dtype=i64)
    z = np.zeros(4, dtype=i64)
    if "levels" in names:
        K["levels"](indptr, indices, np.ones(1, dtype=i64), np.zeros(3, dtype=i64), np.zeros(2, dtype=i64))
    if "search" in names:
        state = np.array([0, -1, 0, 0], dtype=i64)
        K["search"](1, np.zeros(1, dtype=i64), indptr, indices, t_indptr, t_indices, np.ones(1, dtype=np.bool_),
                    code, cnt, state, z, z.copy(), z.copy(), 8)  # fmt: skip
    if "pairs" in names:
        K["pairs"](np.zeros(1, dtype=i64), indptr.copy(), indices.copy(), t_indptr, t_indices, np.ones(1, dtype=i64),
                   2, 1, np.zeros(1, dtype=i64), np.zeros(1, dtype=i64), np.zeros(4, dtype=i64),
                   np.zeros(4, dtype=i64))  # fmt: skip
    if "clique" in names:
        lists = np.zeros((2, 2), dtype=i64)
        K["clique"](1, np.zeros(1, dtype=i64), np.array([0, 0], dtype=i64), np.zeros(0, dtype=i64),
                    np.zeros(1, dtype=i64), t_indptr, t_indices, code, cnt, np.array([0, -1, 0, 0], dtype=i64), z, lists,
                    z.copy(), z.copy(), z.copy(), np.zeros(0, dtype=i64), np.zeros(0, dtype=i64),
                    np.zeros(0, dtype=np.int32), np.zeros(2, dtype=i64), code.copy(), np.zeros(8, dtype=i64),
                    np.zeros(1, dtype=i64), np.zeros(0, dtype=i64), np.zeros((0, 0), dtype=np.uint64),
                    np.zeros(0, dtype=np.uint64), 8)  # fmt: skip
    mark_warm(names)
    if _warmed == set(KERNEL_NAMES) and not cached():
        touch_marker(_marker())
