"""Where embornal keeps its files, and the move out of the old ``~/.embornal``.

Three directories hold the files of a memory:

* the **config dir** holds ``config.yaml``;
* the **data dir** holds ``memory.db`` (and its ``-wal``/``-shm`` companions);
  a backup must hold this file;
* the **cache dir** holds model weights.

Resolution (see :func:`resolve_dirs`), first match wins:

1. ``EMBORNAL_HOME`` puts the three in one directory.
2. On macOS (``sys.platform == "darwin"``) no XDG variable is read: config and data
   go to ``~/Library/Application Support/embornal``, weights to
   ``~/Library/Caches/embornal``.
3. Elsewhere ``XDG_CONFIG_HOME``, ``XDG_DATA_HOME`` and ``XDG_CACHE_HOME`` name the
   bases, falling back to ``~/.config``, ``~/.local/share`` and ``~/.cache``; each
   gets ``/embornal`` appended.

An empty variable counts as unset. A leading ``~`` is expanded against ``home``.
As the XDG spec asks, a relative XDG value is ignored; a relative
``EMBORNAL_HOME`` is an error.

The directories are worked out as text (:func:`resolve_places`, spelt as :mod:`pathlib`
spells a path, by :func:`path_text`): ``memory recall``, ``store`` and ``cat`` read the
config file and open the memory without importing :mod:`pathlib`; :class:`Dirs`, the
same directories as paths, is made for the commands that work with paths.

An older build kept every file in ``$HOME/.embornal``. :func:`migrate_legacy`
moves ``config.yaml`` and ``memory.db`` out of it, only into empty places, and
leaves the weights where they are. Nothing here prints: the caller reports the
returned :class:`Moved` records.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from stat import S_ISDIR

from embornal.domain.records import record
from embornal.errors import ConfigError
from embornal.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "APP_NAME",
    "CONFIG_FILENAME",
    "DB_COMPANION_SUFFIXES",
    "DB_FILENAME",
    "LEGACY_DIRNAME",
    "Dirs",
    "Moved",
    "Places",
    "absolute_path",
    "default_dirs",
    "default_places",
    "ensure_dir",
    "expand_user",
    "home_dir",
    "legacy_dir",
    "legacy_may_exist",
    "migrate_legacy",
    "path_text",
    "resolve_dirs",
    "resolve_places",
]

APP_NAME = "embornal"
CONFIG_FILENAME = "config.yaml"
DB_FILENAME = "memory.db"
#: SQLite files that belong to ``memory.db`` and travel with it.
DB_COMPANION_SUFFIXES = ("-wal", "-shm")
LEGACY_DIRNAME = ".embornal"


@record
class Dirs:
    """The three directories of a memory."""

    config_dir: Path
    data_dir: Path
    cache_dir: Path

    @property
    def config_file(self) -> Path:
        """``config.yaml`` in the config dir."""
        return self.config_dir / CONFIG_FILENAME

    @property
    def db_file(self) -> Path:
        """``memory.db`` in the data dir: the file a backup must hold."""
        return self.data_dir / DB_FILENAME


@record
class Places:
    """The three directories as text, spelt as :class:`Dirs` spells them (``str`` of its
    paths): what a short command reads without importing :mod:`pathlib`."""

    config_dir: str
    data_dir: str
    cache_dir: str

    @property
    def config_file(self) -> str:
        """``config.yaml`` in the config dir."""
        return _joined(self.config_dir, CONFIG_FILENAME)

    @property
    def db_file(self) -> str:
        """``memory.db`` in the data dir."""
        return _joined(self.data_dir, DB_FILENAME)

    def dirs(self) -> Dirs:
        """The same directories as paths."""
        from pathlib import Path

        return Dirs(Path(self.config_dir), Path(self.data_dir), Path(self.cache_dir))


@record
class Moved:
    """One file :func:`migrate_legacy` moved, for the caller to report."""

    name: str
    source: Path
    destination: Path


# --------------------------------------------------------------------------- path text
# A POSIX path's text as :mod:`pathlib` writes it, for the short commands, which do not
# import it (``pathlib`` with ``urllib.parse`` costs each start some 3 ms): a path a
# message shows, or a memory's ``db_path``, reads the same as before.


def path_text(text: str) -> str:
    """``str(Path(text))``: no ``.`` part, no repeated or trailing slash, two leading
    slashes kept (three or more are one), ``.`` for nothing."""
    rest = text.lstrip("/")
    root = "//" if len(text) - len(rest) == 2 else "/" if rest != text else ""
    return root + "/".join(p for p in rest.split("/") if p and p != ".") or "."


def _joined(base: str, name: str) -> str:
    """``str(Path(base) / name)``: an absolute ``name`` replaces ``base``."""
    return path_text(os.path.join(base, name))


def expand_user(text: str) -> str:
    """``str(Path(text).expanduser())``: a first part ``~`` or ``~user`` becomes that home
    directory; RuntimeError when it is unknown, as :mod:`pathlib` raises."""
    path = path_text(text)
    if path[:1] != "~":
        return path
    first, _, rest = path.partition("/")
    home = os.path.expanduser(first)
    if home[:1] == "~":
        raise RuntimeError("Could not determine home directory.")
    return _joined(home, rest)


def absolute_path(text: str) -> str:
    """``str(Path(text).absolute())``: a relative path put under the working directory."""
    path = path_text(text)
    return path if path[:1] == "/" else _joined(os.getcwd(), path)


def home_dir() -> str:
    """``str(Path.home())``."""
    return expand_user("~")


# --------------------------------------------------------------------------- resolve


def _env_path(env: Mapping[str, str], name: str, home: str) -> str | None:
    """The path in ``env[name]`` with ``~`` expanded, or None when unset or empty."""
    raw = env.get(name, "")
    if not raw:
        return None
    if raw == "~":
        return home
    if raw.startswith("~/"):
        return _joined(home, raw[2:])
    return path_text(raw)


def _xdg_base(env: Mapping[str, str], name: str, fallback: str, home: str) -> str:
    """An XDG base directory: the variable if absolute, else ``fallback``."""
    value = _env_path(env, name, home)
    if value is None or not value.startswith("/"):
        return fallback
    return value


def resolve_places(env: Mapping[str, str], platform: str, home: str) -> Places:
    """Work out the three directories from ``env``, ``platform`` and ``home``.

    Pure: reads no global state and touches no file. ``platform`` takes the
    values of :data:`sys.platform` (``"darwin"`` is macOS).

    Raises :class:`ConfigError` when ``EMBORNAL_HOME`` is a relative path.
    """
    home = path_text(home)
    embornal_home = _env_path(env, "EMBORNAL_HOME", home)
    if embornal_home is not None:
        if not embornal_home.startswith("/"):
            raise ConfigError(
                f"EMBORNAL_HOME must be an absolute path, got {env['EMBORNAL_HOME']!r}",
                hint="Set EMBORNAL_HOME to a full path such as /srv/embornal, or unset it.",
            )
        return Places(embornal_home, embornal_home, embornal_home)

    if platform == "darwin":
        library = _joined(home, "Library")
        support = _joined(library, f"Application Support/{APP_NAME}")
        return Places(support, support, _joined(library, f"Caches/{APP_NAME}"))

    config = _xdg_base(env, "XDG_CONFIG_HOME", _joined(home, ".config"), home)
    data = _xdg_base(env, "XDG_DATA_HOME", _joined(home, ".local/share"), home)
    cache = _xdg_base(env, "XDG_CACHE_HOME", _joined(home, ".cache"), home)
    return Places(_joined(config, APP_NAME), _joined(data, APP_NAME), _joined(cache, APP_NAME))


def resolve_dirs(env: Mapping[str, str], platform: str, home: Path) -> Dirs:
    """:func:`resolve_places` as paths."""
    return resolve_places(env, platform, str(home)).dirs()


def default_places() -> Places:
    """The directories of this process: :func:`resolve_places` on the real environment."""
    return resolve_places(os.environ, sys.platform, home_dir())


def default_dirs() -> Dirs:
    """:func:`default_places` as paths."""
    return default_places().dirs()


def legacy_dir(home: Path) -> Path:
    """``$HOME/.embornal``, where an older build kept every file."""
    return home / LEGACY_DIRNAME


def legacy_may_exist(home: str) -> bool:
    """False when ``home`` surely holds no ``.embornal`` directory, so that
    :func:`migrate_legacy` would move nothing; True when it is one, or when looking
    failed otherwise (``migrate_legacy`` then looks again, and raises as it does)."""
    try:
        return S_ISDIR(os.stat(os.path.join(home, LEGACY_DIRNAME)).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True


# --------------------------------------------------------------------------- create


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) if missing; return it.

    New directories get mode 0700, as the XDG spec asks. Raises
    :class:`ConfigError` with a hint when the directory cannot be created.
    """
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except FileExistsError as e:
        raise ConfigError(
            f"cannot create directory {path}: a file is in the way",
            hint=f"Move or delete the file at {path}, or set EMBORNAL_HOME to another directory.",
        ) from e
    except OSError as e:
        raise ConfigError(
            f"cannot create directory {path}: {e.strerror or e}",
            hint="Check the permissions of its parent, or set EMBORNAL_HOME to a writable "
            "directory.",
        ) from e
    return path


# --------------------------------------------------------------------------- migrate


def _occupied(path: Path) -> bool:
    """True when something (even a dangling symlink) sits at ``path``."""
    return path.exists() or path.is_symlink()


def _move(name: str, source: Path, destination: Path) -> Moved:
    """Move one file, translating OS failures into :class:`ConfigError`."""
    try:
        import shutil  # only when there is an old directory to move

        shutil.move(source, destination)
    except OSError as e:
        raise ConfigError(
            f"cannot move {source} to {destination}: {e.strerror or e}",
            hint=f"Move {name} by hand, or fix the permissions and run the command again.",
        ) from e
    return Moved(name, source, destination)


def _migrate_config(old: Path, dirs: Dirs) -> list[Moved]:
    """Move ``config.yaml`` unless the new place already holds one."""
    source = old / CONFIG_FILENAME
    if not source.is_file() or _occupied(dirs.config_file):
        return []
    ensure_dir(dirs.config_dir)
    return [_move(CONFIG_FILENAME, source, dirs.config_file)]


def _migrate_db(old: Path, dirs: Dirs) -> list[Moved]:
    """Move ``memory.db`` with its ``-wal``/``-shm`` companions, as one group.

    The new place counts as empty only when it holds none of the three files, so
    a stale companion never meets a database it does not belong to.
    """
    source = old / DB_FILENAME
    names = [DB_FILENAME] + [DB_FILENAME + s for s in DB_COMPANION_SUFFIXES]
    if not source.is_file() or any(_occupied(dirs.data_dir / n) for n in names):
        return []
    ensure_dir(dirs.data_dir)
    moved = []
    for name in names:  # the database first, then whatever companions exist
        if (old / name).is_file():
            moved.append(_move(name, old / name, dirs.data_dir / name))
    return moved


def migrate_legacy(dirs: Dirs, home: Path) -> list[Moved]:
    """Move ``config.yaml`` and ``memory.db`` out of ``home/.embornal`` into ``dirs``.

    A file moves only when its new place is still empty, so a memory already in
    the new place stays as it is (and the old copy stays too). ``memory.db``
    takes its ``-wal``/``-shm`` companions along. Model weights and any other
    file stay in the old directory, which is never deleted. Target directories
    are created as needed.

    Returns the files moved, in order (empty when there was nothing to do).
    Raises :class:`ConfigError` when a directory cannot be created or a file
    cannot be moved.
    """
    old = legacy_dir(home)
    if not old.is_dir():
        return []
    return _migrate_config(old, dirs) + _migrate_db(old, dirs)
