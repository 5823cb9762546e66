"""The exponential mechanism: the one selection primitive of every learner, and its score.

References
----------
F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007;
BNS (JMLR) Proposition 21; R. McKenna, D. Sheldon, *Permute-and-Flip*, NeurIPS 2020
(the law of OpenDP's report-noisy-max, see :mod:`dimcalc.learners.mechanisms.noise`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from ..._params import Number, as_fraction, check_epsilon
from ...errors import parameter_error
from ...param_validation import renamed_parameters
from .._validation import check_real
from .noise import NoiseSource, make_noise

__all__ = ["exponential_mechanism", "error_counts"]


def error_counts(table: np.ndarray, X: np.ndarray, y: np.ndarray, num_labels: int) -> np.ndarray:
    """Number of examples each row of ``table`` mislabels: ``n - sum_x count[x, h(x)]``.

    ``y`` is one label per example (result: one count per row) or an ``(m, k)`` label
    matrix (result: ``(rows, k)``, column ``j`` for label column ``j``).  Linear in
    ``rows * points`` (a count table over (point, label) first).  The exponential
    mechanism's score is minus this count (sensitivity 1, BNS Prop 21).

    Examples
    --------
    >>> table = np.array([[0, 1], [1, 1]])
    >>> error_counts(table, np.array([0, 0, 1]), np.array([0, 0, 1]), 2).tolist()
    [0, 2]
    >>> error_counts(table, np.array([0, 1]), np.array([[0, 1], [1, 1]]), 2).tolist()
    [[0, 1], [1, 0]]
    """
    y = np.asarray(y)
    if y.ndim == 2:
        return np.stack([error_counts(table, X, y[:, j], num_labels) for j in range(y.shape[1])], axis=1)
    n_points = table.shape[1]
    counts = np.bincount(X * num_labels + y, minlength=n_points * num_labels).reshape(n_points, num_labels)
    agreements = counts[np.arange(n_points)[None, :], table].sum(axis=1)
    return X.shape[0] - agreements


@renamed_parameters(rng="random_state")
def exponential_mechanism(
    scores: Sequence[Any] | np.ndarray,
    *,
    epsilon: Any,
    sensitivity: Number = 1,
    noise: NoiseSource | str | None = None,
    random_state: Any = None,
    backend: Literal["opendp", "exact"] | None = None,
    noise_multiplier: Number = 1,
) -> int:
    """Privately select an index of (approximately) maximal score: ``epsilon``-DP.

    The one selection primitive of every learner.  The noise source is ``noise`` (a
    :class:`NoiseSource` or its name), or -- the single-concept learners' older call shape
    -- ``backend`` (``"opendp"`` or ``"exact"``) with ``random_state``; default OpenDP.

    Parameters
    ----------
    scores : sequence of numbers
        One score per candidate (higher is better); each changes by at most
        ``sensitivity`` between neighbouring datasets.  Integer scores are used as is
        by both sources.
    epsilon : number > 0
        The privacy parameter (Fraction and text such as ``"1/3"`` are exact).
    sensitivity : number > 0
    noise, random_state, backend
        Where the randomness comes from (see the module docstring); ``random_state`` (None, an int
        seed or a ``numpy.random.Generator``) drives the exact source (``rng=`` is its former name,
        accepted for one release with a ``FutureWarning``).
    noise_multiplier : number
        Multiplies the noise scale (runs at ``epsilon / noise_multiplier``); values below
        1 void the guarantee (audits only).

    Returns
    -------
    int
        The selected index.

    Notes
    -----
    ``epsilon``-differentially private; with probability at least
    ``1 - |F| exp(-epsilon t / (2 sensitivity))`` the chosen score is at least
    ``max(scores) - t`` (BNS Proposition 21; for OpenDP's exponential-noise
    report-noisy-max, a candidate ``t`` below the maximum must draw noise above ``t``).

    References
    ----------
    McSherry and Talwar 2007; BNS (JMLR) Proposition 21; McKenna and Sheldon 2020.

    Examples
    --------
    >>> rng = np.random.default_rng(7)
    >>> {exponential_mechanism([0, -40, -40], epsilon=1.0, random_state=rng, backend="exact") for _ in range(50)}
    {0}
    >>> from dimcalc.learners.mechanisms import ExactNoise
    >>> exponential_mechanism([0, -10, -10], epsilon="5", noise=ExactNoise(np.random.default_rng(1)))
    0
    """
    owner = "exponential_mechanism"
    eps = check_epsilon(epsilon, owner)
    for name, value in (("sensitivity", sensitivity), ("noise_multiplier", noise_multiplier)):
        check_real(value, name, owner, requirement="a number in (0, inf)", types=(int, float, Fraction))
    values: np.ndarray | list[Any] = np.asarray(scores).reshape(-1) if isinstance(scores, np.ndarray) else list(scores)
    if len(values) == 0:
        raise parameter_error("scores", owner, "a non-empty sequence of numbers", scores)
    if noise is None:
        if backend not in (None, "opendp", "exact"):
            raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
        noise = backend or "opendp"
    source = make_noise(noise, random_state, owner)
    if len(values) == 1:
        return 0
    effective = as_fraction(eps) / as_fraction(noise_multiplier)
    return source.exponential_mechanism(values, effective, sensitivity)
