"""Standard hypothesis classes: named families from the papers, built with numpy.

Every generator returns a :class:`~dimcalc.HypothesisClass` with a name, point
names, hypothesis names and ``metadata = {"family": ..., "params": {...},
"source": ...}``, so a generated file says where it came from.  Parameters are
validated up front; a class that would exceed
:data:`~dimcalc.classes.hypothesis_class.MAX_CELLS` table cells is refused before
anything is built.

Binary families
---------------
* :func:`point_functions` ``(n)`` -- the ``n`` indicators ``1[x = j]``.
* :func:`k_point_functions` ``(n, k)`` -- indicators of the ``C(n, k)`` sets of
  exactly ``k`` points.
* :func:`thresholds` ``(n)`` -- the ``n + 1`` distinct thresholds
  ``t_j(x_i) = 1[i >= j]``, ``j = 0..n`` (``t_n`` is all zeros).
* :func:`intervals` ``(n)`` -- the ``n(n + 1)/2`` intervals ``[a, b]`` and the
  empty interval.
* :func:`parities` ``(d)`` -- the ``2^d`` parities over ``{0, 1}^d``.
* :func:`boxes`, :func:`halfspaces`, :func:`balls` ``(b, d)`` -- FX §4.1
  ``BOX_b^d``, ``HS_b^d``, ``BALL_b^d`` over the grid ``[2^b]^d``.
* :func:`lines` ``(p)`` -- FX §5 ``Line_p`` over ``Z_p^2``.
* :func:`random_class` -- seeded random tables (binary or multiclass).

Multiclass families (BGS)
-------------------------
* :func:`bgs_thm61_class` ``(k, d)`` -- BGS Theorem 6.1: ``MLD = d`` while
  the first binary restriction has Littlestone dimension about ``d log k``.
* :func:`bgs_thm72_class` ``(d, bits, n)`` -- BGS Theorem 7.2: every binary
  restriction is the class of ``d``-point functions, ``MLD = d · bits``.
* BGS Claim 6.2 is :func:`dimcalc.operations.gap_amplification`
  (:func:`gap_amplified_class` adds the generator's metadata).

:data:`GENERATORS` describes every family and its parameters for
``dimcalc generate``.

Modules: :mod:`~dimcalc.generators.classic` (one-dimensional families and
parities), :mod:`~dimcalc.generators.geometric` (FX grids and lines),
:mod:`~dimcalc.generators.bgs` (BGS multiclass classes),
:mod:`~dimcalc.generators.random_tables` and
:mod:`~dimcalc.generators.registry` (the families of ``dimcalc generate``).

References
----------
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021.
.. [FX] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014.
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of
   Multiple Concepts. JMLR 20 (2019).
"""

from .bgs import bgs_thm61_class, bgs_thm72_class, gap_amplified_class
from .classic import intervals, k_point_functions, parities, point_functions, thresholds
from .geometric import balls, boxes, halfspaces, lines
from .random_tables import random_class
from .registry import GENERATORS, Generator, GeneratorParam

__all__ = [
    "point_functions",
    "k_point_functions",
    "thresholds",
    "intervals",
    "parities",
    "boxes",
    "halfspaces",
    "balls",
    "lines",
    "random_class",
    "bgs_thm61_class",
    "bgs_thm72_class",
    "gap_amplified_class",
    "Generator",
    "GeneratorParam",
    "GENERATORS",
]
