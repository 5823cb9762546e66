"""Standard Optimal Algorithms: online learners whose mistake bound is the Littlestone dimension.

* :class:`StandardOptimalAlgorithm` -- Littlestone's SOA for a binary class:
  on a point ``x``, predict the label ``b`` whose restricted version space
  ``V_{(x,b)} = {h ∈ V : h(x) = b}`` has the larger Littlestone dimension.  On a
  sequence realisable by ``H`` it makes at most ``LD(H)`` mistakes.
* :class:`MulticlassSOA` -- the multiclass SOA of Daniely et al. (used in BGS
  §6–7): predict the label whose restricted version space has the largest
  multiclass Littlestone dimension; at most ``MLD(H)`` mistakes.

Why the bound holds: after a mistake on ``(x, y)`` the new version space
``V_y`` satisfies ``dim(V_y) <= dim(V_p)`` for the prediction ``p ≠ y``; if
both were ``>= dim(V)``, the tree with root ``x``, edges ``p`` and ``y`` and the
two deep subtrees would have depth ``dim(V) + 1``.  So each mistake lowers the
dimension of the version space, which starts at ``dim(H)`` and never drops
below 0.  Conversely an adversary walking a shattered tree
(:func:`adversary_walk`) forces *every* deterministic learner to err at each of
its ``d`` levels.

Ties are broken toward the **smallest label** (labels whose version space is
empty are never predicted unless every label's is).

References
----------
.. [Lit87] N. Littlestone. Learning quickly when irrelevant attributes abound:
   a new linear-threshold algorithm. Machine Learning 2:285–318 (1987).
.. [DSBDSS11] A. Daniely, S. Sabato, S. Ben-David, S. Shalev-Shwartz.
   Multiclass learnability and the ERM principle. COLT 2011 / JMLR 2015.
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, §6 (Claim 6.2) and §7
   (Theorem 7.1) use the (multiclass) SOA.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> from dimcalc.generators import thresholds
>>> H = thresholds(7)                      # LD = 3
>>> learner = StandardOptimalAlgorithm(H)
>>> target = H.table[2]
>>> for x in [3, 1, 5, 0, 2, 4, 6]:
...     _ = learner.predict(x)
...     learner.update(x, int(target[x]))
>>> learner.mistakes <= 3, len(H.mask_to_indices(learner.version_space))
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError, InvalidWitnessError, parameter_error
from ..witnesses.tree_checks import tree_depth
from .version_space import VersionSpaceDimension

__all__ = [
    "StandardOptimalAlgorithm",
    "MulticlassSOA",
    "UnrealisableSequenceError",
    "OnlineLearner",
    "adversary_walk",
]

#: ``oracle(H, mask) -> int``: the dimension of the version space ``mask``
#: (bitset over distinct indices of ``H``), ``-1`` for the empty set.
DimensionOracle = Callable[[HypothesisClass, int], int]


class UnrealisableSequenceError(InvalidParameterError):
    """The labelled sequence fed to an online learner is realised by no hypothesis of the class."""


class OnlineLearner(Protocol):
    """What :func:`adversary_walk` needs from a learner."""

    def predict(self, x: int) -> int: ...

    def update(self, x: int, y: int) -> None: ...


class _SOABase:
    _owner = "SOA"
    _dimension_name = ""

    def __init__(self, H: HypothesisClass, dimension_oracle: DimensionOracle | None) -> None:
        if not isinstance(H, HypothesisClass):
            raise parameter_error("H", self._owner, "a dimcalc.HypothesisClass", type(H).__name__)
        if dimension_oracle is not None and not callable(dimension_oracle):
            raise parameter_error(
                "dimension_oracle", self._owner, "a callable oracle(H, mask) -> int or None", dimension_oracle
            )
        self.H = H
        self._oracle = dimension_oracle
        self._cache: dict[int, int] = {}
        self._default: DimensionOracle | None = None  # built on first use: an explicit engine cache for H
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """Forget everything: the version space is the whole class again, no mistakes."""
        self._version_space = self.H.full_mask
        self.mistakes = 0

    @property
    def version_space(self) -> int:
        """Bitset (over distinct indices of ``H``) of the hypotheses consistent with the updates so far."""
        return self._version_space

    def dimension(self, mask: int | None = None) -> int:
        """The dimension the learner uses, of ``mask`` (default: the current version space); ``-1`` if empty."""
        mask = self._version_space if mask is None else mask
        if mask == 0:
            return -1
        if mask not in self._cache:
            oracle = self._oracle
            if oracle is None:
                if self._default is None:
                    self._default = self._default_oracle()
                oracle = self._default
            self._cache[mask] = int(oracle(self.H, mask))
        return self._cache[mask]

    def _default_oracle(self) -> DimensionOracle:  # pragma: no cover - overridden
        raise NotImplementedError

    def _check_point(self, x: Any, method: str) -> int:
        if isinstance(x, bool) or not isinstance(x, int) and not hasattr(x, "__index__"):
            raise parameter_error("x", f"{self._owner}.{method}", f"a point index in [0, {self.H.n_points - 1}]", x)
        x = int(x)
        if not 0 <= x < self.H.n_points:
            raise parameter_error("x", f"{self._owner}.{method}", f"a point index in [0, {self.H.n_points - 1}]", x)
        return x

    # ------------------------------------------------------------------ protocol
    def predict(self, x: int) -> int:
        """The label whose restricted version space has the largest dimension (smallest label on ties).

        Parameters
        ----------
        x : int
            A point index of ``H``.

        Returns
        -------
        int
            The predicted label.
        """
        x = self._check_point(x, "predict")
        masks = self.H.label_masks[x]
        best_label, best_dim = 0, -2
        for label in range(self.H.num_labels):
            dim = self.dimension(self._version_space & masks[label])
            if dim > best_dim:
                best_label, best_dim = label, dim
        return best_label

    def update(self, x: int, y: int) -> None:
        """Receive the true label ``y`` of ``x``: count a mistake if the prediction differed, shrink the version space.

        Raises
        ------
        UnrealisableSequenceError
            If no hypothesis of the current version space gives ``y`` to ``x``
            (the sequence is not realisable by ``H``); the state is unchanged.
        InvalidParameterError
            If ``x`` or ``y`` is out of range.
        """
        x = self._check_point(x, "update")
        if isinstance(y, bool) or not hasattr(y, "__index__") or not 0 <= int(y) < self.H.num_labels:
            raise parameter_error("y", f"{self._owner}.update", f"a label in [0, {self.H.num_labels - 1}]", y)
        y = int(y)
        new_space = self._version_space & self.H.label_masks[x][y]
        if new_space == 0:
            raise UnrealisableSequenceError(
                f"{self._owner}.update: no hypothesis consistent with the examples so far gives label {y} "
                f"to point {x}; the sequence is not realisable by the class (call reset() to start over)"
            )
        if self.predict(x) != y:
            self.mistakes += 1
        self._version_space = new_space

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(H={self.H!r}, mistakes={self.mistakes}, "
            f"version_space_size={bin(self._version_space).count('1')})"
        )


class StandardOptimalAlgorithm(_SOABase):
    """Littlestone's Standard Optimal Algorithm for a binary class.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    dimension_oracle : callable, optional
        ``oracle(H, mask) -> int``, the Littlestone dimension of the version
        space ``mask`` (bitset over distinct indices).  Default: a
        :class:`dimcalc.littlestone.version_space.VersionSpaceDimension` of
        ``H`` owned by this learner (its memo of proven bounds is kept between
        predictions).  Results are cached per version space.

    Attributes
    ----------
    mistakes : int
        Mistakes made since construction or :meth:`reset`.
    version_space : int
        Bitset of the hypotheses still consistent.

    Raises
    ------
    InvalidParameterError
        If ``H`` is not binary.

    Notes
    -----
    Prediction on ``x``: ``argmax_b LD(V ∩ {h(x) = b})`` over ``b ∈ {0, 1}``,
    ties to ``0``.  On every sequence realisable by ``H`` it makes at most
    ``LD(H)`` mistakes [Lit87]; no deterministic learner does better in the
    worst case (see :func:`adversary_walk`).

    References
    ----------
    Littlestone (1987), Theorem 3 and the algorithm SOA; Feldman & Xiao (2014) §2.5.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])   # point functions + zero
    >>> soa = StandardOptimalAlgorithm(H)
    >>> soa.predict(1)                 # LD(h(1)=0) = 1 > LD(h(1)=1) = 0
    0
    >>> soa.update(1, 1); soa.mistakes, soa.version_space
    (1, 4)
    """

    _owner = "StandardOptimalAlgorithm"

    def __init__(self, H: HypothesisClass, *, dimension_oracle: DimensionOracle | None = None) -> None:
        if isinstance(H, HypothesisClass) and not H.is_binary:
            raise parameter_error(
                "H",
                self._owner,
                "a binary class (use MulticlassSOA for more labels)",
                f"a class with {H.num_labels} labels",
            )
        super().__init__(H, dimension_oracle)

    def _default_oracle(self) -> DimensionOracle:
        return VersionSpaceDimension(self.H, "LD")


class MulticlassSOA(_SOABase):
    """The multiclass Standard Optimal Algorithm (Daniely et al.; BGS §6–7).

    Parameters
    ----------
    H : HypothesisClass
        Any class (labels ``0..k``).
    dimension_oracle : callable, optional
        ``oracle(H, mask) -> int``, the multiclass Littlestone dimension of the
        version space ``mask``.  Default: a
        :class:`dimcalc.littlestone.version_space.VersionSpaceDimension` of
        ``H`` (family ``"MLD"``) owned by this learner.

    Notes
    -----
    Prediction on ``x``: ``argmax_ℓ MLD(V ∩ {h(x) = ℓ})`` over the labels
    ``ℓ = 0..k``, ties to the smallest label.  At most ``MLD(H)`` mistakes on
    any realisable sequence (Daniely et al. 2011); BGS use it in the proofs of
    Claim 6.2 and Theorem 7.1.

    References
    ----------
    Daniely, Sabato, Ben-David, Shalev-Shwartz (2011); BGS §6 (Claim 6.2), §7 (Thm 7.1).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0], [1, 1], [2, 1], [2, 2]])
    >>> soa = MulticlassSOA(H)
    >>> soa.predict(0)
    2
    >>> soa.update(0, 1); soa.mistakes, soa.predict(1)
    (1, 1)
    """

    _owner = "MulticlassSOA"

    def __init__(self, H: HypothesisClass, *, dimension_oracle: DimensionOracle | None = None) -> None:
        super().__init__(H, dimension_oracle)

    def _default_oracle(self) -> DimensionOracle:
        return VersionSpaceDimension(self.H, "MLD")


def adversary_walk(learner: OnlineLearner, tree: Any) -> int:
    """Walk a shattered tree against ``learner``, contradicting every prediction; return the mistakes forced.

    At each internal node with point ``x`` the learner predicts ``p``; the
    adversary answers with a label ``y ≠ p`` that the node offers -- ``1 - p``
    on a binary mistake tree, the first of the node's ``labels [a, b]`` that
    differs from ``p`` on an io-labelled tree -- calls ``learner.update(x, y)``
    and descends along that edge.  On a tree shattered by the class every
    answer is consistent with the leaf's hypothesis, so any deterministic
    learner is forced into exactly ``depth`` mistakes.

    Parameters
    ----------
    learner : object with ``predict(x)`` and ``update(x, y)``
        E.g. :class:`StandardOptimalAlgorithm` or :class:`MulticlassSOA`.
    tree : dict
        A binary mistake tree or io-labelled tree (spec §3).  Ψ-trees are refused.

    Returns
    -------
    int
        Number of rounds in which the learner's prediction differed from the
        adversary's label (the tree's depth).

    Raises
    ------
    InvalidWitnessError
        If the tree is malformed or a Ψ-tree.
    UnrealisableSequenceError
        If the tree is not shattered and the labels stop being realisable
        (raised by the learner's ``update``).

    References
    ----------
    Littlestone (1987); Daniely et al. (2011): LD / MLD lower-bound the
    worst-case mistakes of every deterministic online learner.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> from dimcalc.generators import thresholds
    >>> from dimcalc.littlestone import littlestone_dimension
    >>> H = thresholds(7)
    >>> r = littlestone_dimension(H)
    >>> adversary_walk(StandardOptimalAlgorithm(H), r.witness) == r.value == 3
    True
    """

    tree_depth(tree)  # shape check (complete, every node a dict)
    forced = 0
    node = tree
    while "children" in node:
        if "map" in node:
            raise InvalidWitnessError("adversary_walk: Ψ-trees have no label edges; give a mistake or io-labelled tree")
        x = node["point"]
        p = learner.predict(x)
        if "labels" in node:
            a, b = node["labels"]
            side = 0 if a != p else 1
            y = (a, b)[side]
        else:
            side = 1 - int(p) if p in (0, 1) else 0
            y = side
        if y != p:
            forced += 1
        learner.update(x, y)
        node = node["children"][side]
    return forced
