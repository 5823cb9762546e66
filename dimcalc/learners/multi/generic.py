"""BNS Algorithm 3 (GenericLearner): k concepts from one sanitized sample, with MWEM for ``C⊕``.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019): §4.1, Algorithm 3, Lemma 36, Theorem 31, Theorem 17.
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..._params import as_fraction
from ...classes.hypothesis_class import HypothesisClass
from ...errors import parameter_error
from ...sample_size import SampleSizeBound, generic_learner_mwem_sample_size, split_privacy_budget
from .._validation import check_count, check_indices, check_label_matrix, check_nonempty, check_unit
from ..mechanisms.exponential import error_counts
from ..mechanisms.mwem import mwem, mwem_rounds
from ..privacy import Privacy
from ._klearner import SelectionKLearner, check_composition
from .budget import Composition, budget_split, selection_privacy

__all__ = ["xor_queries", "GenericLearner"]


def xor_queries(H: HypothesisClass) -> np.ndarray:
    """The distinct rows of ``C⊕ = {f XOR g : f, g in C}`` over ``H``'s domain (BNS §4.1).

    Examples
    --------
    >>> xor_queries(HypothesisClass.from_table([[0, 1], [1, 1]])).tolist()
    [[0, 0], [1, 0]]
    """
    rows = H.distinct_rows.astype(np.uint8)
    table = (rows[:, None, :] ^ rows[None, :, :]).reshape(-1, rows.shape[1])
    _, first = np.unique(table, axis=0, return_index=True)
    return table[np.sort(first)].astype(np.int64)


class GenericLearner(SelectionKLearner):
    """BNS Algorithm 3 (GenericLearner) with MWEM as the sanitizer for ``C⊕``, run at the size it is proven for.

    1. Sanitize the unlabelled points w.r.t. ``C⊕`` with MWEM ([HLM]_ Alg 1; pure
       ``epsilon_san = sanitizer_fraction * epsilon``-DP by [HLM]_ Thm 2.1) for ``T`` rounds,
       and draw a synthetic database ``D~`` of ``m`` points from its distribution.
    2. ``B`` = the distinct points of ``D~``; ``H'`` = one hypothesis of ``C`` per pattern
       of ``C`` on ``B`` (so ``|H'| <= 2^|B|``).
    3. For each concept ``j``, the exponential mechanism over ``H'`` with score
       ``-(errors on column j)`` and the per-run epsilon of :func:`split_budget` on the
       rest of the budget.

    **What it runs is what its size assumes.**  ``T`` and ``m`` are derived from
    ``(alpha, beta, epsilon, |X|, |C⊕|)`` and the sample size ``n`` (public):
    ``m = ceil(ln(4|C⊕|/beta) / (alpha/10))`` and ``T`` minimises MWEM's explicit error
    bound at ``n`` (:func:`~dimcalc.learners.sanitizers.mwem_rounds`: [HLM]_ Thm 2.2 with
    this implementation's constants, :func:`~dimcalc.learners.sanitizers.mwem_error_bound`).
    ``required_sample_size(alpha, beta)`` is that algorithm's explicit size
    (:func:`dimcalc.sample_size.generic_learner_mwem_sample_size`, BNS Lemma 36's proof with
    constants): at it, ``T`` makes MWEM ``6 alpha/10``-accurate for ``C⊕`` with probability
    ``1 - beta/4``, and every ``h_j`` has error ``<= OPT_j + alpha`` with probability
    ``>= 1 - beta`` (agnostic, proper).  ``iterations`` / ``synthetic_size`` override the
    derived values (then the bound uses them too, or refuses when they are too small).

    Privacy: BNS Lemma 36 / Thm 17: ``(epsilon_san + k epsilon_0, 0)`` (basic) or
    ``(epsilon_san + sqrt(2k ln(2/delta)) epsilon_0 + 2k epsilon_0^2, delta/2)`` (advanced),
    at most ``(epsilon, delta)``.

    Parameters
    ----------
    H : HypothesisClass
        A finite binary class ``C``.
    epsilon, delta : number
        Total privacy budget (``delta = 0``: pure DP).
    alpha, beta : number in (0, 1)
        The accuracy the learner is run for (they set ``T`` and ``m``).
    sanitizer_fraction : number in (0, 1)
        Share of ``epsilon`` given to MWEM (BNS and the calculator use 1/2).
    iterations : int, optional
        MWEM rounds ``T`` (default: derived, see above).
    synthetic_size : int, optional
        Size ``m`` of the sanitized database ``D~`` (default: derived).
    update_passes : int
        MWEM update passes per round; ``1`` (default) is the analysed algorithm, more is
        post-processing outside [HLM]_ Thm 2.2 (``required_sample_size`` refuses it).
    composition : {"auto", "basic", "advanced"}
    noise, random_state, noise_multiplier, rng
        As for :class:`CompositionLearner`.

    Attributes
    ----------
    hypotheses_ : ndarray of int, shape (k,)
    sanitized_ : MWEMResult
    iterations_, synthetic_size_ : int
        What MWEM ran with.

    Examples
    --------
    >>> H = HypothesisClass.from_table(np.tril(np.ones((9, 8), dtype=int), -1))  # thresholds
    >>> learner = GenericLearner(H, epsilon=4.0, alpha=0.5, beta=0.1, noise="exact", random_state=1)
    >>> n = learner.required_sample_size(alpha=0.5, beta=0.1, k=2).samples
    >>> n
    76941
    >>> X = np.random.default_rng(1).integers(0, 8, size=n)
    >>> Y = np.stack([H.table[3][X], H.table[6][X]], axis=1)
    >>> learner.fit(X, Y).hypotheses_.tolist(), learner.privacy_spent, learner.iterations_
    ([3, 6], (4.0, 0.0), 198)
    """

    def __init__(
        self,
        H: HypothesisClass,
        *,
        epsilon: Any,
        delta: Any = 0.0,
        alpha: Any = 0.1,
        beta: Any = 0.1,
        sanitizer_fraction: Any = Fraction(1, 2),
        iterations: int | None = None,
        synthetic_size: int | None = None,
        update_passes: int = 1,
        composition: Composition = "auto",
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
    ) -> None:
        self.H = H
        self.epsilon = epsilon
        self.delta = delta
        self.alpha = alpha
        self.beta = beta
        self.sanitizer_fraction = sanitizer_fraction
        self.iterations = iterations
        self.synthetic_size = synthetic_size
        self.update_passes = update_passes
        self.composition = composition
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng

    def _validate(self) -> dict[str, Any]:
        owner = self._owner
        params = self._check_class_and_delta()
        params["alpha"] = check_unit(self.alpha, "alpha", owner)
        params["beta"] = check_unit(self.beta, "beta", owner)
        params["sanitizer_fraction"] = check_unit(self.sanitizer_fraction, "sanitizer_fraction", owner)
        for name in ("iterations", "synthetic_size"):
            value = getattr(self, name)
            if value is not None:
                check_count(value, name, owner, requirement="None (derived) or a positive int")
        check_count(self.update_passes, "update_passes", owner)
        params["composition"] = check_composition(self.composition, owner)
        params["eps_san"] = as_fraction(params["sanitizer_fraction"]) * as_fraction(params["epsilon"])
        return params

    def _queries(self, H: HypothesisClass) -> np.ndarray:
        cached = getattr(self, "_query_cache", None)
        if cached is None or cached[0] is not H:
            cached = (H, xor_queries(H))
            self._query_cache = cached
        return cached[1]

    def _bound(self, params: dict[str, Any], alpha: Any, beta: Any, k: int) -> SampleSizeBound:
        H = params["H"]
        return generic_learner_mwem_sample_size(
            log_size=math.log(H.n_distinct),
            n_queries=len(self._queries(H)),
            domain_size=H.n_points,
            k=k,
            alpha=alpha,
            beta=beta,
            epsilon=params["epsilon"],
            delta=params["delta"],
            sanitizer_fraction=params["sanitizer_fraction"],
            composition=params["composition"],
            iterations=self.iterations,
        )

    def fit(self, X: Any, Y: Any) -> GenericLearner:
        """Run BNS Algorithm 3 on the k-labelled database ``(X, Y)`` (``X``: point indices)."""
        params = self._validate()
        H = params["H"]
        X = check_indices(X, H.n_points, self._owner)
        Y = check_label_matrix(Y, X.shape[0], self._owner)
        check_nonempty(X, f"{self._owner}.fit")
        noise = self._noise_source(params)
        n, k = X.shape[0], Y.shape[1]
        queries = self._queries(H)
        multiplier = as_fraction(params["noise_multiplier"])
        # T and m: what the size bound assumes (n is public under replace-one neighbours).
        beta, alpha = float(params["beta"]), float(params["alpha"])
        if self.iterations is None:
            rounds, _ = mwem_rounds(
                n=n, n_domain=H.n_points, n_queries=len(queries), epsilon=params["eps_san"], beta=beta / 4
            )
        else:
            rounds = int(self.iterations)
        synthetic_size = (
            int(self.synthetic_size)
            if self.synthetic_size is not None
            else math.ceil(math.log(4 * len(queries) / beta) / (alpha / 10))
        )
        epsilon_selection = as_fraction(params["epsilon"]) - params["eps_san"]  # what the sanitizer leaves
        split = split_privacy_budget(epsilon_selection, params["delta"], k, params["composition"])
        sanitized = mwem(
            X,
            queries,
            epsilon=params["eps_san"] / multiplier,
            iterations=rounds,
            noise=noise,
            synthetic_size=synthetic_size,
            update_passes=int(self.update_passes),
            random_state=params["generator"],
        )
        support = np.unique(sanitized.synthetic)
        # Step 4: one representative of C per pattern on B (first distinct row with it).
        _, first = np.unique(H.distinct_rows[:, support], axis=0, return_index=True)
        representatives = np.sort(first)
        errors = error_counts(H.distinct_rows[representatives], X, Y, 2)
        chosen = representatives[self._select_per_concept(errors, split[0], noise, multiplier)]
        self.sanitized_ = sanitized
        self.support_ = support
        self.representatives_ = H.distinct_to_row[representatives]
        self.hypotheses_ = H.distinct_to_row[chosen.astype(np.int64)]
        self.iterations_, self.synthetic_size_ = rounds, synthetic_size
        self.k_ = k
        self.split_ = budget_split(split, epsilon_selection)
        sanitizer = Privacy.mechanism(params["eps_san"], 0, f"MWEM, {rounds} rounds (HLM Thm 2.1, BNS Thm 17.1)")
        self.privacy_ = Privacy.basic(
            sanitizer, selection_privacy(split, k), how="sanitizer then selections (BNS Lemma 36, Thm 17.1)"
        )
        return self

    def required_sample_size(
        self, alpha: Any = None, beta: Any = None, k: int | None = None, vc: int | None = None
    ) -> SampleSizeBound:
        """Explicit sample size of this algorithm (BNS Lemma 36 with MWEM, constants worked out).

        ``alpha``, ``beta`` default to the learner's own (they set ``T`` and ``m``); ``k`` to
        the fitted number of concepts.  ``vc`` is accepted for compatibility and unused (the
        explicit bound counts ``|C|`` and ``|C⊕|``).  For BNS Thm 31's order of growth see
        :func:`dimcalc.sample_size.generic_k_learner_sample_size`.
        """
        params = self._validate()
        if self.update_passes != 1:
            raise parameter_error(
                "update_passes",
                f"{self._owner}.required_sample_size",
                "1 (HLM Thm 2.2 is for one update per round)",
                self.update_passes,
            )
        alpha = params["alpha"] if alpha is None else check_unit(alpha, "alpha", self._owner)
        beta = params["beta"] if beta is None else check_unit(beta, "beta", self._owner)
        if (alpha, beta) != (params["alpha"], params["beta"]) and self.synthetic_size is None:
            raise parameter_error(
                "alpha",
                f"{self._owner}.required_sample_size",
                f"the learner's alpha = {params['alpha']} and beta = {params['beta']} (they set its "
                "MWEM rounds and synthetic size); build the learner with the alpha, beta wanted",
                (alpha, beta),
            )
        return self._bound(params, alpha, beta, self._k_for_bound(k))
