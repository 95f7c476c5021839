"""frozen_record behaves as @dataclass(frozen=True) (with or without slots): each record here is checked against a
real dataclass of the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from conquista.rules import actions
from conquista.rules.records import frozen_record


@frozen_record(slots=True)
class Slotted:
    source: int
    target: int
    note: str = "manual"


@dataclass(frozen=True, slots=True)
class RealSlotted:
    source: int
    target: int
    note: str = "manual"


@frozen_record
class Plain:
    """One field, sorted after it is set."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))


@dataclass(frozen=True)
class RealPlain:
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))


@frozen_record(slots=True)
class Empty:
    pass


@dataclass(frozen=True, slots=True)
class RealEmpty:
    pass


PAIRS: list[tuple[Any, Any, tuple[Any, ...]]] = [
    (Slotted, RealSlotted, (1, 2)), (Slotted, RealSlotted, (1, 2, "os")), (Plain, RealPlain, ((3, 1, 2),)),
    (Empty, RealEmpty, ()),
]


def _named(real: object, ours: object) -> str:
    return repr(real).replace(type(real).__name__, type(ours).__name__, 1)


@pytest.mark.parametrize(("ours", "real", "args"), PAIRS)
def test_a_record_has_the_dataclass_fields_init_repr_eq_and_hash(ours: Any, real: Any, args: tuple[Any, ...]) -> None:
    record, reference = ours(*args), real(*args)
    assert repr(record) == _named(reference, record)
    assert hash(record) == hash(reference)
    assert record == ours(*args) and not record != ours(*args)
    assert record != reference                        # another class, as two dataclasses of the same fields
    assert (record == reference) is False and record.__eq__(reference) is NotImplemented
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(real)]
    assert ours.__match_args__ == real.__match_args__
    assert dataclasses.is_dataclass(record) and dataclasses.asdict(record) == dataclasses.asdict(reference)
    params, real_params = ours.__dataclass_params__, real.__dataclass_params__
    assert (params.init, params.repr, params.eq, params.order, params.unsafe_hash, params.frozen) == \
        (real_params.init, real_params.repr, real_params.eq, real_params.order, real_params.unsafe_hash,
         real_params.frozen)
    assert hasattr(record, "__dict__") == hasattr(reference, "__dict__")      # slots only when asked


def test_a_record_is_made_by_keyword_with_defaults_and_refuses_what_its_dataclass_refuses() -> None:
    assert Slotted(target=2, source=1) == Slotted(1, 2, "manual")
    assert dataclasses.replace(Slotted(1, 2), note="os") == Slotted(1, 2, "os")
    assert Plain((2, 1)).cards == (1, 2)              # __post_init__ runs
    for make in (RealSlotted, Slotted):
        with pytest.raises(TypeError):
            make(1)
        with pytest.raises(TypeError):
            make(1, 2, "x", 4)
        with pytest.raises(TypeError):
            make(1, 2, colour="red")


@pytest.mark.parametrize("record", [Slotted(1, 2), Plain((1,)), Empty()])
def test_a_record_is_frozen(record: Any) -> None:
    for name in [f.name for f in dataclasses.fields(record)] + ["other"]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, name, 5)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(record, name)


@pytest.mark.parametrize("record", [Slotted(1, 2, "os"), Plain((2, 1)), Empty(), actions.Trade((5, 1, 3)),
                                    actions.Roll((6, 5), (4,), "seeded"), actions.EndPhase()])
def test_a_record_pickles_and_copies(record: Any) -> None:
    for again in (pickle.loads(pickle.dumps(record)), copy.copy(record), copy.deepcopy(record)):
        assert again == record and type(again) is type(record) and hash(again) == hash(record)


def test_a_dataclass_may_subclass_a_record() -> None:
    @dataclass(frozen=True, slots=True)
    class Further(Slotted):
        extra: int = 0

    assert Further(1, 2).extra == 0 and Further(1, 2) != Slotted(1, 2)


def test_an_undocumented_record_is_described_by_its_fields() -> None:
    assert Slotted.__doc__ == "Slotted(source: int, target: int, note: str = 'manual')"
    assert Plain.__doc__ == "One field, sorted after it is set."
    assert Empty.__doc__ == "Empty()"


def test_a_record_refuses_what_it_cannot_do_the_same_way() -> None:
    with pytest.raises(TypeError, match="plain"):
        @frozen_record
        class Hidden:
            items: int = field(default=0, repr=False)

    with pytest.raises(TypeError, match="base class"):
        @frozen_record
        class Derived(RealPlain):
            more: int = 0

    with pytest.raises(TypeError, match="__repr__"):
        @frozen_record
        class Shown:
            value: int

            def __repr__(self) -> str:
                return "shown"


def test_matching_on_a_record_reads_its_fields() -> None:
    match actions.Attack(3, 4, 2):
        case actions.Attack(source, target, dice):
            assert (source, target, dice) == (3, 4, 2)
        case _:
            pytest.fail("no match")


@frozen_record
class Named:
    name: str
    size: int

    def __hash__(self) -> int:
        return hash(self.name)


@dataclass(frozen=True)
class RealNamed:
    name: str
    size: int

    def __hash__(self) -> int:
        return hash(self.name)


def test_a_record_keeps_its_own_hash_as_a_frozen_dataclass_does() -> None:
    assert hash(Named("italian", 1)) == hash(RealNamed("italian", 1)) == hash("italian")
    assert Named("italian", 1) != Named("italian", 2)
    assert repr(Named("italian", 1)) == "Named(name='italian', size=1)"


@frozen_record
class Chosen:
    rules: str
    bots: dict[int, str] = field(default_factory=dict)
    tournament: bool = False


@dataclass(frozen=True)
class RealChosen:
    rules: str
    bots: dict[int, str] = field(default_factory=dict)
    tournament: bool = False


def test_a_field_left_out_is_made_by_its_default_factory_each_time() -> None:
    first, second = Chosen("italian"), Chosen("italian", tournament=True)
    assert first.bots == {} and first.bots is not second.bots
    assert Chosen("classic", {1: "greedy"}).bots == {1: "greedy"}
    assert repr(first) == _named(RealChosen("italian"), first)
    assert first == Chosen("italian") and first != second
    assert Chosen.__doc__ == "Chosen(rules: str, bots: dict[int, str] = <factory>, tournament: bool = False)"


@frozen_record(eq=False)
class Indexed:
    name: str
    items: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {item: n for n, item in enumerate(self.items)})


@dataclass(frozen=True, eq=False)
class RealIndexed:
    name: str
    items: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {item: n for n, item in enumerate(self.items)})


def test_a_record_without_eq_is_compared_by_identity_and_sets_its_derived_fields() -> None:
    record, reference = Indexed("map", ("a", "b")), RealIndexed("map", ("a", "b"))
    assert record._index == reference._index == {"a": 0, "b": 1}
    assert repr(record) == _named(reference, record) == "Indexed(name='map', items=('a', 'b'))"
    assert record == record and record != Indexed("map", ("a", "b"))
    assert hash(record) == object.__hash__(record)
    assert Indexed.__doc__ == "Indexed(name: str, items: tuple[str, ...])"
    assert Indexed.__dataclass_params__.eq is False and Indexed.__dataclass_params__.frozen is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        record._index = {}    # type: ignore[misc]
    with pytest.raises(TypeError):
        Indexed("map", ("a",), {})     # type: ignore[call-arg]
    again = pickle.loads(pickle.dumps(record))
    assert again._index == record._index and again.items == record.items
