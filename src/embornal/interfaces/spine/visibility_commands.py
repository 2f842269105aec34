"""``memory visibility ID V``'s text: the fact's id, path and who may see it now.

The command's parser and call come from the catalogue (:mod:`.derived`); the visibility
(``shared``, ``private``, ``restricted:alice,bob``) is read by the converter of its input
type before the memory opens, so bad input is one line naming the allowed values, exit
2, and nothing is written. ``--json`` prints the fact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from embornal.domain.facts.fact import Fact
    from embornal.interfaces.cli.app import Context

__all__ = ["show_visibility"]


def show_visibility(ctx: Context, fact: Fact) -> None:
    ctx.say(f"{fact.id} {fact.path} {fact.visibility}")
