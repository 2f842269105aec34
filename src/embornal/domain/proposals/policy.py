"""Who may decide a proposal besides a person: the configured policy (decision 0055).

Nothing approves itself unless ``config.yaml`` says so: ``auto_approve_kinds`` lets a
proposal whose every item is of one of those kinds approve on arrival, and
``auto_approve_sources`` one whose source label is listed; the rule that did it is
recorded as the approver (``policy:kind=preference``). ``assistants_decide`` lets an
assistant (every MCP caller) approve and reject; by default only a person does.
"""

from __future__ import annotations

from collections.abc import Iterable

from embornal.domain.records import record

__all__ = ["ProposalPolicy"]


@record
class ProposalPolicy:
    auto_approve_kinds: tuple[str, ...] = ()
    auto_approve_sources: tuple[str, ...] = ()
    assistants_decide: bool = False

    def auto_rule(self, source: str | None, kinds: Iterable[str]) -> str | None:
        """The rule that approves a proposal of ``source`` whose items are of ``kinds``
        (None: none does, a person decides)."""
        if source is not None and source in self.auto_approve_sources:
            return f"policy:source={source}"
        wanted = set(kinds)
        if wanted and wanted <= set(self.auto_approve_kinds):
            return "policy:kind=" + ",".join(sorted(wanted))
        return None
