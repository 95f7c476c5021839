"""`frozen_record`: `@dataclass(frozen=True)` (optionally `slots=True`) made for less at import.

Python 3.11's `dataclass` compiles every method it writes separately (six `exec` calls for a frozen class, about
0.3 ms a class here); a board's start builds some sixty records, a fifth of its time to the first frame (issue 22).
This decorator lets `dataclass` do the bookkeeping it does without compiling anything (the fields, `__match_args__`,
the slots, what `dataclasses.fields`, `replace`, `asdict` and `is_dataclass` read), then adds the methods a frozen
dataclass has, with the same behaviour: `__init__` (compiled alone, calling `__post_init__`), `__repr__`, `__eq__`
(same class, fields compared as a tuple), `__hash__` (of that tuple), `__setattr__` and `__delattr__` refusing with
`FrozenInstanceError`, and with slots the pickling pair; about a fifth of the cost. Only plain records: no
`field(...)` but for a `default_factory`, no base class, no method of those names of their own but `__hash__` (a
TypeError says so): anything else stays a real dataclass. mypy reads it as a frozen dataclass
(`dataclass_transform`). Left interpreted by `make fast`.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
def frozen_record(cls: type[T], /) -> type[T]: ...
@overload
def frozen_record(*, slots: bool = False, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def frozen_record(cls: type[T] | None = None, /, *, slots: bool = False,
                  eq: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """`@frozen_record`, `@frozen_record(slots=True)` or `(eq=False)` on a class with annotated fields and plain
    defaults."""
    def wrap(cls: type[T]) -> type[T]:
        return _make(cls, slots, eq)

    return wrap if cls is None else wrap(cls)


def _make(cls: type[T], slots: bool, eq: bool) -> type[T]:
    if cls.__bases__ != (object,):
        raise TypeError(f"{cls.__qualname__}: a frozen_record has no base class; use @dataclass(frozen=True)")
    documented = bool(cls.__doc__)
    if not documented:
        cls.__doc__ = "?"   # written below, once the fields are known (dataclass would ask inspect.signature)
    made: Any = dataclasses.dataclass(init=False, repr=False, eq=False, slots=slots)(cls)
    fields = dataclasses.fields(made)
    if not documented:
        # What dataclass writes from inspect.signature (which costs more than the record), e.g. "Roll(dice: int)".
        made.__doc__ = f"{made.__name__}({', '.join(_parameter(f) for f in fields if f.init)})"
    for f in fields:
        plain = f.init and f.repr and f.compare
        # Or one the class sets itself in __post_init__: `field(init=False, repr=False)`.
        derived = not (f.init or f.repr) and f.default is f.default_factory is dataclasses.MISSING
        if not ((plain or derived) and f.hash is None and not f.kw_only and f.metadata == {}):
            raise TypeError(f"{made.__qualname__}.{f.name}: a frozen_record's fields are plain or "
                            f"field(init=False, repr=False); use @dataclass(frozen=True)")
    # The parameters a frozen dataclass reports: what a dataclass subclassing this record checks (frozen from frozen).
    params = made.__dataclass_params__
    params.init = params.repr = params.frozen = True
    params.eq = eq
    methods = _methods(made, fields, slots)
    if "__hash__" in made.__dict__ or not eq:
        del methods["__hash__"]   # the class's own, which a frozen dataclass keeps too; or, without eq, object's
    if not eq:
        del methods["__eq__"]
    for name, method in methods.items():
        if name in made.__dict__:
            raise TypeError(f"{made.__qualname__} defines {name} itself; use @dataclass(frozen=True)")
        method.__qualname__ = f"{made.__qualname__}.{name}"
        setattr(made, name, method)
    return made  # type: ignore[no-any-return]


def _parameter(f: dataclasses.Field[Any]) -> str:
    default = f.default if f.default_factory is dataclasses.MISSING else _MADE
    return f"{f.name}: {f.type}" + ("" if default is dataclasses.MISSING else f" = {default!r}")


def _methods(cls: Any, fields: tuple[dataclasses.Field[Any], ...], slots: bool) -> dict[str, Any]:
    """The frozen dataclass's methods for the record `cls` with `fields`. Only `__init__` is compiled (its
    parameters are the fields, and it runs wherever a record is made); the others are closures over the fields'
    getters, which cost nothing to make and run at C speed. Shown: the fields with repr; compared and hashed: those
    with compare (as dataclass does); frozen and pickled: all."""
    set_field = object.__setattr__
    names = tuple(f.name for f in fields)
    values = _values(names)
    shown_names = tuple(f.name for f in fields if f.repr)
    shown_values = _values(shown_names)
    compared = _values(tuple(f.name for f in fields if f.compare))

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(shown_names, shown_values(self), strict=True))
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(compared(self))

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __getstate__(self: Any) -> list[object]:
        return list(values(self))

    def __setstate__(self: Any, state: list[object]) -> None:
        for name, value in zip(names, state, strict=False):   # as dataclass reads it
            set_field(self, name, value)

    methods: dict[str, Any] = {"__init__": _init(cls), "__repr__": __repr__, "__eq__": __eq__,
                               "__hash__": __hash__, "__setattr__": __setattr__, "__delattr__": __delattr__}
    if slots:   # what dataclass adds for a frozen class with slots, which pickle needs
        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    return methods


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The fields' values as a tuple (what a dataclass compares and hashes), for any number of fields."""
    if len(names) >= 2:
        return operator.attrgetter(*names)
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda record: (get(record),)
    return lambda record: ()


def _init(cls: Any) -> Any:
    """`__init__(self, field, ..., field=default)` setting each field past the frozen `__setattr__` (a field with a
    `default_factory` calls it when left out), then calling `__post_init__` when the class has one."""
    scope: dict[str, Any] = {"_set": object.__setattr__, "_made": _MADE}
    params, body = ["self"], []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue    # set by the class's __post_init__
        value = f.name
        if f.default is not dataclasses.MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_made")
            value = f"_factory_{f.name}() if {f.name} is _made else {f.name}"
        else:
            params.append(f.name)
        body.append(f"    _set(self, {f.name!r}, {value})")
    body += ["    self.__post_init__()"] if hasattr(cls, "__post_init__") else []
    source = "\n".join([f"def __init__({', '.join(params)}):", *(body or ["    pass"])])
    exec(compile(source, f"<frozen_record {cls.__qualname__}>", "exec"), scope)
    return scope["__init__"]


class _Made:
    """The default of a field made by its `default_factory` (what dataclass shows as `<factory>`)."""

    def __repr__(self) -> str:
        return "<factory>"


_MADE = _Made()
