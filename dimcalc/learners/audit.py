"""Statistical privacy audits: a lower bound on the epsilon a mechanism really spends.

An audit runs a randomized mechanism ``M`` many times on two neighbouring
datasets ``D0`` and ``D1`` and looks for an output event ``E`` with

    P[M(D0) in E] > exp(epsilon) * P[M(D1) in E] + delta,

which would refute the claim that ``M`` is ``(epsilon, delta)``-DP.

Procedure (no retries, every step seeded by the injected generator):

1. **Selection.**  ``n_select`` draws from each dataset.  Unless an ``event``
   predicate is given, the outputs are sorted by their smoothed empirical
   ratio ``(c0 + 1/2) / (c1 + 1/2)`` and the event is the prefix of that order
   (a set of outputs with the largest empirical log-ratio) whose projected
   lower bound, computed as in step 2 with the selection frequencies, is
   largest.
2. **Test, on fresh draws.**  ``n_test`` new draws from each dataset.  With
   ``x0``, ``x1`` the numbers of draws that fall in ``E``, one-sided
   Clopper-Pearson bounds at the given confidence give ``p0_lower`` for
   ``P[M(D0) in E]`` and ``p1_upper`` for ``P[M(D1) in E]``, and

       epsilon_lower = ln((p0_lower - delta) / p1_upper)   (0 when not positive).

   Because ``E`` was chosen on independent draws, each bound holds with
   probability at least ``confidence`` whatever ``E`` is; by a union bound
   ``epsilon_lower`` is a valid lower bound on the true epsilon with
   probability at least ``1 - 2 (1 - confidence)`` per direction.
3. Both directions ``(D0, D1)`` and ``(D1, D0)`` are checked (with separately
   selected events, on the same draws); the result reports the larger bound
   and fails (``passed = False``) when it exceeds the claimed epsilon.  For
   a correct ``(epsilon, delta)``-DP mechanism the probability of a false
   alarm is at most ``4 (1 - confidence)`` (4e-6 at the default).

Outputs must be hashable and should be discrete (bucket continuous outputs in
the mechanism wrapper, or pass an ``event`` predicate).

References
----------
C. J. Clopper and E. S. Pearson, *The use of confidence or fiducial limits
illustrated in the case of the binomial*, Biometrika 26(4), 1934.
M. Jagielski, J. Ullman, A. Oprea, *Auditing Differentially Private Machine
Learning: How Private is Private SGD?*, NeurIPS 2020 (Clopper-Pearson
epsilon lower bounds).  Z. Ding, Y. Wang, G. Wang, D. Zhang, D. Kifer,
*Detecting Violations of Differential Privacy*, CCS 2018 (event selection on
separate runs, testing on fresh runs).

Examples
--------
Randomized response with ``epsilon = ln 3`` on one bit passes; its
negative control (truth told with probability 0.9, i.e. ``epsilon = ln 9``)
is caught:

>>> import numpy as np
>>> def rr(p_truth):
...     return lambda bit, rng: bit if rng.random() < p_truth else 1 - bit
>>> ok = audit_epsilon(rr(0.75), 0, 1, claimed_epsilon=math.log(3), n_select=2000, n_test=20000,
...                    random_state=1)
>>> ok.passed, ok.epsilon_lower < math.log(3)
(True, True)
>>> bad = audit_epsilon(rr(0.9), 0, 1, claimed_epsilon=math.log(3), n_select=2000, n_test=20000,
...                     random_state=1)
>>> bad.passed
False
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from typing import Any

import numpy as np

from .._params import Number, exact_number
from ..errors import parameter_error
from ..param_validation import RANDOM_STATE, renamed_parameters

__all__ = [
    "AuditResult",
    "audit_epsilon",
    "audit_epsilon_batch",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "epsilon_lower_bound",
]


def _beta_quantile(q: float, a: int, b: int) -> float:
    """The ``q`` quantile of ``Beta(a, b)``."""
    from scipy.stats import beta as beta_distribution  # scipy.stats takes ~1 s to import: only when used

    return float(beta_distribution.ppf(q, a, b))


def clopper_pearson_lower(successes: int, trials: int, confidence: float) -> float:
    """One-sided Clopper-Pearson lower confidence bound for a binomial proportion.

    ``P[p >= bound] >= confidence``: the ``(1 - confidence)`` quantile of
    ``Beta(x, n - x + 1)``, and 0 when ``x = 0``.

    Examples
    --------
    >>> round(clopper_pearson_lower(50, 100, 0.975), 4)
    0.3983
    """
    if successes <= 0:
        return 0.0
    return _beta_quantile(1.0 - confidence, successes, trials - successes + 1)


def clopper_pearson_upper(successes: int, trials: int, confidence: float) -> float:
    """One-sided Clopper-Pearson upper confidence bound (1 when ``x = n``).

    Examples
    --------
    >>> round(clopper_pearson_upper(0, 100, 0.95), 4)  # 1 - 0.05 ** (1/100)
    0.0295
    """
    if successes >= trials:
        return 1.0
    return _beta_quantile(confidence, successes + 1, trials - successes)


def epsilon_lower_bound(
    hits_first: int, hits_second: int, trials: int, *, delta: float, confidence: float
) -> tuple[float, float, float]:
    """``(epsilon_lower, p_first_lower, p_second_upper)`` from test counts (see module doc)."""
    p_first = clopper_pearson_lower(hits_first, trials, confidence)
    p_second = clopper_pearson_upper(hits_second, trials, confidence)
    numerator = p_first - delta
    if numerator <= 0 or p_second <= 0:
        return 0.0, p_first, p_second
    return max(0.0, math.log(numerator / p_second)), p_first, p_second


@dataclass(frozen=True)
class AuditResult:
    """Outcome of a privacy audit.

    Attributes
    ----------
    epsilon_lower : float
        The larger of the two directions' lower bounds on the true epsilon.
    claimed_epsilon, claimed_delta : float
    passed : bool
        ``epsilon_lower <= claimed_epsilon``.
    direction : str
        ``"D0>D1"`` or ``"D1>D0"``: which direction gave ``epsilon_lower``.
    event : str
        Description of the event of that direction.
    hits_first, hits_second : int
        Test draws in the event from the first and second dataset of that direction.
    p_first_lower, p_second_upper : float
        The Clopper-Pearson bounds.
    n_select, n_test : int
        Draws per dataset for selection and for testing.
    confidence : float
        Confidence of each one-sided bound.
    directions : tuple of dict
        Both directions' numbers (the fields of each direction's test), for reports.
    """

    epsilon_lower: float
    claimed_epsilon: float
    claimed_delta: float
    passed: bool
    direction: str
    event: str
    hits_first: int
    hits_second: int
    p_first_lower: float
    p_second_upper: float
    n_select: int
    n_test: int
    confidence: float
    directions: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "directions"} | {
            "directions": list(self.directions)
        }


@dataclass(frozen=True)
class _Direction:
    """The test of one direction: the event, its hits in the fresh draws and the resulting bound."""

    direction: str
    event: str
    hits_first: int
    hits_second: int
    p_first_lower: float
    p_second_upper: float
    epsilon_lower: float


@dataclass(frozen=True)
class _Settings:
    """The validated parameters shared by :func:`audit_epsilon` and :func:`audit_epsilon_batch`."""

    claimed_epsilon: Number
    claimed_delta: float
    n_select: int
    n_test: int
    confidence: float
    event: Callable[[Hashable], bool] | None


def _as_hashables(outputs: Any) -> list[Hashable]:
    if isinstance(outputs, np.ndarray):
        if outputs.ndim > 1:
            return [tuple(row) for row in outputs.reshape(outputs.shape[0], -1).tolist()]
        return outputs.tolist()
    return list(outputs)


def _describe_event(event: frozenset[Hashable], limit: int = 8) -> str:
    items = sorted(event, key=repr)
    text = ", ".join(repr(x) for x in items[:limit])
    more = f", ... ({len(items)} outputs)" if len(items) > limit else ""
    return "{" + text + more + "}"


def _select_event(
    first: Counter[Hashable],
    second: Counter[Hashable],
    *,
    n_select: int,
    n_test: int,
    delta: float,
    confidence: float,
    max_outputs: int = 64,
) -> frozenset[Hashable]:
    """The prefix of outputs by decreasing empirical ratio with the best projected bound."""
    outputs = sorted(first, key=lambda o: ((first[o] + 0.5) / (second.get(o, 0) + 0.5), first[o]), reverse=True)[
        :max_outputs
    ]
    best, best_score = frozenset(outputs[:1]), -math.inf
    a = b = 0
    for j, o in enumerate(outputs, start=1):
        a += first[o]
        b += second.get(o, 0)
        # Project the selection frequencies to the test size to score the event.
        proj_a = int(round(a / n_select * n_test))
        proj_b = int(round(b / n_select * n_test))
        score, _, _ = epsilon_lower_bound(proj_a, proj_b, n_test, delta=delta, confidence=confidence)
        score += 1e-12 * (proj_a / n_test)  # prefer the likelier event when bounds tie (e.g. both 0)
        if score > best_score:
            best, best_score = frozenset(outputs[:j]), score
    return best


def _check_settings(
    owner: str,
    claimed_epsilon: Any,
    claimed_delta: Any,
    n_select: Any,
    n_test: Any,
    confidence: Any,
    random_state: Any,
    event: Any,
) -> tuple[_Settings, np.random.Generator]:
    eps = exact_number(claimed_epsilon, "claimed_epsilon", owner, "a number in [0, inf)", text=True)
    if not eps >= 0:
        raise parameter_error("claimed_epsilon", owner, "a number in [0, inf)", claimed_epsilon)
    if isinstance(claimed_delta, bool) or not isinstance(claimed_delta, (int, float)) or not (0 <= claimed_delta < 1):
        raise parameter_error("claimed_delta", owner, "a float in [0, 1)", claimed_delta)
    if isinstance(n_test, bool) or not isinstance(n_test, int) or n_test < 1:
        raise parameter_error("n_test", owner, "an int >= 1", n_test)
    low = 0 if event is not None else 1
    if isinstance(n_select, bool) or not isinstance(n_select, int) or n_select < low:
        raise parameter_error("n_select", owner, f"an int >= {low}", n_select)
    if isinstance(confidence, bool) or not isinstance(confidence, float) or not (0.5 <= confidence < 1):
        raise parameter_error("confidence", owner, "a float in [0.5, 1)", confidence)
    generator = RANDOM_STATE.check(random_state, "random_state", owner)
    if event is not None and not callable(event):
        raise parameter_error("event", owner, "a callable output -> bool or None", event)
    return _Settings(eps, claimed_delta, n_select, n_test, confidence, event), generator


def _audit(
    draw: Callable[[Any, int], list[Hashable]], dataset0: Any, dataset1: Any, settings: _Settings
) -> AuditResult:
    event, n_select, n_test = settings.event, settings.n_select, settings.n_test
    delta, confidence = settings.claimed_delta, settings.confidence
    datasets = (dataset0, dataset1)
    if event is None:
        select = [Counter(draw(d, n_select)) for d in datasets]
    tests = [Counter(draw(d, n_test)) for d in datasets]
    rows = []
    for first, second, label in ((0, 1, "D0>D1"), (1, 0, "D1>D0")):
        if event is None:
            chosen = _select_event(
                select[first], select[second], n_select=n_select, n_test=n_test, delta=delta, confidence=confidence
            )
            inside: Callable[[Hashable], bool] = chosen.__contains__
            description = _describe_event(chosen)
        else:
            inside, description = event, getattr(event, "__name__", "event")
        hits = [sum(c for o, c in tests[i].items() if inside(o)) for i in (first, second)]
        eps, p_lo, p_hi = epsilon_lower_bound(hits[0], hits[1], n_test, delta=delta, confidence=confidence)
        rows.append(_Direction(label, description, hits[0], hits[1], p_lo, p_hi, eps))
    top = max(rows, key=lambda r: r.epsilon_lower)
    return AuditResult(
        epsilon_lower=top.epsilon_lower,
        claimed_epsilon=float(settings.claimed_epsilon),
        claimed_delta=float(delta),
        passed=Fraction(top.epsilon_lower) <= Fraction(settings.claimed_epsilon),
        direction=top.direction,
        event=top.event,
        hits_first=top.hits_first,
        hits_second=top.hits_second,
        p_first_lower=top.p_first_lower,
        p_second_upper=top.p_second_upper,
        n_select=n_select if event is None else 0,
        n_test=n_test,
        confidence=confidence,
        directions=tuple(asdict(r) for r in rows),
    )


@renamed_parameters(rng="random_state")
def audit_epsilon(
    mechanism: Callable[[Any, np.random.Generator], Hashable],
    dataset0: Any,
    dataset1: Any,
    *,
    claimed_epsilon: float,
    claimed_delta: float = 0.0,
    n_select: int,
    n_test: int,
    confidence: float = 1 - 1e-6,
    random_state: Any,
    event: Callable[[Hashable], bool] | None = None,
) -> AuditResult:
    """Lower-bound the epsilon of ``mechanism`` on a pair of neighbouring datasets.

    Parameters
    ----------
    mechanism : callable
        ``mechanism(dataset, rng) -> hashable output``; one run.
    dataset0, dataset1 : object
        Neighbouring inputs (ideally a near-worst-case pair).
    claimed_epsilon, claimed_delta : float
        The guarantee under test (``claimed_epsilon`` may be a ``Fraction`` or exact text such
        as ``"1/3"``; a float is its own value).
    n_select : int
        Runs per dataset used only to choose the event (ignored with ``event``).
    n_test : int
        Fresh runs per dataset used for the Clopper-Pearson bounds.
    confidence : float
        Confidence of each one-sided bound (default ``1 - 1e-6``).
    random_state : None, int or numpy.random.Generator
        The generator passed to every run (an int seed for a reproducible audit); ``rng=`` is its
        former name, accepted for one release with a ``FutureWarning``.
    event : callable, optional
        ``event(output) -> bool``: test this event (in both directions)
        instead of selecting one.

    Returns
    -------
    AuditResult
        ``passed`` is False when the lower bound exceeds ``claimed_epsilon``.

    References
    ----------
    See the module docstring (Clopper and Pearson 1934; Ding et al. 2018;
    Jagielski et al. 2020).

    Examples
    --------
    >>> import numpy as np
    >>> flip = lambda bit, rng: int(rng.integers(2))        # ignores its input: 0-DP
    >>> audit_epsilon(flip, 0, 1, claimed_epsilon=0.0, n_select=100, n_test=1000,
    ...               random_state=0).passed
    True
    """
    settings, generator = _check_settings(
        "audit_epsilon", claimed_epsilon, claimed_delta, n_select, n_test, confidence, random_state, event
    )
    if not callable(mechanism):
        raise parameter_error("mechanism", "audit_epsilon", "a callable (dataset, rng) -> output", mechanism)

    def draw(dataset: Any, n: int) -> list[Hashable]:
        return [mechanism(dataset, generator) for _ in range(n)]

    return _audit(draw, dataset0, dataset1, settings)


@renamed_parameters(rng="random_state")
def audit_epsilon_batch(
    mechanism_batch: Callable[[Any, int, np.random.Generator], Sequence | np.ndarray],
    dataset0: Any,
    dataset1: Any,
    *,
    claimed_epsilon: float,
    claimed_delta: float = 0.0,
    n_select: int,
    n_test: int,
    confidence: float = 1 - 1e-6,
    random_state: Any,
    event: Callable[[Hashable], bool] | None = None,
) -> AuditResult:
    """:func:`audit_epsilon` for a vectorised mechanism.

    ``mechanism_batch(dataset, n, rng)`` returns ``n`` independent outputs (a
    sequence, or an array whose rows are outputs).  Everything else is as in
    :func:`audit_epsilon`.

    Examples
    --------
    >>> import numpy as np
    >>> def rr_batch(bit, n, rng):                      # randomized response, epsilon = ln 3
    ...     return np.where(rng.random(n) < 0.75, bit, 1 - bit)
    >>> r = audit_epsilon_batch(rr_batch, 0, 1, claimed_epsilon=math.log(3), n_select=10_000,
    ...                         n_test=100_000, random_state=2)
    >>> r.passed, 0.9 < r.epsilon_lower < math.log(3)
    (True, True)
    """
    settings, generator = _check_settings(
        "audit_epsilon_batch", claimed_epsilon, claimed_delta, n_select, n_test, confidence, random_state, event
    )
    if not callable(mechanism_batch):
        raise parameter_error(
            "mechanism_batch", "audit_epsilon_batch", "a callable (dataset, n, rng) -> outputs", mechanism_batch
        )

    def draw(dataset: Any, n: int) -> list[Hashable]:
        if n == 0:
            return []
        out = _as_hashables(mechanism_batch(dataset, n, generator))
        if len(out) != n:
            raise parameter_error(
                "mechanism_batch", "audit_epsilon_batch", f"a callable returning {n} outputs", f"{len(out)} outputs"
            )
        return out

    return _audit(draw, dataset0, dataset1, settings)
