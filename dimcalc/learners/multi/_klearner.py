"""What the k-learners share: checks, the budget's accounting, per-concept selection, prediction, bounds.

References
----------
M. Bun, K. Nissim, U. Stemmer, *Simultaneous Private Learning of Multiple Concepts*,
JMLR 2019: Defs 3-5 (k-labelled databases, k-learners), Thm 17, Props 21-22.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from ...classes.hypothesis_class import HypothesisClass
from ...errors import InvalidParameterError, parameter_error
from ...sample_size import BETA, SampleSizeBound
from ...validation import check_hypothesis_class
from .._base import PrivateLearner
from .._validation import check_count, check_delta, check_indices
from ..mechanisms.exponential import exponential_mechanism
from ..mechanisms.noise import NoiseSource
from ..privacy import Privacy

__all__ = [
    "KLearner",
    "SelectionKLearner",
    "check_binary_class",
    "check_composition",
    "a_dist_gap_expr",
    "dlap_quantile_expr",
]


def check_binary_class(H: Any, owner: str) -> HypothesisClass:
    """``H`` if it is a binary :class:`HypothesisClass` (BNS concepts are predicates)."""
    H = check_hypothesis_class(H, owner)
    if not H.is_binary:
        raise parameter_error(
            "H", owner, "a binary class (labels 0/1; BNS concepts are predicates)", f"{H.num_labels} labels"
        )
    return H


def check_composition(composition: Any, owner: str) -> str:
    """One of ``"auto"``, ``"basic"``, ``"advanced"`` (BNS Thm 17)."""
    if composition not in ("auto", "basic", "advanced"):
        raise parameter_error("composition", owner, "'auto', 'basic' or 'advanced'", composition)
    return str(composition)


def dlap_quantile_expr(scale: sp.Expr, probability: sp.Expr) -> sp.Expr:
    """Upper bound ``scale * ln(1/p) + 1`` on the least ``a`` with ``Pr[DLap(scale) >= a] <= p``."""
    return scale * sp.log(1 / probability) + 1


def a_dist_gap_expr(scale: sp.Expr, delta: sp.Expr) -> sp.Expr:
    """Gap ``A_dist`` at noise ``DLap(scale)`` and ``delta`` needs to answer except with probability ``β/2``.

    Its threshold is ``2 + a`` with ``Pr[DLap(scale) >= a] <= delta`` (BNS Alg 1 with
    sensitivity 1), and the noise must not fall below ``-a'`` with ``Pr[DLap(scale) >= a'] <= β/2``.
    """
    return 2 + dlap_quantile_expr(scale, delta) + dlap_quantile_expr(scale, BETA / 2) - 1


class KLearner(PrivateLearner):
    """Shared plumbing of the k-learners: the noise source, the selection's budget split, ``k_``."""

    def _k_for_bound(self, k: int | None) -> int:
        k = getattr(self, "k_", None) if k is None else k
        if k is None:
            raise InvalidParameterError(f"{self._owner}.required_sample_size: give k or call fit first")
        return check_count(k, "k", f"{self._owner}.required_sample_size", requirement="an int >= 1")

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:
        """Before a fit (k unknown): the budget, which every fit stays within."""
        return Privacy.mechanism(params["epsilon"], params.get("delta", 0), "the budget (BNS Thm 17)")

    def _explicit_bound(
        self, name: str, expression: sp.Expr, values: dict[str, Any], source: str, *, proper: bool, notes: tuple
    ) -> SampleSizeBound:
        """A PAC upper bound with this implementation's explicit constants, approximate DP (Point, Parity)."""
        return SampleSizeBound(
            name=name,
            expression=expression,
            values=values,
            source=source,
            setting={"task": "PAC", "proper": proper, "privacy": "approximate", "concepts": "k", "data": "private"},
            constants_explicit=True,
            kind="upper",
            order_constant=None,
            notes=notes,
        )


class SelectionKLearner(KLearner):
    """A k-learner that chooses one hypothesis of a binary class ``H`` per concept (Composition, Generic).

    Subclasses store ``H`` and ``delta``; ``fit`` sets ``hypotheses_``.
    """

    H: HypothesisClass
    delta: Any
    hypotheses_: np.ndarray

    def _check_class_and_delta(self) -> dict[str, Any]:
        """The common parameters with the checked binary class and delta."""
        params = self._check_common(self._owner)
        params["H"] = check_binary_class(self.H, self._owner)
        params["delta"] = check_delta(self.delta, self._owner)
        return params

    @staticmethod
    def _select_per_concept(errors: np.ndarray, epsilon: Any, noise: NoiseSource, noise_multiplier: Any) -> list[int]:
        """One exponential mechanism per label column of ``errors`` (score: minus the errors; BNS Prop 21)."""
        return [
            exponential_mechanism(-errors[:, j], epsilon=epsilon, noise=noise, noise_multiplier=noise_multiplier)
            for j in range(errors.shape[1])
        ]

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)`` of the chosen hypotheses on points ``X``."""
        self._check_is_fitted()
        X = check_indices(X, self.H.n_points, self._owner)
        return self.H.table[self.hypotheses_][:, X].T.astype(np.int64)
