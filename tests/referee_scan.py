"""Where a module touches the referee, read from its syntax tree (issue 36): shared by the reads and writes tests.

A referee is an expression that names one: a name or attribute called `referee`, `_referee`, `desk` or `ref`
(`table.referee`, `self._referee`), a parameter or variable annotated `Referee` or `Desk`, and every alias made
of one (`r = table.referee`, `x = r`), in any function of the module. A referee's member held in a name
(`claims = referee.claims`) is followed too: what is done to that name is done to the referee.
"""

from __future__ import annotations

import ast

OWNERS = {"referee", "_referee", "desk", "ref"}   # the names the referee goes by
TYPES = {"Referee", "Desk", "TableState"}   # a helper's `state: TableState` is the table too
# The methods that change what they are called on (a list's, a dict's, a set's, and the game handle's own pair):
# one called on a referee's member changes the referee. The table's parts (the claims, the newly dealt, the
# clocks) are values whose changes return new ones, so calling them changes nothing.
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "add", "discard",
            "setdefault", "sort", "reverse", "apply", "undo", "apply_ready_roll", "drop_undo", "handle"}


def _annotated_referee(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) \
        else ast.unparse(annotation)
    return any(part.strip().strip("'\"") in TYPES for part in text.split("|"))   # `Referee`, `Referee | None`


class Scan:
    """The referee names of one module, found before its reads and writes are listed."""

    def __init__(self, source: str) -> None:
        self.tree = ast.parse(source)
        self.aliases: set[str] = set(OWNERS)     # names that are a referee
        self.members: set[str] = set()           # names that hold a referee's member
        for node in ast.walk(self.tree):
            if isinstance(node, ast.arg) and _annotated_referee(node.annotation):
                self.aliases.add(node.arg)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                    and _annotated_referee(node.annotation):
                self.aliases.add(node.target.id)
        changed = True
        while changed:   # aliases of aliases, whatever order they were made in
            changed = False
            for node in ast.walk(self.tree):
                for name, value in _bindings(node):
                    if self.is_referee(value) and name not in self.aliases:
                        self.aliases.add(name)
                        changed = True
                    elif self.member_of(value) is not None and name not in self.members:
                        self.members.add(name)
                        changed = True

    def is_referee(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.aliases
        return isinstance(node, ast.Attribute) and node.attr in OWNERS

    def member_of(self, node: ast.expr) -> str | None:
        """The referee's member an expression reads (`referee.claims` → "claims"), or None."""
        if isinstance(node, ast.Attribute) and self.is_referee(node.value):
            return node.attr
        return None

    def _held(self, node: ast.expr) -> bool:
        """An expression that is, or is inside, a referee's member: `referee.a`, `referee.a.b`, `claims.x`."""
        while isinstance(node, ast.Attribute | ast.Subscript):
            if self.member_of(node) is not None:
                return True
            node = node.value
        return isinstance(node, ast.Name) and node.id in self.members

    def reads(self, allowed: set[str]) -> list[tuple[int, str]]:
        """(line, member) of every referee member read, but those allowed."""
        out = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute):
                member = self.member_of(node)
                if member is not None and member not in allowed:
                    out.append((node.lineno, ast.unparse(node)))
        return sorted(set(out))

    def writes(self) -> list[tuple[int, str]]:
        """(line, target) of every change made to a referee's fields from outside: an assignment (plain,
        augmented, annotated, unpacked, by subscript) to a referee's attribute or anything inside one, and a
        method called on a referee's member (`referee.log.append(...)`, `claims.forget(...)`)."""
        out = []
        for node in ast.walk(self.tree):
            for target in targets(node):
                if isinstance(target, ast.Attribute | ast.Subscript) and (
                        self.is_referee(target.value) or self._held(target.value)):
                    out.append((target.lineno, ast.unparse(target)))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in MUTATORS and self._held(node.func.value):
                out.append((node.lineno, ast.unparse(node.func)))
        return sorted(set(out))


def _bindings(node: ast.AST) -> list[tuple[str, ast.expr]]:
    """(name, value) of the plain names a statement binds: `x = value`, `x: T = value`, `x := value`, `with value
    as x`, and each name of an unpacking bound from the matching element of a tuple."""
    pairs: list[tuple[ast.expr, ast.expr]] = []
    if isinstance(node, ast.Assign):
        pairs = [(target, node.value) for target in node.targets]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        pairs = [(node.target, node.value)]
    elif isinstance(node, ast.NamedExpr):
        pairs = [(node.target, node.value)]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        pairs = [(node.optional_vars, node.context_expr)]
    out: list[tuple[str, ast.expr]] = []
    while pairs:
        target, value = pairs.pop()
        if isinstance(target, ast.Name):
            out.append((target.id, value))
        elif isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List) \
                and len(target.elts) == len(value.elts):
            pairs.extend(zip(target.elts, value.elts, strict=True))
    return out


def targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        found = [node.target]
    else:
        return []
    out: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            out.append(target)
    return out
