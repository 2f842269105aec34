"""What every command shares: the parsed options, output, directories, config, memory.

Nothing here runs at import time; the config loader and the service are
imported when a command asks for them, so ``--help`` and ``bootstrap`` stay cheap.
"""

from __future__ import annotations

import argparse
import os
import sys
from stat import S_ISREG

from embornal.errors import ConfigError, EmbornalError, NotFound, VerificationFailed
from embornal.hints import TYPE_CHECKING, Any, TextIO, TypeVar
from embornal.interfaces.cli.envvars import SERVER_URL_ENV, TOKEN_ENV

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from pathlib import Path

    from embornal.adapters.config import Config
    from embornal.adapters.dirs import Dirs, Places
    from embornal.adapters.embeddings.base import EmbeddingProvider
    from embornal.interfaces.api import MemorySettings
    from embornal.interfaces.cli.embedder import Loaded
    from embornal.interfaces.cli.remote import RemoteMemory
    from embornal.service.memory import Memory

__all__ = [
    "ACTOR_KIND_ENV",
    "SERVER_URL_ENV",
    "TOKEN_ENV",
    "Context",
    "DetailedError",
    "tilde",
]

#: Environment variable naming the actor kind of the writes of this run.
ACTOR_KIND_ENV = "EMBORNAL_ACTOR_KIND"
_ACTOR_KINDS = ("person", "assistant")


class DetailedError(VerificationFailed):
    """A verification failure that carries the list of differences for ``--json``."""

    def __init__(self, message: str, details: list[str]) -> None:
        super().__init__(message)
        self.details = details


def tilde(path: Path, home: Path | None = None) -> str:
    """``path`` with the home directory written as ``~`` (for messages)."""
    from pathlib import Path  # ``path`` is one: imported already

    base = home if home is not None else Path.home()
    try:
        rest = path.relative_to(base)
    except ValueError:
        return str(path)
    return "~" if str(rest) == "." else f"~/{rest}"


def _holds_data(path: str) -> bool:
    """True when ``path`` is a file of some bytes: the usual answer, given without
    :mod:`pathlib` (any other answer is asked of it again, as before)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return S_ISREG(info.st_mode) and info.st_size > 0


_Row = TypeVar("_Row")


class Context:
    """One run of the command line: options, streams and lazily loaded state.

    A plain class, not a dataclass: making a dataclass costs start-up time.
    """

    def __init__(
        self, args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
    ) -> None:
        self.args = args
        self.out: TextIO = sys.stdout if out is None else out
        self.err: TextIO = sys.stderr if err is None else err
        self._places: Places | None = None
        self._dirs: Dirs | None = None
        self._config: Config | None = None
        # the environment the configuration is read with (None: the process's)
        self.config_env: Mapping[str, str] | None = None
        self._prepared = False
        self._embedding: Loaded | None = None

    # -- options ------------------------------------------------------------------

    @property
    def json(self) -> bool:
        return bool(getattr(self.args, "json", False))

    @property
    def subject(self) -> str:
        value = getattr(self.args, "as_subject", None)
        return value if value is not None else "default"

    @property
    def actor_kind(self) -> str:
        """``person`` unless ``EMBORNAL_ACTOR_KIND`` says ``assistant`` (an agent's writes)."""
        raw = os.environ.get(ACTOR_KIND_ENV, "").strip().lower()
        if not raw:
            return "person"
        if raw not in _ACTOR_KINDS:
            raise ConfigError(
                f"{ACTOR_KIND_ENV} must be person or assistant, not {raw!r}",
                hint=f"Set {ACTOR_KIND_ENV}=assistant when an agent runs the command, or unset it.",
            )
        return raw

    def opt(self, name: str, default: Any = None) -> Any:
        """The parsed option ``name``, or ``default`` when the command has none."""
        return getattr(self.args, name, default)

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "", *, exact: bool = False) -> None:
        """One block of text on stdout, control characters escaped (line breaks and tabs
        kept); ``exact`` (``--plain``) writes the text as it is."""
        if not exact:
            from embornal.interfaces.cli.render import escape_controls

            text = escape_controls(text)
        self.out.write(text + "\n")

    def note(self, text: str) -> None:
        """One line for the person at the terminal, on stderr (control characters escaped)."""
        from embornal.interfaces.cli.render import escape_controls

        self.err.write(f"embornal: {escape_controls(text, keep='')}\n")

    def warn(self, warnings: Iterable[str]) -> None:
        """Each of ``warnings`` as ``warning: ...`` for the person at the terminal."""
        for warning in warnings:
            self.note(f"warning: {warning}")

    def say_each(
        self, rows: Sequence[_Row], empty: str, show: Callable[[_Row], str | None]
    ) -> None:
        """Each of ``rows`` as ``show`` gives it (the text it returns is said; None: it
        said its own), or ``empty`` when there are none."""
        if not rows:
            self.say(empty)
            return
        for row in rows:
            text = show(row)
            if text is not None:
                self.say(text)

    def emit(self, data: object) -> None:
        """``data`` as JSON on stdout (service objects pass through ``to_jsonable``)."""
        import json

        from embornal.interfaces.cli.render import to_jsonable

        self.out.write(json.dumps(to_jsonable(data), ensure_ascii=False, indent=2) + "\n")

    # -- places -------------------------------------------------------------------

    @property
    def places(self) -> Places:
        """The directories of this run as text: what a short command reads (no pathlib)."""
        if self._places is None:
            from embornal.adapters.dirs import default_places

            self._places = default_places()
        return self._places

    @property
    def dirs(self) -> Dirs:
        """:attr:`places` as paths, for the commands that work with paths."""
        if self._dirs is None:
            self._dirs = self.places.dirs()
        return self._dirs

    def _db(self) -> tuple[str, bool]:
        """:attr:`db_path` as text, and whether it is a file (not a URL given as it is)."""
        given = getattr(self.args, "db", None)
        if given:
            if "://" in str(given):
                return str(given), False
            from embornal.adapters.dirs import absolute_path, expand_user

            return absolute_path(expand_user(str(given))), True
        url = self.config.storage.url
        return (url, False) if url else (self.places.db_file, True)

    @property
    def db_path(self) -> Path | str:
        """``--db`` when given (a file, or a ``postgresql://`` URL as it is), else
        ``storage.url`` (or ``EMBORNAL_DATABASE_URL``), else ``memory.db`` in the data dir."""
        where, file = self._db()
        if not file:
            return where
        from pathlib import Path

        return Path(where)

    def prepare(self) -> None:
        """Move the files of an older build out of ``~/.embornal`` (once), saying which;
        in client mode, refuse the commands that only run where the memory is."""
        if self._prepared:
            return
        self._prepared = True
        from embornal.adapters.dirs import home_dir, legacy_may_exist

        home = home_dir()
        self.places  # noqa: B018 (read for its error: a bad EMBORNAL_HOME stops us here, as ever)
        if legacy_may_exist(home):  # else there is nothing to move, and no path is made
            from pathlib import Path

            from embornal.adapters.dirs import migrate_legacy

            for moved in migrate_legacy(self.dirs, Path(home)):
                self.note(
                    f"moved {tilde(moved.source, Path(home))} to "
                    f"{tilde(moved.destination, Path(home))}"
                )
        self._refuse_local_only()

    # -- client mode ----------------------------------------------------------------

    @property
    def server_url(self) -> str | None:
        """The server of client mode (``EMBORNAL_SERVER_URL``, else ``server.url``).

        None (local mode) when ``--db`` is given or neither is set.
        """
        if getattr(self.args, "db", None):
            return None
        return os.environ.get(SERVER_URL_ENV, "").strip() or self.config.server.url or None

    def _refuse_local_only(self) -> None:
        """In client mode, stop the commands that need the memory's own files (exit 2)."""
        if self.opt("db"):  # --db: local mode, whatever the config says
            return
        try:
            url = self.server_url
        except ConfigError:  # not ours to report: the command reads the config itself
            return
        if url is None:
            return
        from embornal.interfaces.cli.remote import LOCAL_ONLY, local_only

        operation = self.opt("operation")
        if operation is not None:
            from embornal.interfaces.catalog import by_name

            refused = by_name(operation).local_only
        else:
            refused = self.opt("handler") in LOCAL_ONLY
        if refused:
            name = " ".join(str(n) for n in (self.opt("group"), self.opt("command")) if n)
            raise local_only(name, hint="Run it there, or pass --db PATH to use a local memory.")

    @property
    def config(self) -> Config:
        """The configuration in effect (``config.yaml`` of the config dir, env applied)."""
        if self._config is None:
            from embornal.adapters.config import load_config

            self.prepare()  # in client mode, this loads the config already
            if self._config is None:
                self._config = load_config(self.places.config_file, self.config_env)
        return self._config

    def embedder(self, *, strict: bool = False, quiet: bool = False) -> Loaded:
        """The embedding model of ``config.embedding``, loaded once per run.

        Not ``strict``: a model that fails to load prints one warning line (unless
        ``quiet``: the caller reports it) and leaves keyword recall; ``strict``
        raises instead (``memory reindex``).
        """
        if self._embedding is None:
            from embornal.interfaces.cli.embedder import load_embedder

            cfg = self.config.embedding
            shown = None
            if cfg.provider == "onnx":  # the one provider that downloads on first use
                from embornal.interfaces.cli.progress import DownloadProgress

                shown = DownloadProgress(self.err)
            try:
                loaded = load_embedder(cfg, self.places.cache_dir, strict=strict, progress=shown)
            finally:
                if shown is not None:
                    shown.finish()
            for line in () if quiet else loaded.warnings:
                self.note(f"warning: {line}")
            self._embedding = loaded
        return self._embedding

    def may_create(self) -> bool:
        """Whether this run may create the memory it names: a catalogue command unless its
        operation is read-only (the MCP hint of the catalogue); a hand-written command
        unless it opens the memory with ``create=False``."""
        operation = self.opt("operation")
        if operation is None:
            return True
        from embornal.interfaces.catalog import by_name

        return not by_name(operation).read_only

    def require_memory(self) -> None:
        """NotFound (exit 3) when ``--db`` names a file that holds no memory (none, or
        empty): a mistyped path is not made a new memory by a command that only reads.
        The data dir's own memory (no ``--db``) is made on first use (decision 0133)."""
        given = self.opt("db")
        where, file = self._db()
        if not given or not file or _holds_data(where):
            return
        from pathlib import Path

        db = Path(where)
        if db.is_file() and db.stat().st_size:
            return
        raise NotFound(
            f"no memory at {tilde(db)}",
            hint="Check the path; a command that writes creates one there, "
            f"e.g. `embornal --db {tilde(db)} admin migrate`.",
        )

    def open_memory(
        self, *, semantic: bool = False, strict: bool = False, create: bool | None = None
    ) -> Memory:
        """Open the memory for this run, after the legacy move and the config load.

        ``semantic``: the command embeds (store, supersede, a recall by meaning), so
        the embedding model of the config is loaded and handed to the memory.
        ``create``: whether a ``--db`` that holds no memory is made one (default:
        :meth:`may_create`); False refuses it (:meth:`require_memory`).
        """
        self.prepare()
        if not (self.may_create() if create is None else create):
            self.require_memory()
        provider = self.embedder(strict=strict).provider if semantic else None
        from embornal.service.memory import Memory

        return Memory.open(
            self._db()[0],
            subject=self.subject,
            actor_kind=self.actor_kind,
            default_limit=self.config.recall.limit,
            **self.memory_settings(provider),
        )

    def memory_settings(self, provider: EmbeddingProvider | None) -> MemorySettings:
        """What ``Memory.open`` is given from the configuration, here and in the servers
        this runs: the embedding model ``provider`` (None: none) and its width, the
        proposal policy, the ingest settings, the reranker of ``config.rerank``, loaded when
        a recall first asks for it (nothing is imported before), and the fusion settings
        with its ``top``."""
        from embornal.adapters.config import proposal_policy
        from embornal.domain.recall.ranking import FusionSettings

        config = self.config
        cfg, cache = config.rerank, self.places.cache_dir

        def load() -> Any:
            from pathlib import Path

            from embornal.adapters.rerank.factory import build_reranker

            return build_reranker(cfg, Path(cache))

        return {
            "embedder": provider,
            "vector_width": config.embedding.dims if provider is not None else None,
            "proposals": proposal_policy(config.proposals),
            "ingest": config.ingest,
            "reranker": load,
            "fusion": FusionSettings(rerank_top=cfg.top),
        }

    def open_memory_api(
        self, *, semantic: bool = False, strict: bool = False
    ) -> Memory | RemoteMemory:
        """The memory of the memory commands: the server's in client mode (``server.url``
        set, no ``--db``), as the subject of the token; else :meth:`open_memory`.
        """
        self.prepare()
        url = self.server_url
        if url is None:
            return self.open_memory(semantic=semantic, strict=strict)
        from embornal.interfaces.cli.remote import RemoteMemory, read_token

        config = self.config
        token = read_token(config.server, self.dirs.config_dir, os.environ)
        return RemoteMemory.connect(url, token, default_limit=config.recall.limit)

    # -- errors -------------------------------------------------------------------

    def fail(self, err: EmbornalError) -> int:
        """Report ``err`` (one line on stderr; JSON too with ``--json``); return its code."""
        from embornal.interfaces.cli.render import escape_controls

        line = f"embornal: {err.message}"
        if err.hint:
            line += f" (hint: {err.hint})"
        self.err.write(escape_controls(line, keep="") + "\n")
        if self.json:
            import json

            data: dict[str, Any] = dict(err.to_dict())
            if isinstance(err, DetailedError):
                data["details"] = err.details
            self.out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return err.exit_code
