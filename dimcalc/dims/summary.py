"""One-line text of the witnesses of :mod:`dimcalc.dims`, for ``dimcalc check``'s table."""

from __future__ import annotations

from typing import Any

__all__ = ["witness_summary"]


def witness_summary(w: Any, H: Any) -> str:
    """A short description of a threshold, pseudo-cube, dual, star or teaching witness, with the class's names.

    Examples
    --------
    >>> from dimcalc import generators
    >>> H = generators.thresholds(2)
    >>> witness_summary({"points": [0, 1], "hypotheses": [0, 1]}, H)
    'points (x0, x1), hypotheses (t0, t1)'
    >>> witness_summary({"center": 1, "points": [0, 1], "hypotheses": [0, 2]}, H)
    'centre t1, points (x0, x1), hypotheses (t0, t2)'
    >>> witness_summary({"subclass": [0, 1, 2], "hypothesis": 1, "teaching_set": [0, 1]}, H)
    '3 concepts, t1 taught by (x0, x1)'
    """
    points, rows = H.point_names, H.hypothesis_names

    def pts(key: str) -> str:
        return "(" + ", ".join(points[i] for i in w[key]) + ")"

    def hyps(key: str) -> str:
        return "(" + ", ".join(rows[i] for i in w[key]) + ")"

    if isinstance(w, list):
        return "hypotheses (" + ", ".join(rows[i] for i in w) + ")"
    if not isinstance(w, dict):
        return ""
    if "teaching_set" in w or "at_least" in w:
        what = (
            f"{rows[w['hypothesis']]} taught by {pts('teaching_set')}"
            if "teaching_set" in w
            else (f"{rows[w['hypothesis']]} needs >= {w['at_least']} points")
        )
        return f"{len(w['subclass'])} concepts, {what}" if "subclass" in w else what
    text = f"points {pts('points')}, hypotheses {hyps('hypotheses')}"
    return f"centre {rows[w['center']]}, {text}" if "center" in w else text
