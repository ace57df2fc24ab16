"""CEL for workflow documents: compile, inspect and evaluate expressions.

One module serves the validator (does it compile, which variables does it use)
and the runtime (evaluate with a bounded cost). Two things differ from plain
CEL on purpose:

* Hyphenated step ids. The spec's own examples write
  ``steps.list-services.result.services``, which CEL parses as a subtraction.
  :func:`normalize` rewrites such dot access to ``steps['list-services']`` so it
  evaluates as the author meant, and the validator warns with the bracket form.
* Cost. Evaluation is interpreted Python; a tracer counts interpreter calls and
  aborts past a budget, so no expression can hang or exhaust a worker.
"""
from __future__ import annotations

import re
import sys
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import celpy
from celpy import celtypes
from lark import Token, Tree

MAX_EXPRESSION_LENGTH = 4000
# Interpreter calls allowed for one evaluation; a simple expression needs a few hundred.
DEFAULT_COST_BUDGET = 200_000
MAX_RESULT_ITEMS = 100_000

_MACROS = {"map", "filter", "all", "exists", "exists_one"}
_HYPHEN_DOT = re.compile(r"\bsteps\.([a-z][a-z0-9_]*(?:-[a-z0-9_]+)+)")


class CelError(Exception):
    """An expression that does not compile or cannot be evaluated."""


class CelCostExceeded(CelError):
    pass


@dataclass
class Inspection:
    """What an expression refers to, found without evaluating it."""

    variables: set[str] = field(default_factory=set)
    step_refs: set[str] = field(default_factory=set)
    hyphen_dot_refs: list[str] = field(default_factory=list)


def hyphen_dot_refs(expression: str) -> list[str]:
    return _HYPHEN_DOT.findall(expression)


def normalize(expression: str) -> str:
    """Rewrite ``steps.a-b`` dot access to ``steps['a-b']``."""
    return _HYPHEN_DOT.sub(lambda m: f"steps['{m.group(1)}']", expression)


_env = celpy.Environment()
_env_lock = threading.Lock()


@lru_cache(maxsize=2048)
def _compile(expression: str) -> Tree:
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise CelError(f"expression is longer than {MAX_EXPRESSION_LENGTH} characters")
    try:
        with _env_lock:  # the lark parser keeps state between calls
            return _env.compile(normalize(expression))
    except celpy.CELParseError as exc:
        raise CelError(_syntax_message(exc, expression)) from None
    except Exception as exc:  # lark can raise other errors on odd input
        raise CelError(f"syntax error: {_first_line(str(exc))}") from None


# lark's token names, in the words a person reads.
_OPERANDS = {"STRING_LIT", "MLSTRING_LIT", "BYTES_LIT", "INT_LIT", "UINT_LIT", "FLOAT_LIT", "BOOL_LIT", "NULL_LIT",
             "IDENT", "LPAR", "LSQB", "LBRACE", "DOT", "BANG", "MINUS"}
_CLOSERS = {"RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'", "COMMA": "','", "COLON": "':'"}


def _syntax_message(exc: Exception, expression: str) -> str:
    """'syntax error at column N: expected ...' from the parser's own account of what it wanted."""
    cause = exc.__cause__ or exc.__context__
    expected = set(getattr(cause, "expected", None) or getattr(cause, "allowed", None) or ())
    token = getattr(cause, "token", None)
    ended = token is not None and (getattr(token, "type", "") == "$END" or str(token) == "")
    # At the end of the text lark points at the last token; the person needs the place after it.
    column = len(expression.rstrip()) + 1 if ended else getattr(exc, "column", None)
    where = f"syntax error at column {column}" if column else "syntax error"
    words = [_CLOSERS[name] for name in sorted(_CLOSERS) if name in expected]
    if expected & _OPERANDS:
        words.append("a value")
    if not words and expected:
        words.append("an operator")
    if ended:
        found = "the expression ends too early"
    elif token is not None:
        found = f"unexpected {str(token)!r}"
    else:
        found = "unexpected character"
    return f"{where}: {found}" + (f", expected {' or '.join(words)}" if words else "")


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def compile_expression(expression: str) -> Tree:
    """Parse an expression; raise :class:`CelError` with a readable message."""
    return _compile(expression)


@lru_cache(maxsize=2048)
def _program(expression: str):
    return _env.program(compile_expression(expression))


@lru_cache(maxsize=2048)
def inspect(expression: str) -> Inspection:
    """Variables and step references of an expression (cached: treat the answer as read-only)."""
    tree = compile_expression(expression)
    found = Inspection(hyphen_dot_refs=hyphen_dot_refs(expression))
    bound: set[str] = set()
    for node in tree.iter_subtrees():
        if node.data == "member_dot_arg" and len(node.children) >= 3:
            method = node.children[1]
            args = node.children[2]
            if isinstance(method, Token) and str(method) in _MACROS and isinstance(args, Tree) and args.children:
                name = _bare_ident(args.children[0])
                if name:
                    bound.add(name)
    for node in tree.iter_subtrees():
        if node.data == "primary" and node.children and isinstance(node.children[0], Tree):
            ident = node.children[0]
            if ident.data == "ident" and ident.children:
                found.variables.add(str(ident.children[0]))
        ref = _step_ref(node)
        if ref:
            found.step_refs.add(ref)
    found.variables -= bound
    return found


def _bare_ident(node: Any) -> str | None:
    """The name when ``node`` is an expression that is only an identifier."""
    while isinstance(node, Tree):
        if node.data == "ident":
            return str(node.children[0])
        if len(node.children) != 1:
            return None
        node = node.children[0]
    return None


def _step_ref(node: Tree) -> str | None:
    """``steps.x`` or ``steps['x']``: the step id x."""
    if node.data not in ("member_dot", "member_index") or len(node.children) < 2:
        return None
    base = node.children[0]
    if _bare_ident(base) != "steps":
        return None
    key = node.children[1]
    if node.data == "member_dot" and isinstance(key, Token):
        return str(key)
    if node.data == "member_index":
        literal = _string_literal(key)
        return literal
    return None


def _string_literal(node: Any) -> str | None:
    while isinstance(node, Tree):
        if node.data == "literal" and node.children:
            text = str(node.children[0])
            if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
                return text[1:-1]
            return None
        if len(node.children) != 1:
            return None
        node = node.children[0]
    return None


def to_cel(value: Any) -> Any:
    return celpy.json_to_cel(value)


def to_python(value: Any) -> Any:
    """CEL values back to plain JSON-like Python."""
    if isinstance(value, celtypes.BoolType):
        return bool(value)
    if isinstance(value, (celtypes.IntType, celtypes.UintType)):
        return int(value)
    if isinstance(value, celtypes.DoubleType):
        return float(value)
    if isinstance(value, celtypes.StringType):
        return str(value)
    if isinstance(value, celtypes.ListType):
        return [to_python(v) for v in value]
    if isinstance(value, celtypes.MapType):
        return {str(k): to_python(v) for k, v in value.items()}
    if value is None:
        return None
    return value


class _CostTracer:
    def __init__(self, budget: int):
        self.remaining = budget

    def __call__(self, frame, event, arg):
        if event == "call":
            self.remaining -= 1
            if self.remaining < 0:
                raise CelCostExceeded("expression exceeded its evaluation budget")
        return None


def evaluate(expression: str, variables: dict[str, Any], *, budget: int = DEFAULT_COST_BUDGET) -> Any:
    """Evaluate with JSON-like ``variables``; return plain Python.

    Raises :class:`CelError` for compile errors, evaluation errors (missing
    fields, wrong types) and :class:`CelCostExceeded` past the budget.
    """
    program = _program(expression)
    activation = {name: to_cel(value) for name, value in variables.items()}
    tracer = _CostTracer(budget)
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        value = program.evaluate(activation)
    except CelCostExceeded:
        raise
    except Exception as exc:
        raise CelError(f"evaluation failed: {_first_line(str(exc)) or type(exc).__name__}") from None
    finally:
        sys.settrace(previous)
    if isinstance(value, celpy.CELEvalError):
        raise CelError(f"evaluation failed: {_first_line(str(value.args[0] if value.args else value))}")
    result = to_python(value)
    if isinstance(result, list) and len(result) > MAX_RESULT_ITEMS:
        raise CelCostExceeded(f"expression produced {len(result)} items (limit {MAX_RESULT_ITEMS})")
    return result
