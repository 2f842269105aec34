"""``embornal.lazy``: the one way an import is put off (decision 0183)."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from embornal.lazy import Later, exports

PACKAGE = "embornal_lazy_probe"


@pytest.fixture
def package() -> Iterator[types.ModuleType]:
    """A module made for the test, standing for a package that re-exports names."""
    module = types.ModuleType(PACKAGE)
    sys.modules[PACKAGE] = module
    yield module
    del sys.modules[PACKAGE]


def test_a_name_is_imported_on_first_read_and_kept(package: types.ModuleType) -> None:
    getattr_, dir_ = exports(PACKAGE, {"dedent": "textwrap", "Later": "embornal.lazy"})
    assert "dedent" not in vars(package)
    import textwrap

    assert getattr_("dedent") is textwrap.dedent
    assert vars(package)["dedent"] is textwrap.dedent  # the next read is a plain attribute
    assert {"dedent", "Later"} <= set(dir_())
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        getattr_("nothing")


def test_a_table_made_on_first_use_is_not_made_for_a_dunder(package: types.ModuleType) -> None:
    made: list[int] = []

    def table() -> dict[str, str]:
        made.append(1)
        return {"dedent": "textwrap"}

    getattr_, _ = exports(PACKAGE, table)
    with pytest.raises(AttributeError):
        getattr_("__path__")
    assert made == []
    assert getattr_("dedent").__name__ == "dedent"
    assert made == [1]


def test_a_submodule_is_named_from_its_package() -> None:
    getattr_, _ = exports("embornal.domain.events", {"FactStored": ".types"})
    from embornal.domain.events.types import FactStored

    assert getattr_("FactStored") is FactStored


def test_later_imports_its_module_on_the_first_attribute_read() -> None:
    name = "embornal.storage.sqlite.access_reads"
    was = sys.modules.pop(name, None)
    try:
        later = Later(name)
        assert name not in sys.modules
        assert callable(later.inherited_path_tags)
        assert name in sys.modules
        assert repr(later) == f"Later({name!r})"
    finally:
        if was is not None:
            sys.modules[name] = was
