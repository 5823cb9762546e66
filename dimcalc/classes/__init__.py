"""The class model: a finite hypothesis class, its storages, its reduction, its constructors.

* :mod:`~dimcalc.classes.hypothesis_class`: :class:`HypothesisClass`, the immutable table every
  solver reads (dense labels, or one bit per cell for big binary classes);
* :mod:`~dimcalc.classes.bit_table` and :mod:`~dimcalc.classes.bit_groups`: the packed binary storage
  and its exact row / column groupings;
* :mod:`~dimcalc.classes.reduction`: the column reduction shared by every solver;
* :mod:`~dimcalc.classes.table_input` and :mod:`~dimcalc.classes.set_systems`: validation of the parts
  a class is built from, and set systems / graphs read as classes;
* :mod:`~dimcalc.classes.operations`: new classes from old (restrictions, complements, BGS gap
  amplification).

>>> from dimcalc.classes import HypothesisClass
>>> HypothesisClass.from_table([[0, 1], [1, 1]]).n_distinct
2
"""

from .hypothesis_class import HypothesisClass

__all__ = ["HypothesisClass"]
