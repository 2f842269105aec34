"""Records behave as the frozen dataclasses they replace on the read path (decision 0050)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from embornal.domain.records import record


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


def test_the_wire_shows_a_record_as_the_dataclass_it_was() -> None:
    from embornal.domain.access.rules import Decision, Rule
    from embornal.domain.records import record_fields
    from embornal.interfaces.wire import to_wire

    rule = Rule("p", ("alice", "read", "path:/x", "allow"))
    assert record_fields(Point(1)) == ("x", "y") and record_fields(Point) is None
    assert record_fields(Twin(1)) is None
    assert to_wire(Point(1, 2)) == to_wire(Twin(1, 2)) == {"x": 1, "y": 2}
    assert to_wire(Decision(True, rule)) == {"allowed": True, "rule": to_wire(rule)}
