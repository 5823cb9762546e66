"""VC, Natarajan and graph dimensions and the growth function (one package, one idea per module).

* :mod:`dimcalc.vc.dimensions` -- :func:`vc_dimension`, :func:`natarajan_dimension`,
  :func:`graph_dimension` (and :func:`binary_twin`: one search for the three on a binary class);
* :mod:`dimcalc.vc.search` -- the search for a largest shattered set, shared by the three (targets in turn);
* :mod:`dimcalc.vc.dfs` -- the search of one target (numpy steps in :mod:`dimcalc.vc.numpy_dfs`, compiled
  in :mod:`dimcalc.vc.kernel`), with the pruning rules defined once in :mod:`dimcalc.vc.rules`;
* :mod:`dimcalc.vc.columns` -- its virtual columns as bitsets over the hypotheses;
* :mod:`dimcalc.vc.growth` -- :func:`growth_function` and :func:`sauer_shelah_bound`.

The independent checkers :func:`is_shattered`, :func:`is_natarajan_shattered` and
:func:`is_graph_shattered` live with the witness objects in :mod:`dimcalc.witnesses`
and are re-exported here.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> from dimcalc.vc import vc_dimension
>>> vc_dimension(HypothesisClass.from_table([[0, 0], [0, 1], [1, 0], [1, 1]])).value
2
"""

from ..witnesses.shattered import is_graph_shattered, is_natarajan_shattered, is_shattered
from .dimensions import binary_twin, graph_dimension, natarajan_dimension, vc_dimension
from .growth import growth_function, sauer_shelah_bound

__all__ = [
    "vc_dimension",
    "natarajan_dimension",
    "graph_dimension",
    "binary_twin",
    "growth_function",
    "sauer_shelah_bound",
    "is_shattered",
    "is_natarajan_shattered",
    "is_graph_shattered",
]
