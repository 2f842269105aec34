"""The local-only operations of the catalogue: on the machine that holds the memory.

Purge, the tags of a path, the vectors, the access rules and the tokens. None is an MCP
tool or a REST route (profile ``none``, no ``http``), and in client mode their commands
refuse; the command line is derived from these records (:mod:`.cli.derived`).
:mod:`.catalog` puts :data:`OPERATIONS` in ``CATALOG`` at :data:`PLACE` (decision 0177).
Stdlib-only at import (plain data), as the catalogue.
"""

from __future__ import annotations

from embornal.domain.bounds import MAX_EXPIRY_DAYS, MAX_REINDEX_LIMIT
from embornal.interfaces.catalog_inputs import (
    FACT_ID,
    POLICY_SHAPES,
    REASON,
    cli_switch,
    limit,
    switch,
    topic_path,
)
from embornal.interfaces.catalog_types import Input, Operation, part

__all__ = ["OPERATIONS", "PLACE"]

_PATH = topic_path(
    "The path the tags are on, e.g. /work (the facts below inherit them).", aliases=()
)
_RULE = (
    Input(
        "ptype",
        "choice",
        "p: a permission (SUBJECT OBJECT ACTION [allow|deny]); g: a role (SUBJECT ROLE).",
        True,
        choices=("p", "g"),
        metavar="p|g",
        cli_help="",
    ),
    Input(
        "values",
        "text",
        "The rule's values after its type.",
        True,
        flag="",
        nargs="+",
        metavar="VALUE",
        cli_help="",
    ),
)
_RULE_HELP = "a rule: p SUBJECT OBJECT ACTION [allow|deny], or g SUBJECT ROLE"
_SUBJECT = Input(
    "subject",
    "text",
    "The subject (a person, an assistant or a role).",
    True,
    metavar="SUBJECT",
    cli_help="",
)
_SHARING = "sharing_cmds:"

PLACE = 130
"""Where :data:`OPERATIONS` go in the catalogue: after the cascade's, before portability's."""

OPERATIONS: tuple[Operation, ...] = part(
    "local",
    Operation(
        "purge",
        "PurgeResult",
        (FACT_ID, REASON),
        destructive=True,
        cli="memory purge",
        cli_help="erase a fact's content for good",
        cli_run="memory_cmds:purge",
        cli_args=(cli_switch("yes", "do not ask to confirm", "--yes -y"),),
    ),
    Operation(
        "tag_path",
        "list[Tag]",
        (
            _PATH,
            Input(
                "tags",
                "tags",
                "The tags to put on the path: KEY=VALUE words.",
                True,
                flag="",
                metavar="KEY=VALUE",
                cli_help="",
            ),
        ),
        cli="memory tag",
        cli_help="put tags on a path (facts below inherit them)",
        cli_show="memory_cmds:show_tagged",
        cli_json="memory_cmds:tagged_json",
    ),
    Operation(
        "untag_path",
        "None",
        (
            _PATH,
            Input(
                "keys",
                "text",
                "The keys of the tags to take off the path.",
                True,
                flag="",
                nargs="+",
                metavar="KEY",
                cli_help="",
            ),
        ),
        cli="memory untag",
        cli_help="remove tags from a path",
        cli_show="memory_cmds:show_untagged",
        cli_json="memory_cmds:untagged_json",
    ),
    Operation(
        "path_tags",
        "list[Tag]",
        (_PATH,),
        cli="memory path-tags",
        cli_help="the tags a fact you store at a path inherits from it and the paths above",
    ),
    Operation(
        "reindex",
        "ReindexResult",
        (
            limit(
                "How many facts to embed at most.",
                "embed at most N facts",
                aliases=(),
                high=MAX_REINDEX_LIMIT,
            ),
            switch(
                "everything",
                "Embed every fact again, not only those waiting.",
                "re-embed every fact, not only pending",
                flag="--all",
            ),
        ),
        cli="memory reindex",
        cli_help="give a vector to each fact that waits for one",
        cli_doc="Embed the facts stored while no model was there (or when it failed) "
        "with the\nembedding model of config.yaml. --all embeds every fact again (after "
        "a model\nchange). A progress line shows on stderr when it is a terminal.",
        cli_run="memory_cmds:reindex",
        cli_show="memory_cmds:show_reindexed",
    ),
    Operation(
        "policies",
        "list[Rule]",
        read_only=True,
        cli="policy ls",
        cli_help="list every rule",
        cli_show=_SHARING + "show_rules",
        cli_json=_SHARING + "rules_json",
    ),
    Operation(
        "policy_add",
        "Rule",
        _RULE,
        cli="policy add",
        cli_help=f"add {_RULE_HELP}",
        cli_doc=f"Add one rule.\n\n{POLICY_SHAPES}",
        cli_show=_SHARING + "show_added",
        cli_json=_SHARING + "rule_json",
    ),
    Operation(
        "policy_remove",
        "Rule",
        _RULE,
        destructive=True,
        cli="policy rm",
        cli_help=f"remove {_RULE_HELP}",
        cli_doc=f"Remove one rule.\n\n{POLICY_SHAPES}",
        cli_show=_SHARING + "show_removed",
        cli_json=_SHARING + "rule_json",
    ),
    Operation(
        "narrow_token_rules",
        "list[Rule]",
        cli="policy narrow-tokens",
        cli_help="let older tokens store anywhere but change only their own facts",
        cli_doc="Each subject that holds the rules an older `token add` gave (its own "
        "facts and\nwrite on path:/*) gets create on path:/* in place of that write: it "
        "still\nstores anywhere, and no longer pins, weights or expires other owners' "
        "facts.\nRules a person wrote are left as they are. Prints the rules added.",
        cli_show=_SHARING + "show_rules",
        cli_json=_SHARING + "rules_json",
    ),
    Operation(
        "policy_check",
        "PolicyCheck",
        (
            _SUBJECT,
            Input(
                "action",
                "choice",
                "What the subject would do.",
                True,
                choices=("read", "write", "create", "delete"),
                metavar="ACTION",
                cli_help="",
            ),
            Input(
                "target",
                "text",
                "A path (a new fact there) or a fact id.",
                True,
                metavar="TARGET",
                cli_help="",
            ),
        ),
        read_only=True,
        cli="policy check",
        cli_help="would SUBJECT be allowed ACTION on TARGET? and which rule decides",
        cli_doc="Print allow or deny and the rule that decided (or 'no rule matched')."
        "\nTARGET is a path (a new fact there) or a fact id. Exit 0 either way.",
        cli_show=_SHARING + "show_check",
        cli_json=_SHARING + "check_json",
    ),
    Operation(
        "token_add",
        "NewToken",
        (
            _SUBJECT,
            Input(
                "name",
                "text",
                "A label, e.g. the machine it is for.",
                metavar="TEXT",
                cli_help="a label, e.g. the machine it is for",
            ),
            Input(
                "expires_in_days",
                "days",
                "Expire after this many days (default: never).",
                high=MAX_EXPIRY_DAYS,
                flag="--expires-in",
                metavar="DAYS",
                cli_help=f"expire after DAYS, at most {MAX_EXPIRY_DAYS} (default: never)",
            ),
            switch(
                "rules",
                "Also add the rules of the default set the subject lacks.",
                "add no rules for SUBJECT",
                default=True,
            ),
            switch(
                "person",
                "A person holds the token, not an assistant.",
                "a person holds it: it decides proposals, reads "
                "its private facts (default: an assistant)",
            ),
        ),
        cli="token add",
        cli_help="issue a token for SUBJECT (shown once)",
        cli_doc="Issue a bearer token for SUBJECT and print it, this once: only its hash "
        "is\nstored. Unless --no-rules, SUBJECT also gets the rules it lacks of the "
        "default\nset: its own facts (read, write, delete), storing anywhere (create), "
        "public reads.\nThe token is an assistant's unless --person: what it writes is "
        "recorded with that\nactor kind, and a person's token decides proposals and "
        "conflicts (REST and the\npages of `embornal serve`) with SUBJECT's rights.",
        cli_run=_SHARING + "token_add",
        cli_show=_SHARING + "show_token",
        cli_json=_SHARING + "new_token_json",
    ),
    Operation(
        "tokens",
        "list[TokenInfo]",
        (
            switch(
                "include_inactive",
                "Include revoked and expired tokens.",
                "include revoked and expired tokens",
                flag="--all",
            ),
        ),
        read_only=True,
        cli="token ls",
        cli_help="list tokens (never the tokens themselves)",
        cli_show=_SHARING + "show_tokens",
        cli_json=_SHARING + "tokens_json",
    ),
    Operation(
        "token_revoke",
        "TokenInfo",
        (
            Input(
                "token_id",
                "text",
                "The token's id (a unique prefix is enough) or the token itself.",
                True,
                metavar="ID|TOKEN",
                cli_help="",
            ),
        ),
        destructive=True,
        cli="token revoke",
        cli_help="revoke a token at once",
        cli_doc="Revoke the token with this ID (a unique prefix is enough), or the token"
        "\nitself (it names its id). The subject's rules stay: see `embornal policy`.",
        cli_show=_SHARING + "show_revoked",
        cli_json=_SHARING + "token_json",
    ),
)
