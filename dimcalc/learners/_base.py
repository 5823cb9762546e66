"""The one base of every learner: scikit-learn's estimator conventions and privacy accounting.

Conventions (scikit-learn's, see its developer guide "Rolling your own estimator"):

* the constructor stores its keyword-only parameters unchanged and does nothing else;
  ``get_params`` / ``set_params`` read and write them (a ``clone`` is
  ``type(L)(**L.get_params())``);
* parameters are validated when they are used -- in ``fit`` (and in
  ``required_sample_size`` / ``privacy_spent``, which need them) -- with dimcalc's one-line
  :class:`~dimcalc.errors.InvalidParameterError`;
* ``random_state`` is ``None``, an int seed (each ``fit`` then starts from that seed: fits
  are reproducible) or a ``numpy.random.Generator`` (used as is); it drives
  ``noise="exact"`` and any data-independent randomness (``rng`` is its former name);
* ``noise`` is ``"opendp"`` (default, OpenDP's vetted samplers) or ``"exact"`` (the exact
  in-process sampler: reproducible), see :mod:`dimcalc.learners.mechanisms`;
* fitted attributes end with ``_``; ``predict`` before ``fit`` raises
  :class:`NotFittedError`;
* privacy accounting is done in one place: each ``fit`` records a
  :class:`~dimcalc.learners.privacy.Privacy` (``privacy_``), composed with BNS Thm 17 /
  BGS Claim 3.2 by that module's rules, and ``privacy_spent`` reports it (before a fit:
  the guarantee any fit gives).
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

import numpy as np

from .._params import Number, check_epsilon
from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError, parameter_error
from ._validation import check_points, check_positive
from .mechanisms.exponential import error_counts, exponential_mechanism
from .mechanisms.noise import NOISE_SOURCES, NoiseSource, check_noise, check_random_state, make_noise
from .privacy import Privacy

__all__ = ["NotFittedError", "PrivateLearner", "PrivateLearnerMixin"]


def _sklearn_not_fitted() -> tuple[type, ...]:
    """scikit-learn's ``NotFittedError`` when scikit-learn is installed (optional extra ``sklearn``)."""
    try:
        from sklearn.exceptions import NotFittedError as SklearnNotFittedError
    except ImportError:  # pragma: no cover - scikit-learn not installed
        return ()
    return (SklearnNotFittedError,)


class NotFittedError(InvalidParameterError, *_sklearn_not_fitted(), AttributeError):  # type: ignore[misc]
    """``predict`` (or a fitted attribute) used before ``fit``: scikit-learn's ``NotFittedError`` when
    scikit-learn is installed (so its ``check_is_fitted`` callers catch it), also an AttributeError."""


def _class_argument(owner: str, args: tuple, H: Any, hypothesis_class: Any) -> Any:
    """The ``H`` a constructor stores: its keyword, or (deprecated) a positional class.

    A positional class gets a ``PendingDeprecationWarning`` (silent by default: it becomes a
    ``DeprecationWarning`` in a later release); ``hypothesis_class=`` a ``DeprecationWarning``
    when the constructor is called (it is resolved, with ``H``, by :meth:`PrivateLearner._hclass`).
    """
    import warnings

    if len(args) > 1:
        raise TypeError(f"{owner}() takes the class as its only positional argument; give the others by keyword")
    if args:
        if H is not None:
            raise TypeError(f"{owner}() got the class twice (positionally and as H=)")
        warnings.warn(
            f"{owner}: pass the class as H= (a positional class is deprecated)", PendingDeprecationWarning, stacklevel=3
        )
        H = args[0]
    if hypothesis_class is not None:
        warnings.warn(
            f"{owner}: hypothesis_class= is deprecated; pass the class as H=", DeprecationWarning, stacklevel=3
        )
    return H


# ---------------------------------------------------------------------------- the base class
class PrivateLearner:
    """Base of every learner in :mod:`dimcalc.learners` (see the module docstring for the conventions).

    Subclasses define ``__init__`` (storing keyword-only parameters), ``_validate()``
    (returning the checked parameters), ``fit`` (calling :meth:`_start_fit` and recording
    ``self.privacy_``), ``predict``, ``_privacy_claim(params)`` (the guarantee before a fit)
    and ``required_sample_size``.
    """

    #: The class name, used in messages (set for every subclass).
    _owner: ClassVar[str] = "PrivateLearner"
    #: Every learner has a total privacy parameter (stored by its constructor).
    epsilon: Any

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._owner = cls.__name__

    # ---- parameters
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [
            p.name
            for p in sig.parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
        ]

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters as stored (scikit-learn's ``get_params``)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> PrivateLearner:
        """Set constructor parameters (validated at the next ``fit``); returns ``self``."""
        valid = set(self._param_names())
        for name, value in params.items():
            if name not in valid:
                raise parameter_error(name, f"{self._owner}.set_params", f"one of {sorted(valid)}", name)
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        shown = []
        for name, value in self.get_params().items():
            if isinstance(value, (HypothesisClass, np.random.Generator)):
                text = f"<{type(value).__name__}>"
            elif isinstance(value, (list, tuple, np.ndarray)) and len(value) > 4:
                text = f"<{len(value)} items>"
            else:
                text = repr(value)
            shown.append(f"{name}={text}")
        return f"{type(self).__name__}({', '.join(shown)})"

    def _hclass(self) -> Any:
        """The class parameter: ``H``, or its deprecated alias ``hypothesis_class`` (one of them, or the same)."""
        H, alias = getattr(self, "H", None), getattr(self, "hypothesis_class", None)
        if H is not None and alias is not None and alias is not H:
            raise InvalidParameterError(
                f"{self._owner}: give the class once, as H= (hypothesis_class= is its deprecated former name)"
            )
        return H if H is not None else alias

    # ---- shared parameter handling
    def _check_common(self, owner: str) -> dict[str, Any]:
        """epsilon, noise (from ``noise`` or the former ``backend``), noise_multiplier, the random state."""
        out: dict[str, Any] = {"epsilon": check_epsilon(self.epsilon, owner)}
        noise = getattr(self, "noise", "opendp")
        backend = getattr(self, "backend", None)
        if backend is not None:
            if backend not in NOISE_SOURCES:
                raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
            noise = backend
        out["noise"] = check_noise(noise, owner)
        out["noise_multiplier"] = check_positive(getattr(self, "noise_multiplier", 1), "noise_multiplier", owner)
        out["generator"] = check_random_state(self._random_source(owner), owner, "random_state")
        return out

    def _random_source(self, owner: str) -> Any:
        """``random_state``, or its deprecated former name ``rng`` (a ``FutureWarning``; both given: an error)."""
        import warnings

        random_state, rng = getattr(self, "random_state", None), getattr(self, "rng", None)
        if rng is None:
            return random_state
        if random_state is not None:
            raise InvalidParameterError(
                f"{owner}: give the random source once, as random_state= (rng= is its deprecated former name)"
            )
        warnings.warn(
            f"{owner}: rng= is deprecated; pass random_state= (it takes the same values). "
            "The old name goes in the next release.",
            FutureWarning,
            stacklevel=4,
        )
        return rng

    def _noise_source(self, params: dict[str, Any]) -> NoiseSource:
        return make_noise(params["noise"], params["generator"], self._owner)

    # ---- the single-concept learners' selection and prediction
    def _select(self, rows: np.ndarray, X: np.ndarray, y: np.ndarray, num_labels: int, params: dict[str, Any]) -> int:
        """Index (into ``rows``) chosen by the exponential mechanism with score ``-(errors on (X, y))``."""
        return exponential_mechanism(
            -error_counts(rows, X, y, num_labels),
            epsilon=params["epsilon"],
            noise=self._noise_source(params),
            noise_multiplier=params["noise_multiplier"],
        )

    def _predict_row(self, G: HypothesisClass, row: int, X: Any) -> np.ndarray:
        """Labels that row ``row`` of ``G`` gives to the points ``X`` (call after the fitted check)."""
        X = check_points(X, G.n_points, f"{self._owner}.predict")
        return G.table[row, X].astype(np.int64)

    # ---- scikit-learn's conventions (used when scikit-learn is installed; nothing here imports it eagerly)
    def __sklearn_is_fitted__(self) -> bool:
        """scikit-learn's ``check_is_fitted`` asks this: True once ``fit`` has succeeded."""
        return hasattr(self, "privacy_")

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's estimator tags (scikit-learn >= 1.6): a classifier taking 1-D point indices."""
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(
            estimator_type="classifier",
            target_tags=TargetTags(required=True),
            classifier_tags=ClassifierTags(multi_class=True),
            input_tags=InputTags(one_d_array=True, two_d_array=False, categorical=True),
            non_deterministic=True,
        )

    def _more_tags(self) -> dict[str, Any]:
        """The same tags for scikit-learn before 1.6."""
        return {"X_types": ["1darray", "categorical"], "non_deterministic": True, "requires_y": True}

    #: scikit-learn's ``is_classifier`` before 1.6 reads this.
    _estimator_type = "classifier"

    def score(self, X: Any, y: Any) -> float:
        """Accuracy of ``predict(X)`` against ``y`` (scikit-learn's classifier ``score``).

        Labels are checked like ``fit``'s: integers (or booleans, or whole-number floats).
        """
        self._check_is_fitted("score")
        predicted = np.asarray(self.predict(X))  # type: ignore[attr-defined]  # every learner defines it
        truth = check_points(y, int(predicted.max(initial=0)) + 2**62, f"{self._owner}.score", name="y", what="labels")
        if truth.shape != predicted.shape:
            raise parameter_error("y", f"{self._owner}.score", f"one label per example ({len(predicted)})", len(truth))
        return float(np.mean(predicted == truth)) if len(truth) else 0.0

    # ---- fitted state
    def _check_is_fitted(self, method: str = "predict") -> None:
        if not hasattr(self, "privacy_"):
            raise NotFittedError(
                f"{self._owner}.{method}: this {self._owner} is not fitted yet; call fit(X, y) before {method}"
            )

    @property
    def fitted_(self) -> bool:
        """True once ``fit`` has succeeded."""
        return hasattr(self, "privacy_")

    # ---- privacy, accounted in one place
    @property
    def privacy_spent(self) -> tuple[Number, Number]:
        """``(epsilon, delta)`` the last ``fit`` is proven to satisfy; before a fit, what every fit satisfies.

        Computed from :class:`Privacy` records (BNS Thm 17, BGS Claim 3.2) and divided by
        ``noise_multiplier`` (audits only).
        """
        if hasattr(self, "privacy_"):
            account = self.privacy_
        else:
            account = self._privacy_claim(self._validate())
        multiplier = getattr(self, "noise_multiplier", 1)
        return account.scaled(multiplier).pair

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:  # pragma: no cover - overridden
        raise NotImplementedError

    def _validate(self) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError


#: Former name of the single-concept learners' base (kept for imports).
PrivateLearnerMixin = PrivateLearner
