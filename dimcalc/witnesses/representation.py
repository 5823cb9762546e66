"""ε-representation (FX Def 2.3; BGS Def 8.1), checked exactly, and the representation witness object.

``H`` **ε-represents** ``C`` when for every ``f in C`` and every distribution
``D`` on the domain some ``h in H`` has ``Pr_{x~D}[h(x) != f(x)] <= ε``.  By von
Neumann's minimax theorem (the game of FX Thm 3.2's proof, payoff
``1[h(x) != f(x)]``) this holds for ``f`` exactly when some *mixture* ``q``
over ``H`` has ``max_x Pr_{h~q}[h(x) != f(x)] <= ε``: one small linear program
per ``f``.  When it fails, the optimal dual solution is a distribution ``D``
under which every ``h in H`` errs more than ``ε``.

The LPs are solved in floating point (scipy HiGHS), then the answer is
certified with exact rational arithmetic (:class:`fractions.Fraction`): a
mixture certifies "represents" when its exact worst error is ``<= ε``; a
distribution certifies "does not represent" when the exact least error over
``H`` is ``> ε``.  If neither rounding certifies (a numerical tie finer than
:data:`LP_TOLERANCE`), the answer says so (``certified=False``) instead of guessing.

:class:`Representation` is the witness of
:func:`dimcalc.representation.deterministic_representation_dimension`: the rows
of ``H`` with the ``ε`` they represent at.  :class:`MessageTable` is the witness
of the deterministic one-way protocol of
:func:`dimcalc.representation.communication.one_way_communication_complexity`.

References
----------
FX: Feldman, Xiao, COLT 2014: Def 2.3, proof of Thm 3.2.  BGS: Bun, Gaboardi,
Sivakumar, NeurIPS 2021: Def 8.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .._params import as_fraction, exact_number
from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError, InvalidWitnessError, parameter_error
from .base import DictWitness, ListWitness

__all__ = [
    "LP_TOLERANCE",
    "RepresentationCheck",
    "Representation",
    "MessageTable",
    "is_representation",
    "check_representation",
    "representation_error",
    "exact_fraction",
]

#: Floating-point slack when reading LP values before exact certification.
LP_TOLERANCE = 1e-9
_DENOMINATORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 60, 120, 720, 5040, 10**4, 10**6, 10**9)


def exact_fraction(value: Any, name: str = "epsilon", owner: str = "is_representation") -> Fraction:
    """``value`` in ``[0, 1]`` as an exact fraction: text exactly (``"0.1" -> 1/10``, ``"1/3"``), a float at
    its own binary value (``0.1 -> 3602879701896397/36028797018963968``).

    >>> exact_fraction("1/3"), exact_fraction(0.25), exact_fraction(1 / 3) < Fraction(1, 3)
    (Fraction(1, 3), Fraction(1, 4), True)
    """
    v = exact_number(value, name, owner, "a number in [0, 1]", text=True)
    frac = as_fraction(v)
    if not 0 <= frac <= 1:
        raise parameter_error(name, owner, "a number in [0, 1]", value)
    return frac


def rows_of(X: Any, owner: str, name: str) -> np.ndarray:
    if isinstance(X, HypothesisClass):
        return X.distinct_rows
    try:
        arr = np.asarray(X, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise parameter_error(name, owner, "a HypothesisClass or a 2-d integer array", type(X).__name__) from None
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise parameter_error(name, owner, "a HypothesisClass or a non-empty 2-d integer array", arr.shape)
    if arr.shape[1] == 0:
        return arr[:1]
    # distinct rows in order of first occurrence; each row compared as one byte string (fast, no axis=0 copies),
    # in the narrowest dtype that holds the labels
    lo, hi = int(arr.min()), int(arr.max())
    compact = arr.astype(np.uint8 if 0 <= lo and hi < 1 << 8 else np.uint16 if 0 <= lo and hi < 1 << 16 else np.int64)
    compact = np.ascontiguousarray(compact)
    keys = compact.view(np.dtype((np.void, compact.itemsize * compact.shape[1]))).reshape(-1)
    _, first = np.unique(keys, return_index=True)
    return arr[np.sort(first)]


def _mistakes(H_rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    """M[x, h] = 1 when hypothesis h errs on point x for target f."""
    return (H_rows != f[None, :]).T.astype(np.int64)


def _rationalise(values: np.ndarray) -> list[list[Fraction]]:
    """Candidate exact probability vectors near ``values`` (clipped, rounded, renormalised)."""
    v = np.clip(np.asarray(values, dtype=float), 0, None)
    if v.sum() <= 0:
        return []
    v = v / v.sum()
    out = []
    for den in _DENOMINATORS:
        fr = [Fraction(float(a)).limit_denominator(den) for a in v]
        total = sum(fr)
        if total > 0:
            out.append([a / total for a in fr])
    return out


def _exact_worst(M: np.ndarray, q: Sequence[Fraction]) -> Fraction:
    """max over points of the q-probability of a mistake."""
    support = [j for j, a in enumerate(q) if a]
    return max((sum((q[j] for j in support if M[x, j]), Fraction(0)) for x in range(M.shape[0])), default=Fraction(0))


def _exact_best(M: np.ndarray, D: Sequence[Fraction]) -> Fraction:
    """min over hypotheses of the D-probability of a mistake."""
    support = [x for x, a in enumerate(D) if a]
    return min(sum((D[x] for x in support if M[x, j]), Fraction(0)) for j in range(M.shape[1]))


class _PointMass(Sequence):
    """The mixture putting probability 1 on hypothesis ``index`` of ``size``: a read-only list of Fractions
    in O(1) memory (a concept that is itself in ``H`` needs no LP; a dense list per concept would cost
    ``|C| x |H|`` Fractions)."""

    def __init__(self, size: int, index: int) -> None:
        self._size, self._index = size, index

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, j: Any) -> Any:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(self._size))]
        if j < 0:
            j += self._size
        if not 0 <= j < self._size:
            raise IndexError(j)
        return Fraction(1) if j == self._index else Fraction(0)

    def __repr__(self) -> str:
        return f"point mass on hypothesis {self._index} of {self._size}"


@dataclass(frozen=True)
class _ConceptCheck:
    value: float  # LP optimum min_q max_x error
    mixture: list[Fraction] | None  # exact mixture certifying <= eps
    distribution: list[Fraction] | None  # exact D certifying > eps
    mixture_error: Fraction | None
    distribution_error: Fraction | None


def _solve_concept(H_rows: np.ndarray, f: np.ndarray, eps: Fraction) -> _ConceptCheck:
    from scipy.optimize import linprog  # heavy (~0.3 s): loaded on the first LP, not with dimcalc

    M = _mistakes(H_rows, f)
    n_x, n_h = M.shape
    # variables: q_1..q_nh, t ; minimise t s.t. M q - t <= 0, sum q = 1
    c = np.zeros(n_h + 1)
    c[-1] = 1.0
    A_ub = np.hstack([M.astype(float), -np.ones((n_x, 1))])
    A_eq = np.hstack([np.ones((1, n_h)), np.zeros((1, 1))])
    res = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(n_x),
        A_eq=A_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * n_h + [(None, None)],
        method="highs",
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"representation LP failed: {res.message}")
    value = float(res.fun)
    mixture = distribution = None
    mix_err = dist_err = None
    if value <= float(eps) + 1e-6:
        for q in _rationalise(res.x[:n_h]):
            err = _exact_worst(M, q)
            if err <= eps:
                mixture, mix_err = q, err
                break
    if mixture is None and value >= float(eps) - 1e-6:
        duals = -np.asarray(res.ineqlin.marginals, dtype=float)
        for D in _rationalise(duals):
            err = _exact_best(M, D)
            if err > eps:
                distribution, dist_err = D, err
                break
    return _ConceptCheck(value, mixture, distribution, mix_err, dist_err)


@dataclass(frozen=True)
class RepresentationCheck:
    """Answer of :func:`check_representation` (:func:`is_representation` is its ``bool``).

    Attributes
    ----------
    represents : bool or None
        True / False when certified exactly; None when an LP tie could not be
        certified either way (never happens on the tests' classes; reported honestly).
    epsilon : Fraction
    worst_concept : int or None
        Index (distinct row of ``C``) of a concept that is not represented, or
        of the concept with the largest LP value when all are.
    value : float
        ``max_f min_q max_x Pr_q[h(x) != f(x)]`` (LP value).
    mixtures : dict
        concept index -> exact mixture over ``H`` rows (list of Fractions) whose
        worst error is ``<= epsilon`` (when represented).
    counter_distribution : list of Fraction or None
        A distribution over the domain under which every ``h in H`` errs on
        ``worst_concept`` with probability ``> epsilon`` (when not represented).
    """

    represents: bool | None
    epsilon: Fraction
    worst_concept: int | None
    value: float
    mixtures: dict = field(default_factory=dict, repr=False)
    counter_distribution: list | None = None
    counter_error: Fraction | None = None
    certified: bool = True

    def __bool__(self) -> bool:
        return bool(self.represents)

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "represents": self.represents,
            "epsilon": str(self.epsilon),
            "value": self.value,
            "certified": self.certified,
            "worst_concept": self.worst_concept,
        }
        if self.counter_distribution is not None:
            out["counter_distribution"] = [str(a) for a in self.counter_distribution]
            out["counter_error"] = str(self.counter_error)
        return out


def check_representation(H: Any, C: Any, epsilon: Any = 0.25) -> RepresentationCheck:
    """Whether ``H`` ε-represents ``C`` (FX Def 2.3; BGS Def 8.1), with the certificates: mixtures or a counter-distribution.

    One LP per concept ``f in C`` (minimax theorem, see the module docstring);
    each answer is certified with exact fractions.

    Parameters
    ----------
    H, C : HypothesisClass or 2-d int array
        Tables over the same domain (same number of columns); duplicates ignored.
    epsilon : float, Fraction or str
        In ``[0, 1]``; a float is read through its decimal text.

    Returns
    -------
    RepresentationCheck
        ``represents`` is True, False, or None for an uncertified LP tie; when represented, an exact
        mixture per concept (``mixtures``); on failure, ``counter_distribution`` is a
        distribution ``D`` (exact fractions over the points) such that every
        ``h in H`` errs with ``D``-probability ``> epsilon`` on ``worst_concept``.

    References
    ----------
    FX Def 2.3 and the minimax step of the proof of Thm 3.2.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.eye(3, dtype=int)                  # point functions on 3 points
    >>> check_representation(P, P, 0.25).represents   # every class represents itself
    True
    >>> Z = [[0, 0, 0]]                           # the all-zero function alone
    >>> r = check_representation(Z, P, 0.25)
    >>> r.represents, [str(a) for a in r.counter_distribution]
    (False, ['1', '0', '0'])
    """
    return _check(H, C, epsilon, "check_representation")


def _check(H: Any, C: Any, epsilon: Any, owner: str) -> RepresentationCheck:
    """:func:`check_representation` for the public function ``owner`` (named in bad-input errors)."""
    eps = exact_fraction(epsilon, owner=owner)
    H_rows = rows_of(H, owner, "H")
    C_rows = rows_of(C, owner, "C")
    if H_rows.shape[1] != C_rows.shape[1]:
        raise InvalidParameterError(
            f"{owner}: H has {H_rows.shape[1]} points but C has "
            f"{C_rows.shape[1]}; both must be tables over the same domain"
        )
    mixtures: dict[int, Sequence[Fraction]] = {}
    worst, worst_value, certified = None, -1.0, True
    # f itself in H: zero error, no LP needed -- found by hashing rows, O(|H| + |C|) (not |H| x |C|)
    index_in_H: dict[bytes, int] = {}
    H_keys = np.ascontiguousarray(H_rows, dtype=np.int64)
    for j in range(len(H_keys)):
        index_in_H.setdefault(H_keys[j].tobytes(), j)
    C_keys = np.ascontiguousarray(C_rows, dtype=np.int64)
    for i, f in enumerate(C_rows):
        hit = index_in_H.get(C_keys[i].tobytes())
        if hit is not None:
            mixtures[i] = _PointMass(len(H_rows), hit)
            if worst_value < 0:
                worst, worst_value = i, 0.0
            continue
        chk = _solve_concept(H_rows, f, eps)
        if chk.distribution is not None:
            return RepresentationCheck(False, eps, i, chk.value, mixtures, chk.distribution, chk.distribution_error)
        if chk.mixture is None:
            certified = False
            worst, worst_value = i, chk.value
            continue
        mixtures[i] = chk.mixture
        if chk.value > worst_value and certified:
            worst, worst_value = i, chk.value
    return RepresentationCheck(
        True if certified else None, eps, worst, max(worst_value, 0.0), mixtures, certified=certified
    )


def is_representation(H: Any, C: Any, epsilon: Any = 0.25, *, explain: bool = False) -> bool:
    """Whether ``H`` ε-represents ``C`` (FX Def 2.3; BGS Def 8.1 for multiclass labels), proven exactly.

    One LP per concept ``f in C`` (minimax theorem, see the module docstring); each answer is
    certified with exact fractions.  The certificates themselves (a mixture per concept, or a
    distribution under which every ``h in H`` errs more than ``ε``) are in
    :func:`check_representation`.

    Parameters
    ----------
    H, C : HypothesisClass or 2-d int array
        Tables over the same domain (same number of columns); duplicates ignored.
    epsilon : float, Fraction or str
        In ``[0, 1]``; text is read exactly (``"1/3"``), a float at its own binary value.
    explain : bool, default False
        Raise :class:`~dimcalc.errors.InvalidWitnessError` with the reason (the concept not
        represented and the error of the counter-distribution) instead of returning ``False``,
        as the tree checkers' ``explain=True``.

    Returns
    -------
    bool
        ``True`` when every concept is represented (certified in exact arithmetic); ``False``
        when one is not -- or when an LP tie could not be certified either way (never on the
        tests' classes; ``check_representation(...).represents`` is then ``None``).

    References
    ----------
    FX Def 2.3 and the minimax step of the proof of Thm 3.2.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.eye(3, dtype=int)                  # point functions on 3 points
    >>> is_representation(P, P, 0.25)             # every class represents itself
    True
    >>> is_representation([[0, 0, 0]], P, 0.25)   # the all-zero function alone
    False
    >>> is_representation([[0, 0, 0]], P, 0.25, explain=True)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: representation: does not 1/4-represent concept 0 of the class (a distribution makes every function err with probability 1)
    """
    check = _check(H, C, epsilon, "is_representation")
    if check.represents is not True and explain:
        raise InvalidWitnessError(_reason(check))
    return check.represents is True


def _reason(check: RepresentationCheck) -> str:
    """Why ``check`` does not certify a representation (one line)."""
    if check.represents is None:
        why = "an LP tie could not be certified either way"
    else:
        why = f"a distribution makes every function err with probability {check.counter_error}"
    return f"representation: does not {check.epsilon}-represent concept {check.worst_concept} of the class ({why})"


def representation_error(H: Any, C: Any) -> float:
    """``max_f min_q max_x Pr_{h~q}[h(x) != f(x)]``: the least ε for which ``H`` ε-represents ``C`` (LP value).

    >>> representation_error([[0, 0], [1, 1]], [[0, 1], [1, 0]])
    0.5
    """
    H_rows = rows_of(H, "representation_error", "H")
    C_rows = rows_of(C, "representation_error", "C")
    return max(_solve_concept(H_rows, f, Fraction(0)).value for f in C_rows)


class Representation(ListWitness):
    """Witness of a representation-dimension upper bound: the rows of a class ``H`` that ε-represents ``C``.

    Parameters
    ----------
    rows : list of list of int
        The functions of ``H`` (rows over the domain of ``C``).
    epsilon : Fraction
        The accuracy they represent ``C`` at.
    array : numpy.ndarray, optional
        The same rows as an array (saves a conversion when certifying).

    ``certify(C)`` returns ``|H|`` when ``H`` ε-represents ``C`` (exact
    arithmetic, :func:`is_representation`), else raises
    :class:`~dimcalc.errors.InvalidWitnessError` naming a concept it fails.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(3, dtype=int))
    >>> Representation(np.eye(3, dtype=int).tolist(), epsilon=Fraction(1, 4)).certify(P)
    3
    >>> Representation([[0, 0, 0]], epsilon=Fraction(1, 4)).certify(P)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: representation: does not 1/4-represent concept 0 of the class (a distribution makes every function err with probability 1)
    """

    measure = "functions"

    def __init__(self, rows: Any = (), epsilon: Fraction = Fraction(1, 4), array: np.ndarray | None = None) -> None:
        super().__init__(rows)
        self.epsilon = epsilon
        self.array = array

    def certify(self, C: Any) -> int:
        rows = self.array if self.array is not None else list(self)
        is_representation(rows, C, self.epsilon, explain=True)  # raises with the reason when it does not
        return len(self)


class MessageTable(DictWitness):
    """Witness of a deterministic one-way protocol for ``Eval_C`` (FX §2.4): Alice's message for each concept.

    Keys are file row indices of ``C``, one per distinct row; values are Alice's messages
    (non-negative ints).  Bob, holding ``x`` and the message, looks the row up and outputs its
    label at ``x``.  ``certify(C)`` checks that the keys are rows of ``C`` covering every distinct
    row once and that the messages are pairwise different (so Bob's lookup is right for every
    concept and point), and returns the cost: the bits of the largest message.  That cost is the
    protocol's complexity (an upper bound on ``D→(Eval_C)``); it equals ``ceil(log2 r)`` for
    ``r`` distinct rows exactly when the messages are ``0..r-1`` up to order -- the counting
    lower bound of :mod:`dimcalc.representation.communication`.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(3, dtype=int))
    >>> MessageTable({0: 0, 1: 1, 2: 2}).certify(P)
    2
    >>> MessageTable({0: 0, 1: 1, 2: 1}).certify(P)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: message table: rows 1 and 2 of the class differ but get the same message 1
    """

    measure = "bits"

    def certify(self, C: Any) -> int:
        rows = rows_of(C, "MessageTable.certify", "C")
        table = C.table if isinstance(C, HypothesisClass) else np.asarray(C, dtype=np.int64)
        seen_rows: dict[bytes, int] = {}
        by_message: dict[int, int] = {}
        for key, message in self.items():
            if type(key) is not int or not 0 <= key < len(table):
                raise InvalidWitnessError(f"message table: key {key!r} is not a row index of the class")
            if type(message) is not int or message < 0:
                raise InvalidWitnessError(f"message table: message {message!r} is not a non-negative int")
            row = np.ascontiguousarray(table[key], dtype=np.int64).tobytes()
            if row in seen_rows:
                raise InvalidWitnessError(f"message table: rows {seen_rows[row]} and {key} are the same concept")
            seen_rows[row] = key
            if message in by_message:
                raise InvalidWitnessError(
                    f"message table: rows {by_message[message]} and {key} of the class differ "
                    f"but get the same message {message}"
                )
            by_message[message] = key
        if len(seen_rows) != len(rows):
            raise InvalidWitnessError(
                f"message table: {len(seen_rows)} concepts have a message but the class has {len(rows)} distinct rows"
            )
        return max(by_message, default=0).bit_length()
