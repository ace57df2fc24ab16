"""CEL itself, with no bound: parse, inspect and evaluate.

Everything here can cost unbounded CPU on hostile input, so only the worker
processes of :mod:`designer.cel_pool` call it; everyone else goes through
:mod:`designer.cel`, which bounds it. Two things differ from plain CEL on purpose:

* Hyphenated step ids. The spec's own examples write
  ``steps.list-services.result.services``, which CEL parses as a subtraction.
  :func:`normalize` rewrites such dot access to ``steps['list-services']`` so it
  evaluates as the author meant, and the validator warns with the bracket form.
* Syntax errors are told in words: where, what was found, what was expected.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import celpy
from celpy import celtypes
from lark import Token, Tree

MAX_EXPRESSION_LENGTH = 4000
MAX_RESULT_ITEMS = 100_000

_MACROS = {"map", "filter", "all", "exists", "exists_one"}
_HYPHEN_DOT = re.compile(r"\bsteps\.([a-z][a-z0-9_]*(?:-[a-z0-9_]+)+)")


class CelError(Exception):
    """An expression that does not compile or cannot be evaluated."""


class CelUnavailable(CelError):
    """No worker could answer (it could not start, or stopped for a reason that is not a limit)."""


class CelCostExceeded(CelError):
    """An expression that went past one of its limits; ``code`` and ``limit`` say which."""

    def __init__(self, message: str, *, code: str = "cel_budget_exceeded", limit: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.limit = limit

    def __reduce__(self) -> tuple[Callable[[str, str, str], CelCostExceeded], tuple[str, str, str]]:
        return (_cost_exceeded, (str(self), self.code, self.limit))


def _cost_exceeded(message: str, code: str, limit: str) -> CelCostExceeded:
    return CelCostExceeded(message, code=code, limit=limit)


def over_budget(limit: str, *, parse: bool = False) -> CelCostExceeded:
    """The one wording of a broken limit: what was exceeded, its code, and the limit."""
    if parse:
        return CelCostExceeded(f"expression is too costly to parse (cel_parse_budget_exceeded: {limit})",
                               code="cel_parse_budget_exceeded", limit=limit)
    return CelCostExceeded(f"expression exceeded its evaluation budget (cel_budget_exceeded: {limit})", limit=limit)


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


def length_error(expression: str) -> CelError | None:
    if len(expression) > MAX_EXPRESSION_LENGTH:
        return CelError(f"expression is longer than {MAX_EXPRESSION_LENGTH} characters")
    return None


# Built on first use, not at import: building celpy's parser takes a tenth of a second, and every Django process
# imports this module (through designer.cel) while only the CEL pool's workers parse.
@cache
def _environment() -> celpy.Environment:
    return celpy.Environment()


def warm() -> None:
    """Builds the parser now (the CEL zygote, before it forks workers)."""
    _environment()


def parse(expression: str) -> Tree:
    """Parse an expression; raise :class:`CelError` with a readable message."""
    too_long = length_error(expression)
    if too_long:
        raise too_long
    try:
        return _environment().compile(normalize(expression))
    except celpy.CELParseError as exc:
        raise CelError(_syntax_message(exc, expression)) from None
    except RecursionError:
        raise CelError("syntax error: the expression nests too deeply") from None
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


class _ProgramCache:
    """Compiled programs, most recently used first, up to a total expression length rather than a count:
    the program of a 4,000-character expression weighs about 6 MB. One thread only (a worker)."""

    def __init__(self, max_characters: int) -> None:
        self.max_characters = max_characters
        self.characters = 0
        self._items: OrderedDict[str, Any] = OrderedDict()

    def get(self, expression: str) -> Any:
        found = self._items.get(expression)
        if found is not None:
            self._items.move_to_end(expression)
        return found

    def put(self, expression: str, compiled: Any) -> None:
        self._items[expression] = compiled
        self.characters += len(expression)
        while self.characters > self.max_characters and len(self._items) > 1:
            dropped, _ = self._items.popitem(last=False)
            self.characters -= len(dropped)


_programs = _ProgramCache(max_characters=100_000)


def program(expression: str) -> celpy.Runner:
    compiled = _programs.get(expression)
    if compiled is None:
        compiled = _environment().program(parse(expression))
        _programs.put(expression, compiled)
    return compiled


def inspect(expression: str) -> Inspection:
    """Variables and step references of an expression."""
    tree = parse(expression)
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
        return _string_literal(key)
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


def activation(variables: dict[str, Any]) -> dict[str, Any]:
    """JSON-like variables as CEL values: work in proportion to the data, not to the expression."""
    return {name: to_cel(value) for name, value in variables.items()}


def evaluate(compiled: celpy.Runner, bound: dict[str, Any]) -> Any:
    """Evaluate a compiled :func:`program` over an :func:`activation`; the CEL value."""
    try:
        value = compiled.evaluate(bound)
    except RecursionError:
        raise CelError("evaluation failed: the expression nests too deeply") from None
    except (CelError, MemoryError):
        raise
    except Exception as exc:
        raise CelError(f"evaluation failed: {_first_line(str(exc)) or type(exc).__name__}") from None
    if isinstance(value, celpy.CELEvalError):
        raise CelError(f"evaluation failed: {_first_line(str(value.args[0] if value.args else value))}")
    if isinstance(value, celtypes.ListType) and len(value) > MAX_RESULT_ITEMS:
        raise over_budget(f"produced {len(value)} items, limit {MAX_RESULT_ITEMS}")
    return value


def run(compiled: celpy.Runner, variables: dict[str, Any]) -> Any:
    """Evaluate a compiled :func:`program` with JSON-like ``variables``; return plain Python."""
    return to_python(evaluate(compiled, activation(variables)))
