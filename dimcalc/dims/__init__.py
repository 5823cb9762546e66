"""The dimensions around the seed papers: threshold, DS, dual VC, star number, teaching and recursive teaching.

Each solver has the contract of the others (``f(H, *, time_limit=None,
progress=False, jobs=1) -> DimensionResult``, proven bounds when stopped, a
witness whose ``certify(H)`` is written apart from the solver in
:mod:`dimcalc.witnesses.combinatorial` and :mod:`dimcalc.witnesses.teaching`).
Definitions, sources and the relations between them: ``docs/dimensions.md``.

* :func:`threshold_dimension` (kind ``threshold``): binary classes; an ``undefined`` result on others;
* :func:`ds_dimension` (``ds``): every class; equal to VC on binary classes;
* :func:`dual_vc_dimension` (``dual_vc``): binary classes; an ``undefined`` result on others;
* :func:`star_number` (``star``): every class (the definition reads only whether labels differ);
* :func:`teaching_dimension` (``teaching``) and :func:`recursive_teaching_dimension`
  (``recursive_teaching``): every class, read as the set of its distinct rows.

>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass.from_table([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]])
>>> [f(H).value for f in (threshold_dimension, ds_dimension, star_number, teaching_dimension)]
[3, 1, 2, 2]
"""

from .ds import ds_dimension, largest_pseudo_cube
from .dual import dual_class, dual_vc_dimension
from .star import star_number
from .teaching import minimum_teaching_set, recursive_teaching_dimension, teaching_dimension
from .threshold import threshold_dimension

#: Result kind -> solver, in the order ``dimcalc check`` reports them.
SOLVERS = {
    "threshold": threshold_dimension,
    "ds": ds_dimension,
    "dual_vc": dual_vc_dimension,
    "star": star_number,
    "teaching": teaching_dimension,
    "recursive_teaching": recursive_teaching_dimension,
}

__all__ = [
    "SOLVERS",
    "threshold_dimension",
    "ds_dimension",
    "dual_vc_dimension",
    "star_number",
    "teaching_dimension",
    "recursive_teaching_dimension",
    "largest_pseudo_cube",
    "dual_class",
    "minimum_teaching_set",
]
