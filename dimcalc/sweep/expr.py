"""Expressions of dimensions, e.g. ``psi_littlestone.bin - multiclass_littlestone``, parsed safely.

An expression is arithmetic (``+ - * /``, unary minus, parentheses, numbers)
over *names* and the functions ``max``, ``min``, ``abs``, ``log2``.  A name is
a result name of the sweep database (``vc``, ``littlestone``,
``psi_littlestone.bin``, ``psi_littlestone_uniform.B``,
``binary_restrictions.1``, ...), ``binary_restrictions.max`` (the largest
LDim of a binary restriction, BGS Thm 3.4's left side), or a size of the
class: ``hypotheses``, ``points``, ``labels``.  Nothing is ever passed to
``eval``: the text is tokenised, names are replaced by placeholders, and the
:mod:`ast` tree is checked node by node against that short list before a small
interpreter walks it.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from ..errors import InvalidParameterError

__all__ = ["Expression", "parse_expression", "SIZE_NAMES"]

#: Names an expression may use besides result names.
SIZE_NAMES = ("hypotheses", "points", "labels")

_NAME = re.compile(r"(?<![0-9.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*")
_FUNCTIONS: dict[str, Callable[..., float]] = {"max": max, "min": min, "abs": abs, "log2": math.log2}
_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


@dataclass(frozen=True)
class Expression:
    """A parsed expression: ``names`` it reads and ``evaluate(values)``."""

    text: str
    names: tuple[str, ...]
    _tree: ast.Expression
    _placeholders: tuple[str, ...]

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The value for a mapping name -> number (``KeyError`` for a missing name, ``ZeroDivisionError``).

        >>> parse_expression("psi_littlestone.bin - multiclass_littlestone").evaluate(
        ...     {"psi_littlestone.bin": 4, "multiclass_littlestone": 2})
        2
        """
        env = {p: values[n] for p, n in zip(self._placeholders, self.names)}
        return _eval(self._tree.body, env)

    def check_names(self, known: set[str], where: str) -> None:
        """Refuse names that are not among ``known`` (one line naming the name and some known ones)."""
        for n in self.names:
            if n not in known:
                sample = ", ".join(sorted(known)[:12])
                raise InvalidParameterError(f"{where}: unknown name {n!r} in {self.text!r}; known names: {sample}, ...")

    def dimension_keys(self) -> list[str]:
        """The ``check`` keys the expression needs (``psi_littlestone.bin`` -> ``psi_littlestone``)."""
        keys = []
        for n in self.names:
            if n in SIZE_NAMES:
                continue
            k = n.split(".", 1)[0]
            if k not in keys:
                keys.append(k)
        return keys


def _eval(node: ast.AST, env: Mapping[str, float]) -> float:
    if isinstance(node, ast.Constant):
        return cast(float, node.value)  # a number: checked by _check
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.BinOp):
        return _BINOPS[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Call):
        return _FUNCTIONS[node.func.id](*(_eval(a, env) for a in node.args))  # type: ignore[attr-defined]
    raise AssertionError(type(node).__name__)  # unreachable: parse_expression admits nothing else


def _check(node: ast.AST, text: str, placeholders: set[str]) -> None:
    def bad(what: str) -> InvalidParameterError:
        return InvalidParameterError(
            f"expression {text!r}: {what}; allowed are numbers, dimension names, "
            f"+ - * / ( ), and {', '.join(_FUNCTIONS)}(...)"
        )

    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise bad(f"constant {node.value!r} is not a number")
        if not math.isfinite(node.value):
            raise bad(f"constant {node.value!r} is not a finite number")
    elif isinstance(node, ast.Name):
        if node.id not in placeholders:
            raise bad(f"unexpected name {node.id!r}")
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINOPS:
            raise bad(f"operator {type(node.op).__name__} is not allowed")
        _check(node.left, text, placeholders)
        _check(node.right, text, placeholders)
        if isinstance(node.op, ast.Div) and _constant(node.right) == 0:
            raise InvalidParameterError(f"expression {text!r}: division by zero (the divisor is always 0)")
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise bad(f"operator {type(node.op).__name__} is not allowed")
        _check(node.operand, text, placeholders)
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS or node.keywords or not node.args:
            raise bad("only max, min, abs, log2 may be called, with positional arguments")
        if node.func.id in ("abs", "log2") and len(node.args) != 1:
            raise bad(f"{node.func.id} takes one argument")
        if node.func.id in ("max", "min") and len(node.args) < 2:
            raise bad(f"{node.func.id} takes two or more arguments (the {node.func.id} of one value is that value)")
        for a in node.args:
            _check(a, text, placeholders)
        if node.func.id == "log2":
            c = _constant(node.args[0])
            if c is not None and c <= 0:
                raise InvalidParameterError(
                    f"expression {text!r}: log2 of {_number_text(c)} is undefined (log2 needs a number > 0)"
                )
    else:
        raise bad(f"{type(node).__name__} is not allowed")


def _constant(node: ast.AST) -> float | None:
    """The value of a sub-expression without names (``None`` when it has names or is itself undefined)."""
    if any(isinstance(n, ast.Name) for n in ast.walk(node)):
        return None
    try:
        return _eval(node, {})
    except (ZeroDivisionError, ValueError, OverflowError):
        return None


def _number_text(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def parse_expression(text: str) -> Expression:
    """Parse an expression of dimensions (see the module docstring).

    Raises
    ------
    InvalidParameterError
        For anything but numbers, names, ``+ - * /``, parentheses and ``max``, ``min``, ``abs``, ``log2``.

    Examples
    --------
    >>> e = parse_expression("max(binary_restrictions.1, binary_restrictions.2) - multiclass_littlestone")
    >>> e.names
    ('binary_restrictions.1', 'binary_restrictions.2', 'multiclass_littlestone')
    >>> parse_expression("__import__('os')")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: expression "__import__('os')": '__import__' is not a dimension name
    >>> parse_expression("open('x')")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: expression "open('x')": only max, min, abs, log2 may be called, ...
    >>> parse_expression("graph / (2 - 2)")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: expression 'graph / (2 - 2)': division by zero (the divisor is always 0)
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidParameterError("an expression needs at least one dimension name, e.g. 'littlestone - vc'")
    if len(text) > 1000:
        raise InvalidParameterError("expression is too long (over 1000 characters)")
    names: list[str] = []
    placeholders: list[str] = []

    def repl(m: re.Match) -> str:
        word = m.group(0)
        if "__" in word:
            raise InvalidParameterError(f"expression {text!r}: {word!r} is not a dimension name")
        if word in _FUNCTIONS:
            return word
        if word not in names:
            names.append(word)
            placeholders.append(f"_v{len(names) - 1}")
        return placeholders[names.index(word)]

    source = _NAME.sub(repl, text)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        raise InvalidParameterError(f"expression {text!r} is not valid arithmetic") from None
    _check(tree.body, text, set(placeholders))
    return Expression(text, tuple(names), tree, tuple(placeholders))
