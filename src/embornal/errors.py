"""The one exception root of embornal, and its tree.

Every error the package raises on purpose derives from :class:`EmbornalError`.
Each boundary translates it: storage turns driver errors into ours
(``raise StorageError(...) from e``); the CLI prints one line and exits with
``exit_code``; MCP returns ``{error, message, hint}``; HTTP returns
problem+json with ``http_status``.

::

    EmbornalError                      exit 1
    ├── InvalidInput                   exit 2   bad argument from the caller
    │   ├── InvalidPath
    │   ├── InvalidTag
    │   │   └── OwnerTagForbidden
    │   ├── InvalidContent
    │   ├── InvalidSubject
    │   ├── InvalidTime
    │   ├── AmbiguousId
    │   ├── MalformedId                          text that cannot be an id (invalid_input)
    │   ├── InvalidKind                          no such kind of memory
    │   ├── InvalidAttribute                     an attribute breaks its kind's schema
    │   ├── InvalidEvidence
    │   ├── InvalidConfidence
    │   ├── InvalidLifetime
    │   ├── InvalidVisibility
    │   ├── ExtractorNotConfigured               ingest --extractor llm with no model set
    │   ├── InvalidImportance
    │   ├── InvalidLink                          a relation, a self-link, an emit rule
    │   ├── InvalidMerge                         a merge of different kinds, into itself
    │   └── InvalidImport                        a file to import breaks its format (names the line)
    ├── NotFound                       exit 3   no such fact or path (or hidden)
    ├── Conflict                       exit 4   the state forbids the change
    │   ├── ConcurrencyError                    a stream moved under us
    │   ├── ProtocolViolation                    the history protocol refuses (promote first…)
    │   │   └── GateRefusal                      …by the corroboration gate (recorded)
    │   ├── ProposalChanged                      a proposal changed since the version approved
    │   └── NotUndoable                          no undo for this event (a purge, …)
    ├── AccessDenied                   exit 5   the subject may not do this
    │   └── Unauthenticated                      no, bad, expired or revoked token
    ├── ConfigError                    exit 6   config or directories unusable
    │   ├── VectorWidthMismatch
    │   ├── EmbeddingError
    │   │   └── RerankerError                    the cross-encoder cannot load or run
    │   └── ExtractorError                       the ingest model failed (HTTP 502)
    ├── StorageError                   exit 7   the database failed
    │   ├── DatabaseBusy
    │   ├── MigrationError
    │   └── UnreadableEvent                      an event type or version this build lacks
    └── VerificationFailed             exit 8   projections differ from the log

``code`` is a stable machine name (``invalid_path``), ``message`` says what
happened, ``hint`` says what to do next.
"""

from __future__ import annotations

__all__ = [
    "SERVER_BUG_HINT",
    "AccessDenied",
    "AmbiguousId",
    "ConcurrencyError",
    "ConfigError",
    "Conflict",
    "DatabaseBusy",
    "EmbeddingError",
    "EmbornalError",
    "ExtractorError",
    "ExtractorNotConfigured",
    "GateRefusal",
    "InvalidAttribute",
    "InvalidConfidence",
    "InvalidContent",
    "InvalidEvidence",
    "InvalidImport",
    "InvalidImportance",
    "InvalidInput",
    "InvalidKind",
    "InvalidLifetime",
    "InvalidLink",
    "InvalidMerge",
    "InvalidPath",
    "InvalidSubject",
    "InvalidTag",
    "InvalidTime",
    "InvalidVisibility",
    "MalformedId",
    "MigrationError",
    "NotFound",
    "NotUndoable",
    "OwnerTagForbidden",
    "ProposalChanged",
    "ProtocolViolation",
    "RerankerError",
    "StorageError",
    "Unauthenticated",
    "UnreadableEvent",
    "VectorWidthMismatch",
    "VerificationFailed",
]

SERVER_BUG_HINT = "This is a bug in embornal; the server log has the details."
"""What a server answers to do about a failure it did not raise on purpose (REST, MCP)."""


class EmbornalError(Exception):
    """Root of every error embornal raises on purpose."""

    code = "error"
    exit_code = 1
    http_status = 500
    default_hint = ""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint if hint is not None else self.default_hint

    def to_dict(self) -> dict[str, str]:
        """The ``{error, message, hint}`` shape used by MCP and ``--json``."""
        return {"error": self.code, "message": self.message, "hint": self.hint}


class InvalidInput(EmbornalError):
    code = "invalid_input"
    exit_code = 2
    http_status = 400


class InvalidPath(InvalidInput):
    code = "invalid_path"
    default_hint = (
        "Paths look like /projects/embornal: segments start with a letter or digit "
        "and hold letters, digits, '.', '_' and '-'."
    )


class InvalidTag(InvalidInput):
    code = "invalid_tag"
    default_hint = "Tags are key=value, for example visibility=public."


class OwnerTagForbidden(InvalidTag):
    code = "owner_tag_forbidden"
    default_hint = "Drop the owner tag: the memory writes the owner of each fact itself."


class InvalidContent(InvalidInput):
    code = "invalid_content"


class InvalidSubject(InvalidInput):
    code = "invalid_subject"
    default_hint = "A subject name holds no space, '=' or ','."


class InvalidTime(InvalidInput):
    code = "invalid_time"
    default_hint = "Give an ISO-8601 time such as 2026-11-30T14:00:00Z."


class AmbiguousId(InvalidInput):
    code = "ambiguous_id"
    default_hint = "Give more characters of the id."


class MalformedId(InvalidInput):
    """Text that cannot be an id at all (its code stays ``invalid_input``); ``embornal mcp
    --compat memory-as-history`` answers it as a missing memory (decision 0155)."""


class InvalidKind(InvalidInput):
    code = "invalid_kind"
    default_hint = "The kind of a memory is one of the registered kinds; the default is fact."


class InvalidAttribute(InvalidInput):
    code = "invalid_attribute"
    default_hint = "Each kind has its own attributes; the message names the allowed ones."


class InvalidEvidence(InvalidInput):
    code = "invalid_evidence"
    default_hint = (
        "Evidence is a type (quote, uri, conversation, document or observation), "
        "a value and an optional note."
    )


class InvalidConfidence(InvalidInput):
    code = "invalid_confidence"
    default_hint = "Confidence is a number from 0 to 1, for example 0.8."


class InvalidLifetime(InvalidInput):
    code = "invalid_lifetime"
    default_hint = "A lifetime is permanent, standard, ephemeral or until:YYYY-MM-DD (not past)."


class InvalidVisibility(InvalidInput):
    code = "invalid_visibility"
    default_hint = "Visibility is shared, private or restricted:alice,bob."


class InvalidImportance(InvalidInput):
    code = "invalid_importance"
    default_hint = "Importance is a pinned flag and an optional user weight from 0 to 1."


class InvalidLink(InvalidInput):
    code = "invalid_link"
    default_hint = (
        "A link is SOURCE RELATION TARGET; the relations are about, involves, part_of, "
        "owned_by, works_at, located_in, relates_to, supersedes, derived_from, contradicts."
    )


class InvalidMerge(InvalidInput):
    code = "invalid_merge"
    default_hint = "Merge two active facts of the same kind: SURVIVOR SOURCE --reason."


class InvalidImport(InvalidInput):
    """A file to import breaks its format: the message names the line (or file); nothing
    was imported."""

    code = "invalid_import"
    default_hint = "Import a file that `embornal export` wrote; nothing was imported."


class NotFound(EmbornalError):
    code = "not_found"
    exit_code = 3
    http_status = 404


class Conflict(EmbornalError):
    code = "conflict"
    exit_code = 4
    http_status = 409


class ConcurrencyError(Conflict):
    code = "concurrency_conflict"
    default_hint = "Another writer changed the same fact; read it again and retry."


class ProtocolViolation(Conflict):
    """The history protocol refuses the call as made (pin working material, forget an
    anchor, ask for testimony at capture…); the hint names the call that fixes it
    (decision 0065)."""

    code = "protocol_violation"


class GateRefusal(ProtocolViolation):
    """The corroboration gate refuses a pin or canonize of a security-sensitive memory
    without independent corroboration; the attempt is recorded (decision 0142)."""


class ProposalChanged(Conflict):
    """An approval (or an edit) named the version of the proposal its approver was shown,
    and the proposal was edited since: nothing is applied; the hint says to read it again."""

    code = "proposal_changed"


class NotUndoable(Conflict):
    """The event cannot be undone: a purge, or what it did was changed by a later event
    (the message names it) (decision 0043)."""

    code = "not_undoable"


class AccessDenied(EmbornalError):
    code = "access_denied"
    exit_code = 5
    http_status = 403


class Unauthenticated(AccessDenied):
    code = "unauthenticated"
    http_status = 401
    default_hint = "Send a valid token: Authorization: Bearer <token> (see `embornal token add`)."


class ConfigError(EmbornalError):
    code = "config_error"
    exit_code = 6
    http_status = 500


class VectorWidthMismatch(ConfigError):
    code = "vector_width_mismatch"


class EmbeddingError(ConfigError):
    code = "embedding_error"


class RerankerError(EmbeddingError):
    """The cross-encoder reranker cannot load or run (decision 0115)."""

    code = "reranker_error"


class ExtractorError(ConfigError):
    code = "extractor_error"
    http_status = 502


class ExtractorNotConfigured(InvalidInput):
    code = "extractor_not_configured"


class StorageError(EmbornalError):
    code = "storage_error"
    exit_code = 7
    http_status = 503


class DatabaseBusy(StorageError):
    code = "database_busy"
    default_hint = "Another process holds the database; retry in a moment."


class MigrationError(StorageError):
    code = "migration_error"


class UnreadableEvent(StorageError):
    """The log holds an event this build cannot read: an unknown type, a newer schema
    version, or a payload its class cannot decode."""

    code = "unreadable_event"
    default_hint = "Open the memory with the newer embornal that wrote it."


class VerificationFailed(EmbornalError):
    code = "verification_failed"
    exit_code = 8
    default_hint = "Run `embornal admin rebuild` to replay the projections from the event log."
