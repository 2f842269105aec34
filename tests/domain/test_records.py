"""Records behave as the frozen dataclasses they replace on the read path (decision 0050)."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
from dataclasses import InitVar, dataclass, field
from typing import ClassVar

import pytest

from embornal.domain.records import record
from embornal.domain.values import FieldOrder, value


@record
class Point:
    """A record with a default and a class variable."""

    LABEL: ClassVar[str] = "point"

    x: int
    y: int = 0


@dataclass(frozen=True)
class Twin:
    x: int
    y: int = 0


def test_a_record_is_built_compared_and_shown_as_a_frozen_dataclass() -> None:
    p = Point(1)
    assert (p.x, p.y) == (1, 0) and Point(1, 2) == Point(x=1, y=2) == Point(1, y=2)
    assert p != Point(2) and p != Twin(1) and hash(p) == hash(Point(1, 0))
    assert repr(Point(1, 2)) == "Point(x=1, y=2)" == repr(Twin(1, 2)).replace("Twin", "Point")
    assert Point.__match_args__ == Twin.__match_args__ == ("x", "y")
    assert Point.LABEL == "point" and "LABEL" not in vars(p)
    with pytest.raises(AttributeError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.y  # type: ignore[misc]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "missing arguments: x"),
        ((1, 2, 3), {}, "takes 2 arguments, 3 given"),
        ((1,), {"z": 2}, "unexpected keyword argument 'z'"),
        ((1,), {"x": 2}, "multiple values for argument 'x'"),
    ],
)
def test_a_record_refuses_what_a_dataclass_refuses(
    args: tuple[int, ...], kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        Point(*args, **kwargs)
    with pytest.raises(TypeError):
        Twin(*args, **kwargs)


@record
class Checked:
    low: int
    high: int = 10

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError("low above high")
        object.__setattr__(self, "high", max(self.high, self.low))


def test_a_record_runs_its_post_init() -> None:
    assert Checked(3).high == 10 and Checked(3, 3) == Checked(low=3, high=3)
    with pytest.raises(ValueError, match="low above high"):
        Checked(11)


@record
class Noted:
    """A record with a field that equality and the hash pass over."""

    __record_uncompared__: ClassVar[tuple[str, ...]] = ("notes",)

    name: str
    notes: dict[str, str]


def test_a_record_compares_and_hashes_without_its_uncompared_fields() -> None:
    a, b = Noted("x", {"k": "1"}), Noted("x", {"k": "2"})
    assert a == b and hash(a) == hash(b)  # the dict would make a hash fail if compared
    assert a != Noted("y", {"k": "1"})
    assert repr(a) == "Noted(name='x', notes={'k': '1'})"  # shown all the same
    assert Noted.__match_args__ == ("name", "notes")


def test_records_are_made_without_importing_dataclasses() -> None:
    """The catalogue's records are made while the command line parses, before the console
    script defers inspect (which dataclasses imports)."""
    code = (
        "import sys; import embornal.interfaces.catalog_types; "
        "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_wire_shows_a_record_as_the_dataclass_it_was() -> None:
    from embornal.domain.access.rules import Decision, Rule
    from embornal.domain.records import record_fields
    from embornal.interfaces.wire import to_wire

    rule = Rule("p", ("alice", "read", "path:/x", "allow"))
    assert record_fields(Point(1)) == ("x", "y") and record_fields(Point) is None
    assert record_fields(Twin(1)) is None
    assert to_wire(Point(1, 2)) == to_wire(Twin(1, 2)) == {"x": 1, "y": 2}
    assert to_wire(Decision(True, rule)) == {"allowed": True, "rule": to_wire(rule)}


@value
class Ordered(FieldOrder):
    """Ordered by its fields from shared methods."""

    key: str
    value: int = 0


@dataclass(frozen=True, order=True)
class OrderedTwin:
    key: str
    value: int = 0


def test_field_order_orders_as_a_dataclass_with_order() -> None:
    pairs = [("b", 1), ("a", 2), ("a", 1), ("b", 0), ("a", 1)]
    mine = sorted(Ordered(k, v) for k, v in pairs)
    theirs = sorted(OrderedTwin(k, v) for k, v in pairs)
    assert [(o.key, o.value) for o in mine] == [(o.key, o.value) for o in theirs]
    a, b = Ordered("a", 1), Ordered("a", 2)
    assert (a < b, a <= b, a > b, a >= b, a <= Ordered("a", 1)) == (True, True, False, False, True)
    for compare in (
        lambda: a < OrderedTwin("a", 1),  # type: ignore[operator]
        lambda: a >= ("a", 1),  # type: ignore[operator]
    ):
        with pytest.raises(TypeError):
            compare()


@value
class Shared:
    """A value class: shared methods, a real frozen dataclass."""

    LABEL: ClassVar[str] = "shared"

    name: str
    tags: tuple[str, ...] = ()
    extra: dict[str, int] = field(default_factory=dict, hash=False)
    note: str = field(default="", repr=False, compare=False)
    seen: InitVar[int | None] = None

    def __post_init__(self, seen: int | None) -> None:
        if seen is not None:
            self.__dict__["seen_twice"] = seen * 2


@dataclass(frozen=True)
class Compiled:
    """The same class as a dataclass with compiled methods."""

    LABEL: ClassVar[str] = "shared"

    name: str
    tags: tuple[str, ...] = ()
    extra: dict[str, int] = field(default_factory=dict, hash=False)
    note: str = field(default="", repr=False, compare=False)
    seen: InitVar[int | None] = None

    def __post_init__(self, seen: int | None) -> None:
        if seen is not None:
            self.__dict__["seen_twice"] = seen * 2


def _both(*args: object, **kwargs: object) -> tuple[Shared, Compiled]:
    return Shared(*args, **kwargs), Compiled(*args, **kwargs)  # type: ignore[arg-type]


def test_a_value_class_behaves_as_the_frozen_dataclass_it_replaces() -> None:
    for args, kwargs in (
        (("a",), {}),
        (("a", ("x",)), {"note": "n"}),
        ((), {"name": "b", "extra": {"k": 1}, "seen": 2}),
    ):
        mine, theirs = _both(*args, **kwargs)
        assert repr(mine) == repr(theirs).replace("Compiled", "Shared")
        assert vars(mine) == vars(theirs) and list(vars(mine)) == list(vars(theirs))
    a, b = Shared("a", note="one"), Shared("a", note="two")
    assert a == b and hash(a) == hash(b) and a != Shared("b") and a != Compiled("a")
    assert Shared("a", extra={"k": 1}) == Shared("a", extra={"k": 1})
    assert hash(Shared("a", extra={"k": 1})) == hash(Shared("a"))  # hash=False: left out
    assert Shared("a").extra is not Shared("a").extra  # a fresh default each time
    assert dataclasses.is_dataclass(Shared) and Shared.__dataclass_params__.frozen
    assert [f.name for f in dataclasses.fields(Shared)] == ["name", "tags", "extra", "note"]
    assert Shared.__match_args__ == Compiled.__match_args__
    assert str(inspect.signature(Shared)) == str(inspect.signature(Compiled))
    assert dataclasses.asdict(a) == {"name": "a", "tags": (), "extra": {}, "note": "one"}
    assert dataclasses.replace(a, tags=("t",)) == Shared("a", ("t",))
    assert vars(Shared("a", seen=3))["seen_twice"] == 6 and Shared.LABEL == "shared"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "z"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.tags  # type: ignore[misc]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "missing required arguments: 'name'"),
        (("a", (), {}, "", None, 1), {}, "takes 6 positional arguments but 7 were given"),
        (("a",), {"name": "b"}, "multiple values for argument 'name'"),
        (("a",), {"colour": "red"}, "unexpected keyword argument 'colour'"),
    ],
)
def test_a_value_class_refuses_the_arguments_a_dataclass_refuses(
    args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        Shared(*args, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Compiled(*args, **kwargs)  # type: ignore[arg-type]


def test_a_frozen_dataclass_may_derive_from_a_value_class() -> None:
    @dataclass(frozen=True)
    class Derived(Shared):
        size: int = 0

    d = Derived("a", size=2)
    assert (d.name, d.size) == ("a", 2)
    assert repr(d).endswith(".Derived(name='a', tags=(), extra={}, size=2)")


def test_a_value_class_needs_a_docstring_and_plain_fields() -> None:
    with pytest.raises(TypeError, match="has a docstring"):

        @value
        class Bare:
            x: int

    with pytest.raises(TypeError, match="plain fields only"):

        @value
        class KeywordOnly:
            """Its field is keyword-only."""

            x: int = field(kw_only=True)


def test_a_value_class_may_derive_from_a_value_class() -> None:
    @value
    class Child(Shared):
        """A value class below a value class: its methods are shared too."""

        size: int = 0

    c = Child("a", size=2)
    assert (c.name, c.size) == ("a", 2) and Child.__dataclass_params__.frozen
    assert Child.__setattr__ is Shared.__setattr__  # shared, not compiled for it
    assert Shared.__dataclass_params__.frozen
    assert c == Child("a", size=2) != Child("a", size=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.size = 4  # type: ignore[misc]


@value
class OneField(FieldOrder):
    """Ordered by its one field."""

    rank: int


def test_field_order_orders_a_class_of_one_field() -> None:
    assert sorted([OneField(3), OneField(1), OneField(2)]) == [
        OneField(1),
        OneField(2),
        OneField(3),
    ]
    assert OneField(1) <= OneField(1) < OneField(2)


def test_a_value_class_with_its_own_eq_is_hashed_as_a_dataclass_would() -> None:
    @value
    class Named:
        """Equal by name alone, hashed over its fields as a frozen dataclass is."""

        name: str
        note: str = ""

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Named) and other.name == self.name

    @dataclass(frozen=True)
    class Twin:
        name: str
        note: str = ""

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Twin) and other.name == self.name

    assert Named("a", "x") == Named("a", "y")
    assert hash(Named("a", "x")) == hash(("a", "x")) == hash(Twin("a", "x"))
