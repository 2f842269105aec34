"""Tests for embornal.adapters.dirs: directory resolution and the legacy move."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from embornal.adapters.dirs import (
    Dirs,
    Moved,
    Places,
    absolute_path,
    default_dirs,
    default_places,
    ensure_dir,
    expand_user,
    home_dir,
    legacy_dir,
    legacy_may_exist,
    migrate_legacy,
    path_text,
    resolve_dirs,
    resolve_places,
)
from embornal.errors import ConfigError

HOME = Path("/home/ada")


# --------------------------------------------------------------------------- resolve


def test_linux_without_xdg_falls_back_to_home() -> None:
    dirs = resolve_dirs({}, "linux", HOME)
    assert dirs == Dirs(
        HOME / ".config" / "embornal",
        HOME / ".local" / "share" / "embornal",
        HOME / ".cache" / "embornal",
    )


def test_files_live_in_their_directories() -> None:
    dirs = resolve_dirs({}, "linux", HOME)
    assert dirs.config_file == HOME / ".config" / "embornal" / "config.yaml"
    assert dirs.db_file == HOME / ".local" / "share" / "embornal" / "memory.db"


def test_xdg_variables_are_read() -> None:
    env = {"XDG_CONFIG_HOME": "/x/conf", "XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache"}
    dirs = resolve_dirs(env, "linux", HOME)
    assert dirs == Dirs(
        Path("/x/conf/embornal"), Path("/x/data/embornal"), Path("/x/cache/embornal")
    )


def test_xdg_variables_are_independent() -> None:
    dirs = resolve_dirs({"XDG_DATA_HOME": "/x/data"}, "linux", HOME)
    assert dirs.config_dir == HOME / ".config" / "embornal"
    assert dirs.data_dir == Path("/x/data/embornal")
    assert dirs.cache_dir == HOME / ".cache" / "embornal"


def test_empty_xdg_variable_counts_as_unset() -> None:
    env = {"XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "XDG_CACHE_HOME": ""}
    assert resolve_dirs(env, "linux", HOME) == resolve_dirs({}, "linux", HOME)


def test_relative_xdg_variable_is_ignored() -> None:
    dirs = resolve_dirs({"XDG_CONFIG_HOME": "relative/conf"}, "linux", HOME)
    assert dirs.config_dir == HOME / ".config" / "embornal"


def test_tilde_in_xdg_variable_expands_against_home() -> None:
    dirs = resolve_dirs({"XDG_CACHE_HOME": "~/tmp/cache"}, "linux", HOME)
    assert dirs.cache_dir == HOME / "tmp" / "cache" / "embornal"


def test_macos_uses_library_and_reads_no_xdg_variable() -> None:
    env = {"XDG_CONFIG_HOME": "/x/conf", "XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache"}
    dirs = resolve_dirs(env, "darwin", HOME)
    support = HOME / "Library" / "Application Support" / "embornal"
    assert dirs == Dirs(support, support, HOME / "Library" / "Caches" / "embornal")
    assert dirs.config_file == support / "config.yaml"
    assert dirs.db_file == support / "memory.db"


@pytest.mark.parametrize("platform", ["linux", "darwin", "freebsd14"])
def test_embornal_home_puts_the_three_in_one_directory(platform: str) -> None:
    env = {"EMBORNAL_HOME": "/srv/mem", "XDG_DATA_HOME": "/x/data"}
    dirs = resolve_dirs(env, platform, HOME)
    assert dirs == Dirs(Path("/srv/mem"), Path("/srv/mem"), Path("/srv/mem"))
    assert dirs.db_file == Path("/srv/mem/memory.db")


def test_embornal_home_expands_tilde() -> None:
    assert resolve_dirs({"EMBORNAL_HOME": "~/mem"}, "linux", HOME).data_dir == HOME / "mem"


def test_empty_embornal_home_counts_as_unset() -> None:
    assert resolve_dirs({"EMBORNAL_HOME": ""}, "linux", HOME) == resolve_dirs({}, "linux", HOME)


def test_relative_embornal_home_is_an_error() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_dirs({"EMBORNAL_HOME": "mem"}, "linux", HOME)
    assert "EMBORNAL_HOME" in info.value.message
    assert info.value.hint


def test_default_dirs_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBORNAL_HOME", "/srv/from-env")
    assert default_dirs() == resolve_dirs(os.environ, sys.platform, Path.home())
    assert default_dirs().data_dir == Path("/srv/from-env")


# --------------------------------------------------------------------------- as text

#: Spellings of a path that pathlib writes otherwise (slashes, ``.``, ``..``, ``~``).
SPELLINGS = [
    "",
    ".",
    "./",
    "/",
    "//",
    "///",
    "////a",
    "//a//b/",
    "a",
    "a/",
    "a//b/./c/.",
    "./a/../b",
    "/x/../y/",
    "~",
    "~/",
    "~//a",
    "~/a/b/",
    "./~/a",
    "a/~",
    "~root/x",
    "sqlite:///tmp/x.db",
    ":memory:",
    "/home/ada/Library/Application Support/embornal",
]


@pytest.mark.parametrize("text", SPELLINGS)
def test_path_text_is_how_pathlib_writes_a_path(text: str) -> None:
    assert path_text(text) == str(Path(text))


@pytest.mark.parametrize("text", SPELLINGS)
@pytest.mark.parametrize("home", ["/home/ada", "/home/ada/", "//net/ada", "/"])
def test_expand_user_and_absolute_path_are_pathlibs(
    text: str, home: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", home)
    monkeypatch.chdir(tmp_path)
    assert expand_user(text) == str(Path(text).expanduser())
    assert absolute_path(expand_user(text)) == str(Path(text).expanduser().absolute())
    assert home_dir() == str(Path.home())


def test_an_unknown_home_is_pathlibs_error() -> None:
    with pytest.raises(RuntimeError) as pathlibs:
        Path("~no-such-user-here/x").expanduser()
    with pytest.raises(RuntimeError) as ours:
        expand_user("~no-such-user-here/x")
    assert str(ours.value) == str(pathlibs.value)


#: Environments whose values pathlib spells otherwise: each directory is read as before.
ENVIRONMENTS = [
    {},
    {"XDG_CONFIG_HOME": "/x/conf/", "XDG_DATA_HOME": "//x//data/./", "XDG_CACHE_HOME": "~/"},
    {"XDG_CONFIG_HOME": "~//abs", "XDG_DATA_HOME": "~", "XDG_CACHE_HOME": "./rel"},
    {"XDG_DATA_HOME": "/x/../data", "XDG_CACHE_HOME": "~/a/./b//"},
    {"EMBORNAL_HOME": "/srv//mem/"},
    {"EMBORNAL_HOME": "~/"},
    {"EMBORNAL_HOME": "///srv/mem/."},
]


def _pathlibs(env: dict[str, str], platform: str, home: Path) -> Dirs:
    """The directories as pathlib works them out, the way :func:`resolve_dirs` did."""

    def value(name: str) -> Path | None:
        raw = env.get(name, "")
        if not raw:
            return None
        return home if raw == "~" else home / raw[2:] if raw.startswith("~/") else Path(raw)

    own = value("EMBORNAL_HOME")
    if own is not None:
        return Dirs(own, own, own)
    if platform == "darwin":
        support = home / "Library" / "Application Support" / "embornal"
        return Dirs(support, support, home / "Library" / "Caches" / "embornal")

    def base(name: str, fallback: Path) -> Path:
        got = value(name)
        return got if got is not None and got.is_absolute() else fallback

    return Dirs(
        base("XDG_CONFIG_HOME", home / ".config") / "embornal",
        base("XDG_DATA_HOME", home / ".local" / "share") / "embornal",
        base("XDG_CACHE_HOME", home / ".cache") / "embornal",
    )


@pytest.mark.parametrize("env", ENVIRONMENTS)
@pytest.mark.parametrize("platform", ["linux", "darwin"])
@pytest.mark.parametrize("home", [HOME, Path("/home/ada/"), Path("//net/ada"), Path("/")])
def test_places_are_the_dirs_as_pathlib_writes_them(
    env: dict[str, str], platform: str, home: Path
) -> None:
    places = resolve_places(env, platform, str(home))
    dirs = resolve_dirs(env, platform, home)
    assert dirs == _pathlibs(env, platform, home)
    assert places == Places(str(dirs.config_dir), str(dirs.data_dir), str(dirs.cache_dir))
    assert places.config_file == str(dirs.config_file)
    assert places.db_file == str(dirs.db_file)
    assert places.dirs() == dirs


def test_default_places_read_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBORNAL_HOME", "/srv/from-env/")
    assert default_places() == resolve_places(os.environ, sys.platform, str(Path.home()))
    assert default_places().db_file == "/srv/from-env/memory.db"


def test_legacy_may_exist_only_when_it_may(tmp_path: Path) -> None:
    assert not legacy_may_exist(str(tmp_path))
    (tmp_path / ".embornal").write_text("a file", encoding="utf-8")
    assert not legacy_may_exist(str(tmp_path))
    assert not legacy_may_exist(str(tmp_path / ".embornal"))  # under a file
    (tmp_path / ".embornal").unlink()
    (tmp_path / ".embornal").mkdir()
    assert legacy_may_exist(str(tmp_path))


def test_dirs_is_frozen() -> None:
    dirs = resolve_dirs({}, "linux", HOME)
    with pytest.raises(AttributeError):
        dirs.data_dir = Path("/elsewhere")  # type: ignore[misc]


# --------------------------------------------------------------------------- ensure_dir


def test_ensure_dir_creates_parents(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "embornal"
    assert ensure_dir(target) == target
    assert target.is_dir()
    assert ensure_dir(target) == target  # idempotent


def test_ensure_dir_fails_when_a_file_is_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(ConfigError) as info:
        ensure_dir(tmp_path / "blocker")
    assert "blocker" in info.value.message
    assert info.value.hint


def test_ensure_dir_fails_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(ConfigError) as info:
        ensure_dir(tmp_path / "blocker" / "embornal")
    assert info.value.hint


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX permissions, non-root"
)
def test_ensure_dir_fails_in_a_read_only_parent(tmp_path: Path) -> None:
    parent = tmp_path / "ro"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        with pytest.raises(ConfigError) as info:
            ensure_dir(parent / "embornal")
        assert "cannot create directory" in info.value.message
        assert info.value.hint
    finally:
        parent.chmod(0o700)


# --------------------------------------------------------------------------- migrate


def _xdg(home: Path) -> Dirs:
    return resolve_dirs({}, "linux", home)


def test_legacy_dir_is_dot_embornal_in_home(tmp_path: Path) -> None:
    assert legacy_dir(tmp_path) == tmp_path / ".embornal"


def test_no_legacy_directory_moves_nothing(tmp_path: Path) -> None:
    dirs = _xdg(tmp_path)
    assert migrate_legacy(dirs, tmp_path) == []
    assert not dirs.config_dir.exists()
    assert not dirs.data_dir.exists()


def test_legacy_files_move_into_empty_places(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "config.yaml").write_text("recall:\n  limit: 3\n")
    (old / "memory.db").write_bytes(b"db")
    dirs = _xdg(tmp_path)

    moved = migrate_legacy(dirs, tmp_path)

    assert moved == [
        Moved("config.yaml", old / "config.yaml", dirs.config_file),
        Moved("memory.db", old / "memory.db", dirs.db_file),
    ]
    assert dirs.config_file.read_text() == "recall:\n  limit: 3\n"
    assert dirs.db_file.read_bytes() == b"db"
    assert not (old / "config.yaml").exists()
    assert not (old / "memory.db").exists()


def test_wal_and_shm_move_with_the_database(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    for name in ("memory.db", "memory.db-wal", "memory.db-shm"):
        (old / name).write_bytes(name.encode())
    dirs = _xdg(tmp_path)

    moved = migrate_legacy(dirs, tmp_path)

    assert [m.name for m in moved] == ["memory.db", "memory.db-wal", "memory.db-shm"]
    for name in ("memory.db", "memory.db-wal", "memory.db-shm"):
        assert (dirs.data_dir / name).read_bytes() == name.encode()
        assert not (old / name).exists()


def test_only_present_companions_move(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "memory.db").write_bytes(b"db")
    (old / "memory.db-wal").write_bytes(b"wal")
    dirs = _xdg(tmp_path)

    assert [m.name for m in migrate_legacy(dirs, tmp_path)] == ["memory.db", "memory.db-wal"]
    assert not (dirs.data_dir / "memory.db-shm").exists()


def test_weights_and_other_files_stay(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    (old / "models" / "bge").mkdir(parents=True)
    (old / "models" / "bge" / "model.onnx").write_bytes(b"weights")
    (old / "notes.txt").write_text("keep")
    (old / "memory.db").write_bytes(b"db")
    dirs = _xdg(tmp_path)

    assert [m.name for m in migrate_legacy(dirs, tmp_path)] == ["memory.db"]
    assert (old / "models" / "bge" / "model.onnx").read_bytes() == b"weights"
    assert (old / "notes.txt").read_text() == "keep"
    assert not dirs.cache_dir.exists()
    assert old.is_dir()


def test_no_move_when_the_new_place_holds_a_file(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "config.yaml").write_text("old config")
    (old / "memory.db").write_bytes(b"old db")
    dirs = _xdg(tmp_path)
    dirs.config_dir.mkdir(parents=True)
    dirs.data_dir.mkdir(parents=True)
    dirs.config_file.write_text("new config")
    dirs.db_file.write_bytes(b"new db")

    assert migrate_legacy(dirs, tmp_path) == []
    assert dirs.config_file.read_text() == "new config"
    assert dirs.db_file.read_bytes() == b"new db"
    assert (old / "config.yaml").read_text() == "old config"
    assert (old / "memory.db").read_bytes() == b"old db"


def test_each_file_is_judged_on_its_own(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "config.yaml").write_text("old config")
    (old / "memory.db").write_bytes(b"old db")
    dirs = _xdg(tmp_path)
    dirs.data_dir.mkdir(parents=True)
    dirs.db_file.write_bytes(b"new db")

    moved = migrate_legacy(dirs, tmp_path)

    assert [m.name for m in moved] == ["config.yaml"]
    assert dirs.config_file.read_text() == "old config"
    assert dirs.db_file.read_bytes() == b"new db"
    assert (old / "memory.db").read_bytes() == b"old db"


@pytest.mark.parametrize("leftover", ["memory.db-wal", "memory.db-shm"])
def test_a_companion_in_the_new_place_blocks_the_database(tmp_path: Path, leftover: str) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "memory.db").write_bytes(b"old db")
    (old / "memory.db-wal").write_bytes(b"old wal")
    dirs = _xdg(tmp_path)
    dirs.data_dir.mkdir(parents=True)
    (dirs.data_dir / leftover).write_bytes(b"stale")

    assert migrate_legacy(dirs, tmp_path) == []
    assert (old / "memory.db").read_bytes() == b"old db"
    assert (old / "memory.db-wal").read_bytes() == b"old wal"
    assert not dirs.db_file.exists()


def test_companions_without_a_database_do_not_move(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "memory.db-wal").write_bytes(b"orphan")
    dirs = _xdg(tmp_path)

    assert migrate_legacy(dirs, tmp_path) == []
    assert (old / "memory.db-wal").exists()


def test_second_run_moves_nothing(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "config.yaml").write_text("c")
    (old / "memory.db").write_bytes(b"db")
    dirs = _xdg(tmp_path)

    assert len(migrate_legacy(dirs, tmp_path)) == 2
    assert migrate_legacy(dirs, tmp_path) == []


def test_embornal_home_on_the_legacy_directory_moves_nothing(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "config.yaml").write_text("c")
    (old / "memory.db").write_bytes(b"db")
    dirs = resolve_dirs({"EMBORNAL_HOME": str(old)}, "linux", tmp_path)

    assert migrate_legacy(dirs, tmp_path) == []
    assert (old / "config.yaml").read_text() == "c"
    assert (old / "memory.db").read_bytes() == b"db"


def test_migrate_to_macos_layout(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "config.yaml").write_text("c")
    (old / "memory.db").write_bytes(b"db")
    dirs = resolve_dirs({}, "darwin", tmp_path)

    moved = migrate_legacy(dirs, tmp_path)

    support = tmp_path / "Library" / "Application Support" / "embornal"
    assert [m.destination for m in moved] == [support / "config.yaml", support / "memory.db"]
    assert (support / "memory.db").read_bytes() == b"db"


def test_migrate_raises_config_error_when_the_target_cannot_be_created(tmp_path: Path) -> None:
    old = legacy_dir(tmp_path)
    old.mkdir()
    (old / "memory.db").write_bytes(b"db")
    (tmp_path / "blocked").write_text("a file, not a directory")
    dirs = resolve_dirs({"EMBORNAL_HOME": str(tmp_path / "blocked" / "mem")}, "linux", tmp_path)

    with pytest.raises(ConfigError) as info:
        migrate_legacy(dirs, tmp_path)
    assert info.value.hint
    assert (old / "memory.db").read_bytes() == b"db"
