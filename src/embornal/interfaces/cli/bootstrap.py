"""The agent instructions ``embornal bootstrap`` prints, to append to AGENTS.md, and the
MCP agent guide ``embornal bootstrap --guide`` prints (AGENT_GUIDE.md)."""

from __future__ import annotations

__all__ = ["AGENT_INSTRUCTIONS", "agent_guide"]


def agent_guide() -> str:
    """The system-prompt addendum for an agent on the MCP tools: when to call each one
    (with Chinese trigger phrases), as AGENT_GUIDE.md at the top of the repository has it."""
    from importlib import resources

    path = resources.files("embornal.interfaces.cli").joinpath("agent_guide.md")
    return path.read_text(encoding="utf-8")


AGENT_INSTRUCTIONS = """\
## Memory (embornal)

You have a long-term memory on this machine: `embornal`. It is a wiki of small
facts. Each fact is one short statement stored on a path (a topic) such as
`/projects/embornal` or `/people/alice`. The memory keeps every change, so you
can always see who wrote what, when and why.

### Recall before you work

- At the start of a task, and whenever a topic comes up that you may have met
  before, recall what you know:
  `embornal memory recall WORDS` (add `--under /projects/NAME` to stay in one topic).
- Each hit counts as a recall and makes the fact stronger; facts nobody recalls
  fade. A fact's Signal (0.000–1.000) says how strong it still is.
- `embornal memory recall` with no words lists the strongest facts.
- Add `--meta` to see each fact's id, owner and tags; `--json` gives everything
  in a machine-readable form.

### Store as you learn

- Store one fact at a time, as soon as you learn something worth keeping:
  a decision, a convention, a preference, a fix that worked, a name, a command.
  `embornal memory store /projects/NAME "The build uses uv, not pip."`
- Prefer many small facts over one long note. Write each so that it makes sense
  on its own, months from now.
- Long or quoted text goes through standard input:
  `printf '%s' "$TEXT" | embornal memory store /projects/NAME -`
- Tags are `key=value`: `--tag status=draft`. The memory writes the owner of a
  fact itself; never pass an owner tag.
- Link to another topic by writing `[[/path]]` in the text.
- Set `EMBORNAL_ACTOR_KIND=assistant` in your environment, so the history shows
  that an assistant, not a person, wrote what you store.

### How paths work

- A path names one topic: `/projects/embornal`, `/people/alice`, `/tools/git`.
- Paths are lowercase; each segment starts with a letter or a digit and holds
  letters, digits, `.`, `_` and `-`.
- Look around before you store, so related facts share a path:
  `embornal memory ls /`, `embornal memory tree /projects`,
  `embornal memory cat /projects/NAME`.
- `/memory` holds the memory's own guide; `embornal memory cat /memory` reads it.

### Correct and remove

- Facts never change. To correct one, supersede it; the old one stays in the
  history: `embornal memory supersede ID "The build uses uv 0.5."`
- Find the id with `embornal memory cat PATH` or `embornal memory recall WORDS --meta`;
  a unique prefix of an id is enough.
- To remove a fact that is wrong or no longer true, forget it with a reason; it
  leaves recall but can be restored:
  `embornal memory forget ID --reason "the project moved to Rust"`
  (`embornal memory restore ID --reason ...` brings it back).
- `embornal memory purge ID --reason ... --yes` erases the content for good. Use
  it only for secrets or personal data that must not stay on disk.
- `embornal memory show ID` and `embornal memory history ID|PATH` explain a fact:
  its strength, tags, links and every event.
- A change made by mistake is undone with the event's `#` from the history; the
  undo is kept in the history too: `embornal memory undo 42 --reason "wrong fact"`.

### The MCP alternative

If your client speaks the Model Context Protocol, use the memory as an MCP server
instead of the command line: run `embornal mcp` (stdio) and call its tools
(store, recall, ls, tree, cat, show, supersede, forget, ...). The rules above
are the same.
"""
