"""Private k-learners of two named families: point functions and parities (BNS §5, Thms 39-40).

Both learn ``k`` concepts for about the price of one (approximate DP): PointLearner
(Alg 5, Thm 40) and ParityLearner (Alg 4, Thm 39).  Their pure-DP lower bounds are in
:mod:`dimcalc.sample_size.bns_lower_bounds`.

References
----------
BNS (JMLR), Theorems 39-40 and Algorithms 4-5.

Examples
--------
>>> point_k_learner_sample_size(k=2, alpha=0.5, beta=0.5, epsilon=1.0, delta=0.5).samples
5
"""

from __future__ import annotations

from typing import Literal

import sympy as sp

from ..errors import parameter_error
from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import SampleSizeBound
from .symbols import ALPHA, BETA, DELTA, EPSILON, ORDER_CONSTANT, D

__all__ = ["point_k_learner_sample_size", "parity_k_learner_sample_size"]


def point_k_learner_sample_size(
    *,
    domain_size: int | None = None,
    k: int,
    alpha: float,
    beta: float,
    epsilon: float,
    delta: float,
    order_constant: float = 1,
) -> SampleSizeBound:
    """PointLearner: PAC k-learner for POINT_X with approximate DP (BNS Thm 40).

    ``O((1/(alpha epsilon)) log(1/(alpha beta delta)))`` examples, independent
    of ``k`` and ``|X|``.

    Parameters
    ----------
    domain_size : int, optional
        ``|X|`` (recorded, not used: the bound does not depend on it).
    k : int >= 1
    alpha, beta, delta : float in (0, 1)
    epsilon : float > 0
    order_constant : float

    References
    ----------
    BNS (JMLR), Theorem 40 and Algorithm 5 (PointLearner).

    Examples
    --------
    >>> b = point_k_learner_sample_size(domain_size=32, k=5, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6)
    >>> b.expression
    c*log(1/(alpha*beta*delta))/(alpha*epsilon)
    >>> b.samples
    185
    """
    owner = "point_k_learner_sample_size"
    values = checked_values(
        owner, k=k, alpha=alpha, beta=beta, epsilon=epsilon, delta=delta, order_constant=order_constant
    )
    if domain_size is not None:
        values.update(checked_values(owner, domain_size=domain_size))
    expr = ORDER_CONSTANT / (ALPHA * EPSILON) * sp.log(1 / (ALPHA * BETA * DELTA))
    source = "BNS Thm 40 (Alg 5 PointLearner)"
    return make_bound(
        owner, "point_k_learner", expr, values, source, learning_setting("PAC", False, "approximate", "k")
    )


def parity_k_learner_sample_size(
    *,
    d: int,
    k: int,
    alpha: float = 0.0,
    beta: float,
    epsilon: float,
    delta: float,
    order_constant: float = 1,
    variant: Literal["theorem", "algorithm"] = "theorem",
) -> SampleSizeBound:
    """ParityLearner: exact PAC k-learner for PAR_d under the uniform distribution (BNS Thm 39).

    The theorem states ``O(d log(1/beta) + (1/epsilon) log(1/(beta delta)))``
    with ``alpha = 0`` (the targets are recovered exactly).  Algorithm 4, as
    written in its proof, splits the sample into
    ``O((1/epsilon) log(1/(beta delta)))`` parts of size ``O(d)``, i.e. uses
    ``O((d/epsilon) log(1/(beta delta)))`` examples; ``variant="algorithm"``
    returns that expression.

    Parameters
    ----------
    d : int >= 1
        Dimension of ``{0,1}^d`` (VC(PAR_d) = d).
    k : int >= 1
    alpha : float
        Ignored (the theorem is for ``alpha = 0``); kept for a uniform call shape.
    beta, delta : float in (0, 1)
    epsilon : float > 0
    order_constant : float
    variant : {"theorem", "algorithm"}

    References
    ----------
    BNS (JMLR), Theorem 39 and Algorithm 4 (ParityLearner).

    Examples
    --------
    >>> parity_k_learner_sample_size(d=4, k=3, beta=0.1, epsilon=1.0, delta=1e-6).expression
    c*(d*log(1/beta) + log(1/(beta*delta))/epsilon)
    """
    owner = "parity_k_learner_sample_size"
    values = checked_values(owner, d=d, k=k, beta=beta, epsilon=epsilon, delta=delta, order_constant=order_constant)
    if variant == "theorem":
        expr = ORDER_CONSTANT * (D * sp.log(1 / BETA) + sp.log(1 / (BETA * DELTA)) / EPSILON)
        notes: tuple = ()
    elif variant == "algorithm":
        expr = ORDER_CONSTANT * D / EPSILON * sp.log(1 / (BETA * DELTA))
        notes = ("sample size used by Algorithm 4 in the proof of Thm 39",)
    else:
        raise parameter_error("variant", owner, "'theorem' or 'algorithm'", variant)
    return make_bound(
        owner,
        "parity_k_learner",
        expr,
        values,
        "BNS Thm 39 (Alg 4 ParityLearner), uniform distribution, alpha = 0",
        learning_setting("PAC", True, "approximate", "k"),
        notes=notes,
    )
