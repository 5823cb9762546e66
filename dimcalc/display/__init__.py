"""Rich display in Jupyter: HTML (and SVG, LaTeX) for classes, results, witnesses and reports.

The objects of dimcalc show themselves in a notebook through small
``_repr_html_`` methods that call the functions here (imported only when a
notebook asks for the picture):

==========================================  ==========================================
object                                      function
==========================================  ==========================================
:class:`~dimcalc.HypothesisClass`           :func:`class_html` (a heat-map corner)
:class:`~dimcalc.DimensionResult`           :func:`result_html` (witness drawn)
a witness (:mod:`dimcalc.witnesses`)        :func:`witness_html`, :func:`tree_svg`,
                                            :func:`patterns_html`
``CheckReport``                             :func:`check_report_html`
``SampleSizeTable`` / ``SampleSizeBound``   :func:`sample_size_html` / :func:`bound_latex`
the theorem report                          :func:`theorems_html`
``GrowthTable``                             :func:`growth_html`
``SweepReport``                             :func:`sweep_report_html`
==========================================  ==========================================

Every string that comes from a file (class, point and hypothesis names) is
escaped with :func:`html.escape`.  A result does not hold its class: pass it
(``result_html(r, H)``) to see point names and the hypotheses realising each
pattern; a ``CheckReport`` holds its class and draws its witnesses with it.

Examples
--------
>>> from dimcalc import HypothesisClass, littlestone_dimension
>>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
>>> "<svg" in result_html(littlestone_dimension(H), H)
True
"""

from .classes import class_html, table_corner
from .reports import (
    bound_latex,
    check_report_html,
    check_rows,
    growth_html,
    sample_size_html,
    sweep_report_html,
    theorems_html,
)
from .results import result_html, value_text
from .witnesses import patterns_html, tree_svg, witness_html, witness_summary

__all__ = [
    "class_html",
    "table_corner",
    "result_html",
    "value_text",
    "witness_html",
    "witness_summary",
    "tree_svg",
    "patterns_html",
    "check_report_html",
    "check_rows",
    "sample_size_html",
    "bound_latex",
    "theorems_html",
    "growth_html",
    "sweep_report_html",
]
